/**
 * The columns of a list table and the user's choice of them (the 'Colunas'
 * chooser, docs/web.md "Columns"): each list names its columns in their order,
 * which are always shown, and a default choice per role. Fixed columns have a
 * width; text columns share what is left, never narrower than TEXT_MIN_WIDTH,
 * so a choice wider than the card scrolls sideways (its sticky first columns
 * stay in view) rather than squeezing every cell to an ellipsis.
 */
export interface ColumnDef<K extends string = string> {
  key: K;
  /** The header's text, also the chooser's label. */
  label: string;
  /** Width in px; none: a text column. */
  width?: number;
  /** Always shown: the chooser lists it checked and disabled. */
  fixed?: boolean;
}

/** The narrowest a text column gets before the table scrolls sideways. */
export const TEXT_MIN_WIDTH = 140;

/**
 * The chosen columns from a stored value: the known keys among `raw` (in the
 * list's order), plus the fixed ones; `defaults` when `raw` is not a list.
 */
export function readColumns<K extends string>(raw: unknown, all: readonly ColumnDef<K>[], defaults: readonly K[]): K[] {
  const wanted = Array.isArray(raw) ? raw : defaults;
  return all.filter((c) => c.fixed || wanted.includes(c.key)).map((c) => c.key);
}

/** The definitions of the chosen keys, in the list's order. */
export function shownColumns<K extends string>(all: readonly ColumnDef<K>[], chosen: readonly K[]): ColumnDef<K>[] {
  return all.filter((c) => c.fixed || chosen.includes(c.key));
}

/** The table's least width: the fixed widths plus TEXT_MIN_WIDTH per text column. */
export function tableMinWidth(columns: readonly ColumnDef[]): number {
  return columns.reduce((sum, c) => sum + (c.width ?? TEXT_MIN_WIDTH), 0);
}

import { HTMLTable, type HTMLTableProps } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { tableMinWidth, type ColumnDef } from './columns';
import { TableScroll } from './ListScreen';
import { VirtualRows } from './VirtualRows';

export interface ColumnTableProps<K extends string, T> extends Omit<HTMLTableProps, 'children' | 'style'> {
  /** The scrolling region's name ('Tabela de revendas'). */
  label: string;
  busy: boolean;
  /** The shown columns, in order (components/columns). */
  columns: readonly ColumnDef<K>[];
  /** A column's header cell (its <th>, with a key). */
  header: (column: ColumnDef<K>) => ReactNode;
  rows: readonly T[];
  /** A row's height in px before one is drawn (VirtualRows). */
  rowHeight: number;
  renderRow: (row: T, index: number) => ReactNode;
}

/**
 * A list's interactive table of chosen columns in its scrolling region: a <col>
 * per column with its width, the headers, and the rows (VirtualRows); never
 * narrower than its columns' least width, it scrolls sideways instead.
 */
export function ColumnTable<K extends string, T>(props: ColumnTableProps<K, T>) {
  const { label, busy, columns, header, rows, rowHeight, renderRow, ...table } = props;
  return (
    <TableScroll label={label} busy={busy}>
      <HTMLTable
        interactive
        {...table}
        data-columns={columns.map((c) => c.key).join(' ')}
        style={{ minWidth: tableMinWidth(columns) }}
      >
        <colgroup>
          {columns.map((c) => (
            <col key={c.key} className={`col-${c.key}`} style={c.width ? { width: c.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr>{columns.map(header)}</tr>
        </thead>
        <VirtualRows rows={rows} columns={columns.length} rowHeight={rowHeight} renderRow={renderRow} />
      </HTMLTable>
    </TableScroll>
  );
}

/** A row's cell: its content, the classes it adds to its column's, its test id. */
export interface CellSpec {
  content: ReactNode;
  /** Appended to 'col-<key>' (with its leading space: ' cell-nowrap'). */
  className?: string;
  testId?: string;
  /** The cell names itself (buttons, a status tag): no column name beside it on a phone's card. */
  bare?: boolean;
}

/** A row's <td> of a column; on a phone's card its column's name stands beside it (data-label). */
export function columnCell<K extends string>(column: ColumnDef<K>, { content, className = '', testId, bare = false }: CellSpec) {
  return (
    <td key={column.key} className={`col-${column.key}${className}`} data-label={bare ? undefined : column.label} data-testid={testId}>
      {content}
    </td>
  );
}

import { Button, Checkbox, Menu, PopoverNext } from '@blueprintjs/core';
import { ColumnLayoutIcon, ResetIcon } from '@blueprintjs/icons';
import type { ColumnDef } from './columns';
import './lists.css';

export interface ColumnChooserProps<K extends string> {
  /** Every column of the list, in its order. */
  columns: readonly ColumnDef<K>[];
  /** The keys shown. */
  chosen: readonly K[];
  /** The role's default choice ('Restaurar padrão'). */
  defaults: readonly K[];
  onChange: (chosen: K[]) => void;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((k) => b.includes(k));

/**
 * 'Colunas': a Blueprint Popover holding a checkbox per column (the fixed ones
 * checked and disabled) and 'Restaurar padrão'. Each change applies at once.
 */
export function ColumnChooser<K extends string>({ columns, chosen, defaults, onChange }: ColumnChooserProps<K>) {
  const shown = columns.filter((c) => c.fixed || chosen.includes(c.key)).map((c) => c.key);
  const standard = columns.filter((c) => c.fixed || defaults.includes(c.key)).map((c) => c.key);
  const toggle = (key: K, on: boolean) =>
    onChange(columns.filter((c) => c.fixed || (c.key === key ? on : shown.includes(c.key))).map((c) => c.key));
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu role="list" aria-label="Colunas exibidas" className="column-chooser" data-testid="column-menu">
          {columns.map((c) => (
            <li key={c.key}>
              <Checkbox
                label={c.label}
                checked={shown.includes(c.key)}
                disabled={c.fixed}
                onChange={(e) => toggle(c.key, e.currentTarget.checked)}
                data-testid={`column-${c.key}`}
              />
            </li>
          ))}
          <li className="column-chooser-reset">
            <Button
              variant="minimal"
              size="small"
              icon={<ResetIcon />}
              text="Restaurar padrão"
              disabled={sameSet(shown, standard)}
              onClick={() => onChange([...standard])}
              data-testid="columns-reset"
            />
          </li>
        </Menu>
      }
    >
      <Button icon={<ColumnLayoutIcon />} text="Colunas" data-testid="column-chooser" />
    </PopoverNext>
  );
}

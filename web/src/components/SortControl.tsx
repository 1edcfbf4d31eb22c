import { Button, HTMLSelect } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon } from '@blueprintjs/icons';
import { useId } from 'react';
import './lists.css';

export type Direction = 'asc' | 'desc';

export interface SortControlProps<F extends string> {
  /** The sortable fields and their labels, as the column headers name them. */
  fields: readonly { value: F; label: string }[];
  field: F;
  direction: Direction;
  onChange: (field: F, direction: Direction) => void;
}

/**
 * 'Ordenar por' a field, and the direction: the sort of a list whose headers
 * are out of reach (a phone's cards, a column not shown). It changes what the
 * sortable headers change.
 */
export function SortControl<F extends string>({ fields, field, direction, onChange }: SortControlProps<F>) {
  const id = useId();
  const descending = direction === 'desc';
  return (
    <div className="sort-control">
      <label htmlFor={id} className="sort-control-label">
        Ordenar por
      </label>
      <HTMLSelect
        id={id}
        value={field}
        data-testid="sort-field"
        onChange={(e) => onChange(e.currentTarget.value as F, direction)}
        options={fields.map((f) => ({ value: f.value, label: f.label }))}
      />
      <Button
        icon={descending ? <ArrowDownIcon /> : <ArrowUpIcon />}
        text={descending ? 'Decrescente' : 'Crescente'}
        aria-label={`Ordem ${descending ? 'decrescente' : 'crescente'}: inverter`}
        data-testid="sort-direction"
        onClick={() => onChange(field, descending ? 'asc' : 'desc')}
      />
    </div>
  );
}

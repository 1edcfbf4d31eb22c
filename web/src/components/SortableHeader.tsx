import { Button } from '@blueprintjs/core';
import { ArrowDownIcon, ArrowUpIcon, SortIcon } from '@blueprintjs/icons';

export interface SortableHeaderProps {
  label: string;
  /** The list's order: by this column in a direction, or by another column (null). */
  direction: 'asc' | 'desc' | null;
  onSort: () => void;
  testId: string;
  /** The button's name; 'Ordenar por <label>' when not given. */
  ariaLabel?: string;
  className?: string;
}

/**
 * A column heading that orders the list (the opportunities' and the resales'
 * tables): `aria-sort` says the order, the arrow shows it (the two-way arrow
 * when the list is ordered by another column), a click asks for another.
 */
export function SortableHeader({ label, direction, onSort, testId, ariaLabel, className }: SortableHeaderProps) {
  const icon = direction === null ? <SortIcon /> : direction === 'asc' ? <ArrowUpIcon /> : <ArrowDownIcon />;
  return (
    <th aria-sort={direction === null ? 'none' : direction === 'asc' ? 'ascending' : 'descending'} scope="col" className={className}>
      <Button
        variant="minimal"
        size="small"
        endIcon={icon}
        text={label}
        data-testid={testId}
        aria-label={ariaLabel ?? `Ordenar por ${label.toLowerCase()}`}
        onClick={onSort}
      />
    </th>
  );
}

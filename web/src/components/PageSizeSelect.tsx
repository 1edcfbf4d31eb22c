import { HTMLSelect } from '@blueprintjs/core';
import { useId } from 'react';
import './lists.css';

/** 'Todas' (spec §9). */
export const ALL_ROWS = 99999;

/** Page sizes of the opportunity and resale lists, 'Todas' last (spec §9). */
export const PAGE_SIZES_WITH_ALL: readonly number[] = [10, 25, 50, 75, 100, 1000, ALL_ROWS];
/** Page sizes of the seller and history lists: 1000 is the largest (spec §9). */
export const PAGE_SIZES: readonly number[] = [10, 25, 50, 75, 100, 1000];
export const DEFAULT_PAGE_SIZE = 10;

export const PAGE_SIZE_LABEL = 'linhas/página';

export function pageSizeLabel(size: number): string {
  return size === ALL_ROWS ? 'Todas' : String(size);
}

export interface PageSizeSelectProps {
  value: number;
  onChange: (size: number) => void;
  options?: readonly number[];
  disabled?: boolean;
}

/** Rows per page with the label 'linhas/página'. */
export function PageSizeSelect({ value, onChange, options = PAGE_SIZES_WITH_ALL, disabled }: PageSizeSelectProps) {
  const id = useId();
  return (
    <div className="page-size-select">
      <HTMLSelect
        id={id}
        value={String(value)}
        disabled={disabled}
        data-testid="page-size"
        onChange={(e) => onChange(Number(e.currentTarget.value))}
        options={options.map((size) => ({ value: String(size), label: pageSizeLabel(size) }))}
      />
      <label htmlFor={id} className="page-size-label">
        {PAGE_SIZE_LABEL}
      </label>
    </div>
  );
}

import { describe, expect, it } from 'vitest';
import { TEXT_MIN_WIDTH, readColumns, shownColumns, tableMinWidth, type ColumnDef } from './columns';

type Key = 'actions' | 'name' | 'status' | 'city' | 'seller';
const ALL: ColumnDef<Key>[] = [
  { key: 'actions', label: 'Ações', width: 80, fixed: true },
  { key: 'name', label: 'Nome', fixed: true },
  { key: 'status', label: 'Status', width: 120 },
  { key: 'city', label: 'Cidade', width: 150 },
  { key: 'seller', label: 'Vendedor' },
];

describe('columns', () => {
  it('reads a stored choice in the list order, always with the fixed columns, ignoring unknown keys', () => {
    expect(readColumns(['seller', 'bogus', 'status'], ALL, ['city'])).toEqual(['actions', 'name', 'status', 'seller']);
    expect(readColumns([], ALL, ['city'])).toEqual(['actions', 'name']);
  });

  it('falls back to the default choice when nothing usable is stored', () => {
    expect(readColumns(undefined, ALL, ['status', 'city'])).toEqual(['actions', 'name', 'status', 'city']);
    expect(readColumns('status', ALL, ['seller'])).toEqual(['actions', 'name', 'seller']);
  });

  it('sums the fixed widths and a minimum per text column', () => {
    const shown = shownColumns(ALL, ['status', 'seller']);
    expect(shown.map((c) => c.key)).toEqual(['actions', 'name', 'status', 'seller']);
    expect(tableMinWidth(shown)).toBe(80 + 120 + 2 * TEXT_MIN_WIDTH);
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { ColumnChooser } from './ColumnChooser';
import type { ColumnDef } from './columns';

type Key = 'name' | 'status' | 'city' | 'seller';
const ALL: ColumnDef<Key>[] = [
  { key: 'name', label: 'Nome', fixed: true },
  { key: 'status', label: 'Status', width: 120 },
  { key: 'city', label: 'Cidade', width: 150 },
  { key: 'seller', label: 'Vendedor' },
];

function Harness({ initial, onChange }: { initial: Key[]; onChange: (k: Key[]) => void }) {
  const [chosen, setChosen] = useState(initial);
  return (
    <ColumnChooser
      columns={ALL}
      chosen={chosen}
      defaults={['status']}
      onChange={(k) => {
        setChosen(k);
        onChange(k);
      }}
    />
  );
}

describe('ColumnChooser', () => {
  it('lists every column with a checkbox; the fixed ones cannot be unticked', async () => {
    const seen: Key[][] = [];
    render(<Harness initial={['name', 'status']} onChange={(k) => seen.push(k)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Colunas' }));
    const list = await screen.findByRole('list', { name: 'Colunas exibidas' });
    expect(list).toBeVisible();
    expect(screen.getByRole('checkbox', { name: 'Nome' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Nome' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Status' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Cidade' })).not.toBeChecked();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Vendedor' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Status' }));
    expect(seen).toEqual([
      ['name', 'status', 'seller'],
      ['name', 'seller'],
    ]);
  });

  it("'Restaurar padrão' goes back to the role's default choice", async () => {
    const seen: Key[][] = [];
    render(<Harness initial={['name', 'city']} onChange={(k) => seen.push(k)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Colunas' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Restaurar padrão' }));
    expect(seen).toEqual([['name', 'status']]);
    expect(screen.getByRole('button', { name: 'Restaurar padrão' })).toBeDisabled();
  });
});

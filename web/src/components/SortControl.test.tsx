import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SortControl } from './SortControl';

const FIELDS = [
  { value: 'createdAt', label: 'Cadastro' },
  { value: 'estimated', label: 'Valor estimado' },
] as const;

describe('SortControl', () => {
  it('picks the field and flips the direction', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<SortControl fields={FIELDS} field="createdAt" direction="desc" onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'Ordenar por' });
    expect(select).toHaveValue('createdAt');
    await userEvent.selectOptions(select, 'Valor estimado');
    expect(onChange).toHaveBeenLastCalledWith('estimated', 'desc');
    await userEvent.click(screen.getByRole('button', { name: /decrescente/i }));
    expect(onChange).toHaveBeenLastCalledWith('createdAt', 'asc');
    rerender(<SortControl fields={FIELDS} field="estimated" direction="asc" onChange={onChange} />);
    expect(screen.getByRole('button', { name: /crescente/i })).toHaveTextContent('Crescente');
  });
});

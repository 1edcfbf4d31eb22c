import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ALL_ROWS, PageSizeSelect, PAGE_SIZES } from './PageSizeSelect';

describe('PageSizeSelect', () => {
  it("offers 10, 25, 50, 75, 100, 1000 and 'Todas' (99999) under 'linhas/página'", async () => {
    const onChange = vi.fn();
    render(<PageSizeSelect value={10} onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'linhas/página' });
    const options = Array.from((select as HTMLSelectElement).options).map((o) => [o.value, o.text]);
    expect(options).toEqual([
      ['10', '10'],
      ['25', '25'],
      ['50', '50'],
      ['75', '75'],
      ['100', '100'],
      ['1000', '1000'],
      ['99999', 'Todas'],
    ]);
    await userEvent.selectOptions(select, 'Todas');
    expect(onChange).toHaveBeenCalledWith(ALL_ROWS);
  });

  it('stops at 1000 for the seller and history lists', () => {
    render(<PageSizeSelect value={25} onChange={() => {}} options={PAGE_SIZES} />);
    const select = screen.getByRole('combobox', { name: 'linhas/página' }) as HTMLSelectElement;
    expect(Array.from(select.options).map((o) => o.text)).toEqual(['10', '25', '50', '75', '100', '1000']);
    expect(select.value).toBe('25');
  });
});

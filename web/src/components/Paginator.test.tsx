import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jumpTarget, pageCount, pageWindow, Paginator } from './Paginator';

describe('pageCount', () => {
  it('divides the total by the page size, rounding up, with at least one page', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(1000, 99999)).toBe(1);
    expect(pageCount(95, 25)).toBe(4);
  });
});

describe('pageWindow', () => {
  it('shows the block of 4 pages that holds the current one', () => {
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(4, 10)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(5, 10)).toEqual([5, 6, 7, 8]);
    expect(pageWindow(9, 10)).toEqual([9, 10]);
  });

  it('never shows pages past the last one', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(2, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(7, 3)).toEqual([1, 2, 3]);
  });
});

describe('jumpTarget', () => {
  it('jumps 4 pages, kept between the first and the last page', () => {
    expect(jumpTarget(1, 10, 1)).toBe(5);
    expect(jumpTarget(8, 10, 1)).toBe(10);
    expect(jumpTarget(6, 10, -1)).toBe(2);
    expect(jumpTarget(3, 10, -1)).toBe(1);
  });
});

describe('Paginator', () => {
  const buttons = () => screen.getAllByTestId(/^page-\d+$/).map((b) => b.textContent);

  it('shows 4 page buttons, marks the current page and moves with previous/next', async () => {
    const onChange = vi.fn();
    const { rerender } = render(<Paginator page={2} pageCount={10} onChange={onChange} />);
    expect(buttons()).toEqual(['1', '2', '3', '4']);
    expect(screen.getByTestId('page-2')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('page-1')).not.toHaveAttribute('aria-current');

    await userEvent.click(screen.getByRole('button', { name: 'Próxima página' }));
    expect(onChange).toHaveBeenLastCalledWith(3);
    await userEvent.click(screen.getByRole('button', { name: 'Página anterior' }));
    expect(onChange).toHaveBeenLastCalledWith(1);
    await userEvent.click(screen.getByTestId('page-4'));
    expect(onChange).toHaveBeenLastCalledWith(4);

    rerender(<Paginator page={6} pageCount={10} onChange={onChange} />);
    expect(buttons()).toEqual(['5', '6', '7', '8']);
  });

  it('jumps by 4 both ways', async () => {
    const onChange = vi.fn();
    render(<Paginator page={6} pageCount={12} onChange={onChange} />);
    await userEvent.click(screen.getByRole('button', { name: 'Avançar 4 páginas' }));
    expect(onChange).toHaveBeenLastCalledWith(10);
    await userEvent.click(screen.getByRole('button', { name: 'Voltar 4 páginas' }));
    expect(onChange).toHaveBeenLastCalledWith(2);
  });

  it('disables going back on the first page and forward on the last', () => {
    const { rerender } = render(<Paginator page={1} pageCount={3} onChange={() => {}} />);
    expect(screen.getByTestId('page-previous')).toBeDisabled();
    expect(screen.getByTestId('page-jump-back')).toBeDisabled();
    expect(screen.getByTestId('page-next')).toBeEnabled();
    rerender(<Paginator page={3} pageCount={3} onChange={() => {}} />);
    expect(screen.getByTestId('page-next')).toBeDisabled();
    expect(screen.getByTestId('page-jump-forward')).toBeDisabled();
    expect(screen.getByTestId('page-previous')).toBeEnabled();
  });

  it('does not report a click on the current page', async () => {
    const onChange = vi.fn();
    render(<Paginator page={2} pageCount={3} onChange={onChange} />);
    await userEvent.click(screen.getByTestId('page-2'));
    expect(onChange).not.toHaveBeenCalled();
  });

  it('is reachable with the keyboard', async () => {
    const onChange = vi.fn();
    render(<Paginator page={1} pageCount={5} onChange={onChange} />);
    await userEvent.tab(); // first enabled control: page 1
    await userEvent.tab();
    expect(screen.getByTestId('page-2')).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onChange).toHaveBeenCalledWith(2);
  });
});

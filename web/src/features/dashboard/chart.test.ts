import { describe, expect, it } from 'vitest';
import { chartYMax, countText, integerTicks, monthsToDate } from './chart';

const m = (month: number, approved: number, disapproved: number) => ({ month, label: '', approved, disapproved });

describe('chartYMax', () => {
  it('is the highest month times 1.5, over both series', () => {
    expect(chartYMax([m(1, 2, 1), m(2, 4, 6), m(3, 0, 0)])).toBe(9);
    expect(chartYMax([m(1, 10, 3)])).toBe(15);
  });

  it('looks only at the series shown (tab Aprovados)', () => {
    expect(chartYMax([m(1, 2, 8), m(2, 4, 6)], ['approved'])).toBe(6);
  });

  it('keeps a range of 1 when every month is zero', () => {
    expect(chartYMax([m(1, 0, 0)])).toBe(1);
    expect(chartYMax([])).toBe(1);
  });
});

describe('integerTicks', () => {
  it('gives whole numbers from 0 up to the maximum', () => {
    expect(integerTicks(9)).toEqual([0, 2, 4, 6, 8]);
    expect(integerTicks(1.5)).toEqual([0, 1]);
    expect(integerTicks(1)).toEqual([0, 1]);
    expect(integerTicks(0.5)).toEqual([0]);
    expect(integerTicks(30)).toEqual([0, 5, 10, 15, 20, 25, 30]);
  });
});

describe('monthsToDate', () => {
  it('runs from January to the current month with pt-BR abbreviations, zero where the server sent nothing', () => {
    const months = monthsToDate([m(2, 3, 1), m(4, 1, 0)], new Date(2026, 3, 15));
    expect(months.map((x) => x.label)).toEqual(['Jan', 'Fev', 'Mar', 'Abr']);
    expect(months.map((x) => [x.approved, x.disapproved])).toEqual([
      [0, 0],
      [3, 1],
      [0, 0],
      [1, 0],
    ]);
  });

  it("follows the server's calendar, not the browser's clock, when the server sent months", () => {
    // New Year in Brazil while the browser still says December.
    expect(monthsToDate([m(1, 2, 0)], new Date(2026, 11, 31)).map((x) => x.label)).toEqual(['Jan']);
    // December 31 in Brazil while the browser is already in January.
    const twelve = Array.from({ length: 12 }, (_, i) => m(i + 1, 0, 0));
    expect(monthsToDate(twelve, new Date(2027, 0, 1))).toHaveLength(12);
  });

  it('runs to December at the end of the year', () => {
    expect(monthsToDate([], new Date(2026, 11, 31)).map((x) => x.label)).toEqual([
      'Jan', 'Fev', 'Mar', 'Abr', 'Mai', 'Jun', 'Jul', 'Ago', 'Set', 'Out', 'Nov', 'Dez',
    ]);
  });
});

describe('countText', () => {
  it('agrees in number', () => {
    expect(countText(1, 'approved')).toBe('1 aprovada');
    expect(countText(3, 'disapproved')).toBe('3 reprovadas');
    expect(countText(0, 'approved')).toBe('0 aprovadas');
  });
});

describe('round ticks', () => {
  it('ticks the axis at round values, not at max / 5 (1145 gave 229, 458, 687, 916)', () => {
    expect(integerTicks(1145)).toEqual([0, 200, 400, 600, 800, 1000]);
    expect(integerTicks(1145).every((t) => t % 100 === 0)).toBe(true);
    expect(integerTicks(45)).toEqual([0, 10, 20, 30, 40]);
    expect(integerTicks(13)).toEqual([0, 5, 10]);
    expect(integerTicks(7)).toEqual([0, 2, 4, 6]);
    expect(integerTicks(3)).toEqual([0, 1, 2, 3]);
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgeBar, ageIntent, ageText, daysInAnalysis } from './AgeBar';

const DAY = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-11-20T12:00:00Z').getTime();
const ago = (days: number) => new Date(NOW - days * DAY).toISOString();

describe('daysInAnalysis', () => {
  it('counts whole days and caps them at 60', () => {
    expect(daysInAnalysis(ago(0), NOW)).toBe(0);
    expect(daysInAnalysis(new Date(NOW - DAY + 1000).toISOString(), NOW)).toBe(0);
    expect(daysInAnalysis(ago(1), NOW)).toBe(1);
    expect(daysInAnalysis(ago(45), NOW)).toBe(45);
    expect(daysInAnalysis(ago(60), NOW)).toBe(60);
    expect(daysInAnalysis(ago(200), NOW)).toBe(60);
  });

  it('treats a future or unreadable date as today', () => {
    expect(daysInAnalysis(ago(-3), NOW)).toBe(0);
    expect(daysInAnalysis('não é data', NOW)).toBe(0);
    expect(daysInAnalysis(null, NOW)).toBe(0);
  });
});

describe('ageIntent', () => {
  it('is green up to 20 days, yellow from 21 to 40, red from 41', () => {
    expect([0, 20, 21, 40, 41, 60].map(ageIntent)).toEqual([
      'success',
      'success',
      'warning',
      'warning',
      'danger',
      'danger',
    ]);
  });
});

describe('AgeBar', () => {
  it.each([
    [5, '5 dias atrás', 'success', 8],
    [30, '30 dias atrás', 'warning', 50],
    [50, '50 dias atrás', 'danger', 83],
    [90, '60 dias atrás', 'danger', 100],
  ])('%i days: %s, %s, bar at %i%% of 60 days', (days, text, intent, percent) => {
    render(<AgeBar since={ago(days)} now={NOW} />);
    const bar = screen.getByTestId('age-bar');
    expect(bar).toHaveTextContent(text);
    expect(bar).toHaveAttribute('data-intent', intent);
    const progress = screen.getByRole('progressbar');
    expect(progress).toHaveAttribute('aria-valuenow', String(percent));
    expect(progress).toHaveClass(`bp6-intent-${intent}`);
  });

  it('says one day in the singular', () => {
    expect(ageText(1)).toBe('1 dia atrás');
    expect(ageText(0)).toBe('0 dias atrás');
  });
});

import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ProbabilityBar } from './ProbabilityBar';

describe('ProbabilityBar', () => {
  it.each([
    [25, '0% - 49%'],
    [50, '50% - 70%'],
    [75, '71% - 99%'],
    [100, '100%'],
  ])('%i fills %i%% of the bar and shows the band %s', (value, label) => {
    render(<ProbabilityBar value={value} />);
    const bar = screen.getByRole('progressbar');
    expect(bar).toHaveAttribute('aria-valuenow', String(value));
    expect(bar).toHaveAccessibleName(`Probabilidade de fechamento: ${label}`);
    expect(screen.getByTestId('probability-bar')).toHaveTextContent(label);
  });

  it.each([0, 10, 49, 99, 150, null, undefined, Number.NaN])("shows 'N/C' for %s", (value) => {
    render(<ProbabilityBar value={value} />);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.getByTestId('probability-bar')).toHaveTextContent(/^N\/C$/);
  });
});

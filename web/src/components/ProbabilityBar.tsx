import { ProgressBar } from '@blueprintjs/core';
import { isProbability, PROBABILITY_LABELS } from '@/lib/status';
import './lists.css';

/** The bar's maximum (spec §9). */
export const PROBABILITY_MAX = 100;
/** Shown for a value that is not one of the bands 25, 50, 75, 100. */
export const NOT_INFORMED = 'N/C';

export interface ProbabilityBarProps {
  value: number | null | undefined;
}

/** Probability of closing as a bar (25, 50, 75 or 100 of 100) with its band; anything else 'N/C'. */
export function ProbabilityBar({ value }: ProbabilityBarProps) {
  if (!isProbability(value)) {
    return (
      <span className="probability-bar is-empty" data-testid="probability-bar" data-value="">
        {NOT_INFORMED}
      </span>
    );
  }
  const label = PROBABILITY_LABELS[value];
  return (
    <div className="probability-bar" data-testid="probability-bar" data-value={value} title={label}>
      <ProgressBar
        value={value / PROBABILITY_MAX}
        intent="primary"
        animate={false}
        stripes={false}
        aria-label={`Probabilidade de fechamento: ${label}`}
      />
      <span className="probability-bar-text">{label}</span>
    </div>
  );
}

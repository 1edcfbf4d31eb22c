import { ProgressBar, type Intent } from '@blueprintjs/core';
import './lists.css';

/** Days in analysis are capped at 60; the bar turns yellow after 20 and red after 40 (spec §9). */
export const AGE_MAX_DAYS = 60;
export const AGE_GREEN_MAX = 20;
export const AGE_YELLOW_MAX = 40;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days since `since` (ISO), capped at 60; 0 for a future or unreadable date. */
export function daysInAnalysis(since: string | null | undefined, now = Date.now()): number {
  const at = since ? new Date(since).getTime() : NaN;
  if (!Number.isFinite(at)) return 0;
  const days = Math.floor((now - at) / DAY_MS);
  return Math.min(Math.max(days, 0), AGE_MAX_DAYS);
}

/** Green up to 20 days, yellow 21–40, red 41–60. */
export function ageIntent(days: number): Intent {
  if (days <= AGE_GREEN_MAX) return 'success';
  if (days <= AGE_YELLOW_MAX) return 'warning';
  return 'danger';
}

/** 'N dias atrás' ('1 dia atrás' for one). */
export function ageText(days: number): string {
  return days === 1 ? '1 dia atrás' : `${days} dias atrás`;
}

export interface AgeBarProps {
  /** When the opportunity was created (ISO). */
  since: string;
  now?: number;
}

/** Age of an opportunity in analysis: 'N dias atrás' over a bar whose maximum is 60 days. */
export function AgeBar({ since, now }: AgeBarProps) {
  const days = daysInAnalysis(since, now);
  const intent = ageIntent(days);
  return (
    <div className="age-bar" data-testid="age-bar" data-days={days} data-intent={intent}>
      <span className="age-bar-text">{ageText(days)}</span>
      <ProgressBar
        value={days / AGE_MAX_DAYS}
        intent={intent}
        animate={false}
        stripes={false}
        aria-label={`Em análise há ${ageText(days)}`}
      />
    </div>
  );
}

import type { MonthPoint } from './api/dashboard';
import { brasiliaParts } from '@/lib/format';

/** Month abbreviations and names in pt-BR (index 0 = January). */
export const MONTH_ABBR = ['Jan', 'Fev', 'Mar', 'Abr', 'Mai', 'Jun', 'Jul', 'Ago', 'Set', 'Out', 'Nov', 'Dez'] as const;
export const MONTH_NAMES = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
] as const;

/** The y-axis maximum is the highest monthly value times this (spec §2). */
export const Y_HEADROOM = 1.5;

export type Series = 'approved' | 'disapproved';

/** Which series each tab shows: 'Oportunidades' both, 'Aprovados' the approvals only. */
export const TAB_SERIES: Record<'opportunities' | 'approved', readonly Series[]> = {
  opportunities: ['approved', 'disapproved'],
  approved: ['approved'],
};

/**
 * The y-axis maximum: the highest monthly value of the series shown × 1.5.
 * With nothing to show (all zero) the axis still needs a range: 1.
 */
export function chartYMax(months: readonly MonthPoint[], series: readonly Series[] = ['approved', 'disapproved']): number {
  let highest = 0;
  for (const m of months) for (const s of series) highest = Math.max(highest, Number(m[s]) || 0);
  return highest > 0 ? highest * Y_HEADROOM : 1;
}

/** The smallest round step (1, 2 or 5 × 10ⁿ, at least 1) that splits `top` in at most `count` parts. */
export function roundStep(top: number, count: number): number {
  const raw = Math.max(1, top / count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * magnitude >= raw) return m * magnitude;
  return 10 * magnitude;
}

/** Round integer ticks (multiples of 1, 2 or 5 × 10ⁿ) from 0 to max, about `count` of them at most. */
export function integerTicks(max: number, count = 6): number[] {
  const top = Math.floor(max);
  if (top <= 0) return [0];
  const step = roundStep(top, count);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return ticks;
}

/**
 * The months from January to the current month, filled from what the server
 * sent (a month it left out counts zero). The current month is the server's
 * (Brazil's calendar: its last month) when it sent any, so a browser in another
 * time zone or with a wrong clock does not add or drop a month; the browser's
 * clock only when there is nothing yet.
 */
export function monthsToDate(points: readonly MonthPoint[] | null | undefined, now = new Date()): MonthPoint[] {
  const sent = (points ?? []).map((p) => Number(p.month) || 0).filter((m) => m >= 1 && m <= 12);
  const count = sent.length > 0 ? Math.max(...sent) : Number(brasiliaParts(now).month);
  const out: MonthPoint[] = [];
  for (let month = 1; month <= count; month++) {
    const p = (points ?? []).find((x) => Number(x.month) === month);
    out.push({
      month,
      label: MONTH_ABBR[month - 1],
      approved: Number(p?.approved) || 0,
      disapproved: Number(p?.disapproved) || 0,
    });
  }
  return out;
}

/** 'N aprovada(s)' / 'N reprovada(s)'. */
export function countText(n: number, series: Series): string {
  const word = series === 'approved' ? 'aprovada' : 'reprovada';
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

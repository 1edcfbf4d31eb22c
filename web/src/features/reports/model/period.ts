import { dayNumber, parseDate, todayInBrasilia, type DateParts } from '@/lib/dates';

/** The report's period: Brasília's calendar days, as the server reads them (api/reports.go). */

/** The longest period the server takes (from and to included). */
export const MAX_PERIOD_DAYS = 366;
/** The period shown first: the last 90 days, today included. */
export const DEFAULT_PERIOD_DAYS = 90;

export const MSG_PERIOD_REQUIRED = 'Informe as datas inicial e final (dd/mm/aaaa).';
export const MSG_DATE_INVALID = 'Data inválida. Digite a data como dd/mm/aaaa.';
export const MSG_PERIOD_ORDER = 'A data inicial deve ser igual ou anterior à data final.';
export const MSG_PERIOD_TOO_LONG = `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias.`;

export interface Period {
  /** yyyy-mm-dd */
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

function utc(p: DateParts): number {
  return Date.UTC(p.y, p.m - 1, p.d);
}

function partsOf(ms: number): DateParts {
  const d = new Date(ms);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}

/** yyyy-mm-dd of a day. */
export function isoDay(p: DateParts): string {
  return `${p.y}-${pad(p.m)}-${pad(p.d)}`;
}

/** dd/mm/aaaa of a yyyy-mm-dd day (the date fields' form). */
export function longDay(iso: string): string {
  const p = parseDate(iso);
  return p ? `${pad(p.d)}/${pad(p.m)}/${p.y}` : '';
}

/** The last `days` days to today in Brasília. */
export function lastDays(days: number, now: Date = new Date()): Period {
  const today = todayInBrasilia(now);
  return { from: isoDay(partsOf(utc(today) - (days - 1) * 86_400_000)), to: isoDay(today) };
}

/** From the 1st of January to today in Brasília. */
export function thisYear(now: Date = new Date()): Period {
  const today = todayInBrasilia(now);
  return { from: `${today.y}-01-01`, to: isoDay(today) };
}

/** Reads the two typed dates (dd/mm/aaaa; dd/mm/aa is read too) with the server's rules, or a pt-BR message. */
export function readPeriod(fromText: string, toText: string): { period: Period } | { error: string } {
  if (!fromText.trim() || !toText.trim()) return { error: MSG_PERIOD_REQUIRED };
  const from = parseDate(fromText);
  const to = parseDate(toText);
  if (!from || !to) return { error: MSG_DATE_INVALID };
  if (dayNumber(from) > dayNumber(to)) return { error: MSG_PERIOD_ORDER };
  if ((utc(to) - utc(from)) / 86_400_000 + 1 > MAX_PERIOD_DAYS) return { error: MSG_PERIOD_TOO_LONG };
  return { period: { from: isoDay(from), to: isoDay(to) } };
}

/** '36,5 h' (pt-BR, one decimal); '—' when there is no figure. */
export function hoursText(h: number | null | undefined): string {
  if (h === null || h === undefined || !Number.isFinite(h)) return '—';
  return `${h.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} h`;
}

/** '66,7%' of a share (0–1); '—' when there is none. */
export function percentText(r: number | null | undefined): string {
  if (r === null || r === undefined || !Number.isFinite(r)) return '—';
  return `${(r * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
}

/** A decimal amount (number or string) as a number; 0 when it is none. */
export function amount(v: number | string | null | undefined): number {
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : 0;
}

import { brasiliaParts } from './format';

/**
 * Calendar dates as the forms type them and the server reads them (spec §5):
 * dd/mm/yy, dd-mm-yy, dd/mm/yyyy, yyyy-mm-dd, in Brasília's calendar.
 */

export interface DateParts {
  y: number;
  m: number;
  d: number;
}

function realDate(y: number, m: number, d: number): DateParts | null {
  if (m < 1 || m > 12 || d < 1) return null;
  const t = new Date(Date.UTC(y, m - 1, d));
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== m - 1 || t.getUTCDate() !== d) return null;
  return { y, m, d };
}

/** Two-digit years as Go reads them: 69–99 → 19xx, 00–68 → 20xx. */
function fullYear(yy: number): number {
  return yy >= 69 ? 1900 + yy : 2000 + yy;
}

/**
 * Reads dd/mm/yy, dd-mm-yy, dd/mm/yyyy or yyyy-mm-dd (spec §5); null when the
 * text is none of them, has a zero day or month, or names no real day (31/02).
 */
export function parseDate(text: string): DateParts | null {
  const s = text.trim();
  let m = /^(\d{2})([/-])(\d{2})\2(\d{2})$/.exec(s);
  if (m) return realDate(fullYear(Number(m[4])), Number(m[3]), Number(m[1]));
  m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (m) return realDate(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) return realDate(Number(m[1]), Number(m[2]), Number(m[3]));
  return null;
}

/** Today in Brasília, the server's calendar (lib/format.ts#brasiliaParts). */
export function todayInBrasilia(now: Date = new Date()): DateParts {
  const p = brasiliaParts(now);
  return { y: Number(p.year), m: Number(p.month), d: Number(p.day) };
}

/** yyyymmdd as a number: days compare in order. */
export function dayNumber(p: DateParts): number {
  return p.y * 10000 + p.m * 100 + p.d;
}

/** yyyy-mm-dd of a date. */
export function isoDate(p: DateParts): string {
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

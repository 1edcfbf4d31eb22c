/** Display formatters shared by every screen (pt-BR, spec §9). Inputs may be raw or masked. */

/** Keeps only the digits of a value. */
export function onlyDigits(value: string | number | null | undefined): string {
  return String(value ?? '').replace(/\D/g, '');
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', minimumFractionDigits: 2 });

/** 'R$ 1.234,50' from a number or a decimal string ('1234.5'); '' when not a number. */
export function formatBRL(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
  return Number.isFinite(n) ? brl.format(n).replace(/\u00a0/g, ' ') : '';
}

/** The portal's calendar is Brasília's, whatever the browser's zone (STYLE.md §3). */
export const PORTAL_TIME_ZONE = 'America/Sao_Paulo';

const brasilia = new Intl.DateTimeFormat('pt-BR', {
  timeZone: PORTAL_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** Day, month, year, hour and minute of an instant on Brasília's clock (the one helper every date display uses). */
export function brasiliaParts(d: Date): { day: string; month: string; year: string; hour: string; minute: string } {
  const parts: Record<string, string> = {};
  for (const p of brasilia.formatToParts(d)) parts[p.type] = p.value;
  return { day: parts.day, month: parts.month, year: parts.year, hour: parts.hour, minute: parts.minute };
}

/** An ISO date (yyyy-mm-dd: a calendar day, shown as is) or date-time (an instant); null when invalid. */
function readDate(iso: string): { date: Date; dateOnly: boolean } | null {
  const dateOnly = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  // A calendar day is read at noon UTC, which is the same day in Brasília.
  const date = dateOnly ? new Date(`${iso}T12:00:00Z`) : new Date(iso);
  return Number.isNaN(date.getTime()) ? null : { date, dateOnly: !!dateOnly };
}

/** dd/mm/yyyy of an ISO date or date-time, in Brasília's calendar; '' when invalid. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const r = readDate(iso);
  if (!r) return '';
  const p = brasiliaParts(r.date);
  return `${p.day}/${p.month}/${p.year}`;
}

/** dd/mm/yy of an ISO date or date-time; '' when invalid. */
export function formatDateShort(iso: string | null | undefined): string {
  const full = formatDate(iso);
  return full ? full.slice(0, 6) + full.slice(8) : '';
}

/** dd/mm/yyyy hh:mm of an ISO date-time on Brasília's clock; '' when invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const r = readDate(iso);
  if (!r) return '';
  const p = brasiliaParts(r.date);
  return `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`;
}

/** 00.000.000/0000-00 (also for the alphanumeric CNPJ); the input unchanged when it has not 14 characters. */
export function formatCNPJ(value: string | null | undefined): string {
  const raw = String(value ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
  if (raw.length !== 14) return String(value ?? '');
  return `${raw.slice(0, 2)}.${raw.slice(2, 5)}.${raw.slice(5, 8)}/${raw.slice(8, 12)}-${raw.slice(12)}`;
}

/** (00) 00000-0000 for 11 digits, (00) 0000-0000 for 10; the input unchanged otherwise. */
export function formatPhone(value: string | number | null | undefined): string {
  const d = onlyDigits(value);
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return String(value ?? '');
}

/** 00000-000 for 8 digits; the input unchanged otherwise. */
export function formatCEP(value: string | number | null | undefined): string {
  const d = onlyDigits(value);
  return d.length === 8 ? `${d.slice(0, 5)}-${d.slice(5)}` : String(value ?? '');
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$/;

/** E-mail after trimming, with a 2–4 letter top-level domain. */
export function isValidEmail(text: string): boolean {
  return EMAIL_RE.test(text.trim());
}

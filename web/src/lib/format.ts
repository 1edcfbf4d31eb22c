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

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** dd/mm/yyyy of an ISO date or date-time (in the browser's time zone); '' when invalid. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.exec(iso);
  const d = dateOnly ? new Date(`${iso}T00:00:00`) : new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** dd/mm/yy of an ISO date or date-time; '' when invalid. */
export function formatDateShort(iso: string | null | undefined): string {
  const full = formatDate(iso);
  return full ? full.slice(0, 6) + full.slice(8) : '';
}

/** dd/mm/yyyy hh:mm of an ISO date-time; '' when invalid. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${formatDate(iso)} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
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

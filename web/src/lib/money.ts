/**
 * Money as Brazilians type it (STYLE.md §3, spec §3 "price (decimal, comma
 * accepted)"), in centavos so that no sum is off by a float.
 *
 * Accepted (each is R$ 1.234,56 unless said): `1234,56`, `1.234,56`,
 * `1 234,56` (a space or a no-break space as thousands separator), `1234.56`,
 * `1234.5` (R$ 1.234,50), `1.234` and `1 234` (thousands: R$ 1.234,00),
 * `1234`, `,5` (R$ 0,50), an optional `R$` before the number.
 *
 * Refused, with a pt-BR message, never truncated or guessed: letters or other
 * signs, a negative amount, more than two decimals (`1,234`, `1234.567`), two
 * decimal separators (`1,2,3`), thousands groups that are not of three digits
 * (`1.23,45`, `12.34`), a thousands separator after the decimal comma.
 */

export type MoneyParse =
  | { ok: true; cents: number }
  | { ok: false; empty: true }
  | { ok: false; empty: false; message: string };

export const MSG_MONEY_INVALID = 'Valor inválido. Digite o valor como 1.234,56.';
export const MSG_MONEY_DECIMALS = 'Use no máximo duas casas decimais, como em 1.234,56.';
export const MSG_MONEY_GROUPS = 'Separador de milhar fora do lugar. Digite o valor como 1.234,56.';
export const MSG_MONEY_NEGATIVE = 'O valor não pode ser negativo.';
export const MSG_MONEY_TOO_LARGE = 'Valor alto demais.';

/** The largest amount accepted: R$ 9.999.999.999,99 (the server's limit is wider). */
const MAX_CENTS = 999_999_999_999;

const fail = (message: string): MoneyParse => ({ ok: false, empty: false, message });

/** Whole part with thousands separators `sep` (each group after the first of exactly 3 digits). */
function groupedWhole(whole: string, sep: RegExp): string | null {
  const groups = whole.split(sep);
  if (groups.length === 1) return /^\d*$/.test(whole) ? whole : null;
  if (!/^\d{1,3}$/.test(groups[0]) || !groups.slice(1).every((g) => /^\d{3}$/.test(g))) return null;
  return groups.join('');
}

/** Parses a typed amount; see the module comment for what is accepted and refused. */
export function parseMoney(text: string): MoneyParse {
  let s = text.replace(/\u00a0|\u202f/g, ' ').trim();
  s = s.replace(/^R\$\s*/i, '');
  if (s === '') return { ok: false, empty: true };
  if (s.startsWith('-')) return fail(MSG_MONEY_NEGATIVE);
  if (!/^[\d., ]+$/.test(s)) return fail(MSG_MONEY_INVALID);

  let whole: string;
  let frac: string;
  const commas = s.split(',').length - 1;
  if (commas > 1) return fail(MSG_MONEY_INVALID);
  if (commas === 1) {
    // Decimal comma; dots or spaces before it group thousands.
    const [w, f] = s.split(',');
    if (/[. ]/.test(f)) return fail(MSG_MONEY_GROUPS);
    if (!/^\d*$/.test(f)) return fail(MSG_MONEY_INVALID);
    if (f.length > 2) return fail(MSG_MONEY_DECIMALS);
    if (w.includes('.') && w.includes(' ')) return fail(MSG_MONEY_GROUPS);
    const g = groupedWhole(w, /[. ]/);
    if (g === null) return fail(MSG_MONEY_GROUPS);
    whole = g;
    frac = f;
  } else {
    const dots = s.split('.').length - 1;
    const lastDot = s.lastIndexOf('.');
    const afterDot = lastDot >= 0 ? s.slice(lastDot + 1) : '';
    if (dots === 1 && !s.includes(' ') && /^\d{1,2}$/.test(afterDot)) {
      // '1234.56', '1234.5': a decimal point (a thousands group always has 3 digits).
      whole = s.slice(0, lastDot);
      frac = afterDot;
      if (!/^\d*$/.test(whole)) return fail(MSG_MONEY_INVALID);
    } else if (dots === 1 && !s.includes(' ') && /^\d{4,}$/.test(afterDot) && /^\d*$/.test(s.slice(0, lastDot))) {
      return fail(MSG_MONEY_DECIMALS);
    } else {
      if (s.includes('.') && s.includes(' ')) return fail(MSG_MONEY_GROUPS);
      const g = groupedWhole(s, /[. ]/);
      if (g === null) return fail(MSG_MONEY_GROUPS);
      whole = g;
      frac = '';
    }
  }
  if (whole === '' && frac === '') return fail(MSG_MONEY_INVALID);
  const cents = Number(whole || '0') * 100 + Number(frac.padEnd(2, '0'));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) return fail(MSG_MONEY_TOO_LARGE);
  return { ok: true, cents };
}

const plain = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** '1.234,56' (no currency sign) of an amount in centavos: what a money field shows once left. */
export function formatMoneyInput(cents: number): string {
  return plain.format(cents / 100).replace(/\u00a0/g, ' ');
}

/**
 * A price as typed, in centavos (parseMoney: '1.234,56', '1234,56',
 * '1234.56', '1 234,56', 'R$ 10'); null when empty or refused.
 */
export function parsePriceCents(text: string): number | null {
  const r = parseMoney(text);
  return r.ok ? r.cents : null;
}

/** The message of a price that was typed but cannot be read (parseMoney); null when empty or valid. */
export function priceError(text: string): string | null {
  const r = parseMoney(text);
  return !r.ok && !r.empty ? r.message : null;
}

import IMask, { type FactoryOpts } from 'imask';

/**
 * Input masks (spec §5, §9) as react-imask / imask options. Each constant is
 * created once so a masked input keeps the same options object between renders.
 */

/**
 * CNPJ: 00.000.000/0000-00, 18 characters; the first 12 characters may be
 * letters (the alphanumeric CNPJ, lib/cnpj.ts), upper-cased as typed; the two
 * check digits are digits.
 */
export const CNPJ_MASK: FactoryOpts = {
  mask: '##.###.###/####-00',
  definitions: { '#': /[0-9A-Z]/ },
  prepareChar: (ch: string) => ch.toUpperCase(),
};
export const CNPJ_MASKED_LENGTH = 18;

/**
 * Phone: (00) 0000-0000 for a landline, (00) 00000-0000 for a mobile: at most
 * 15 characters (spec §9). The spec also writes the mobile form as
 * "(XX) X XXXX-XXXX", which is 16 characters and would break its own maximum
 * of 15; we keep the maximum and the display format (00) 00000-0000.
 */
export const PHONE_MASK: FactoryOpts = {
  mask: [{ mask: '(00) 0000-0000' }, { mask: '(00) 00000-0000' }],
};
export const PHONE_MAX_LENGTH = 15;

/** Date typed with automatic slashes, dd/mm/yy: 8 characters. */
export const DATE_MASK: FactoryOpts = { mask: '00/00/00' };
export const DATE_MASKED_LENGTH = 8;
/** A day with its full year, dd/mm/aaaa: the filters and the report's period. */
export const LONG_DATE_MASK: FactoryOpts = { mask: '00/00/0000' };

/** Prices are not masked: components/MoneyInput.tsx and lib/money.ts read what Brazilians type. */

/** Quantity: whole number of units, up to 7 digits. */
export const QUANTITY_MASK: FactoryOpts = { mask: /^\d{0,7}$/ };

/** Applies a mask to a raw value, as if typed: applyMask('11222333000181', CNPJ_MASK) → '11.222.333/0001-81'. */
export function applyMask(value: string, mask: FactoryOpts): string {
  const masked = IMask.createMask(mask);
  masked.resolve(value, { input: true, raw: true });
  return masked.value;
}

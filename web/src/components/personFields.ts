import { onlyDigits, isValidEmail } from '@/lib/format';
import { isValidCnpj } from '@/lib/cnpj';

/**
 * Rules of the partner forms (spec §5 "Registration step 1", "Registration step 2",
 * "Seller record"). The mobile phone is typed in the mask (00) 00000-0000:
 * 15 characters, a 2-digit area code plus 5 digits plus 4 digits. (The spec
 * also writes it "(XX) X XXXX-XXXX", 16 characters, which breaks its own
 * 15-character maximum; the 15-character form is the one kept.)
 */

export const MSG_CHECK_NAME = 'Verifique o nome digitado';
export const MSG_CHECK_EMAIL = 'Verifique o email digitado';
export const MSG_CHECK_PHONE = 'Verifique o telefone digitado';
export const MSG_CHECK_CNPJ = 'Verifique o cnpj digitado';

/** Characters of a complete mobile phone in its mask (00) 00000-0000. */
export const MOBILE_LENGTH = 15;

const MOBILE_RE = /^\(([1-9]\d)\) \d{5}-\d{4}$/;

/** A name: not blank, at most 120 characters (the server's limit). */
export function nameError(name: string): string | null {
  const n = name.trim();
  return n === '' || n.length > 120 ? MSG_CHECK_NAME : null;
}

export function emailError(email: string): string | null {
  return isValidEmail(email) && email.trim().length <= 254 ? null : MSG_CHECK_EMAIL;
}

/** Exactly 15 characters in the mask, area code not starting with 0. */
export function mobileError(masked: string): string | null {
  return masked.length === MOBILE_LENGTH && MOBILE_RE.test(masked) ? null : MSG_CHECK_PHONE;
}

/** The CNPJ as masked (18 characters) with valid check digits. */
export function cnpjError(masked: string): string | null {
  return masked.length === 18 && isValidCnpj(masked) ? null : MSG_CHECK_CNPJ;
}

/** The three contact fields of sign-up step 1 and of a new seller. */
export interface PersonFields {
  name: string;
  email: string;
  phone: string;
}

export type PersonErrors = Partial<Record<keyof PersonFields, string>>;

/** Every failing field's message; empty when all three are valid. */
export function personErrors(f: PersonFields): PersonErrors {
  const errors: PersonErrors = {};
  const name = nameError(f.name);
  const email = emailError(f.email);
  const phone = mobileError(f.phone);
  if (name) errors.name = name;
  if (email) errors.email = email;
  if (phone) errors.phone = phone;
  return errors;
}

export function isPersonValid(f: PersonFields): boolean {
  return Object.keys(personErrors(f)).length === 0;
}

/** Digits of a masked phone, as the calls send it. */
export function phoneDigits(masked: string): string {
  return onlyDigits(masked);
}

import { isValidCnpj, normalizeCnpj } from '@/lib/cnpj';
import { dayNumber, parseDate, todayInBrasilia } from '@/lib/dates';
import { isValidEmail, onlyDigits } from '@/lib/format';
import { parsePriceCents, priceError } from '@/lib/money';
import { isProbability } from '@/lib/status';
import {
  FIELD_LABELS,
  LINE_KIND_TITLES,
  LINE_LABELS,
  PARTNER_SOFTWARE,
  lineCounts,
  mainLine,
  parseAmount,
  sellerRequired,
  type FieldKey,
  type LineKind,
  type LinePart,
  type OpportunityForm,
} from './form';
import {
  MSG_CONCLUSION_DATE,
  MSG_INVALID_CEP,
  MSG_INVALID_CNPJ,
  MSG_INVALID_EMAIL,
  MSG_INVALID_PHONE,
  MSG_REQUIRED,
  MSG_VISIT_DATE,
} from './messages';

/**
 * Rules of the new-opportunity form (spec §5 "New opportunity form"). They
 * mirror the server's (opportunity/create.go, opportunity/validate.go): same
 * labels, same messages, same date and money reading, so the client never lets
 * through what the server refuses.
 */

/** Conclusion date: required, a real date strictly after today. Null when valid. */
export function conclusionDateError(text: string, now: Date = new Date()): string | null {
  if (text.trim() === '') return MSG_REQUIRED;
  const p = parseDate(text);
  if (!p || dayNumber(p) <= dayNumber(todayInBrasilia(now))) return MSG_CONCLUSION_DATE;
  return null;
}

/** Last visit date (renewal): required, a real date today or before. Null when valid. */
export function visitDateError(text: string, now: Date = new Date()): string | null {
  if (text.trim() === '') return MSG_REQUIRED;
  const p = parseDate(text);
  if (!p || dayNumber(p) > dayNumber(todayInBrasilia(now))) return MSG_VISIT_DATE;
  return null;
}

/** CEP: 8 digits (7 with the leading zero lost), not all zeros, as the server reads it. Null when valid. */
export function cepError(text: string): string | null {
  if (text.trim() === '') return MSG_REQUIRED;
  if (!/^[\d\s.-]*$/.test(text)) return MSG_INVALID_CEP;
  const d = onlyDigits(text).padStart(8, '0');
  return onlyDigits(text).length >= 7 && d.length === 8 && d !== '00000000' ? null : MSG_INVALID_CEP;
}

/** Phone: 10 or 11 digits, not all zeros. Null when valid. */
export function phoneError(text: string): string | null {
  const d = onlyDigits(text);
  if (d === '') return MSG_REQUIRED;
  if ((d.length !== 10 && d.length !== 11) || /^0+$/.test(d)) return MSG_INVALID_PHONE;
  return null;
}

export function emailError(text: string): string | null {
  if (text.trim() === '') return MSG_REQUIRED;
  return isValidEmail(text) ? null : MSG_INVALID_EMAIL;
}

// ---- Whole form -------------------------------------------------------------------

export interface ValidationContext {
  /** The brand slug (company). */
  company: string;
  /** Whether the company lookup of the current CNPJ succeeded. */
  cnpjLookupOk: boolean;
  now?: Date;
}

export interface OpportunityValidation {
  /** Message per field that failed. */
  errors: Partial<Record<FieldKey, string>>;
  /** Messages per line key and part. */
  lineErrors: Record<string, Partial<Record<LinePart, string>>>;
  /** Labels for the 'Campos obrigatórios ausentes!' modal, in screen order. */
  missing: string[];
  valid: boolean;
}

/** Applies every rule of spec §5 "New opportunity form". */
export function validateOpportunity(form: OpportunityForm, ctx: ValidationContext): OpportunityValidation {
  const now = ctx.now ?? new Date();
  const errors: Partial<Record<FieldKey, string>> = {};
  const lineErrors: Record<string, Partial<Record<LinePart, string>>> = {};
  const missing: string[] = [];
  const fail = (key: FieldKey, message: string | null) => {
    if (message === null) return;
    errors[key] = message;
    missing.push(FIELD_LABELS[key]);
  };
  const required = (key: FieldKey, value: string) => fail(key, value.trim() === '' ? MSG_REQUIRED : null);

  // Company (CNPJ + the lookup's read-only fields).
  const cnpj = normalizeCnpj(form.cnpj);
  if (cnpj === '') fail('cnpj', MSG_REQUIRED);
  else if (!isValidCnpj(cnpj) || !ctx.cnpjLookupOk) fail('cnpj', MSG_INVALID_CNPJ);
  // The company fields are read-only, filled by the lookup: before it they are not the user's to
  // fill (the CNPJ says what is missing); after it, a field the lookup left blank is listed.
  if (ctx.cnpjLookupOk) {
    required('corporateName', form.corporateName);
    required('street', form.street);
    fail('cep', cepError(form.cep));
    required('city', form.city);
    required('state', form.state);
  }

  // Client contact.
  required('contact', form.contact);
  fail('phone', phoneError(form.phone));
  fail('email', emailError(form.email));
  required('network', form.network);

  // Project.
  required('aplication', form.aplication);
  required('specification', form.specification);
  required('homologated', form.homologated);
  required('haveCollector', form.haveCollector);
  required('partner', form.partner);
  if (form.partner === 'true') {
    required('partnerOwner', form.partnerOwner);
    if (form.partnerOwner === PARTNER_SOFTWARE) required('partnerName', form.partnerName);
  }
  required('opportunityType', form.opportunityType);
  if (form.opportunityType === 'public') required('opportunityTypeStatus', form.opportunityTypeStatus);
  fail('conclusionDate', conclusionDateError(form.conclusionDate, now));
  required('opportunityOrigin', form.opportunityOrigin);
  if (!isProbability(form.probabilityClosing)) fail('probabilityClosing', MSG_REQUIRED);

  // Main product line.
  const main = mainLine(form.lines);
  const lineFail = (part: LinePart, message: string | null) => {
    if (message === null) return;
    if (main) lineErrors[main.key] = { ...lineErrors[main.key], [part]: message };
    missing.push(LINE_LABELS[part]);
  };
  lineFail('partNumber', main && main.partNumber.trim() !== '' ? null : MSG_REQUIRED);
  lineFail('description', main && main.description.trim() !== '' ? null : MSG_REQUIRED);
  lineFail('amount', main && (parseAmount(main.amount) ?? 0) > 0 ? null : MSG_REQUIRED);
  lineFail('price', main && (parsePriceCents(main.price) ?? 0) > 0 ? null : (main && priceError(main.price)) || MSG_REQUIRED);
  // The spec requires nothing of the other lines, but a price typed there that cannot be read is
  // refused rather than counted as zero or truncated (issue 14: no digit is ever dropped silently).
  const seen: Record<LineKind, number> = { product: 0, accessory: 0, competitor: 0 };
  for (const l of form.lines) {
    seen[l.kind] += 1;
    if (l === main || !lineCounts(l)) continue;
    const message = priceError(l.price);
    if (message) {
      lineErrors[l.key] = { ...lineErrors[l.key], price: message };
      missing.push(`Preço (${LINE_KIND_TITLES[l.kind]} ${seen[l.kind]})`);
    }
  }

  if (sellerRequired(ctx.company)) required('seller', form.seller);
  if (!form.acceptedTerm) fail('acceptedTerm', MSG_REQUIRED);

  return { errors, lineErrors, missing: [...new Set(missing)], valid: missing.length === 0 };
}

import { brasiliaParts, onlyDigits } from './format';
import { isValidCnpj, normalizeCnpj } from './cnpj';
import { parseMoney } from './money';
import { DEFAULT_PROBABILITY, PROBABILITY_VALUES, isProbability } from './status';

/**
 * Rules of the opportunity forms (spec §5 "New opportunity form", "Renewal
 * modal", "Rejection", "Approval"). They mirror the server's
 * (opportunity/create.go, opportunity/validate.go): same labels, same messages,
 * same date and money reading, so the client never lets through what the
 * server refuses.
 */

// ---- Messages (spec §5) -------------------------------------------------------

export const MSG_REQUIRED = '*Campo Obrigatório';
export const MSG_INVALID_PHONE = 'Numero inválido';
/**
 * Under a filled e-mail that is not valid. The spec only says 'Email do cliente'
 * goes to the missing-fields list (it does); it names no text for the field
 * itself, and a field marked in red needs one (docs/web.md).
 */
export const MSG_INVALID_EMAIL = 'Email inválido';
export const MSG_INVALID_CNPJ = 'CNPJ inválido! Por favor digite um CNPJ válido!';
export const MSG_CONCLUSION_DATE = 'Data de conclusão deve ser uma data futura';
export const MSG_VISIT_DATE = 'Data de visita deve ser uma data passada ou a atual!';
export const MSG_NAME_REQUIRED = 'Por favor, digite um nome para a oportunidade!!';
export const MSG_INVALID_CEP = 'CEP inválido';

// ---- Wire values ----------------------------------------------------------------

/** Opportunity origins as the server takes them (spec §3). */
export const ORIGINS = [
  'Employee',
  'Partner',
  'Trade Show',
  'Email',
  'Prospect',
  'LeadGrupoArtico',
  'ResaleWebsite',
  'Other',
] as const;
export type Origin = (typeof ORIGINS)[number];

/** The software-owner option that requires a partner name. */
export const PARTNER_SOFTWARE = 'Software de Parceiros';
/** The company (brand) whose registrations need no seller; its picker is labelled 'Vendedor Prime'. */
export const NO_SELLER_COMPANY = 'yep';
export const COUNTRY = 'Brasil';

// ---- Form state ------------------------------------------------------------------

/** A yes/no answer: '' until chosen. */
export type YesNo = '' | 'true' | 'false';
/** 'Sim' / 'Não' answers (group/network, renewal questions). */
export type SimNao = '' | 'Sim' | 'Não';
export type AgencyType = '' | 'public' | 'private';

/** Product line groups (spec §3): main product, accessory, competitor. */
export type LineKind = 'product' | 'accessory' | 'competitor';

export interface ProductLineForm {
  /** Stable key of the line in the form. */
  key: string;
  kind: LineKind;
  partNumber: string;
  description: string;
  /** Whole number as typed. */
  amount: string;
  /** As typed, comma accepted ('1234,56'). */
  price: string;
}

export interface OpportunityForm {
  /** Only typed by a representative; empty → the server's default name. */
  name: string;
  cnpj: string;
  fantasyName: string;
  corporateName: string;
  street: string;
  cep: string;
  city: string;
  state: string;
  contact: string;
  phone: string;
  email: string;
  network: SimNao;
  aplication: string;
  specification: string;
  homologated: YesNo;
  haveCollector: YesNo;
  haveCollectorDescription: string;
  partner: YesNo;
  partnerOwner: string;
  partnerName: string;
  opportunityType: AgencyType;
  opportunityTypeStatus: string;
  conclusionDate: string;
  opportunityOrigin: string;
  probabilityClosing: number;
  justification: string;
  additionalInformation: string;
  lines: ProductLineForm[];
  seller: string;
  sellerSalesforceId: string;
  acceptedTerm: boolean;
}

let lineSeq = 0;

/** A new empty product line of a group. */
export function emptyLine(kind: LineKind): ProductLineForm {
  lineSeq += 1;
  return { key: `${kind}-${lineSeq}`, kind, partNumber: '', description: '', amount: '', price: '' };
}

/** The form as it opens: probability 25 (spec §9), one main product line. */
export function emptyOpportunityForm(): OpportunityForm {
  return {
    name: '',
    cnpj: '',
    fantasyName: '',
    corporateName: '',
    street: '',
    cep: '',
    city: '',
    state: '',
    contact: '',
    phone: '',
    email: '',
    network: '',
    aplication: '',
    specification: '',
    homologated: '',
    haveCollector: '',
    haveCollectorDescription: '',
    partner: '',
    partnerOwner: '',
    partnerName: '',
    opportunityType: '',
    opportunityTypeStatus: '',
    conclusionDate: '',
    opportunityOrigin: '',
    probabilityClosing: DEFAULT_PROBABILITY,
    justification: '',
    additionalInformation: '',
    lines: [emptyLine('product')],
    seller: '',
    sellerSalesforceId: '',
    acceptedTerm: false,
  };
}

/** Field keys that carry a message of their own (lines are reported per line). */
export type FieldKey = Exclude<keyof OpportunityForm, 'lines'>;

/** Labels of the form's fields, as shown on screen and in the missing-fields modal (same as the server's). */
export const FIELD_LABELS: Record<FieldKey, string> = {
  name: 'Nome da Oportunidade',
  cnpj: 'CNPJ',
  fantasyName: 'Nome fantasia',
  corporateName: 'Razão social',
  street: 'Endereço',
  cep: 'CEP',
  city: 'Cidade',
  state: 'Estado',
  contact: 'Nome do contato',
  phone: 'Telefone',
  email: 'Email do cliente',
  network: 'Faz parte de um grupo/rede?',
  aplication: 'Aplicação',
  specification: 'Especificação',
  homologated: 'Produto homologado?',
  haveCollector: 'Possui equipamento similar?',
  haveCollectorDescription: 'Qual equipamento?',
  partner: 'Possui parceiro de software?',
  partnerOwner: 'Proprietário do software',
  partnerName: 'Nome do parceiro',
  opportunityType: 'Tipo de órgão',
  opportunityTypeStatus: 'Situação do órgão público',
  conclusionDate: 'Data de conclusão',
  opportunityOrigin: 'Origem da oportunidade',
  probabilityClosing: 'Probabilidade de fechamento',
  justification: 'Justificativa',
  additionalInformation: 'Informações adicionais',
  seller: 'Vendedor',
  sellerSalesforceId: 'Vendedor',
  acceptedTerm: 'Aceite dos termos',
};

/** Labels of the main product line's required parts (same as the server's). */
export const LINE_LABELS = {
  partNumber: 'Part number do produto',
  description: 'Descrição do produto',
  amount: 'Quantidade do produto',
  price: 'Preço do produto',
} as const;
export type LinePart = keyof typeof LINE_LABELS;

/** The groups' titles (spec §2: 'Produto', 'Acessório', 'Concorrente'). */
const LINE_KIND_TITLES = { product: 'Produto', accessory: 'Acessório', competitor: 'Concorrente' } as const;

// ---- Single rules --------------------------------------------------------------

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

function dayNumber(p: DateParts): number {
  return p.y * 10000 + p.m * 100 + p.d;
}

/** yyyy-mm-dd of a date. */
export function isoDate(p: DateParts): string {
  return `${p.y}-${String(p.m).padStart(2, '0')}-${String(p.d).padStart(2, '0')}`;
}

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

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[A-Za-z]{2,4}$/;

/** E-mail after trimming, with a 2–4 letter top-level domain. */
export function isValidEmail(text: string): boolean {
  return EMAIL_RE.test(text.trim());
}

export function emailError(text: string): string | null {
  if (text.trim() === '') return MSG_REQUIRED;
  return isValidEmail(text) ? null : MSG_INVALID_EMAIL;
}

export { isValidCnpj } from './cnpj';

/**
 * A price as typed, in centavos (lib/money.ts: '1.234,56', '1234,56',
 * '1234.56', '1 234,56', 'R$ 10'); null when empty or refused.
 */
export function parsePriceCents(text: string): number | null {
  const r = parseMoney(text);
  return r.ok ? r.cents : null;
}

/** The message of a price that was typed but cannot be read (lib/money.ts); null when empty or valid. */
export function priceError(text: string): string | null {
  const r = parseMoney(text);
  return !r.ok && !r.empty ? r.message : null;
}

/** Quantity as typed; null when not a whole number. */
export function parseAmount(text: string): number | null {
  const s = text.trim();
  return /^\d+$/.test(s) ? Number(s) : null;
}

/** A line is sent (and counted) only when it has a part number or a description (spec §3). */
export function lineCounts(line: ProductLineForm): boolean {
  return line.partNumber.trim() !== '' || line.description.trim() !== '';
}

/** The estimated total in centavos: amount × price over the lines sent that are not a competitor's. */
export function estimatedTotalCents(lines: readonly ProductLineForm[]): number {
  let total = 0;
  for (const line of lines) {
    if (line.kind === 'competitor' || !lineCounts(line)) continue;
    const amount = parseAmount(line.amount) ?? 0;
    const price = parsePriceCents(line.price) ?? 0;
    total += amount * price;
  }
  return total;
}

/** The seller is required unless the company is 'yep' (spec §5). */
export function sellerRequired(company: string): boolean {
  return company.trim().toLowerCase() !== NO_SELLER_COMPANY;
}

/** Label of the seller picker: 'Vendedor Prime' for 'yep', else 'Vendedor'. */
export function sellerLabel(company: string): string {
  return sellerRequired(company) ? 'Vendedor' : 'Vendedor Prime';
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

/** The main product line the rules apply to: the first one filled, else the first one. */
export function mainLine(lines: readonly ProductLineForm[]): ProductLineForm | undefined {
  const main = lines.filter((l) => l.kind === 'product');
  return main.find(lineCounts) ?? main[0];
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

// ---- Payloads -----------------------------------------------------------------------

export interface ProductPayload {
  partNumber: string;
  description: string;
  amount: number;
  price: number;
  accessory: boolean;
  competition: boolean;
}

export interface ProjectPayload {
  aplication: string;
  specification: string;
  homologated: boolean | null;
  haveCollector: boolean | null;
  haveCollectorDescription: string;
  partner: boolean | null;
  partnerOwner: string;
  partnerName: string;
  opportunityType: string;
  opportunityTypeStatus: string;
  additionalInformation: string;
  /** ISO date on create (spec §3). */
  conclusionDate: string;
  opportunityOrigin: string;
  justification: string;
}

/** POST /opportunity/create body (spec §3 "Create-opportunity payload"). */
export interface CreateOpportunityPayload {
  name: string;
  justification: string;
  cnpj: string;
  contact: string;
  network: string;
  email: string;
  fantasyName: string;
  corporateName: string;
  street: string;
  /** Digits as a string: a number would drop a leading zero (01310-100). */
  cep: string;
  city: string;
  state: string;
  probabilityClosing: number;
  acceptedTerm: string;
  country: string;
  phone: number;
  seller: string;
  sellerSalesforceId: string;
  company: string;
  opportunityOrigin: string;
  projects: ProjectPayload[];
  products: ProductPayload[];
}

function yesNo(v: YesNo): boolean | null {
  return v === '' ? null : v === 'true';
}

/** The create payload of a valid form. */
export function buildCreatePayload(form: OpportunityForm, company: string): CreateOpportunityPayload {
  const date = parseDate(form.conclusionDate);
  const partner = form.partner === 'true';
  const project: ProjectPayload = {
    aplication: form.aplication.trim(),
    specification: form.specification.trim(),
    homologated: yesNo(form.homologated),
    haveCollector: yesNo(form.haveCollector),
    haveCollectorDescription: form.haveCollector === 'true' ? form.haveCollectorDescription.trim() : '',
    partner: yesNo(form.partner),
    partnerOwner: partner ? form.partnerOwner : '',
    partnerName: partner && form.partnerOwner === PARTNER_SOFTWARE ? form.partnerName.trim() : '',
    opportunityType: form.opportunityType,
    opportunityTypeStatus: form.opportunityType === 'public' ? form.opportunityTypeStatus : '',
    additionalInformation: form.additionalInformation.trim(),
    conclusionDate: date ? isoDate(date) : form.conclusionDate,
    opportunityOrigin: form.opportunityOrigin,
    justification: form.justification.trim(),
  };
  const products = form.lines.filter(lineCounts).map((line) => ({
    partNumber: line.partNumber.trim(),
    description: line.description.trim(),
    amount: parseAmount(line.amount) ?? 0,
    price: (parsePriceCents(line.price) ?? 0) / 100,
    accessory: line.kind === 'accessory',
    competition: line.kind === 'competitor',
  }));
  return {
    name: form.name.trim(),
    justification: form.justification.trim(),
    cnpj: normalizeCnpj(form.cnpj),
    contact: form.contact.trim(),
    network: form.network,
    email: form.email.trim(),
    fantasyName: form.fantasyName.trim() || 'N/C',
    corporateName: form.corporateName.trim(),
    street: form.street.trim(),
    cep: onlyDigits(form.cep),
    city: form.city.trim(),
    state: form.state.trim(),
    probabilityClosing: isProbability(form.probabilityClosing) ? form.probabilityClosing : DEFAULT_PROBABILITY,
    acceptedTerm: String(form.acceptedTerm),
    country: COUNTRY,
    phone: Number(onlyDigits(form.phone)),
    seller: form.seller,
    sellerSalesforceId: form.sellerSalesforceId,
    company,
    opportunityOrigin: form.opportunityOrigin,
    projects: [project],
    products,
  };
}

// ---- Renewal, refusal, approval ---------------------------------------------------------

export interface RenewalForm {
  proposalSent: SimNao;
  productHomologated: SimNao;
  nextStep: string;
  /** 0 until chosen. */
  probabilityClosing: number;
  reason: string;
  projectStillInScope: SimNao;
  lastVisitDate: string;
}

export function emptyRenewalForm(): RenewalForm {
  return {
    proposalSent: '',
    productHomologated: '',
    nextStep: '',
    probabilityClosing: 0,
    reason: '',
    projectStillInScope: '',
    lastVisitDate: '',
  };
}

export const RENEWAL_LABELS: Record<keyof RenewalForm, string> = {
  proposalSent: 'A proposta foi enviada?',
  productHomologated: 'O produto foi homologado?',
  nextStep: 'Próximo passo',
  probabilityClosing: 'Probabilidade de fechamento',
  reason: 'Motivo da solicitação de renovação',
  projectStillInScope: 'Projeto continua em pauta',
  lastVisitDate: 'Data da última visita',
};

/** Spec §5 "Renewal modal": messages per field; empty when the request may be sent. */
export function validateRenewal(form: RenewalForm, now: Date = new Date()): Partial<Record<keyof RenewalForm, string>> {
  const errors: Partial<Record<keyof RenewalForm, string>> = {};
  if (form.reason.trim() === '') errors.reason = MSG_REQUIRED;
  if (!(PROBABILITY_VALUES as readonly number[]).includes(form.probabilityClosing)) errors.probabilityClosing = MSG_REQUIRED;
  if (form.projectStillInScope !== 'Sim' && form.projectStillInScope !== 'Não') errors.projectStillInScope = MSG_REQUIRED;
  const visit = visitDateError(form.lastVisitDate, now);
  if (visit) errors.lastVisitDate = visit;
  return errors;
}

/** PATCH /opportunity/renovation/{id}/request body. */
export interface RenewalPayload {
  reason: string;
  probabilityClosing: number;
  projectStillInScope: string;
  /** As typed, dd/mm/yy (the server reads it). */
  lastVisitDate: string;
  proposalSent?: string;
  productHomologated?: string;
  nextStep?: string;
}

export function buildRenewalPayload(form: RenewalForm): RenewalPayload {
  const payload: RenewalPayload = {
    reason: form.reason.trim(),
    probabilityClosing: form.probabilityClosing,
    projectStillInScope: form.projectStillInScope,
    lastVisitDate: form.lastVisitDate.trim(),
  };
  if (form.proposalSent) payload.proposalSent = form.proposalSent;
  if (form.productHomologated) payload.productHomologated = form.productHomologated;
  if (form.nextStep.trim()) payload.nextStep = form.nextStep.trim();
  return payload;
}

/** Refusal (spec §5 "Rejection / reason"): the confirm button stays disabled while the reason is empty. */
export function canConfirmReason(reason: string): boolean {
  return reason.trim() !== '';
}

/** Approval (spec §5): the opportunity name is required. Null when it may be approved. */
export function approvalNameError(name: string): string | null {
  return name.trim() === '' ? MSG_NAME_REQUIRED : null;
}

import { normalizeCnpj } from '@/lib/cnpj';
import type { CompanyData } from '@/lib/cnpjApi';
import { isoDate, parseDate } from '@/lib/dates';
import { onlyDigits } from '@/lib/format';
import { parsePriceCents } from '@/lib/money';
import { DEFAULT_PROBABILITY, isProbability } from '@/lib/status';
import { COUNTRY, PARTNER_SOFTWARE, lineCounts, parseAmount, type OpportunityForm, type YesNo } from './form';
import type { RenewalForm } from './renewal';

/** What the opportunity forms send (spec §3 "Create-opportunity payload", the renewal request). */

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

/**
 * POST /opportunity/create body (spec §3 "Create-opportunity payload"): the company's
 * fields are the lookup's (lib/cnpjApi), but for its CEP.
 */
export interface CreateOpportunityPayload extends Omit<CompanyData, 'cep'> {
  name: string;
  justification: string;
  cnpj: string;
  contact: string;
  network: string;
  email: string;
  /** Digits as a string: a number would drop a leading zero (01310-100). */
  cep: string;
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

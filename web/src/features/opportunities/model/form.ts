import { parsePriceCents } from '@/lib/money';
import { PROJECT_LABELS } from '@/lib/projectLabels';
import { DEFAULT_PROBABILITY } from '@/lib/status';
import type { CompanyData } from '@/lib/cnpjApi';

/**
 * The new-opportunity form's model (spec §3, §5): its wire values, its state,
 * its labels (the server's) and what is read from it (lines sent, the
 * estimated total, the seller's label). The rules are in validation.ts, the
 * payloads in payload.ts.
 */

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

/** The form's company fields (fantasy name … state) are the CNPJ lookup's. */
export interface OpportunityForm extends CompanyData {
  /** Only typed by a representative; empty → the server's default name. */
  name: string;
  cnpj: string;
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
  ...PROJECT_LABELS,
  haveCollectorDescription: 'Qual equipamento?', // the question under 'Possui equipamento similar?'
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
export const LINE_KIND_TITLES = { product: 'Produto', accessory: 'Acessório', competitor: 'Concorrente' } as const;

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

/** The main product line the rules apply to: the first one filled, else the first one. */
export function mainLine(lines: readonly ProductLineForm[]): ProductLineForm | undefined {
  const main = lines.filter((l) => l.kind === 'product');
  return main.find(lineCounts) ?? main[0];
}

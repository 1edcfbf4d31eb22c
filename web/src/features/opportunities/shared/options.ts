import { ORIGINS, PARTNER_SOFTWARE, type Origin } from '../model/form';

/** Option lists of the opportunity screens (spec §3), wire value → pt-BR label. */

export interface Option<V extends string = string> {
  value: V;
  label: string;
}

/**
 * Opportunity origins. The spec lists ten screen labels for eight wire values
 * plus the empty one: 'e-mail marketing' has no wire value of its own (the
 * server refuses any value outside the eight), so it shares 'Email'.
 */
export const ORIGIN_LABELS: Record<Origin, string> = {
  Employee: 'Colaborador',
  Partner: 'Parceiro',
  'Trade Show': 'Feira/Evento',
  Email: 'E-mail / E-mail marketing',
  Prospect: 'Prospecção',
  LeadGrupoArtico: 'Lead do grupo',
  ResaleWebsite: 'Site da revenda',
  Other: 'Outro',
};

export const ORIGIN_OPTIONS: readonly Option[] = ORIGINS.map((value) => ({ value, label: ORIGIN_LABELS[value] }));

/** Label of an origin; 'N/C' when empty. */
export function originLabel(value: string | null | undefined): string {
  if (!value) return 'N/C';
  return (ORIGIN_LABELS as Record<string, string>)[value] ?? value;
}

export const YES_NO_OPTIONS: readonly Option<'true' | 'false'>[] = [
  { value: 'true', label: 'Sim' },
  { value: 'false', label: 'Não' },
];

/** Software partner: yes, or not known / not informed (spec §3). */
export const PARTNER_OPTIONS: readonly Option<'true' | 'false'>[] = [
  { value: 'true', label: 'Sim' },
  { value: 'false', label: 'Não sei / Não informado' },
];

export const SIM_NAO_OPTIONS: readonly Option<'Sim' | 'Não'>[] = [
  { value: 'Sim', label: 'Sim' },
  { value: 'Não', label: 'Não' },
];

/** Software owner: the reseller's, the customer's own, or partners' ('Software de Parceiros'). */
export const PARTNER_OWNER_OPTIONS: readonly Option[] = [
  { value: 'Software da Revenda', label: 'Software da Revenda' },
  { value: 'Software Próprio do Cliente', label: 'Software Próprio do Cliente' },
  { value: PARTNER_SOFTWARE, label: PARTNER_SOFTWARE },
];

/** Agency type: public or private ('' until chosen). */
export const AGENCY_TYPE_OPTIONS: readonly Option<'public' | 'private'>[] = [
  { value: 'public', label: 'Público' },
  { value: 'private', label: 'Privado' },
];

/** Where a public agency's purchase stands (the spec names the field only). */
export const AGENCY_STATUS_OPTIONS: readonly Option[] = [
  { value: 'Em planejamento', label: 'Em planejamento' },
  { value: 'Edital publicado', label: 'Edital publicado' },
  { value: 'Em licitação', label: 'Em licitação' },
  { value: 'Dispensa ou inexigibilidade', label: 'Dispensa ou inexigibilidade' },
  { value: 'Ata de registro de preços', label: 'Ata de registro de preços' },
];

export function agencyTypeLabel(value: string | null | undefined): string {
  if (value === 'public') return 'Público';
  if (value === 'private') return 'Privado';
  return 'N/C';
}

/** 'Sim' / 'Não' of a boolean; 'N/C' when unknown. */
export function yesNoLabel(value: boolean | null | undefined): string {
  if (value === true) return 'Sim';
  if (value === false) return 'Não';
  return 'N/C';
}

/** Section titles of the product groups (spec §2). */
export const LINE_GROUP_TITLES = {
  product: 'Produto',
  accessory: 'Acessório',
  competitor: 'Concorrente',
} as const;

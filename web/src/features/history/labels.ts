import { formatBRL, formatCEP, formatCNPJ, formatDate, formatPhone } from '@/lib/format';
import { PANEL_BASE } from '@/lib/guards';
import { PROJECT_LABELS } from '@/lib/projectLabels';
import { isProbability, PROBABILITY_LABELS, statusLabel } from '@/lib/status';

/**
 * Portuguese labels of the attributes a history logs (spec §2 "History"): the
 * ones the server writes (activities.creationChanges and the workflow's
 * changes), the rest of the opportunity (spec §3) for changes the client logs,
 * and the resale and user fields.
 */
export const ATTRIBUTE_LABELS: Record<string, string> = {
  // Opportunity, as the server logs it.
  name: 'Nome da oportunidade',
  cnpj: 'CNPJ',
  fantasyName: 'Nome fantasia',
  corporateName: 'Razão social',
  contact: 'Contato',
  email: 'E-mail',
  phone: 'Telefone',
  probabilityClosing: 'Probabilidade de fechamento',
  estimated: 'Valor estimado',
  status: 'Status',
  reason: 'Motivo',
  conflictOverridden: 'Aprovado apesar dos registros anteriores',
  conflictOverriddenBy: 'Registro posterior aprovado apesar deste',
  conflictOverrideReason: 'Motivo para aprovar apesar do conflito',
  representative: 'Representantes responsáveis',
  reassignReason: 'Motivo da redistribuição',
  // The rest of the opportunity and its project.
  network: 'Faz parte de um grupo/rede?',
  street: 'Endereço',
  state: 'Estado',
  city: 'Cidade',
  cep: 'CEP',
  country: 'País',
  seller: 'Vendedor',
  sellerSalesforceId: 'Vendedor no CRM',
  register: 'Registro',
  approveDate: 'Data de aprovação',
  validUntil: 'Válida até',
  renovationDate: 'Data de renovação',
  requestRenovationAt: 'Renovação solicitada em',
  lastVisitDate: 'Data da última visita',
  projectStillInScope: 'Projeto continua em pauta',
  proposalSent: 'Proposta enviada',
  productHomologated: 'Produto homologado',
  nextStep: 'Próximo passo',
  acceptedTerm: 'Aceite dos termos',
  justification: 'Justificativa',
  ...PROJECT_LABELS,
  additionalInformation: 'Informações adicionais',
  products: 'Produtos',
  projects: 'Projeto',
  resale: 'Revenda',
  isDeleted: 'Excluída',
  userId: 'Usuário',
  // Resale and user.
  contactName: 'Nome do contato',
  docNum: 'CNPJ',
  doc: 'Documento',
  active: 'Ativo',
  roles: 'Perfis',
  role: 'Perfil',
  brand: 'Marca',
};

/** Labels that differ on a user's or a reseller's history ('name' is not an opportunity's name there). */
const PARTNER_LABELS: Record<string, string> = { name: 'Nome' };

/** Label of an attribute in the history of a kind of record; the attribute itself when unknown. */
export function attributeLabel(attribute: string, type: HistoryType = 'Opportunities'): string {
  return (type !== 'Opportunities' ? PARTNER_LABELS[attribute] : undefined) ?? ATTRIBUTE_LABELS[attribute] ?? attribute;
}

export const ACTION_LABELS: Record<string, string> = { create: 'Criação', update: 'Atualização' };

export function actionLabel(actionType: string): string {
  return ACTION_LABELS[actionType] ?? actionType;
}

const ORIGIN_LABELS: Record<string, string> = {
  Employee: 'Colaborador',
  Partner: 'Parceiro',
  'Trade Show': 'Feira/Evento',
  Email: 'E-mail',
  Prospect: 'Prospecção',
  LeadGrupoArtico: 'Lead do grupo',
  ResaleWebsite: 'Site da revenda',
  Other: 'Outro',
};

const TYPE_LABELS: Record<string, string> = { public: 'Público', private: 'Privado' };

const DATE_ATTRIBUTES = new Set([
  'approveDate',
  'validUntil',
  'renovationDate',
  'requestRenovationAt',
  'lastVisitDate',
  'conclusionDate',
]);

/** Shown for an empty old or new value. */
export const EMPTY_VALUE = '—';

/** A logged value as the screen shows it: labels for statuses, bands, origins; R$; masks; dates; Sim/Não. */
export function formatValue(attribute: string, value: string | null | undefined): string {
  const raw = value === null || value === undefined ? '' : String(value).trim();
  if (raw === '') return EMPTY_VALUE;
  switch (attribute) {
    case 'status':
      return statusLabel(raw);
    case 'probabilityClosing': {
      const n = Number(raw);
      return isProbability(n) ? PROBABILITY_LABELS[n] : raw;
    }
    case 'estimated':
      return formatBRL(raw) || raw;
    case 'cnpj':
    case 'docNum':
      return formatCNPJ(raw);
    case 'phone':
      return formatPhone(raw);
    case 'cep':
      return formatCEP(raw);
    case 'opportunityOrigin':
      return ORIGIN_LABELS[raw] ?? raw;
    case 'opportunityType':
      return TYPE_LABELS[raw] ?? raw;
  }
  if (DATE_ATTRIBUTES.has(attribute)) return formatDate(raw) || raw;
  if (raw === 'true') return 'Sim';
  if (raw === 'false') return 'Não';
  return raw;
}

/** The record kinds a history belongs to: `type` of the route, and where 'Voltar' leads. */
export const HISTORY_TYPES = {
  Opportunities: { back: `${PANEL_BASE}/Opportunities`, label: 'Oportunidade' },
  Users: { back: `${PANEL_BASE}/Users`, label: 'Usuário' },
  Resales: { back: `${PANEL_BASE}/Resales`, label: 'Revenda' },
} as const;
export type HistoryType = keyof typeof HISTORY_TYPES;

/** The `type` query parameter read case-insensitively; Opportunities when missing or unknown. */
export function historyType(raw: string | null): HistoryType {
  const wanted = (raw ?? '').trim().toLowerCase();
  const found = (Object.keys(HISTORY_TYPES) as HistoryType[]).find((t) => t.toLowerCase() === wanted);
  return found ?? 'Opportunities';
}

/** Opportunity statuses, their labels and the probability bands (spec §3, §4, §9). */

/** Wire values, in the order the spec lists them. */
export const OPPORTUNITY_STATUSES = [
  'analysis',
  'approved',
  'disapproved',
  'renovation',
  'awaiting_renovation',
  'expired',
] as const;
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];

export function isOpportunityStatus(value: unknown): value is OpportunityStatus {
  return typeof value === 'string' && (OPPORTUNITY_STATUSES as readonly string[]).includes(value);
}

/** Labels shown for a status (spec §4). */
export const STATUS_LABELS: Record<OpportunityStatus, string> = {
  analysis: 'Em Análise',
  approved: 'Aprovado',
  disapproved: 'Reprovado',
  renovation: 'Renovação',
  awaiting_renovation: 'Aguardando Renovação',
  expired: 'Expirado',
};

/** Labels of the list's status filter tabs (spec §4), in the spec's order. */
export const STATUS_FILTER_LABELS: Record<OpportunityStatus, string> = {
  approved: 'Aprovados',
  analysis: 'Análise',
  disapproved: 'Reprovados',
  expired: 'Expirados',
  awaiting_renovation: 'Aguardando renovação',
  renovation: 'Renovação',
};

/** The filter tabs in display order (the spec's order of the tab labels). */
export const STATUS_FILTER_ORDER: readonly OpportunityStatus[] = [
  'approved',
  'analysis',
  'disapproved',
  'expired',
  'awaiting_renovation',
  'renovation',
];

/** Label of a status value; the raw value when unknown. */
export function statusLabel(value: string | null | undefined): string {
  return isOpportunityStatus(value) ? STATUS_LABELS[value] : String(value ?? '');
}

/** Blueprint intent of a status tag. */
export function statusIntent(value: string | null | undefined): 'success' | 'danger' | 'warning' | 'primary' | 'none' {
  switch (value) {
    case 'approved':
      return 'success';
    case 'disapproved':
      return 'danger';
    case 'awaiting_renovation':
    case 'renovation':
      return 'warning';
    case 'analysis':
      return 'primary';
    default:
      return 'none';
  }
}

/**
 * The colours of a status, the same for every brand (a status never takes the
 * brand's colours: 'Em Análise' is one blue on the card, the badge and the
 * list of every portal): `solid` carries white text (the details' badge, the
 * dashboard card's stripe), `fg` on `tint` the minimal badges. Each pair meets
 * AA (4.5:1); lib/brandTheme.ts writes them as --status-<tone>-* variables.
 */
export type StatusTone = 'analysis' | 'approved' | 'disapproved' | 'renewal' | 'expired';

export const STATUS_PALETTE: Record<StatusTone, { solid: string; fg: string; tint: string }> = {
  analysis: { solid: '#215db0', fg: '#1a4f96', tint: '#e5edf8' },
  approved: { solid: '#1c6e42', fg: '#1c6e42', tint: '#e3f1e8' },
  disapproved: { solid: '#ac2f33', fg: '#ac2f33', tint: '#fbe7e7' },
  renewal: { solid: '#935610', fg: '#8a500e', tint: '#fcefdc' },
  expired: { solid: '#5f6b7c', fg: '#404854', tint: '#edeff2' },
};

/** The tone of a status value (renewals share one); undefined when unknown. */
export function statusTone(value: string | null | undefined): StatusTone | undefined {
  switch (value) {
    case 'analysis':
    case 'approved':
    case 'disapproved':
    case 'expired':
      return value;
    case 'renovation':
    case 'awaiting_renovation':
      return 'renewal';
    default:
      return undefined;
  }
}

/** The class of a status badge (styles/brand.css `.status-tag`): its palette, not the brand's. */
export function statusClass(value: string | null | undefined): string {
  const tone = statusTone(value);
  return tone ? `status-tag status-${tone}` : 'status-tag';
}

/** The palette as CSS variables: --status-<tone>-solid, -fg, -tint. */
export function statusVariables(): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [tone, p] of Object.entries(STATUS_PALETTE)) {
    vars[`--status-${tone}-solid`] = p.solid;
    vars[`--status-${tone}-fg`] = p.fg;
    vars[`--status-${tone}-tint`] = p.tint;
  }
  return vars;
}

/** Probability-of-closing bands (spec §3, §9). */
export const PROBABILITY_VALUES = [25, 50, 75, 100] as const;
export type Probability = (typeof PROBABILITY_VALUES)[number];

export const PROBABILITY_LABELS: Record<Probability, string> = {
  25: '0% - 49%',
  50: '50% - 70%',
  75: '71% - 99%',
  100: '100%',
};

/** Default probability of a new opportunity (spec §9). */
export const DEFAULT_PROBABILITY: Probability = 25;

export function isProbability(value: unknown): value is Probability {
  return typeof value === 'number' && (PROBABILITY_VALUES as readonly number[]).includes(value);
}

// ---- Resale (company) statuses (spec §4 "Resale status") ----------------------------

export const RESALE_STATUSES = ['analysis', 'approved', 'disapproved'] as const;
export type ResaleStatus = (typeof RESALE_STATUSES)[number];

export function isResaleStatus(value: unknown): value is ResaleStatus {
  return typeof value === 'string' && (RESALE_STATUSES as readonly string[]).includes(value);
}

/** Labels of the statuses (the opportunity enumeration's, spec §4). */
export const RESALE_STATUS_LABELS: Record<ResaleStatus, string> = {
  analysis: 'Em Análise',
  approved: 'Aprovado',
  disapproved: 'Reprovado',
};

export function resaleStatusLabel(value: string | null | undefined): string {
  return isResaleStatus(value) ? RESALE_STATUS_LABELS[value] : String(value ?? '');
}

export function resaleStatusIntent(value: string | null | undefined): 'success' | 'danger' | 'primary' | 'none' {
  switch (value) {
    case 'approved':
      return 'success';
    case 'disapproved':
      return 'danger';
    case 'analysis':
      return 'primary';
    default:
      return 'none';
  }
}

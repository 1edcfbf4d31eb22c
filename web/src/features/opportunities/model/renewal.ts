import { PROBABILITY_VALUES } from '@/lib/status';
import type { SimNao } from './form';
import { MSG_NAME_REQUIRED, MSG_REQUIRED } from './messages';
import { visitDateError } from './validation';

/** The renewal dialog's model and rules (spec §5 "Renewal modal"), and the approval's (spec §5 "Approval"). */

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

/** Approval (spec §5): the opportunity name is required. Null when it may be approved. */
export function approvalNameError(name: string): string | null {
  return name.trim() === '' ? MSG_NAME_REQUIRED : null;
}

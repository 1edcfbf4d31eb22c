import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getCompany, request } from '@/lib/http';
import type { ResaleStatus } from '@/lib/status';

/** Reseller companies (spec §3 "Resale", §4 "Resale status", §7, §8; docs/api.md). */

/** A company as GET /resale/all and GET /resale/{id} answer it. */
export interface Resale {
  id: string;
  status: ResaleStatus | string;
  corporateName: string;
  fantasyName: string;
  /** Digits. */
  cnpj: string;
  phone: string;
  contactName: string;
  email: string;
  cep: string;
  city: string;
  street: string;
  state: string;
  reason: string;
  createdAt: string;
}

/** Sort of the list by sign-up time: -1 newest first (default), 1 oldest first (spec §9). */
export type ResaleSort = -1 | 1;

export interface ResaleListQuery {
  amount: number;
  /** From 1. */
  page: number;
  status: ResaleStatus[];
  /** dd/mm/yyyy, or '' for any day. */
  date: string;
  createdAt: ResaleSort;
}

/** The query string of GET /resale/all (empty filters are left out). */
export function resaleListParams(q: ResaleListQuery, brand = getCompany()): Record<string, string | number> {
  const params: Record<string, string | number> = { amount: q.amount, page: q.page, brand, createdAt: q.createdAt };
  if (q.status.length > 0) params.status = q.status.join(',');
  if (q.date) params.date = q.date;
  return params;
}

/** GET /api/resale/all (REPRESENTATIVE, SUPPORT): the brand's companies. */
export function listResales(q: ResaleListQuery, signal?: AbortSignal) {
  return request<{ result: Resale[]; total: number }>('api', '/resale/all', { query: resaleListParams(q), signal });
}

/** GET /api/resale/{id}: one company of the brand. */
export function getResale(id: string, signal?: AbortSignal) {
  return request<{ data: Resale }>('api', `/resale/${encodeURIComponent(id)}`, { signal });
}

export const MSG_RESALE_APPROVED = 'Revenda aprovada com sucesso';
export const MSG_RESALE_DISAPPROVED = 'Revenda reprovada com sucesso';
/** The generic error modal's text for a failed decision (spec §8 "Resale approve/reject"). */
/** The longest refusal reason the server takes, in characters (api.MaxResaleReason). */
export const MAX_RESALE_REASON = 2000;
export const MSG_RESALE_DECISION_ERROR = 'Houve um erro. Tente novamente mais tarde!';

export type ResaleDecision = { status: 'approved' } | { status: 'disapproved'; reason: string };

/**
 * PATCH /api/resale/update/{id}: {status, reason, host}. The host names the
 * portal the approval e-mail's link points at (the server only accepts the
 * brand's own hosts).
 */
export function decideResale(id: string, decision: ResaleDecision, host = window.location.host) {
  const reason = decision.status === 'disapproved' ? decision.reason.trim() : '';
  return request<{ message?: string }>('api', `/resale/update/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { status: decision.status, reason, host },
  });
}

/** Whether a decision answer is the expected success: approval 201, rejection 200 (spec §4). */
export function decisionSucceeded(decision: ResaleDecision['status'], status: number): boolean {
  return decision === 'approved' ? status === 201 || status === 200 : status === 200;
}

/**
 * The values the details screen shows, named as the spec's query string names
 * them (§2 "Resale details"): docNum is the CNPJ and name the contact's name.
 */
export interface ResaleDetails {
  id: string;
  status: string;
  docNum: string;
  corporateName: string;
  fantasyName: string;
  name: string;
  email: string;
  phone: string;
  cep: string;
  city: string;
  state: string;
  street: string;
  reason: string;
}

export function toDetails(r: Resale): ResaleDetails {
  return {
    id: r.id,
    status: r.status,
    docNum: r.cnpj,
    corporateName: r.corporateName,
    fantasyName: r.fantasyName,
    name: r.contactName,
    email: r.email,
    phone: r.phone,
    cep: r.cep,
    city: r.city,
    state: r.state,
    street: r.street,
    reason: r.reason ?? '',
  };
}

/** A decision on a company as a mutation; one that took marks the cached lists stale. */
export function useDecideResale() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ResaleDecision }) => decideResale(id, decision),
    onSuccess: (res, { decision }) => {
      if (decisionSucceeded(decision.status, res.status)) void client.invalidateQueries({ queryKey: ['list'] });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { newIdempotencyKey, request, type HttpResponse } from '@/lib/http';
import type { CreateOpportunityPayload, ProductPayload, ProjectPayload, RenewalPayload } from '../model/payload';

/**
 * Typed calls of the main API for one opportunity (docs/api.md) and the
 * messages of spec §8 for their outcomes.
 */

/** A record's project fields: as the create form sent them. */
export type ProjectRecord = ProjectPayload;

/** A record's product line: as the create form sent it. */
export type ProductRecord = ProductPayload;

/** GET /opportunity/id/{id} record (docs/api.md "Record"). */
export interface OpportunityRecord {
  id: string;
  brandId: string;
  status: string;
  name: string;
  cnpj: string;
  contact: string;
  phone: string;
  email: string;
  network: string;
  fantasyName: string;
  corporateName: string;
  street: string;
  state: string;
  city: string;
  cep: string;
  country: string;
  probabilityClosing: number;
  seller: string;
  sellerSalesforceId: string;
  estimated: number;
  register: string;
  reason: string;
  acceptedTerm: boolean;
  approveDate: string | null;
  validUntil: string | null;
  renovationDate: string | null;
  requestRenovationAt: string | null;
  lastVisitDate: string;
  projectStillInScope: string;
  /** The renewal dialog's other answers (the last request). */
  proposalSent?: string;
  productHomologated?: string;
  nextStep?: string;
  userId: string;
  userName: string;
  /** Representatives only. */
  userEmail?: string;
  resaleId: string;
  resale: string;
  /** The other open registrations of the same customer at the brand (representative and support; empty for partners). */
  conflicts?: ConflictRecord[] | null;
  /** Whether there are other open registrations of the same customer (every role). */
  hasConflicts?: boolean;
  /** The responsible representatives (docs/deal-desk.md "Routing"); empty: every representative of the brand. */
  representative?: { id: string; name: string; email: string }[] | null;
  createdAt: string;
  projects: ProjectRecord[] | null;
  products: ProductRecord[] | null;
}

/** Why another registration is of the same customer (docs/deal-desk.md, "Conflicts"). */
export type ConflictKind = 'cnpj' | 'cnpj_root' | 'name';

/** Another open registration of the same customer, as staff see it. */
export interface ConflictRecord {
  id: string;
  kind: ConflictKind;
  cnpj: string;
  corporateName: string;
  resale: string;
  status: string;
  createdAt: string;
  approveDate: string | null;
  estimated: number;
  products: { partNumber: string; description: string; amount: number }[] | null;
}

/** The code of the 409 an earlier registration of the same customer answers to an approval. */
export const CODE_REGISTRATION_CONFLICT = 'REGISTRATION_CONFLICT';

/** Whether a failed approval was held back by an earlier registration (it may be overridden with a reason). */
export function isRegistrationConflict(res: HttpResponse<unknown>): boolean {
  const body = res.body as { code?: string } | null;
  return res.status === 409 && body?.code === CODE_REGISTRATION_CONFLICT;
}

/** Seller-picker entry (spec §3). */
export interface CrmSeller {
  name: string;
  user_id: string;
  company: string;
}

// ---- Messages (spec §8) ----------------------------------------------------------

export const MSG_CREATED = 'Oportunidade cadastrada com sucesso';
export const MSG_SESSION_ENDED = 'Sua sessão encerrou';
export const MSG_CRM_LOCKED =
  'A oportunidade já existe no CRM, não pode ser alterada. Por favor, agurade a renovação da oportunidade para atualiza-la no CRM.';
export const MSG_CREATE_FAILED = 'Erro ao cadastrar a oportunidade';
export const MSG_APPROVED = 'Oportunidade aprovada com sucesso';
export const MSG_CRM_CUSTOMER =
  'Ops! Algo deu errado ao buscar os dados do cliente Salesforce. Por favor, confira o cadastro no Salesforce e tente novamente.';
export const MSG_CRM_COMMUNICATION =
  'Ops! Ocorreu um erro ao tentar se comunicar com o Salesforce. Por favor, tente novamente em instantes.';
export const MSG_APPROVE_FAILED =
  'Houve um problema de conexão ao aprovar essa oportunidade. Por favor, tente novamente mais tarde!';
export const MSG_REFUSED = 'Oportunidade reprovada com sucesso';
export const MSG_REFUSE_FAILED =
  'Houve um problema de conexão ao reprovar essa oportunidade. Por favor, tente novamente mais tarde!';
export const MSG_UPDATED = 'Oportunidade atualizada com sucesso';
export const MSG_UPDATE_FAILED = 'Erro ao atualizar a oportunidade';
export const MSG_RENEWAL_REQUESTED = 'Renovação solicitada com sucesso';
export const MSG_RENEWAL_REQUEST_FAILED = 'Erro ao solicitar a renovação da oportunidade';
export const MSG_RENEWAL_APPROVED = 'Renovação aprovada com sucesso';
export const MSG_RENEWAL_REFUSED = 'Renovação reprovada com sucesso';
export const MSG_RENEWAL_DECISION_FAILED = 'Erro ao aprovar/reprovar a renovação da oportunidade';
export const MSG_SELLERS_FAILED = 'Não foi possivel recuperar os vendedores no Salesforce';
/** Spec §8 for a list or detail failure (not the login's 'Houve um erro. Tente mais tarde!'). */
export const MSG_GENERIC = 'Houve um erro. Tente novamente mais tarde!';

/** CRM error codes the API answers (docs/api.md). */
export const CODE_CUSTOMER_NOT_FOUND = 'CUSTOMER_NOT_FOUND';
export const CODE_CRM_COMMUNICATION = 'CRM_COMMUNICATION_ERROR';

// ---- Calls -------------------------------------------------------------------------

/** POST /opportunity/create with an Idempotency-Key: a retry with the same key registers once. */
export function createOpportunity(payload: CreateOpportunityPayload, idempotencyKey: string) {
  return request<{ message: string; data: OpportunityRecord }>('api', '/opportunity/create', {
    method: 'POST',
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** GET /opportunity/id/{id}; the record is data.data[0]. */
export async function getOpportunity(
  id: string,
  signal?: AbortSignal,
): Promise<HttpResponse<{ data: OpportunityRecord[] }> & { record?: OpportunityRecord }> {
  const res = await request<{ data: OpportunityRecord[] }>('api', `/opportunity/id/${encodeURIComponent(id)}`, { signal });
  const record = res.ok ? res.data?.data?.[0] : undefined;
  return { ...res, record };
}

type Answer = { message: string; data: OpportunityRecord };

/**
 * A decision's headers: a fresh Idempotency-Key per decision, so the one retry
 * the transport makes after refreshing the session returns the first outcome
 * instead of acting twice (the server turns it into the workflow's update id).
 */
function decisionHeaders(): Record<string, string> {
  return { 'Idempotency-Key': newIdempotencyKey() };
}

/** PATCH /opportunity/{id} approving: status, name and probability. */
export function approveOpportunity(id: string, name: string, probabilityClosing: number, overrideReason?: string) {
  const body: Record<string, unknown> = { status: 'approved', name: name.trim(), probabilityClosing };
  if (overrideReason !== undefined) body.overrideReason = overrideReason.trim();
  return request<Answer>('api', `/opportunity/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body,
    headers: decisionHeaders(),
  });
}

/** PATCH /opportunity/{id} refusing with a reason. */
export function refuseOpportunity(id: string, reason: string) {
  return request<Answer>('api', `/opportunity/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { status: 'disapproved', reason: reason.trim() },
    headers: decisionHeaders(),
  });
}

/** PATCH /opportunity/{id} without a status: edits the name and the probability. */
export function updateOpportunity(id: string, name: string, probabilityClosing: number) {
  return request<Answer>('api', `/opportunity/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: { name: name.trim(), probabilityClosing },
    headers: decisionHeaders(),
  });
}

/** PATCH /opportunity: the probability-only update. */
export function updateProbability(id: string, probabilityClosing: number) {
  return request<Answer>('api', '/opportunity', { method: 'PATCH', body: { id, probabilityClosing }, headers: decisionHeaders() });
}

/** PATCH /opportunity/renovation/{id}/request (RESALE, SELLER). */
export function requestRenewal(id: string, payload: RenewalPayload) {
  return request<Answer>('api', `/opportunity/renovation/${encodeURIComponent(id)}/request`, {
    method: 'PATCH',
    body: payload,
    headers: decisionHeaders(),
  });
}

/** PATCH /opportunity/renovation/{id} (REPRESENTATIVE): status approved or disapproved (with a reason). */
export function decideRenewal(
  id: string,
  decision: { approve: boolean; reason?: string; name?: string; probabilityClosing?: number },
) {
  const body: Record<string, unknown> = { status: decision.approve ? 'approved' : 'disapproved' };
  if (!decision.approve) body.reason = (decision.reason ?? '').trim();
  if (decision.name !== undefined) body.name = decision.name;
  if (decision.probabilityClosing !== undefined) body.probabilityClosing = decision.probabilityClosing;
  return request<Answer>('api', `/opportunity/renovation/${encodeURIComponent(id)}`, { method: 'PATCH', body, headers: decisionHeaders() });
}

/** GET /opportunity/getSellersOnSalesforce: the CRM's sellers (a JSON array). */
export async function getCrmSellers(): Promise<{ ok: true; sellers: CrmSeller[] } | { ok: false; status: number }> {
  const res = await request<CrmSeller[] | { data?: CrmSeller[] }>('api', '/opportunity/getSellersOnSalesforce');
  if (!res.ok) return { ok: false, status: res.status };
  const raw = Array.isArray(res.data) ? res.data : (res.data?.data ?? []);
  return { ok: true, sellers: raw.filter((s) => s && typeof s.name === 'string') };
}

// ---- Outcomes -----------------------------------------------------------------------

function bodyCode(res: HttpResponse<unknown>): string {
  const body = res.body;
  if (body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'string') {
    return (body as { code: string }).code;
  }
  return '';
}

/**
 * Whether the failure is the CRM's: the customer is missing (422
 * CUSTOMER_NOT_FOUND) or it could not be reached (CRM_COMMUNICATION_ERROR, a
 * 502 that the transport reports as 500). Returns the spec §8 text or null.
 */
export function crmFailureMessage(res: HttpResponse<unknown>): string | null {
  const code = bodyCode(res);
  const message = res.message ?? '';
  if (code === CODE_CUSTOMER_NOT_FOUND || message.includes(CODE_CUSTOMER_NOT_FOUND)) return MSG_CRM_CUSTOMER;
  if (code === CODE_CRM_COMMUNICATION || message.includes(CODE_CRM_COMMUNICATION)) return MSG_CRM_COMMUNICATION;
  return null;
}

/** Create (spec §8): null on success (200), else what to tell. 401 is the session's end. */
export function createFailureMessage(res: HttpResponse<unknown>): string | null {
  if (res.ok) return null;
  if (res.status === 401) return MSG_SESSION_ENDED;
  if (res.status === 423) return MSG_CRM_LOCKED;
  return MSG_CREATE_FAILED;
}

/**
 * Approve (spec §8): 423 the server's message; the CRM's customer-not-found and
 * communication texts; other 4xx the connection text; a 5xx the server's
 * message (or the generic one).
 */
export function approveFailureMessage(res: HttpResponse<unknown>): string | null {
  if (res.ok) return null;
  if (res.status === 423) return res.message || MSG_CRM_LOCKED;
  if (isRegistrationConflict(res) && res.message) return res.message;
  const crm = crmFailureMessage(res);
  if (crm) return crm;
  if (res.status >= 400 && res.status < 500) return MSG_APPROVE_FAILED;
  return res.message || MSG_GENERIC;
}

/** Refuse (spec §8): 4xx the connection text; a 5xx the server's message. */
export function refuseFailureMessage(res: HttpResponse<unknown>): string | null {
  if (res.ok) return null;
  if (res.status >= 400 && res.status < 500) return MSG_REFUSE_FAILED;
  return res.message || MSG_GENERIC;
}

/** Update (spec §8): 'Erro ao atualizar a oportunidade'; a 423 keeps the server's CRM text. */
export function updateFailureMessage(res: HttpResponse<unknown>): string | null {
  if (res.ok) return null;
  if (res.status === 423) return res.message || MSG_CRM_LOCKED;
  return MSG_UPDATE_FAILED;
}

/** Renewal request (spec §8). */
export function renewalRequestFailureMessage(res: HttpResponse<unknown>): string | null {
  return res.ok ? null : MSG_RENEWAL_REQUEST_FAILED;
}

/** Renewal decision (spec §8); an approval the CRM refused says why, like an approval. */
export function renewalDecisionFailureMessage(res: HttpResponse<unknown>): string | null {
  if (res.ok) return null;
  if (res.status === 423) return res.message || MSG_CRM_LOCKED;
  return crmFailureMessage(res) ?? MSG_RENEWAL_DECISION_FAILED;
}

/** A registration (POST /opportunity/create) as a mutation; once created, the cached lists are stale. */
export function useCreateOpportunity() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ payload, idempotencyKey }: { payload: CreateOpportunityPayload; idempotencyKey: string }) =>
      createOpportunity(payload, idempotencyKey),
    onSuccess: (res) => {
      if (res.ok) void client.invalidateQueries({ queryKey: ['list'] });
    },
  });
}

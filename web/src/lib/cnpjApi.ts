import { normalizeCnpj } from './cnpj';
import { formatCEP } from './format';
import { request, type HttpResponse } from './http';

/** Company lookup by CNPJ (spec §7 `GET /cnpj/{digits}`, §8 "Company lookup"). */

/** What the service answers (spec §3 "Company lookup result"). */
export interface CnpjLookupResult {
  nome_fantasia?: string | null;
  razao_social?: string | null;
  rua?: string | null;
  cep?: string | null;
  cidade?: string | null;
  estado?: string | null;
}

/** The company fields of the forms, filled from a lookup. */
export interface CompanyData {
  /** 'N/C' when the lookup has no trade name (spec §5). */
  fantasyName: string;
  corporateName: string;
  street: string;
  /** 00000-000. */
  cep: string;
  city: string;
  state: string;
}

export const MSG_CNPJ_RATE_LIMIT = 'É permitido somente 3 consultas por minuto';
export const MSG_CNPJ_INVALID = 'CNPJ inválido! Por favor digite um CNPJ válido!';
export const MSG_CNPJ_FAILED = 'CNPJ inválido';

export type CnpjLookup =
  | { ok: true; company: CompanyData }
  | { ok: false; reason: 'rate-limit' | 'invalid' | 'failed'; message: string };

/** Maps the service's answer to the form's company fields. */
export function toCompanyData(r: CnpjLookupResult): CompanyData {
  const text = (v: string | null | undefined) => String(v ?? '').trim();
  return {
    fantasyName: text(r.nome_fantasia) || 'N/C',
    corporateName: text(r.razao_social),
    street: text(r.rua),
    cep: formatCEP(text(r.cep)),
    city: text(r.cidade),
    state: text(r.estado),
  };
}

/**
 * The outcome of a lookup response: 429, 404/400 and other failures have their own messages.
 * A 429 shows the server's message when it sends one: the caller's own limit is the spec's
 * text, and a registry provider that asked to wait is named with the seconds of its Retry-After.
 */
export function lookupOutcome(res: HttpResponse<CnpjLookupResult>): CnpjLookup {
  if (res.ok && res.data) return { ok: true, company: toCompanyData(res.data) };
  if (res.status === 429) return { ok: false, reason: 'rate-limit', message: res.message || MSG_CNPJ_RATE_LIMIT };
  if (res.status === 404 || res.status === 400) return { ok: false, reason: 'invalid', message: MSG_CNPJ_INVALID };
  return { ok: false, reason: 'failed', message: MSG_CNPJ_FAILED };
}

/**
 * GET /api/cnpj/{14 digits}: public (it works signed in or not). The session's
 * token goes along when there is one, so the server counts the 3 lookups a
 * minute per user rather than per address; it never triggers the 401 refresh
 * (the server treats an invalid token as an anonymous caller).
 */
export async function lookupCnpj(cnpj: string, signal?: AbortSignal): Promise<CnpjLookup> {
  const id = normalizeCnpj(cnpj);
  if (id.length !== 14) return { ok: false, reason: 'invalid', message: MSG_CNPJ_INVALID };
  const res = await request<CnpjLookupResult>('api', `/cnpj/${id}`, {
    refreshOn401: false,
    signal,
  });
  return lookupOutcome(res);
}

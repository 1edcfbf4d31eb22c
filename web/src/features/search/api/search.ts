import { request, type HttpResponse } from '@/lib/http';
import type { ResaleStatus } from '@/lib/status';

/** POST /api/search {q} (docs/api.md "Global search"): up to 5 of each kind, within the caller's role and brand. */

export const SEARCH_MIN_CHARS = 2;
export const SEARCH_MAX_CHARS = 100;

export interface FoundOpportunity {
  id: string;
  status: string;
  name: string;
  fantasyName: string;
  corporateName: string;
  cnpj: string;
  createdAt: string;
}

/** A company found (the fields of GET /resale/{id} the results show). */
export interface FoundResale {
  id: string;
  status: ResaleStatus | string;
  corporateName: string;
  fantasyName: string;
  /** Digits. */
  cnpj: string;
}

export interface FoundUser {
  id: string;
  name: string;
  email: string;
  roles: string[];
  resale: string;
}

export interface SearchResult {
  opportunities: FoundOpportunity[];
  resales: FoundResale[];
  users: FoundUser[];
  /** Kinds with more matches than the answer carries. */
  more: { opportunities?: boolean; resales?: boolean; users?: boolean };
}

/** The text as the server reads it: spaces collapsed and trimmed. */
export function searchText(raw: string): string {
  return raw.replace(/\s+/g, ' ').trim();
}

export async function search(q: string, signal?: AbortSignal): Promise<HttpResponse<SearchResult>> {
  // POST: what someone searched for (an e-mail, a CNPJ) stays out of URLs and the logs that keep them.
  const res = await request<SearchResult>('api', '/search', { method: 'POST', body: { q }, signal });
  if (!res.ok || !res.data) return res;
  const d = res.data;
  return {
    ...res,
    data: {
      opportunities: Array.isArray(d.opportunities) ? d.opportunities : [],
      resales: Array.isArray(d.resales) ? d.resales : [],
      users: Array.isArray(d.users) ? d.users : [],
      more: d.more && typeof d.more === 'object' ? d.more : {},
    },
  };
}

import { request, type HttpResponse } from '@/lib/http';

/** Calls of the 'Cobertura' screen (docs/api.md "Routing"). */

export interface CoverageResale {
  id: string;
  /** Empty when the account is no longer an approved reseller of the brand. */
  name: string;
  cnpj: string;
}

/** One representative's coverage: the UFs and the reseller accounts (which override the UF). */
export interface CoverageEntry {
  id: string;
  name: string;
  email: string;
  states: string[];
  resales: CoverageResale[];
}

export interface CoverageData {
  representatives: CoverageEntry[];
  /** The 27 UFs. */
  states: string[];
  /** The brand's approved reseller accounts a coverage may name. */
  resales: CoverageResale[];
}

export interface CoverageChange {
  attribute: 'coverageStates' | 'coverageResales' | string;
  oldValue: string;
  newValue: string;
}

export interface CoverageHistoryRow {
  id: number;
  representativeId: string;
  userId: string | null;
  username: string;
  modifications: CoverageChange[];
  date: string;
}

/** GET /api/coverage. */
export function getCoverage(signal?: AbortSignal): Promise<HttpResponse<CoverageData>> {
  return request<CoverageData>('api', '/coverage', { signal });
}

/** GET /api/coverage/history: the newest 100 changes. */
export function getCoverageHistory(signal?: AbortSignal): Promise<HttpResponse<{ result: CoverageHistoryRow[] }>> {
  return request<{ result: CoverageHistoryRow[] }>('api', '/coverage/history', { signal });
}

/** PUT /api/coverage/{userId}. */
export function putCoverage(
  userId: string,
  body: { states: string[]; resaleIds: string[] },
): Promise<HttpResponse<{ message: string; data: CoverageEntry }>> {
  return request<{ message: string; data: CoverageEntry }>('api', `/coverage/${encodeURIComponent(userId)}`, {
    method: 'PUT',
    body,
  });
}

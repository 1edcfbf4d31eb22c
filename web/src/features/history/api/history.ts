import { request, type HttpResponse } from '@/lib/http';

/** Change history of a record (docs/api.md GET /history/getByTypeId). */

export interface HistoryModification {
  attribute: string;
  oldValue: string | null;
  newValue: string | null;
}

export interface HistoryEntry {
  id: number | string;
  typeId: string;
  /** opportunity, resale or user. */
  type: string;
  userId: string | null;
  /** Empty unless the caller is a representative. */
  username: string;
  /** create or update. */
  actionType: string;
  modifications: HistoryModification[] | null;
  date: string;
}

export interface HistoryPage {
  result: HistoryEntry[];
  total: number;
}

/** GET /api/history/getByTypeId?typeId=&amount=&page= (page from 1), newest first. */
export function getHistory(
  typeId: string,
  amount: number,
  page: number,
  signal?: AbortSignal,
): Promise<HttpResponse<HistoryPage>> {
  return request<HistoryPage>('api', '/history/getByTypeId', { query: { typeId, amount, page }, signal });
}

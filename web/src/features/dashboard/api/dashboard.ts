import { getCompany, request, type HttpResponse } from '@/lib/http';
import type { OpportunityStatus } from '@/lib/status';

/** The dashboard's figures (docs/api.md GET /dashboard/status). */

export interface MonthPoint {
  /** 1 = January. */
  month: number;
  label: string;
  approved: number;
  disapproved: number;
}

export interface StatusTotal {
  total: number;
  /** Of the current month. */
  thisMonth: number;
}

/**
 * A row of the 'Resumo' (api/dashboard.go summaryRow: a list row and its main
 * product), with the fields the dashboard shows.
 */
export interface SummaryRow {
  id: string;
  status: OpportunityStatus | string;
  name: string;
  corporateName: string;
  contact: string;
  /** The main product line's description (its part number when blank); '' when there is none. */
  product: string;
}

export interface DashboardData {
  /** January to the current month. */
  months: MonthPoint[];
  approved: StatusTotal;
  disapproved: StatusTotal;
  analysis: StatusTotal;
  /** The last 11 opportunities. */
  recent: SummaryRow[];
}

/** GET /api/dashboard/status?brand= → {data: DashboardData}. */
export function getDashboard(brand = getCompany(), signal?: AbortSignal): Promise<HttpResponse<{ data: DashboardData }>> {
  return request<{ data: DashboardData }>('api', '/dashboard/status', { query: { brand }, signal });
}

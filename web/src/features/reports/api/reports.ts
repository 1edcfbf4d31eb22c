import { downloadWorkbook, saveBlob, type DownloadResult } from '@/lib/download';
import { request, SERVICE_BASE, type HttpResponse } from '@/lib/http';

/** The reports' figures (docs/api.md GET /api/reports; docs/deal-desk.md "Reports"). */

export interface MonthTimes {
  /** yyyy-mm */
  month: string;
  /** 'Set/2026' */
  label: string;
  count: number;
  p50Hours: number | null;
  p90Hours: number | null;
}

export interface Decisions {
  count: number;
  approved: number;
  p50Hours: number | null;
  p90Hours: number | null;
  /** Share (0–1) decided within slaHours of the registration; null when none was decided. */
  withinSla: number | null;
  withinSlaCount: number;
  slaHours: number;
  approvalRate: number | null;
  byMonth: MonthTimes[];
}

export interface RepresentativeFigures {
  id: string;
  name: string;
  decided: number;
  approved: number;
  p50Hours: number | null;
  approvalRate: number | null;
}

export interface ResaleFigures {
  id: string;
  cnpj: string;
  name: string;
  registered: number;
  approved: number;
  decided: number;
  approvalRate: number | null;
  /** Estimated value of its open registrations (a decimal number). */
  pipeline: number | string;
}

export interface PipelineRow {
  key: string;
  label: string;
  count: number;
  value: number | string;
}

export interface ProductValue {
  partNumber: string;
  description: string;
  count: number;
  value: number | string;
}

export interface ExpiringRow {
  id: string;
  name: string;
  corporateName: string;
  state: string;
  status: string;
  resale: string;
  validUntil: string;
  daysLeft: number;
  estimated: number | string;
}

export interface Report {
  period: { from: string; to: string };
  decisions: Decisions;
  byRepresentative: RepresentativeFigures[];
  byResale: ResaleFigures[];
  pipeline: { count: number; total: number | string; byStatus: PipelineRow[]; byState: PipelineRow[]; byProduct: ProductValue[] };
  expiringSoon: ExpiringRow[];
  expiringDays: number;
}

/** GET /api/reports?from=&to= → {data: Report}. */
export function getReport(from: string, to: string, signal?: AbortSignal): Promise<HttpResponse<{ data: Report }>> {
  return request<{ data: Report }>('api', '/reports', { query: { from, to }, signal });
}

export type ExportResult = DownloadResult;

/**
 * GET /api/reports/export?from=&to=: every table of the report as an .xlsx.
 * A binary answer, so fetched here rather than through `request`; a 401
 * refreshes the session once and retries, a second one ends the session.
 */
export function exportReport(from: string, to: string): Promise<ExportResult> {
  return downloadWorkbook(`${SERVICE_BASE.api}/reports/export?${new URLSearchParams({ from, to }).toString()}`, `Relatorios-${from}-a-${to}.xlsx`);
}

export { saveBlob };

import { endSession, getCompany, refreshSession, request, SERVICE_BASE, type HttpResponse } from '@/lib/http';
import { getToken } from '@/lib/session';

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

export type ExportResult = { ok: true; blob: Blob; fileName: string } | { ok: false; status: number; message?: string };

async function fetchWorkbook(url: string): Promise<Response | null> {
  const headers: Record<string, string> = {
    Accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, application/json',
  };
  const company = getCompany();
  if (company) headers.company = company;
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    return await fetch(url, { headers, credentials: 'same-origin' });
  } catch {
    return null;
  }
}

/**
 * GET /api/reports/export?from=&to=: every table of the report as an .xlsx.
 * A binary answer, so fetched here rather than through `request`; a 401
 * refreshes the session once and retries, a second one ends the session.
 */
export async function exportReport(from: string, to: string): Promise<ExportResult> {
  const url = `${SERVICE_BASE.api}/reports/export?${new URLSearchParams({ from, to }).toString()}`;
  let res = await fetchWorkbook(url);
  if (res && res.status === 401) {
    if (!(await refreshSession())) {
      endSession();
      return { ok: false, status: 401 };
    }
    res = await fetchWorkbook(url);
    if (res && res.status === 401) {
      endSession();
      return { ok: false, status: 401 };
    }
  }
  if (!res) return { ok: false, status: 500 };
  if (!res.ok) {
    let message: string | undefined;
    try {
      const body = (await res.json()) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    } catch {
      message = undefined;
    }
    return { ok: false, status: res.status >= 500 ? 500 : res.status, message };
  }
  const m = /filename="?([^";]+)"?/i.exec(res.headers.get('Content-Disposition') ?? '');
  return { ok: true, blob: await res.blob(), fileName: m ? m[1] : `Relatorios-${from}-a-${to}.xlsx` };
}

/** Saves a blob as a file (an object URL clicked through a temporary link). */
export function saveBlob(blob: Blob, fileName: string): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = fileName;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(href), 1000);
}

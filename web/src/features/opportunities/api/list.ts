import { downloadWorkbook, saveBlob, type DownloadResult } from '@/lib/download';
import { getCompany, request, SERVICE_BASE, type HttpResponse } from '@/lib/http';
import { normalizeCnpj } from '@/lib/cnpj';
import type { OpportunityStatus } from '@/lib/status';

/** Typed calls of the opportunity lists and the Excel export (docs/api.md). */

/** One opportunity of a list (docs/api.md "Row"). */
export interface OpportunityRow {
  id: string;
  status: OpportunityStatus | string;
  name: string;
  cnpj: string;
  fantasyName: string;
  corporateName: string;
  contact: string;
  email: string;
  state: string;
  city: string;
  probabilityClosing: number;
  /** Decimal (JSON number with two decimals). */
  estimated: number | string;
  register: string;
  seller: string;
  resale: string;
  approveDate: string | null;
  validUntil: string | null;
  createdAt: string;
  /** The responsible representatives (docs/deal-desk.md "Routing"). */
  representative?: RepresentativeRef[];
}

/** A responsible representative. */
export interface RepresentativeRef {
  id: string;
  name: string;
  email: string;
}

export interface OpportunityPage {
  result: OpportunityRow[];
  total: number;
}

/** The spec's export fetch: amount 99999 ('Todas'), page 1. */
const EXPORT_AMOUNT = 99999;

/** Filters of the list (spec §2 "Opportunities list"); the CNPJ is kept without its punctuation, letters upper-cased. */
export interface OpportunityFilters {
  status: OpportunityStatus[];
  name: string;
  register: string;
  /** dd/mm/yyyy; sent only when complete and a real date. */
  date: string;
  cnpj: string;
  email: string;
  fantasyName: string;
  /** State code (UF, e.g. 'MG'): the server compares it with the stored state. */
  state: string;
  /** City name (exact). */
  city: string;
  /** 'Minhas': only those the representative answers for (mine=true). */
  mine?: boolean;
}

export const EMPTY_FILTERS: OpportunityFilters = {
  status: [],
  name: '',
  register: '',
  date: '',
  cnpj: '',
  email: '',
  fantasyName: '',
  state: '',
  city: '',
};

export type SortField = 'createdAt' | 'estimated';
export type SortDirection = 'asc' | 'desc';
export interface ListSort {
  field: SortField;
  direction: SortDirection;
}

/** Default sort: createdAt descending (spec §9). */
export const DEFAULT_SORT: ListSort = { field: 'createdAt', direction: 'desc' };

/** True for a complete dd/mm/yyyy that is a real calendar date. */
export function isCompleteDate(value: string): boolean {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (!m) return false;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (day < 1 || month < 1 || month > 12 || year < 1900) return false;
  const d = new Date(year, month - 1, day);
  return d.getFullYear() === year && d.getMonth() === month - 1 && d.getDate() === day;
}

type Query = Record<string, string | number | undefined>;

/**
 * The filters and the sort as the list (and the export) read them: empty
 * filters are left out, the status list is comma-separated, the trade name
 * goes as `client` (spec §7), an incomplete date is not sent.
 */
export function filterQuery(filters: OpportunityFilters, sort: ListSort = DEFAULT_SORT): Query {
  const text = (v: string) => (v.trim() === '' ? undefined : v.trim());
  const cnpj = normalizeCnpj(filters.cnpj);
  return {
    brandName: getCompany() || undefined,
    status: filters.status.length > 0 ? filters.status.join(',') : undefined,
    name: text(filters.name),
    register: text(filters.register),
    date: isCompleteDate(filters.date) ? filters.date : undefined,
    cnpj: cnpj === '' ? undefined : cnpj,
    email: text(filters.email),
    client: text(filters.fantasyName),
    state: text(filters.state),
    city: text(filters.city),
    mine: filters.mine ? 'true' : undefined,
    [sort.field]: sort.direction,
  };
}

/** filterQuery plus the page: amount (page size) and page (from 1). */
export function listQuery(filters: OpportunityFilters, sort: ListSort, amount: number, page: number): Query {
  return { ...filterQuery(filters, sort), amount, page };
}

/** The list a user reads, by role priority (spec §6), or the spec's error when none applies. */
export type ListEndpoint = { ok: true; path: string } | { ok: false; message: string };

export const PERMISSION_DENIED = 'Permission denied';
export const PERMISSION_NOT_FOUND = 'User permission not found';

export function listEndpointFor(roles: readonly string[]): ListEndpoint {
  if (roles.length === 0) return { ok: false, message: PERMISSION_NOT_FOUND };
  if (roles.includes('RESALE')) return { ok: true, path: '/opportunity/resale' };
  if (roles.includes('SELLER')) return { ok: true, path: '/opportunity/user' };
  if (roles.includes('REPRESENTATIVE') || roles.includes('SUPPORT')) return { ok: true, path: '/opportunity/all' };
  return { ok: false, message: PERMISSION_DENIED };
}

/** GET /api/opportunity/{resale,user,all} → {result, total}. */
export function listOpportunities(path: string, query: Query, signal?: AbortSignal): Promise<HttpResponse<OpportunityPage>> {
  return request<OpportunityPage>('api', path, { query, signal });
}

/** Default name of the downloaded workbook (the sheet and the export are 'Oportunidades'). */
export const EXPORT_FILE_NAME = 'Oportunidades.xlsx';

export type ExportResult = DownloadResult;

function exportUrl(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') params.append(key, String(value));
  }
  const qs = params.toString();
  return `${SERVICE_BASE.api}/opportunity/export${qs ? `?${qs}` : ''}`;
}

/**
 * GET /api/opportunity/export with the list's filters and sort (page and
 * amount are not sent: it exports everything that matches). The answer is a
 * binary workbook, so it is fetched here rather than through `request` (which
 * parses JSON); the session rules are the same: a 401 refreshes the token pair
 * once and retries, a second 401 ends the session.
 */
export function exportOpportunities(filters: OpportunityFilters, sort: ListSort): Promise<ExportResult> {
  // The spec's export fetch carries amount 99999 and page 1; the server exports everything anyway.
  return downloadWorkbook(exportUrl({ ...filterQuery(filters, sort), amount: EXPORT_AMOUNT, page: 1 }), EXPORT_FILE_NAME);
}

export { saveBlob };

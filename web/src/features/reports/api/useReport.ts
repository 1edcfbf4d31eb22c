import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { getCompany } from '@/lib/http';
import { getReport } from './reports';
import type { Period } from '../model/period';

export const REPORT_ERROR = 'Houve um erro. Tente novamente mais tarde!';

/**
 * The report of a period (GET /api/reports), cached per brand and period; the
 * figures shown stay while another period loads. A 4xx carries the server's
 * pt-BR message.
 */
export function useReport(period: Period) {
  const brand = getCompany();
  const q = useQuery({
    queryKey: ['reports', brand, period.from, period.to],
    queryFn: ({ signal }) => getReport(period.from, period.to, signal),
    placeholderData: keepPreviousData,
  });
  const res = q.data;
  const report = res?.ok ? (res.data?.data ?? null) : null;
  let error: string | null = null;
  if (res && !res.ok && res.status !== 401) error = res.status < 500 && res.message ? res.message : REPORT_ERROR;
  return { report, error, loading: q.isPending || q.isFetching, reload: () => void q.refetch() };
}

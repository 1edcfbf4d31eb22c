import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getDashboard, type DashboardData } from './dashboard';
import { getCompany } from '@/lib/http';
import { queryKeys } from '@/lib/queryClient';

export const DASHBOARD_ERROR = 'Houve um erro. Tente novamente mais tarde!';

export type DashboardState = 'loading' | 'ready' | 'error' | 'unauthorized';

/**
 * The dashboard's figures (GET /api/dashboard/status), cached per brand and
 * asked again when the window regains focus. The figures shown stay while a
 * refresh runs or after it fails; a failed load opens the error modal once.
 */
export function useDashboard<T>(normalize: (raw: Partial<DashboardData> | null | undefined) => T) {
  const brand = getCompany();
  const q = useQuery({
    queryKey: queryKeys.dashboard(brand),
    queryFn: ({ signal }) => getDashboard(brand, signal),
  });
  const [error, setError] = useState<string | null>(null);
  const res = q.data;
  useEffect(() => {
    if (res && !res.ok && res.status !== 401) setError(res.status < 500 && res.message ? res.message : DASHBOARD_ERROR);
  }, [res, q.dataUpdatedAt]);

  const [last, setLast] = useState<{ from: unknown; data: T } | null>(null);
  if (res?.ok && last?.from !== res) setLast({ from: res, data: normalize(res.data?.data) });

  let state: DashboardState = 'ready';
  if (q.isPending || q.isFetching) state = 'loading';
  else if (res && !res.ok) state = res.status === 401 ? 'unauthorized' : 'error';

  return { data: last?.data ?? null, state, error, setError, reload: () => void q.refetch() };
}

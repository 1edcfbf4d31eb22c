import { useQuery } from '@tanstack/react-query';
import { getUser } from '../../lib/authApi';
import { getOpportunity } from '../../lib/opportunityApi';
import { queryKeys } from '../../lib/queryClient';
import { getResale } from '../../lib/resaleApi';
import type { HistoryType } from './labels';

/**
 * The name of the record a history belongs to (the opportunity's name, the
 * company's corporate name, the user's name), for the page's subtitle; null
 * while it loads or when it cannot be read (the subtitle then names the kind only).
 */
export function useHistorySubject(type: HistoryType, id: string): string | null {
  const q = useQuery({
    queryKey: type === 'Opportunities' ? queryKeys.opportunity(id) : ['history-subject', type, id],
    queryFn: async ({ signal }): Promise<unknown> => {
      if (type === 'Opportunities') return getOpportunity(id, signal);
      if (type === 'Resales') return getResale(id, signal);
      return getUser(id);
    },
    enabled: id !== '',
    staleTime: 60_000,
  });
  const res = q.data as
    | { ok: boolean; record?: { name?: string; corporateName?: string }; data?: { data?: { name?: string; corporateName?: string; fantasyName?: string } } }
    | undefined;
  if (!res?.ok) return null;
  if (type === 'Opportunities') return res.record?.name?.trim() || res.record?.corporateName?.trim() || null;
  const d = res.data?.data;
  if (type === 'Resales') return d?.corporateName?.trim() || d?.fantasyName?.trim() || null;
  return d?.name?.trim() || null;
}

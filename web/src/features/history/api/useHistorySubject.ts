import { useQuery } from '@tanstack/react-query';
import { getUser } from '@/lib/authApi';
import { request } from '@/lib/http';
import type { HistoryType } from '../labels';

interface Named {
  name?: string;
  corporateName?: string;
  fantasyName?: string;
}

/**
 * The record's name, read from its own endpoint (GET /opportunity/id/{id},
 * /resale/{id}, /user/{id}); null when it cannot be read. The history reads
 * only the name: it does not share the details screens' records (features do
 * not import each other, docs/web.md "Where code lives").
 */
export async function getSubjectName(type: HistoryType, id: string, signal?: AbortSignal): Promise<string | null> {
  if (type === 'Opportunities') {
    const res = await request<{ data?: Named[] }>('api', `/opportunity/id/${encodeURIComponent(id)}`, { signal });
    const r = res.ok ? res.data?.data?.[0] : undefined;
    return r?.name?.trim() || r?.corporateName?.trim() || null;
  }
  if (type === 'Resales') {
    const res = await request<{ data?: Named }>('api', `/resale/${encodeURIComponent(id)}`, { signal });
    const d = res.ok ? res.data?.data : undefined;
    return d?.corporateName?.trim() || d?.fantasyName?.trim() || null;
  }
  const res = await getUser(id);
  return (res.ok && res.data?.data?.name?.trim()) || null;
}

/**
 * The name of the record a history belongs to (the opportunity's name, the
 * company's corporate name, the user's name), for the page's subtitle; null
 * while it loads or when it cannot be read (the subtitle then names the kind only).
 */
export function useHistorySubject(type: HistoryType, id: string): string | null {
  const q = useQuery({
    queryKey: ['history-subject', type, id],
    queryFn: ({ signal }) => getSubjectName(type, id, signal),
    enabled: id !== '',
    staleTime: 60_000,
  });
  return q.data ?? null;
}

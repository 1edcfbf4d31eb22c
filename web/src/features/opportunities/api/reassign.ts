import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getCompany, request } from '@/lib/http';
import { queryKeys } from '@/lib/queryClient';
import type { OpportunityRecord } from './opportunity';

/** The responsible representatives of an opportunity and their reassignment (docs/api.md "Routing"). */

export interface BrandRepresentative {
  id: string;
  name: string;
  email: string;
  states: string[];
}

/** GET /api/coverage: the brand's representatives (the reassign dialog's choices). */
export function useBrandRepresentatives(enabled: boolean) {
  const brand = getCompany();
  return useQuery({
    queryKey: ['coverage', brand],
    enabled,
    queryFn: ({ signal }) => request<{ representatives: BrandRepresentative[] }>('api', '/coverage', { signal }),
  });
}

/** POST /api/opportunity/{id}/reassign with the new representatives and the reason. */
export function reassignOpportunity(id: string, representativeIds: string[], reason: string) {
  return request<{ message: string; data: OpportunityRecord }>('api', `/opportunity/${encodeURIComponent(id)}/reassign`, {
    method: 'POST',
    body: { representativeIds, reason: reason.trim() },
  });
}

/** Reassigns; on success the record and the lists are read again. */
export function useReassign(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (v: { ids: string[]; reason: string }) => reassignOpportunity(id, v.ids, v.reason),
    onSuccess: (res) => {
      if (!res.ok) return;
      void client.invalidateQueries({ queryKey: ['list'] });
      void client.invalidateQueries({ queryKey: queryKeys.opportunity(id) });
    },
  });
}

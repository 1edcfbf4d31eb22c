import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getOpportunity } from './opportunity';
import { queryKeys } from '@/lib/queryClient';

function opportunityQuery(id: string) {
  return {
    queryKey: queryKeys.opportunity(id),
    queryFn: ({ signal }: { signal: AbortSignal }) => getOpportunity(id, signal),
  };
}

/**
 * One opportunity (GET /api/opportunity/id/{id}), cached by id, cancelled when
 * the screen goes away, asked again on focus. `reload` asks again after a
 * failed decision (the status may have moved meanwhile); a decision that
 * succeeded puts the answered record in the cache instead (useDecision).
 */
export function useOpportunity(id: string) {
  const client = useQueryClient();
  const q = useQuery(opportunityQuery(id));
  return {
    record: q.data?.record ?? null,
    response: q.data ?? null,
    loading: q.isPending,
    /** Asks the record again, and marks the cached lists stale (a decision moves the record between them). */
    reload: () => {
      void client.invalidateQueries({ queryKey: ['list'] });
      return client.invalidateQueries({ queryKey: queryKeys.opportunity(id) });
    },
  };
}

import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { HttpResponse } from '@/lib/http';
import { queryKeys } from '@/lib/queryClient';
import type { RenewalPayload } from '../model/payload';
import {
  approveOpportunity,
  getOpportunity,
  decideRenewal,
  refuseOpportunity,
  requestRenewal,
  updateOpportunity,
  updateProbability,
  type OpportunityRecord,
} from './opportunity';

/** A decision on an opportunity, or an edit of its name and probability (spec §4, §6). */
export type Decision =
  | { kind: 'approve'; name: string; probability: number; overrideReason?: string }
  | { kind: 'refuse'; reason: string }
  | { kind: 'update'; name: string; probability: number; nameChanged: boolean }
  | { kind: 'requestRenewal'; payload: RenewalPayload }
  | { kind: 'decideRenewal'; approve: boolean; reason?: string; name: string; probability: number };

type Answer = HttpResponse<{ message: string; data: OpportunityRecord }>;

function send(id: string, d: Decision): Promise<Answer> {
  switch (d.kind) {
    case 'approve':
      return approveOpportunity(id, d.name, d.probability, d.overrideReason);
    case 'refuse':
      return refuseOpportunity(id, d.reason);
    case 'update':
      return d.nameChanged ? updateOpportunity(id, d.name, d.probability) : updateProbability(id, d.probability);
    case 'requestRenewal':
      return requestRenewal(id, d.payload);
    case 'decideRenewal':
      return decideRenewal(id, { approve: d.approve, reason: d.reason, name: d.name, probabilityClosing: d.probability });
  }
}

type Cached = Awaited<ReturnType<typeof getOpportunity>>;

/**
 * After a decision: the record the server answered (the row as the decision
 * left it) replaces the cached one, so the screen shows it without asking
 * again; the lists are marked stale (the decision moves the record between
 * them). What the GET filters by role (the other registrations still open, the
 * registering user's e-mail) is kept from the cached record. Without a cached
 * record or an answered one, the record is asked again.
 */
export function applyDecision(client: QueryClient, id: string, answered: OpportunityRecord | undefined): void {
  void client.invalidateQueries({ queryKey: ['list'] });
  const key = queryKeys.opportunity(id);
  const prev = client.getQueryData<Cached>(key);
  if (!answered || !prev?.record) {
    void client.invalidateQueries({ queryKey: key });
    return;
  }
  const record: OpportunityRecord = {
    ...answered,
    conflicts: prev.record.conflicts,
    hasConflicts: prev.record.hasConflicts,
    userEmail: prev.record.userEmail,
  };
  client.setQueryData<Cached>(key, { ...prev, data: { data: [record] }, record });
}

/**
 * The decisions on one opportunity as a mutation: `mutateAsync(decision)`
 * answers the server's response (the transport never throws); on success the
 * cache holds the answered record (applyDecision).
 */
export function useDecision(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (d: Decision) => send(id, d),
    onSuccess: (res) => {
      if (res.ok) applyDecision(client, id, res.data?.data);
    },
  });
}

import { useQuery } from '@tanstack/react-query';
import { request } from '@/lib/http';

/** History attributes of an approval that overrode a conflict (workflows/conflicts.go). */
export const ATTR_OVERRIDE_REASON = 'conflictOverrideReason';
export const ATTR_OVERRIDDEN = 'conflictOverridden';
export const ATTR_OVERRIDDEN_BY = 'conflictOverriddenBy';

/** An override the record's history logs: this approval passed over `others`, or `by` passed over this one. */
export interface ConflictOverride {
  reason: string;
  by?: string;
  others?: string;
  at: string;
}

interface HistoryAnswer {
  result: { modifications: { attribute: string; newValue: string | null }[] | null; date: string }[];
}

/** Reads the overrides out of a page of history (newest first). */
export function overridesOf(page: HistoryAnswer | null | undefined): ConflictOverride[] {
  const out: ConflictOverride[] = [];
  for (const entry of page?.result ?? []) {
    const mods = entry.modifications ?? [];
    const value = (attr: string) => mods.find((m) => m.attribute === attr)?.newValue ?? undefined;
    const reason = value(ATTR_OVERRIDE_REASON);
    if (reason) out.push({ reason, by: value(ATTR_OVERRIDDEN_BY), others: value(ATTR_OVERRIDDEN), at: entry.date });
  }
  return out;
}

/** The conflict overrides the opportunity's history logs (staff only: `enabled`). */
export function useConflictOverrides(id: string, enabled: boolean): ConflictOverride[] {
  const q = useQuery({
    queryKey: ['opportunity', id, 'conflict-overrides'],
    enabled,
    queryFn: ({ signal }) =>
      request<HistoryAnswer>('api', '/history/getByTypeId', { query: { typeId: id, amount: 50, page: 1 }, signal }),
  });
  return overridesOf(q.data?.data);
}

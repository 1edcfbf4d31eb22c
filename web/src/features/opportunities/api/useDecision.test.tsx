import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient, queryKeys } from '@/lib/queryClient';
import { json, mockFetch } from '@/test/helpers';
import { useDecision } from './useDecision';
import { useOpportunity } from './useOpportunity';

const GET = '/api/opportunity/id/op-1';
const stored = { id: 'op-1', name: 'Projeto', status: 'analysis', conflicts: ['op-2'], userEmail: 'vanessa@revenda.com.br' };

function setup(patch: () => Response) {
  const calls = mockFetch((call) => (call.method === 'PATCH' ? patch() : json(200, { data: [stored] })));
  const client = createQueryClient();
  client.setQueryData(queryKeys.list('opportunities'), { ok: true, status: 200, data: { result: [], total: 0 } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const hook = renderHook(() => ({ opportunity: useOpportunity('op-1'), decision: useDecision('op-1') }), { wrapper });
  return { calls, client, hook, gets: () => calls.filter((c) => c.url === GET).length };
}

describe('useDecision', () => {
  it('puts the record the server answered in the cache instead of asking it again, and marks the lists stale', async () => {
    const answered = { ...stored, name: 'Projeto Boa Compra', status: 'approved', conflicts: ['op-2', 'op-3'], userEmail: '' };
    const { client, hook, gets } = setup(() => json(200, { message: 'ok', data: answered }));
    await waitFor(() => expect(hook.result.current.opportunity.record?.status).toBe('analysis'));

    await act(() => hook.result.current.decision.mutateAsync({ kind: 'approve', name: 'Projeto Boa Compra', probability: 75 }));

    // The query's observers hear of the cache's change on TanStack's notify
    // schedule (a timer), which may come after act on a busy machine.
    await waitFor(() => expect(hook.result.current.opportunity.record).toMatchObject({ name: 'Projeto Boa Compra', status: 'approved' }));
    const record = hook.result.current.opportunity.record;
    // What the GET filters by role stays as the GET gave it.
    expect(record?.conflicts).toEqual(['op-2']);
    expect(record?.userEmail).toBe('vanessa@revenda.com.br');
    expect(gets()).toBe(1);
    expect(client.getQueryState(queryKeys.opportunity('op-1'))?.isInvalidated).toBe(false);
    expect(client.getQueryState(queryKeys.list('opportunities'))?.isInvalidated).toBe(true);
  });

  it('leaves the cache alone when the decision fails', async () => {
    const { client, hook, gets } = setup(() => json(409, { message: 'x' }));
    await waitFor(() => expect(hook.result.current.opportunity.record?.status).toBe('analysis'));

    const res = await act(() => hook.result.current.decision.mutateAsync({ kind: 'refuse', reason: 'Sem orçamento' }));

    expect(res.ok).toBe(false);
    expect(hook.result.current.opportunity.record?.status).toBe('analysis');
    expect(gets()).toBe(1);
    expect(client.getQueryState(queryKeys.list('opportunities'))?.isInvalidated).toBe(false);
  });
});

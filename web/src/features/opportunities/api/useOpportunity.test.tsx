import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, withQueryClient, type Call } from '@/test/helpers';
import { useOpportunity } from './useOpportunity';

describe('useOpportunity', () => {
  it('asks once for a record two screens show (cached by id)', async () => {
    const calls = mockFetch(() => json(200, { data: [{ id: 'op-1', name: 'Projeto', status: 'analysis' }] }));
    const wrapper = withQueryClient();
    const first = renderHook(() => useOpportunity('op-1'), { wrapper });
    await waitFor(() => expect(first.result.current.record?.name).toBe('Projeto'));
    const second = renderHook(() => useOpportunity('op-1'), { wrapper });
    expect(second.result.current.record?.name).toBe('Projeto');
    expect(calls.filter((c: Call) => c.url === '/api/opportunity/id/op-1')).toHaveLength(1);
  });

  it('cancels the call when the screen goes away', async () => {
    const signals: AbortSignal[] = [];
    mockFetch(() => new Promise<Response>(() => {}));
    const original = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.signal) signals.push(init.signal);
      return original(input, init);
    }) as typeof fetch;
    const { unmount } = renderHook(() => useOpportunity('op-2'), { wrapper: withQueryClient() });
    await waitFor(() => expect(signals).toHaveLength(1));
    unmount();
    await waitFor(() => expect(signals[0].aborted).toBe(true));
  });
});

import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { HttpResponse } from '@/lib/http';
import { withQueryClient } from '@/test/helpers';
import { LIST_ERROR } from './ListBody';
import { useListData, type ListPage } from './useListData';

type Page = ListPage<string>;

function answer(status: number, data: Page | null, message?: string): HttpResponse<Page> {
  return { status, ok: status >= 200 && status < 300, data, message, body: data };
}

describe('useListData', () => {
  it('loads the rows and the total, and loads again on reload', async () => {
    const load = vi.fn(async () => answer(200, { result: ['a', 'b'], total: '12' }));
    const { result } = renderHook(() => useListData(load, 'q1', 1, 10, () => {}), { wrapper: withQueryClient() });
    expect(result.current.state).toBe('loading');
    await waitFor(() => expect(result.current.state).toBe('ready'));
    expect(result.current.rows).toEqual(['a', 'b']);
    expect(result.current.total).toBe(12);
    expect(result.current.pages).toBe(2);
    act(() => result.current.reload());
    await waitFor(() => expect(load).toHaveBeenCalledTimes(2));
  });

  it("says 'unauthorized' on 401, the server's message on a 4xx and the spec's text on a 5xx", async () => {
    for (const [res, state, error] of [
      [answer(401, null, 'Token expirado'), 'unauthorized', null],
      [answer(400, null, 'Data inválida'), 'error', 'Data inválida'],
      [answer(500, null, 'stack trace'), 'error', LIST_ERROR],
    ] as const) {
      const { result, unmount } = renderHook(() => useListData(async () => res, 'q', 1, 10, () => {}), {
        wrapper: withQueryClient(),
      });
      await waitFor(() => expect(result.current.state).toBe(state));
      expect(result.current.error).toBe(error);
      unmount();
    }
  });

  it('ignores the answer of a query it replaced', async () => {
    let resolveOld: (r: HttpResponse<Page>) => void = () => {};
    const signals: AbortSignal[] = [];
    const { result, rerender } = renderHook(
      ({ query }) =>
        useListData(
          (signal) => {
            signals.push(signal);
            return query === 'old'
              ? new Promise<HttpResponse<Page>>((r) => (resolveOld = r))
              : Promise.resolve(answer(200, { result: ['new'], total: 1 }));
          },
          query,
          1,
          10,
          () => {},
        ),
      { initialProps: { query: 'old' }, wrapper: withQueryClient() },
    );
    rerender({ query: 'new' });
    await waitFor(() => expect(result.current.rows).toEqual(['new']));
    expect(signals[0].aborted).toBe(true);
    await act(async () => resolveOld(answer(200, { result: ['old'], total: 1 })));
    expect(result.current.rows).toEqual(['new']);
  });

  it('moves back to the last page when the page is past it', async () => {
    const setPage = vi.fn();
    renderHook(() => useListData(async () => answer(200, { result: [], total: 25 }), 'q', 7, 10, setPage), {
      wrapper: withQueryClient(),
    });
    await waitFor(() => expect(setPage).toHaveBeenCalledWith(3));
  });

  it('asks for nothing while the list cannot be loaded', async () => {
    const { result } = renderHook(() => useListData<string>(null, 'q', 1, 10, () => {}), {
      wrapper: withQueryClient(),
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(result.current.state).toBe('loading');
    expect(result.current.rows).toEqual([]);
  });
});

describe('useListData cache', () => {
  it('shows a page already seen at once and asks for it again (a row added meanwhile appears)', async () => {
    let rows = ['a'];
    const load = vi.fn(async () => answer(200, { result: rows, total: rows.length }));
    const wrapper = withQueryClient();
    const first = renderHook(() => useListData(load, 'q', 1, 10, () => {}), { wrapper });
    await waitFor(() => expect(first.result.current.rows).toEqual(['a']));
    first.unmount();
    rows = ['a', 'b'];
    const second = renderHook(() => useListData(load, 'q', 1, 10, () => {}), { wrapper });
    expect(second.result.current.rows).toEqual(['a']);
    expect(second.result.current.state).toBe('ready');
    await waitFor(() => expect(second.result.current.rows).toEqual(['a', 'b']));
    expect(load).toHaveBeenCalledTimes(2);
  });
});

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { HttpResponse } from '@/lib/http';
import { queryKeys } from '@/lib/queryClient';
import { LIST_ERROR, type ListLoadState } from './ListBody';
import { pageCount } from './Paginator';

/** A list call's answer: a page of rows and the count of all matching rows. */
export interface ListPage<T> {
  result?: T[] | null;
  total?: number | string | null;
}

export interface ListData<T> {
  rows: T[];
  total: number;
  state: ListLoadState;
  /** The number of pages at the current page size. */
  pages: number;
  /** The error modal's message (a failed load, or the page's own errors). */
  error: string | null;
  setError: (message: string | null) => void;
  /** Loads the same query again (the error state's retry, a repeated search). */
  reload: () => void;
}

/**
 * The shared list loader, a TanStack query keyed by `query` (a serialised
 * query: endpoint, filters, sort, page size, page). A new key cancels the load
 * it replaces (its AbortSignal); pages already seen show from the cache at once
 * and are asked again in the background (on every showing and on window focus). While a new key loads, the
 * previous rows stay on screen with the 'loading' state. `load` is null when
 * the list cannot be asked for (the page then shows its blocked state). A 401
 * is 'unauthorized' (the transport has already refreshed or ended the session);
 * other failures are 'error' with the server's message for a 4xx, else the
 * spec's LIST_ERROR. A page past the last one, once the total is known, moves
 * back to the last.
 */
export function useListData<T>(
  load: ((signal: AbortSignal) => Promise<HttpResponse<ListPage<T>>>) | null,
  query: string,
  page: number,
  amount: number,
  setPage: (page: number) => void,
): ListData<T> {
  const latest = useRef(load);
  latest.current = load;
  const enabled = load !== null;
  const [reloading, setReloading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const q = useQuery({
    queryKey: queryKeys.list(query),
    queryFn: ({ signal }) => latest.current!(signal),
    enabled,
    placeholderData: keepPreviousData,
    // A list is asked again whenever a screen shows it (a seller just added, a company just
    // approved must be there); what the cache held shows meanwhile.
    staleTime: 0,
  });

  const res = q.data;
  const failed = !!res && !res.ok;
  // A newly failed load opens the error modal once (a reload that fails again reopens it).
  useEffect(() => {
    if (res && !res.ok && res.status !== 401 && !q.isPlaceholderData) {
      setError(res.status < 500 && res.message ? res.message : LIST_ERROR);
    }
  }, [res, q.dataUpdatedAt, q.isPlaceholderData]);

  // The last good page stays on screen while another loads or after a failure.
  const lastGood = useRef<{ rows: T[]; total: number }>({ rows: [], total: 0 });
  if (res?.ok) {
    lastGood.current = {
      rows: Array.isArray(res.data?.result) ? res.data.result : [],
      total: Number(res.data?.total) || 0,
    };
  }
  const { rows, total } = lastGood.current;

  let state: ListLoadState;
  if (!enabled || q.isPending || q.isPlaceholderData || (reloading && q.isFetching)) state = 'loading';
  else if (failed && res.status === 401) state = 'unauthorized';
  else if (failed) state = 'error';
  else state = 'ready';

  const pages = pageCount(total, amount);
  useEffect(() => {
    if (state === 'ready' && page > pages) setPage(pages);
  }, [state, page, pages, setPage]);

  useEffect(() => {
    if (reloading && !q.isFetching) setReloading(false);
  }, [reloading, q.isFetching]);

  return {
    rows,
    total,
    state,
    pages,
    error,
    setError,
    reload: () => {
      setReloading(true);
      void q.refetch();
    },
  };
}

/**
 * A ListScreen's props from its loaded list: the state and the counts, the
 * retry, the page size (a new one goes back to the first page) and the page.
 */
export function listProps<T>(list: ListData<T>, amount: number, setAmount: (size: number) => void, page: number, setPage: (page: number) => void) {
  return {
    state: list.state,
    rowCount: list.rows.length,
    total: list.total,
    onRetry: list.reload,
    amount,
    onAmount: (size: number) => {
      setAmount(size);
      setPage(1);
    },
    page,
    pageCount: list.pages,
    onPage: setPage,
  };
}

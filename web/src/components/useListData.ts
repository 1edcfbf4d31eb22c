import { useEffect, useRef, useState } from 'react';
import type { HttpResponse } from '../lib/http';
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
 * Loads a list page whenever `query` changes (a serialised query: filters,
 * sort, page size, page), cancelling the load it replaces. `load` is null when
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
  const [rows, setRows] = useState<T[]>([]);
  const [total, setTotal] = useState(0);
  const [state, setState] = useState<ListLoadState>('loading');
  const [error, setError] = useState<string | null>(null);
  const [reloadKey, setReloadKey] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  const enabled = load !== null;

  useEffect(() => {
    const current = latest.current;
    if (!current) return;
    const controller = new AbortController();
    setState('loading');
    void current(controller.signal).then((res) => {
      if (controller.signal.aborted) return;
      if (res.ok) {
        setRows(Array.isArray(res.data?.result) ? res.data.result : []);
        setTotal(Number(res.data?.total) || 0);
        setState('ready');
      } else if (res.status === 401) {
        setState('unauthorized');
      } else {
        setState('error');
        setError(res.status < 500 && res.message ? res.message : LIST_ERROR);
      }
    });
    return () => controller.abort();
  }, [enabled, query, reloadKey]);

  const pages = pageCount(total, amount);
  useEffect(() => {
    if (state === 'ready' && page > pages) setPage(pages);
  }, [state, page, pages, setPage]);

  return { rows, total, state, pages, error, setError, reload: () => setReloadKey((k) => k + 1) };
}

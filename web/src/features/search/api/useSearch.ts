import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { readSession } from '@/lib/session';
import { SEARCH_MIN_CHARS, search, searchText } from './search';

/** The search waits this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * The global search's server state: the typed text, debounced, asked once it
 * has 2 characters; a newer text cancels the older call. Keyed by the brand
 * and the user, so another user of the tab never sees a cached answer.
 */
export function useSearch(raw: string) {
  const [text, setText] = useState(() => searchText(raw));
  useEffect(() => {
    const t = window.setTimeout(() => setText(searchText(raw)), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(t);
  }, [raw]);
  const session = readSession();
  const enabled = text.length >= SEARCH_MIN_CHARS;
  const q = useQuery({
    queryKey: ['search', session.company ?? '', session.userid ?? '', text],
    queryFn: ({ signal }) => search(text, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
  const typed = searchText(raw);
  return {
    /** The text the answer is for. */
    text,
    /** Still typing, or the answer on its way. */
    pending: enabled && (typed !== text || q.isFetching),
    tooShort: typed.length < SEARCH_MIN_CHARS,
    response: enabled ? q.data : undefined,
  };
}

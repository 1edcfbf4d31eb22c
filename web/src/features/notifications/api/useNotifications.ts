import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import {
  NOTIFICATION_POLL_MS,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationList,
} from './notifications';
import { queryKeys } from '@/lib/queryClient';

/**
 * The bell's server state: the user's newest events and the unread count. A
 * TanStack query polled every 30 s while the page is visible (TanStack stops
 * the interval in a hidden tab), asked again when the window regains focus and
 * when the dropdown opens (`refresh`). Marks are applied to the cache at once
 * and sent; a failed 'read all' asks the list again. Errors are silent: the
 * last list stays.
 */
export function useNotifications(userId: string | undefined) {
  const client = useQueryClient();
  const key = queryKeys.notifications(userId ?? '');
  const q = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => {
      const res = await listNotifications(undefined, signal);
      if (!res.ok || !res.data) throw new Error('notifications');
      return {
        result: Array.isArray(res.data.result) ? res.data.result : [],
        unread: Number(res.data.unread) || 0,
      } satisfies NotificationList;
    },
    staleTime: 0,
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchIntervalInBackground: false,
  });
  const { refetch } = q;

  // TanStack's own focus refetch follows visibilitychange; a window that only regains focus counts too.
  useEffect(() => {
    const onFocus = () => {
      if (document.visibilityState !== 'hidden') void refetch({ cancelRefetch: false });
    };
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [refetch]);

  const update = useCallback(
    (fn: (list: NotificationList) => NotificationList) =>
      client.setQueryData<NotificationList>(queryKeys.notifications(userId ?? ''), (old) => (old ? fn(old) : old)),
    [client, userId],
  );

  // Asks again without cancelling a request under way (a poll, the opening of the dropdown).
  const refresh = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);

  /** Marks one notice read, here at once and on the server; nothing when it is read already. */
  const markRead = useCallback(
    (id: number) => {
      const list = client.getQueryData<NotificationList>(queryKeys.notifications(userId ?? ''));
      if (!list?.result.some((x) => x.id === id && !x.readAt)) return;
      const now = new Date().toISOString();
      update((l) => ({
        result: l.result.map((x) => (x.id === id ? { ...x, readAt: now } : x)),
        unread: Math.max(0, l.unread - 1),
      }));
      void markNotificationRead(id);
    },
    [client, userId, update],
  );

  const markAllRead = useCallback(() => {
    const now = new Date().toISOString();
    update((l) => ({ result: l.result.map((x) => (x.readAt ? x : { ...x, readAt: now })), unread: 0 }));
    void markAllNotificationsRead().then((res) => {
      if (!res.ok) void refetch();
    });
  }, [update, refetch]);

  return {
    items: q.data?.result ?? [],
    unread: q.data?.unread ?? 0,
    loaded: !q.isPending || q.isError,
    failed: q.isError,
    refresh,
    markRead,
    markAllRead,
  };
}

import Cookies from 'js-cookie';
import { request } from '@/lib/http';
import { samePath } from '@/lib/returnPath';
import { cookieAttributes } from '@/lib/session';

/** In-app notifications: the panel's bell (docs/api.md "Notifications"). */

export interface Notification {
  id: number;
  /** e.g. registered, approved, disapproved, renewal-open, resale-registered… */
  kind: string;
  title: string;
  /** A portal path (/Painel/…). */
  link: string;
  createdAt: string;
  readAt: string | null;
}

export interface NotificationList {
  result: Notification[];
  unread: number;
}

/** How many the dropdown shows. */
export const NOTIFICATION_LIMIT = 20;
/** The bell asks again this often while the page is visible (and on focus). */
export const NOTIFICATION_POLL_MS = 30_000;

/** GET /api/notifications?limit=. */
export function listNotifications(limit = NOTIFICATION_LIMIT, signal?: AbortSignal) {
  return request<NotificationList>('api', '/notifications', { query: { limit }, signal });
}

/** PATCH /api/notifications/{id}/read. */
export function markNotificationRead(id: number) {
  return request<{ message?: string }>('api', `/notifications/${encodeURIComponent(String(id))}/read`, {
    method: 'PATCH',
  });
}

/** PATCH /api/notifications/read-all. */
export function markAllNotificationsRead() {
  return request<{ message?: string }>('api', '/notifications/read-all', { method: 'PATCH' });
}

/**
 * A link the dropdown may follow: a path of this portal ('/…', never '//host'
 * nor a scheme). Anything else is not followed.
 */
export function safeLink(link: string | null | undefined): string | null {
  return samePath(String(link ?? '').trim());
}

/**
 * The notifications cookie (spec §9: 30 days). It remembers, per browser, the
 * newest notification the user has already seen in the dropdown:
 * `<user id>:<notification id>`. Notifications newer than that are "new": the
 * bell is highlighted and the dropdown tags them 'Nova' the next time it opens.
 * Read/unread is the server's (the badge counts unread notifications).
 */
export const NOTIFICATIONS_COOKIE = 'notifications';
export const NOTIFICATIONS_COOKIE_DAYS = 30;

/** The id of the newest notification the user saw here, or 0. */
export function lastSeenNotification(userId: string | undefined): number {
  const raw = Cookies.get(NOTIFICATIONS_COOKIE);
  if (!raw || !userId) return 0;
  const at = raw.lastIndexOf(':');
  if (at <= 0 || raw.slice(0, at) !== userId) return 0;
  const id = Number(raw.slice(at + 1));
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
}

export function saveLastSeenNotification(userId: string | undefined, id: number): void {
  if (!userId || !Number.isSafeInteger(id) || id <= 0) return;
  if (id <= lastSeenNotification(userId)) return;
  Cookies.set(NOTIFICATIONS_COOKIE, `${userId}:${id}`, cookieAttributes(NOTIFICATIONS_COOKIE_DAYS));
}

/** The newest id of a list (0 when empty). */
export function newestId(list: readonly Notification[]): number {
  return list.reduce((max, n) => (n.id > max ? n.id : max), 0);
}

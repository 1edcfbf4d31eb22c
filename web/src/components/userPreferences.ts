import { readSession } from '@/lib/session';

/**
 * The list screens' preferences (filters, sort, page size, columns) belong to
 * the user who set them: each spec key (opportunity_preferences,
 * resale_preferences, seller_preferences) holds one entry per brand and user,
 * `{"users": {"<brand>/<user id>": {...}}}`, so a colleague signing in on the
 * same browser starts from their own. A value of the earlier flat shape (one
 * set for the browser) is adopted by the first user who reads it.
 */

/** How many users' entries a key keeps (the most recently saved). */
export const MAX_USERS_PER_KEY = 20;

/** The entry of the signed-in user at the current brand. */
export function currentUserScope(): string {
  const s = readSession();
  return `${s.company ?? ''}/${s.userid ?? ''}`;
}

interface Stored {
  users: Record<string, unknown>;
}

function readStored(key: string, storage: Storage): { stored: Stored; legacy: unknown } {
  let raw: unknown = null;
  try {
    raw = JSON.parse(storage.getItem(key) ?? 'null');
  } catch {
    raw = null;
  }
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const users = (raw as { users?: unknown }).users;
    if (users && typeof users === 'object' && !Array.isArray(users)) {
      return { stored: { users: users as Record<string, unknown> }, legacy: null };
    }
    return { stored: { users: {} }, legacy: raw };
  }
  return { stored: { users: {} }, legacy: null };
}

/** The user's stored value under key (unknown: the caller validates it); null when none. */
export function readUserPreferences(key: string, scope: string = currentUserScope(), storage: Storage = localStorage): unknown {
  const { stored, legacy } = readStored(key, storage);
  if (scope in stored.users) return stored.users[scope];
  return legacy;
}

/** Saves the user's value under key, keeping the other users' entries (at most MAX_USERS_PER_KEY). */
export function writeUserPreferences(
  key: string,
  value: unknown,
  scope: string = currentUserScope(),
  storage: Storage = localStorage,
): void {
  const { stored } = readStored(key, storage);
  const users: Record<string, unknown> = {};
  const others = Object.keys(stored.users).filter((k) => k !== scope);
  for (const k of others.slice(Math.max(0, others.length - (MAX_USERS_PER_KEY - 1)))) users[k] = stored.users[k];
  users[scope] = value;
  try {
    storage.setItem(key, JSON.stringify({ users }));
  } catch {
    // storage full or disabled: the list still works, it just forgets
  }
}

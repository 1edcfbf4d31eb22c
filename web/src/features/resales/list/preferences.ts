import { ALL_ROWS, DEFAULT_PAGE_SIZE, PAGE_SIZES_WITH_ALL } from '../../../components/PageSizeSelect';
import { isResaleStatus, type ResaleSort, type ResaleStatus } from '../../../lib/resaleApi';
import { STORAGE } from '../../../lib/session';

/** What the Resales list keeps in local storage under resale_preferences (spec §2). */
export interface ResalePreferences {
  status: ResaleStatus[];
  /** dd/mm/yyyy as typed (possibly incomplete). */
  date: string;
  /** -1 newest first, 1 oldest first. */
  createdAt: ResaleSort;
  amount: number;
}

export const DEFAULT_RESALE_PREFERENCES: ResalePreferences = {
  status: [],
  date: '',
  createdAt: -1,
  amount: DEFAULT_PAGE_SIZE,
};

/** The stored preferences; anything missing or unreadable takes its default. */
export function loadResalePreferences(storage: Storage = localStorage): ResalePreferences {
  let raw: unknown = null;
  try {
    raw = JSON.parse(storage.getItem(STORAGE.resalePreferences) ?? 'null');
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_RESALE_PREFERENCES, status: [] };
  const p = raw as Record<string, unknown>;
  const status = Array.isArray(p.status)
    ? p.status.filter(isResaleStatus).filter((s, i, all) => all.indexOf(s) === i)
    : [];
  const date = typeof p.date === 'string' && /^[\d/]{0,10}$/.test(p.date) ? p.date : '';
  const createdAt: ResaleSort = p.createdAt === 1 || p.createdAt === '1' ? 1 : -1;
  const amount =
    typeof p.amount === 'number' && (PAGE_SIZES_WITH_ALL.includes(p.amount) || p.amount === ALL_ROWS)
      ? p.amount
      : DEFAULT_PAGE_SIZE;
  return { status, date, createdAt, amount };
}

export function saveResalePreferences(prefs: ResalePreferences, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE.resalePreferences, JSON.stringify(prefs));
  } catch {
    // storage full or disabled: the list still works, it just forgets
  }
}

/** A complete, real dd/mm/yyyy date. */
export function isCompleteDate(text: string): boolean {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!m) return false;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (d < 1 || mo < 1 || mo > 12 || y < 1900) return false;
  const date = new Date(y, mo - 1, d);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d;
}

/** The date the list sends: the typed one when complete and real, else none. */
export function appliedDate(text: string): string {
  return isCompleteDate(text) ? text : '';
}

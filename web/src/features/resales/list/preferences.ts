import { readColumns, type ColumnDef } from '@/components/columns';
import { ALL_ROWS, DEFAULT_PAGE_SIZE, PAGE_SIZES_WITH_ALL } from '@/components/PageSizeSelect';
import { currentUserScope, readUserPreferences, writeUserPreferences } from '@/components/userPreferences';
import { type ResaleSort } from '../api/resale';
import { isResaleStatus, type ResaleStatus } from '@/lib/status';
import { STORAGE } from '@/lib/session';

export type ResaleColumn = 'resale' | 'cnpj' | 'phone' | 'contact' | 'date' | 'status' | 'actions';

/** The Resales table's columns (spec §2), in order; the company and its buttons are always shown. */
export const RESALE_COLUMNS: readonly ColumnDef<ResaleColumn>[] = [
  { key: 'resale', label: 'Revenda', fixed: true },
  { key: 'cnpj', label: 'CNPJ', width: 156 },
  { key: 'phone', label: 'Telefone', width: 140 },
  { key: 'contact', label: 'Contato' },
  { key: 'date', label: 'Solicitado em', width: 132 },
  { key: 'status', label: 'Status', width: 120 },
  { key: 'actions', label: 'Ações', width: 84, fixed: true },
];

/** Every column: the spec's list, which fits a 1366 px screen. */
export const DEFAULT_RESALE_COLUMNS: readonly ResaleColumn[] = RESALE_COLUMNS.map((c) => c.key);

/**
 * What the Resales list keeps for each user under resale_preferences (spec §2;
 * components/userPreferences.ts).
 */
export interface ResalePreferences {
  status: ResaleStatus[];
  /** dd/mm/yyyy as typed (possibly incomplete). */
  date: string;
  /** -1 newest first, 1 oldest first. */
  createdAt: ResaleSort;
  amount: number;
  /** The chosen columns ('Colunas'). */
  columns: ResaleColumn[];
}

export const DEFAULT_RESALE_PREFERENCES: ResalePreferences = {
  status: [],
  date: '',
  createdAt: -1,
  amount: DEFAULT_PAGE_SIZE,
  columns: [...DEFAULT_RESALE_COLUMNS],
};

/** The user's stored preferences; anything missing or unreadable takes its default. */
export function loadResalePreferences(scope: string = currentUserScope(), storage: Storage = localStorage): ResalePreferences {
  const raw = readUserPreferences(STORAGE.resalePreferences, scope, storage);
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_RESALE_PREFERENCES, status: [], columns: [...DEFAULT_RESALE_COLUMNS] };
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
  const columns = readColumns(p.columns, RESALE_COLUMNS, DEFAULT_RESALE_COLUMNS);
  return { status, date, createdAt, amount, columns };
}

export function saveResalePreferences(
  prefs: ResalePreferences,
  scope: string = currentUserScope(),
  storage: Storage = localStorage,
): void {
  writeUserPreferences(STORAGE.resalePreferences, prefs, scope, storage);
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

import { DEFAULT_PAGE_SIZE, PAGE_SIZES_WITH_ALL } from '@/components/PageSizeSelect';
import {
  DEFAULT_SORT,
  EMPTY_FILTERS,
  type ListSort,
  type OpportunityFilters,
} from '../api/list';
import { readColumns } from '@/components/columns';
import { currentUserScope, readUserPreferences, writeUserPreferences } from '@/components/userPreferences';
import { normalizeCnpj } from '@/lib/cnpj';
import { STORAGE } from '@/lib/session';
import { isOpportunityStatus } from '@/lib/status';
import { OPPORTUNITY_COLUMNS, defaultOpportunityColumns, type OpportunityColumn } from './columns';

/**
 * What the list keeps for each user under opportunity_preferences (spec §2;
 * one entry per brand and user: components/userPreferences.ts).
 */
export interface OpportunityPreferences {
  filters: OpportunityFilters;
  sort: ListSort;
  /** Rows per page. */
  amount: number;
  /** The chosen columns ('Colunas'). */
  columns: OpportunityColumn[];
}

export const DEFAULT_PREFERENCES: OpportunityPreferences = {
  filters: EMPTY_FILTERS,
  sort: DEFAULT_SORT,
  amount: DEFAULT_PAGE_SIZE,
  columns: readColumns(null, OPPORTUNITY_COLUMNS, defaultOpportunityColumns([])),
};

const TEXT_FILTERS = ['name', 'register', 'date', 'cnpj', 'email', 'fantasyName', 'state', 'city'] as const;

function readFilters(raw: unknown): OpportunityFilters {
  const f = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const filters: OpportunityFilters = { ...EMPTY_FILTERS, status: [] };
  for (const key of TEXT_FILTERS) {
    if (typeof f[key] === 'string') filters[key] = f[key] as string;
  }
  filters.cnpj = normalizeCnpj(filters.cnpj).slice(0, 14);
  if (f.mine === true) filters.mine = true;
  if (Array.isArray(f.status)) {
    filters.status = f.status.filter(isOpportunityStatus).filter((s, i, all) => all.indexOf(s) === i);
  }
  return filters;
}

function readSort(raw: unknown): ListSort {
  const s = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const field = s.field === 'estimated' || s.field === 'createdAt' ? s.field : DEFAULT_SORT.field;
  const direction = s.direction === 'asc' || s.direction === 'desc' ? s.direction : DEFAULT_SORT.direction;
  return { field, direction };
}

/**
 * The user's stored preferences; anything missing or unreadable takes its
 * default, and the columns the default of the user's roles.
 */
export function loadPreferences(
  roles: readonly string[] = [],
  scope: string = currentUserScope(),
  storage: Storage = localStorage,
): OpportunityPreferences {
  const raw = readUserPreferences(STORAGE.opportunityPreferences, scope, storage);
  const p = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const amount = typeof p.amount === 'number' && PAGE_SIZES_WITH_ALL.includes(p.amount) ? p.amount : DEFAULT_PAGE_SIZE;
  const columns = readColumns(p.columns, OPPORTUNITY_COLUMNS, defaultOpportunityColumns(roles));
  return { filters: readFilters(p.filters), sort: readSort(p.sort), amount, columns };
}

export function savePreferences(
  prefs: OpportunityPreferences,
  scope: string = currentUserScope(),
  storage: Storage = localStorage,
): void {
  writeUserPreferences(STORAGE.opportunityPreferences, prefs, scope, storage);
}

import { DEFAULT_PAGE_SIZE, PAGE_SIZES_WITH_ALL } from '../../../components/PageSizeSelect';
import {
  DEFAULT_SORT,
  EMPTY_FILTERS,
  type ListSort,
  type OpportunityFilters,
} from '../../../lib/opportunityListApi';
import { normalizeCnpj } from '../../../lib/cnpj';
import { STORAGE } from '../../../lib/session';
import { isOpportunityStatus } from '../../../lib/status';

/** What the list keeps in local storage under opportunity_preferences (spec §2). */
export interface OpportunityPreferences {
  filters: OpportunityFilters;
  sort: ListSort;
  /** Rows per page. */
  amount: number;
}

export const DEFAULT_PREFERENCES: OpportunityPreferences = {
  filters: EMPTY_FILTERS,
  sort: DEFAULT_SORT,
  amount: DEFAULT_PAGE_SIZE,
};

const TEXT_FILTERS = ['name', 'register', 'date', 'cnpj', 'email', 'fantasyName', 'state', 'city'] as const;

function readFilters(raw: unknown): OpportunityFilters {
  const f = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const filters: OpportunityFilters = { ...EMPTY_FILTERS, status: [] };
  for (const key of TEXT_FILTERS) {
    if (typeof f[key] === 'string') filters[key] = f[key] as string;
  }
  filters.cnpj = normalizeCnpj(filters.cnpj).slice(0, 14);
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

/** The stored preferences; anything missing or unreadable takes its default. */
export function loadPreferences(storage: Storage = localStorage): OpportunityPreferences {
  let raw: unknown = null;
  try {
    raw = JSON.parse(storage.getItem(STORAGE.opportunityPreferences) ?? 'null');
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_PREFERENCES, filters: { ...EMPTY_FILTERS, status: [] } };
  const p = raw as Record<string, unknown>;
  const amount = typeof p.amount === 'number' && PAGE_SIZES_WITH_ALL.includes(p.amount) ? p.amount : DEFAULT_PAGE_SIZE;
  return { filters: readFilters(p.filters), sort: readSort(p.sort), amount };
}

export function savePreferences(prefs: OpportunityPreferences, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE.opportunityPreferences, JSON.stringify(prefs));
  } catch {
    // storage full or disabled: the list still works, it just forgets
  }
}

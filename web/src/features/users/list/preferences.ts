import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/components/PageSizeSelect';
import { currentUserScope, readUserPreferences, writeUserPreferences } from '@/components/userPreferences';
import { STORAGE } from '@/lib/session';

/**
 * What the Users list keeps for each user under seller_preferences (spec §2;
 * components/userPreferences.ts): the last name filter and the page size.
 */
export interface SellerPreferences {
  /** 'Nome do vendedor' as last applied. */
  name: string;
  amount: number;
}

export const DEFAULT_SELLER_PREFERENCES: SellerPreferences = { name: '', amount: DEFAULT_PAGE_SIZE };

export function loadSellerPreferences(scope: string = currentUserScope(), storage: Storage = localStorage): SellerPreferences {
  const raw = readUserPreferences(STORAGE.sellerPreferences, scope, storage);
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_SELLER_PREFERENCES };
  const p = raw as Record<string, unknown>;
  const name = typeof p.name === 'string' ? p.name.slice(0, 120) : '';
  const amount = typeof p.amount === 'number' && PAGE_SIZES.includes(p.amount) ? p.amount : DEFAULT_PAGE_SIZE;
  return { name, amount };
}

export function saveSellerPreferences(
  prefs: SellerPreferences,
  scope: string = currentUserScope(),
  storage: Storage = localStorage,
): void {
  writeUserPreferences(STORAGE.sellerPreferences, prefs, scope, storage);
}

import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '../../../components/PageSizeSelect';
import { STORAGE } from '../../../lib/session';

/** What the Users list keeps under seller_preferences (spec §2): the last name filter and the page size. */
export interface SellerPreferences {
  /** 'Nome do vendedor' as last applied. */
  name: string;
  amount: number;
}

export const DEFAULT_SELLER_PREFERENCES: SellerPreferences = { name: '', amount: DEFAULT_PAGE_SIZE };

export function loadSellerPreferences(storage: Storage = localStorage): SellerPreferences {
  let raw: unknown = null;
  try {
    raw = JSON.parse(storage.getItem(STORAGE.sellerPreferences) ?? 'null');
  } catch {
    raw = null;
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_SELLER_PREFERENCES };
  const p = raw as Record<string, unknown>;
  const name = typeof p.name === 'string' ? p.name.slice(0, 120) : '';
  const amount = typeof p.amount === 'number' && PAGE_SIZES.includes(p.amount) ? p.amount : DEFAULT_PAGE_SIZE;
  return { name, amount };
}

export function saveSellerPreferences(prefs: SellerPreferences, storage: Storage = localStorage): void {
  try {
    storage.setItem(STORAGE.sellerPreferences, JSON.stringify(prefs));
  } catch {
    // storage full or disabled: the list still works, it just forgets
  }
}

import { describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES, loadPreferences, savePreferences } from './preferences';

describe('opportunity_preferences', () => {
  it('defaults to no filters, createdAt descending and 10 rows', () => {
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES.sort).toEqual({ field: 'createdAt', direction: 'desc' });
    expect(DEFAULT_PREFERENCES.amount).toBe(10);
  });

  it('round-trips filters, sort and page size under opportunity_preferences', () => {
    const prefs = {
      filters: {
        status: ['approved', 'awaiting_renovation'] as const,
        name: 'Hospital',
        register: 'CRM-1',
        date: '20/11/2026',
        cnpj: '12345678000195',
        email: 'compras@x.com',
        fantasyName: 'Santa Clara',
        state: 'MG',
        city: 'Belo Horizonte',
      },
      sort: { field: 'estimated', direction: 'asc' } as const,
      amount: 99999,
    };
    savePreferences({ ...prefs, filters: { ...prefs.filters, status: [...prefs.filters.status] } });
    expect(JSON.parse(localStorage.getItem('opportunity_preferences') ?? '')).toMatchObject({ amount: 99999 });
    expect(loadPreferences()).toEqual({ ...prefs, filters: { ...prefs.filters, status: [...prefs.filters.status] } });
  });

  it('keeps an alphanumeric CNPJ filter, upper-cased, without punctuation', () => {
    localStorage.setItem('opportunity_preferences', JSON.stringify({ filters: { cnpj: '12.abc.345/01de-35' } }));
    expect(loadPreferences().filters.cnpj).toBe('12ABC34501DE35');
  });

  it('ignores what it cannot use', () => {
    localStorage.setItem(
      'opportunity_preferences',
      JSON.stringify({
        filters: { status: ['approved', 'bogus', 'approved'], name: 7, cnpj: '12.345.678/0001-95' },
        sort: { field: 'name', direction: 'up' },
        amount: 33,
      }),
    );
    const prefs = loadPreferences();
    expect(prefs.filters.status).toEqual(['approved']);
    expect(prefs.filters.name).toBe('');
    expect(prefs.filters.cnpj).toBe('12345678000195');
    expect(prefs.sort).toEqual({ field: 'createdAt', direction: 'desc' });
    expect(prefs.amount).toBe(10);
    localStorage.setItem('opportunity_preferences', '{not json');
    expect(loadPreferences()).toEqual(DEFAULT_PREFERENCES);
  });
});

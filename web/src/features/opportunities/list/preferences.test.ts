import { describe, expect, it } from 'vitest';
import type { OpportunityColumn } from './columns';
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
      columns: ['actions', 'name', 'city', 'seller'] as OpportunityColumn[],
    };
    savePreferences({ ...prefs, filters: { ...prefs.filters, status: [...prefs.filters.status] } });
    expect(JSON.parse(localStorage.getItem('opportunity_preferences') ?? '')).toMatchObject({
      users: { '/': { amount: 99999 } },
    });
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

describe('columns of the opportunities list', () => {
  it('default by role: staff see the company and the seller, a reseller its seller, a seller neither', () => {
    const cols = (roles: string[]) => loadPreferences(roles, 'nordata/u1').columns;
    expect(cols(['REPRESENTATIVE'])).toEqual(expect.arrayContaining(['resale', 'seller', 'age']));
    expect(cols(['SUPPORT'])).toEqual(cols(['REPRESENTATIVE']));
    expect(cols(['RESALE'])).toContain('seller');
    expect(cols(['RESALE'])).not.toContain('resale');
    expect(cols(['SELLER'])).not.toContain('seller');
    expect(cols(['SELLER'])).not.toContain('resale');
    expect(cols(['SELLER'])).toEqual(expect.arrayContaining(['probability', 'age']));
    for (const roles of [['REPRESENTATIVE'], ['RESALE'], ['SELLER']]) expect(cols(roles).slice(0, 2)).toEqual(['actions', 'name']);
  });

  it("are each user's own, with the filters, at each brand", () => {
    const ana = loadPreferences(['REPRESENTATIVE'], 'nordata/ana');
    savePreferences({ ...ana, columns: ['actions', 'name', 'register'], filters: { ...ana.filters, name: 'Hospital' } }, 'nordata/ana');
    expect(loadPreferences(['REPRESENTATIVE'], 'nordata/ana')).toMatchObject({
      columns: ['actions', 'name', 'register'],
      filters: { name: 'Hospital' },
    });
    const bia = loadPreferences(['REPRESENTATIVE'], 'nordata/bia');
    expect(bia.columns).toEqual(ana.columns);
    expect(bia.filters.name).toBe('');
    expect(loadPreferences(['REPRESENTATIVE'], 'etiquetron/ana').columns).toEqual(ana.columns);
  });
});

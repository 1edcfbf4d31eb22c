import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, storeSession } from '@/test/helpers';
import { setCompany } from '@/lib/http';
import { setNavigator } from '@/lib/navigation';
import {
  DEFAULT_SORT,
  EMPTY_FILTERS,
  exportOpportunities,
  filterQuery,
  isCompleteDate,
  listEndpointFor,
  listQuery,
  PERMISSION_DENIED,
  PERMISSION_NOT_FOUND,
} from './list';

let navigations: string[];
beforeEach(() => {
  setCompany('yep');
  navigations = [];
  setNavigator((to) => navigations.push(to));
});

describe('listEndpointFor (spec §6 priority)', () => {
  it.each([
    [['RESALE'], '/opportunity/resale'],
    [['SELLER'], '/opportunity/user'],
    [['REPRESENTATIVE'], '/opportunity/all'],
    [['SUPPORT'], '/opportunity/all'],
    [['SELLER', 'RESALE'], '/opportunity/resale'],
    [['REPRESENTATIVE', 'SELLER'], '/opportunity/user'],
    [['SUPPORT', 'REPRESENTATIVE'], '/opportunity/all'],
  ])('%s reads %s', (roles, path) => {
    expect(listEndpointFor(roles)).toEqual({ ok: true, path });
  });

  it("answers 'Permission denied' without a list role and 'User permission not found' without roles", () => {
    expect(listEndpointFor(['ADMIN'])).toEqual({ ok: false, message: PERMISSION_DENIED });
    expect(listEndpointFor([])).toEqual({ ok: false, message: PERMISSION_NOT_FOUND });
  });
});

describe('isCompleteDate', () => {
  it('accepts only a whole, real dd/mm/yyyy date', () => {
    expect(isCompleteDate('20/11/2026')).toBe(true);
    expect(isCompleteDate('29/02/2028')).toBe(true);
    expect(isCompleteDate('29/02/2027')).toBe(false);
    expect(isCompleteDate('31/04/2026')).toBe(false);
    expect(isCompleteDate('00/11/2026')).toBe(false);
    expect(isCompleteDate('20/11/20')).toBe(false);
    expect(isCompleteDate('20/1')).toBe(false);
  });
});

describe('filterQuery', () => {
  it('sends only the filters that are set, the CNPJ as digits, the trade name as client and the sort', () => {
    const q = filterQuery(
      {
        ...EMPTY_FILTERS,
        status: ['analysis', 'approved'],
        name: '  Hospital ',
        cnpj: '12.345.678/0001-95',
        fantasyName: 'Boa Compra',
        state: 'MG',
        city: 'Belo Horizonte',
        date: '20/11/2026',
      },
      { field: 'estimated', direction: 'asc' },
    );
    expect(q).toEqual({
      brandName: 'yep',
      status: 'analysis,approved',
      name: 'Hospital',
      register: undefined,
      date: '20/11/2026',
      cnpj: '12345678000195',
      email: undefined,
      client: 'Boa Compra',
      state: 'MG',
      city: 'Belo Horizonte',
      estimated: 'asc',
    });
  });

  it('leaves out an incomplete date and defaults to createdAt descending', () => {
    const q = listQuery({ ...EMPTY_FILTERS, date: '20/11' }, DEFAULT_SORT, 99999, 1);
    expect(q.date).toBeUndefined();
    expect(q.createdAt).toBe('desc');
    expect(q.estimated).toBeUndefined();
    expect(q).toMatchObject({ amount: 99999, page: 1 });
  });
});

describe('exportOpportunities', () => {
  const xlsx = () =>
    new Response('PK-fake', {
      status: 200,
      headers: { 'Content-Disposition': 'attachment; filename="Oportunidades-2026-11-20.xlsx"' },
    });

  it('downloads the workbook with the filters, the bearer token and the company header', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], token: 'access-1' });
    const calls = mockFetch(() => xlsx());
    const res = await exportOpportunities({ ...EMPTY_FILTERS, status: ['approved'], cnpj: '123' }, DEFAULT_SORT);
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.fileName).toBe('Oportunidades-2026-11-20.xlsx');
    expect(res.blob.size).toBe(7);
    const url = new URL(calls[0].url, 'http://x');
    expect(url.pathname).toBe('/api/opportunity/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      brandName: 'yep',
      status: 'approved',
      cnpj: '123',
      createdAt: 'desc',
      amount: '99999',
      page: '1',
    });
    expect(calls[0].headers.authorization).toBe('Bearer access-1');
    expect(calls[0].headers.company).toBe('yep');
  });

  it('refreshes the session once on a 401 and retries', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], token: 'old', refreshToken: 'r1' });
    let exportCalls = 0;
    const calls = mockFetch((call) => {
      if (call.url.includes('/auth/refresh_token')) {
        return json(200, { data: { access_token: 'new', refresh_token: 'r2', expires_in: 3600 } });
      }
      exportCalls++;
      return exportCalls === 1 ? json(401, { message: 'expirado' }) : xlsx();
    });
    const res = await exportOpportunities(EMPTY_FILTERS, DEFAULT_SORT);
    expect(res.ok).toBe(true);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer old', 'Bearer r1', 'Bearer new']);
    expect(navigations).toEqual([]);
  });

  it('retries with the pair another tab rotated while the export was out, without refreshing', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], token: 'old', refreshToken: 'r1' });
    let exportCalls = 0;
    const calls = mockFetch(() => {
      exportCalls++;
      if (exportCalls > 1) return xlsx();
      Cookies.set('token', 'rotated', { path: '/' }); // another tab refreshed meanwhile
      Cookies.set('refresh_token', 'r2', { path: '/' });
      return json(401, { message: 'expirado' });
    });
    const res = await exportOpportunities(EMPTY_FILTERS, DEFAULT_SORT);
    expect(res.ok).toBe(true);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer old', 'Bearer rotated']);
    expect(navigations).toEqual([]);
  });

  it('ends the session when the refresh fails', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], refreshToken: 'r1' });
    mockFetch(() => json(401, {}));
    const res = await exportOpportunities(EMPTY_FILTERS, DEFAULT_SORT);
    expect(res).toEqual({ ok: false, status: 401 });
    expect(navigations).toEqual(['/']);
  });

  it("returns the server's message on a 4xx and 500 on a network failure", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    mockFetch(() => json(400, { message: 'Data inválida: use dd/mm/aaaa.' }));
    expect(await exportOpportunities(EMPTY_FILTERS, DEFAULT_SORT)).toEqual({
      ok: false,
      status: 400,
      message: 'Data inválida: use dd/mm/aaaa.',
    });
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('offline'))));
    expect(await exportOpportunities(EMPTY_FILTERS, DEFAULT_SORT)).toEqual({ ok: false, status: 500 });
  });
});

import { describe, expect, it } from 'vitest';
import { json, mockFetch, storeSession } from '@/test/helpers';
import { setCompany } from '@/lib/http';
import { decideResale, decisionSucceeded, listResales, resaleListParams, type Resale } from './resale';
import { resaleDetailsPath } from '@/lib/guards';
import { resaleStatusLabel } from '@/lib/status';

const RESALE: Resale = {
  id: 'r-1',
  status: 'analysis',
  corporateName: 'Alfa & Cia Ltda',
  fantasyName: '',
  cnpj: '11222333000181',
  phone: '11987654321',
  contactName: 'Ana Souza',
  email: 'ana@alfa.com.br',
  cep: '01001000',
  city: 'São Paulo',
  street: 'Praça da Sé, 1',
  state: 'SP',
  reason: '',
  createdAt: '2026-03-01T12:00:00Z',
};

describe('resaleApi', () => {
  it('labels the three statuses', () => {
    expect(['analysis', 'approved', 'disapproved'].map(resaleStatusLabel)).toEqual(['Em Análise', 'Aprovado', 'Reprovado']);
  });

  it('builds the list query: brand, sort, status list and date only when set', () => {
    setCompany('yep');
    expect(resaleListParams({ amount: 10, page: 2, status: [], date: '', createdAt: -1 })).toEqual({
      amount: 10,
      page: 2,
      brand: 'yep',
      createdAt: -1,
    });
    expect(
      resaleListParams({ amount: 99999, page: 1, status: ['analysis', 'disapproved'], date: '01/03/2026', createdAt: 1 }),
    ).toEqual({ amount: 99999, page: 1, brand: 'yep', createdAt: 1, status: 'analysis,disapproved', date: '01/03/2026' });
  });

  it('calls GET /api/resale/all with the session', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], token: 'tk' });
    setCompany('yep');
    const calls = mockFetch(() => json(200, { result: [RESALE], total: 1 }));
    const res = await listResales({ amount: 25, page: 1, status: ['approved'], date: '', createdAt: -1 });
    expect(res.data?.total).toBe(1);
    expect(calls[0].url).toBe('/api/resale/all?amount=25&page=1&brand=yep&createdAt=-1&status=approved');
    expect(calls[0].headers.authorization).toBe('Bearer tk');
  });

  it('sends the decision with the reason and the host', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = mockFetch(() => json(200, {}));
    await decideResale('r-1', { status: 'disapproved', reason: '  CNPJ inativo ' }, 'yep.localhost:8080');
    await decideResale('r-1', { status: 'approved' }, 'yep.localhost:8080');
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PATCH', '/api/resale/update/r-1', { status: 'disapproved', reason: 'CNPJ inativo', host: 'yep.localhost:8080' }],
      ['PATCH', '/api/resale/update/r-1', { status: 'approved', reason: '', host: 'yep.localhost:8080' }],
    ]);
  });

  it('expects 201 for an approval and 200 for a rejection', () => {
    expect(decisionSucceeded('approved', 201)).toBe(true);
    expect(decisionSucceeded('disapproved', 200)).toBe(true);
    expect(decisionSucceeded('disapproved', 201)).toBe(false);
    expect(decisionSucceeded('approved', 409)).toBe(false);
  });

  it('links the details by the id only: no personal data in the URL', () => {
    const path = resaleDetailsPath(RESALE);
    expect(path).toBe('/Painel/Resales/details?id=r-1');
    for (const value of ['11222333000181', 'ana@alfa.com.br', 'Ana', '11987654321', '01001000', 'Praça']) {
      expect(decodeURIComponent(path)).not.toContain(value);
    }
  });
});

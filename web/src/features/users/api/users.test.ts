import { describe, expect, it } from 'vitest';
import { json, mockFetch, storeSession } from '@/test/helpers';
import { setCompany, type HttpResponse } from '@/lib/http';
import {
  MSG_SELLER_CREATED,
  MSG_SELLER_EMAIL_USED,
  MSG_SELLER_ERROR,
  MSG_SELLER_INVALID,
  createSeller,
  deactivateSeller,
  isDeactivated,
  listSellers,
  sellerCreationOutcome,
  sellerListSource,
} from './users';

const res = (status: number, body: { message?: string; errors?: unknown[] } = {}): HttpResponse<unknown> => ({
  status,
  ok: status >= 200 && status < 300,
  data: null,
  message: body.message,
  errors: body.errors,
  body,
});

describe('sellerListSource (spec §6 "Seller list")', () => {
  it('RESALE first, then representative or support, else Permission denied', () => {
    expect(sellerListSource(['RESALE', 'REPRESENTATIVE'])).toEqual({ ok: true, kind: 'seller' });
    expect(sellerListSource(['SUPPORT'])).toEqual({ ok: true, kind: 'representative' });
    expect(sellerListSource(['REPRESENTATIVE'])).toEqual({ ok: true, kind: 'representative' });
    expect(sellerListSource(['SELLER'])).toEqual({ ok: false, message: 'Permission denied' });
  });
});

describe('listSellers', () => {
  it('RESALE: /seller/all with status=true; a 404 is an empty list', async () => {
    storeSession({ roles: ['RESALE'] });
    setCompany('yep');
    const calls = mockFetch(() => json(404, { message: 'not found' }));
    const r = await listSellers('seller', { amount: 10, page: 1, name: '' });
    expect(calls[0].url).toBe('/api/seller/all?amount=10&page=1&status=true');
    expect(r.ok).toBe(true);
    expect(r.data).toEqual({ result: [], total: 0 });
  });

  it('staff: /representative/all by brand', async () => {
    storeSession({ roles: ['SUPPORT'] });
    setCompany('yep');
    const calls = mockFetch(() => json(200, { result: [{ id: 'u', name: 'A', email: 'a@b.co', phone: null, active: true }], total: 1 }));
    const r = await listSellers('representative', { amount: 1000, page: 3, name: ' ' });
    expect(calls[0].url).toBe('/api/representative/all?amount=1000&page=3&status=true&brand=yep');
    expect(r.data?.total).toBe(1);
  });

  it('with a name: /seller/name, {total, data} read as {result, total}', async () => {
    storeSession({ roles: ['RESALE'] });
    setCompany('yep');
    const calls = mockFetch(() => json(200, { total: 1, data: [{ id: 'u', name: 'Vanessa', email: 'v@b.co', phone: '1', active: true }] }));
    const r = await listSellers('seller', { amount: 10, page: 1, name: ' Van ' });
    expect(calls[0].url).toBe('/api/seller/name?amount=10&page=1&name=Van&brand=yep');
    expect(r.data?.result.map((u) => u.name)).toEqual(['Vanessa']);
  });

  it('other failures come back as they are', async () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(403, { message: 'Seu usuário não está vinculado a uma revenda.' }));
    const r = await listSellers('seller', { amount: 10, page: 1, name: '' });
    expect(r.ok).toBe(false);
    expect(r.message).toBe('Seu usuário não está vinculado a uma revenda.');
  });
});

describe('sellerCreationOutcome (spec §8 "Seller creation")', () => {
  it.each([
    [res(201), true, MSG_SELLER_CREATED],
    [res(409, { message: 'x' }), false, MSG_SELLER_EMAIL_USED],
    [res(400, { message: 'Dados do usuário inválidos', errors: ['Verifique o telefone digitado'] }), false, 'Verifique o telefone digitado'],
    [res(400, { errors: [{ message: 'Verifique o nome digitado' }] }), false, 'Verifique o nome digitado'],
    [res(400, {}), false, MSG_SELLER_INVALID],
    [res(403, { message: 'Seu usuário não está vinculado a uma revenda.' }), false, 'Seu usuário não está vinculado a uma revenda.'],
    [res(404, {}), false, MSG_SELLER_ERROR],
    [res(500, { message: 'Houve um erro' }), false, MSG_SELLER_ERROR],
  ])('%#', (r, ok, message) => {
    expect(sellerCreationOutcome(r)).toEqual({ ok, message });
  });
});

describe('seller calls', () => {
  it('POST /api/seller with the host; PATCH /api/seller/inative/{id}', async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = mockFetch(() => json(201, {}));
    await createSeller({ name: 'Bruno', email: 'bruno@alfa.com.br', phone: '11987654321' }, 'yep.localhost');
    await deactivateSeller('u 1');
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/api/seller', { email: 'bruno@alfa.com.br', name: 'Bruno', phone: '11987654321', host: 'yep.localhost' }],
      ['PATCH', '/api/seller/inative/u%201', undefined],
    ]);
  });
});

describe('isDeactivated', () => {
  it('is true only for a record that says active: false', () => {
    expect(isDeactivated({ active: false })).toBe(true);
    expect(isDeactivated({ active: true })).toBe(false);
    expect(isDeactivated({})).toBe(false);
    expect(isDeactivated(null)).toBe(false);
    expect(isDeactivated(undefined)).toBe(false);
  });
});

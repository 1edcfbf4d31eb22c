import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/helpers';
import { setCompany, type HttpResponse } from '@/lib/http';
import {
  MSG_REGISTRATION_ERROR,
  MSG_RESALE_CNPJ_TAKEN,
  MSG_RESALE_DUPLICATE,
  MSG_RESALE_REGISTERED,
  registerResale,
  registrationOutcome,
} from './registration';

const res = (status: number, message?: string): HttpResponse<unknown> => ({
  status,
  ok: status >= 200 && status < 300,
  data: null,
  message,
  body: null,
});

describe('registrationOutcome (spec §8 "Reseller registration")', () => {
  it('201 is the success with its message', () => {
    expect(registrationOutcome(res(201))).toEqual({ kind: 'success', message: MSG_RESALE_REGISTERED });
  });

  it.each([
    [400, undefined],
    [409, 'Email já está sendo utilizado'],
    [422, 'Email ou Doc já existente'],
  ])('%s %s means already registered', (status, message) => {
    expect(registrationOutcome(res(status, message))).toEqual({ kind: 'duplicate', message: MSG_RESALE_DUPLICATE });
  });

  it('400 with the CNPJ code or message stays on the CNPJ step with its own message', () => {
    const cnpj: HttpResponse<unknown> = { ...res(400, MSG_RESALE_CNPJ_TAKEN), body: { code: 'CNPJ_TAKEN' } };
    expect(registrationOutcome(cnpj)).toEqual({ kind: 'duplicate-cnpj', message: MSG_RESALE_CNPJ_TAKEN });
    expect(registrationOutcome(res(400, MSG_RESALE_CNPJ_TAKEN))).toEqual({
      kind: 'duplicate-cnpj',
      message: MSG_RESALE_CNPJ_TAKEN,
    });
    const email: HttpResponse<unknown> = { ...res(400, 'Email já está sendo utilizado'), body: { code: 'EMAIL_TAKEN' } };
    expect(registrationOutcome(email)).toEqual({ kind: 'duplicate', message: MSG_RESALE_DUPLICATE });
  });

  it('429 asks for the wait and retry', () => {
    expect(registrationOutcome(res(429, 'Muitas solicitações'))).toEqual({ kind: 'rate-limit' });
  });

  it.each([403, 409, 500])('%s is the generic error', (status) => {
    expect(registrationOutcome(res(status, 'outra'))).toEqual({ kind: 'error', message: MSG_REGISTRATION_ERROR });
  });
});

describe('registerResale', () => {
  const RESALE = {
    email: 'a@b.com.br',
    phone: '11987654321',
    contactName: 'Ana',
    cnpj: '11222333000181',
    fantasyName: 'N/C',
    corporateName: 'Ana Ltda',
    street: 'Rua A, 1',
    state: 'SP',
    cep: '01001000',
    city: 'São Paulo',
  };

  it('posts the payload with the brand, an empty role list and Brasil, and its Idempotency-Key, without a session', async () => {
    setCompany('tagora');
    const calls = mockFetch(() => json(201, { message: MSG_RESALE_REGISTERED }));
    const r = await registerResale(RESALE, 'key-1');
    expect(r.status).toBe(201);
    expect(calls[0].url).toBe('/api/register/resale');
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers.authorization).toBeUndefined();
    expect(calls[0].headers.company).toBe('tagora');
    expect(calls[0].headers['idempotency-key']).toBe('key-1');
    expect(calls[0].body).toEqual({ role: [], brand: 'tagora', country: 'Brasil', ...RESALE });
  });
});

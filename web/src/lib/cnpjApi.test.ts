import { describe, expect, it } from 'vitest';
import { CNPJ_FOUND, CNPJ_FOUND_FIELDS } from '@/test/fixtures';
import { json, mockFetch, storeSession } from '@/test/helpers';
import { MSG_CNPJ_FAILED, MSG_CNPJ_INVALID, MSG_CNPJ_RATE_LIMIT, lookupCnpj, toCompanyData } from './cnpjApi';
import { setCompany } from './http';

describe('cnpjApi', () => {
  it('maps the lookup to the company fields; a blank trade name becomes N/C', () => {
    expect(toCompanyData(CNPJ_FOUND)).toEqual(CNPJ_FOUND_FIELDS);
    expect(toCompanyData({ ...CNPJ_FOUND, nome_fantasia: ' ' }).fantasyName).toBe('N/C');
    expect(toCompanyData({ ...CNPJ_FOUND, nome_fantasia: null }).fantasyName).toBe('N/C');
  });

  it('calls GET /api/cnpj/{digits} with the session token when there is one', async () => {
    setCompany('nordata');
    storeSession({ roles: ['SELLER'], token: 'tk', company: 'nordata' });
    const calls = mockFetch(() => json(200, CNPJ_FOUND));
    const res = await lookupCnpj('11.222.333/0001-81');
    expect(res).toEqual({ ok: true, company: toCompanyData(CNPJ_FOUND) });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/cnpj/11222333000181');
    expect(calls[0].headers.authorization).toBe('Bearer tk');
    expect(calls[0].headers.company).toBe('nordata');
  });

  it('gives the spec messages for 429, 404/400 and other failures', async () => {
    for (const [status, reason, message] of [
      [429, 'rate-limit', 'x'],
      [404, 'invalid', MSG_CNPJ_INVALID],
      [400, 'invalid', MSG_CNPJ_INVALID],
      [500, 'failed', MSG_CNPJ_FAILED],
      [403, 'failed', MSG_CNPJ_FAILED],
    ] as const) {
      mockFetch(() => json(status, { message: 'x' }));
      expect(await lookupCnpj('11222333000181'), String(status)).toEqual({ ok: false, reason, message });
    }
  });

  it("shows the provider's wait on a 429, and the spec's text when the server sends none", async () => {
    const busy = 'O serviço de consulta de CNPJ está recebendo muitas consultas. Tente novamente em 120 segundos.';
    mockFetch(() => json(429, { message: busy }));
    expect(await lookupCnpj('11222333000181')).toEqual({ ok: false, reason: 'rate-limit', message: busy });
    mockFetch(() => json(429, {}));
    expect(await lookupCnpj('11222333000181')).toEqual({ ok: false, reason: 'rate-limit', message: MSG_CNPJ_RATE_LIMIT });
  });

  it('works without a session and never refreshes on a 401', async () => {
    setCompany('nordata');
    const calls = mockFetch(() => json(401, { message: 'x' }));
    expect(await lookupCnpj('11222333000181')).toMatchObject({ ok: false, reason: 'failed' });
    expect(calls).toHaveLength(1);
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('does not call the service for an incomplete CNPJ', async () => {
    const calls = mockFetch(() => json(200, CNPJ_FOUND));
    expect(await lookupCnpj('11.222.333/0001')).toMatchObject({ ok: false, message: MSG_CNPJ_INVALID });
    expect(calls).toHaveLength(0);
  });
});

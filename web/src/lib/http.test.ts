import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, json, mockFetch, storeSession } from '@/test/helpers';
import { base64Utf8, newIdempotencyKey, refreshSession, request, setCompany } from './http';
import { setNavigator } from './navigation';
import { acceptLgpd } from './session';

let navigations: string[];

beforeEach(() => {
  setCompany('yep');
  navigations = [];
  setNavigator((to) => navigations.push(to));
});

describe('request', () => {
  it('sends the bearer token and the company header on every call', async () => {
    storeSession({ roles: ['SELLER'], token: 'access-1' });
    const calls = mockFetch(() => json(200, { ok: true }));
    const res = await request('api', '/dashboard/status', { query: { brand: 'yep', page: 1, skip: undefined } });
    expect(res).toMatchObject({ status: 200, ok: true, data: { ok: true } });
    expect(calls[0].url).toBe('/api/dashboard/status?brand=yep&page=1');
    expect(calls[0].headers.authorization).toBe('Bearer access-1');
    expect(calls[0].headers.company).toBe('yep');
  });

  it('sends JSON bodies', async () => {
    const calls = mockFetch(() => json(204));
    const res = await request('authenticator', '/auth/logout', { method: 'POST', body: { refresh_token: 'r' } });
    expect(res).toMatchObject({ status: 204, ok: true, data: null });
    expect(calls[0].method).toBe('POST');
    expect(calls[0].headers['content-type']).toBe('application/json');
    expect(calls[0].body).toEqual({ refresh_token: 'r' });
  });

  it('returns statuses below 500 to the caller with the server message', async () => {
    mockFetch(() => json(423, { message: 'Bloqueado', errors: ['a'] }));
    const res = await request('api', '/opportunity/1', { method: 'PATCH', body: {} });
    expect(res).toMatchObject({ status: 423, ok: false, data: null, message: 'Bloqueado', errors: ['a'] });
  });

  it('turns server errors and network failures into a status 500 response', async () => {
    mockFetch(() => json(503, { message: 'x' }));
    expect((await request('api', '/x')).status).toBe(500);
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await request('api', '/x')).toMatchObject({ status: 500, ok: false, data: null });
  });

  it('uses Basic auth of UTF-8 credentials when asked', async () => {
    const calls = mockFetch(() => json(200, {}));
    await request('authenticator', '/login', { auth: { kind: 'basic', username: 'joão@yep.demo', password: 'Senha@1' } });
    expect(calls[0].headers.authorization).toBe(`Basic ${base64Utf8('joão@yep.demo:Senha@1')}`);
    expect(atob(calls[0].headers.authorization.slice(6))).toBe(
      String.fromCharCode(...new TextEncoder().encode('joão@yep.demo:Senha@1')),
    );
  });
});

describe('401 handling', () => {
  it('refreshes the token pair and retries once', async () => {
    storeSession({ roles: ['SELLER'], token: 'old-access', refreshToken: 'old-refresh' });
    const newExp = Math.floor(Date.now() / 1000) + 7200;
    const newAccess = fakeJwt(newExp);
    const calls = mockFetch((call) => {
      if (call.url === '/authenticator/yep/auth/refresh_token') {
        return json(200, { data: { access_token: newAccess, refresh_token: 'new-refresh', expires_in: 7200 } });
      }
      return call.headers.authorization === `Bearer ${newAccess}` ? json(200, { result: [] }) : json(401, {});
    });
    const res = await request('api', '/opportunity/all');
    expect(res).toMatchObject({ status: 200, data: { result: [] } });
    expect(calls.map((c) => c.url)).toEqual(['/api/opportunity/all', '/authenticator/yep/auth/refresh_token', '/api/opportunity/all']);
    expect(calls[1].headers.authorization).toBe('Bearer old-refresh');
    expect(Cookies.get('token')).toBe(newAccess);
    expect(Cookies.get('refresh_token')).toBe('new-refresh');
    expect(Cookies.get('exp')).toBe(String(newExp));
    expect(navigations).toEqual([]);
  });

  it('clears everything but the LGPD flag and goes to / when the refresh fails', async () => {
    storeSession({ roles: ['SELLER'] });
    acceptLgpd();
    localStorage.setItem('isLogged', 'true');
    const calls = mockFetch(() => json(401, { message: 'no' }));
    const res = await request('api', '/opportunity/all');
    expect(res.status).toBe(401);
    expect(calls).toHaveLength(2);
    expect(Object.keys(Cookies.get())).toEqual(['lgpd_accepted']);
    expect(localStorage.getItem('isLogged')).toBeNull();
    expect(navigations).toEqual(['/']);
  });

  it('does not retry more than once', async () => {
    storeSession({ roles: ['SELLER'] });
    const calls = mockFetch((call) =>
      call.url.includes('refresh_token') ? json(200, { data: { access_token: 'a2', refresh_token: 'r2' } }) : json(401, {}),
    );
    const res = await request('api', '/opportunity/all');
    expect(res.status).toBe(401);
    expect(calls.map((c) => c.url)).toEqual(['/api/opportunity/all', '/authenticator/yep/auth/refresh_token', '/api/opportunity/all']);
    expect(Cookies.get('token')).toBeUndefined();
    expect(navigations).toEqual(['/']);
  });

  it('does not refresh on the login call', async () => {
    const calls = mockFetch(() => json(401, { message: 'Usuário ou senha inválidos' }));
    const res = await request('authenticator', '/login', {
      auth: { kind: 'basic', username: 'a', password: 'b' },
      refreshOn401: false,
    });
    expect(res).toMatchObject({ status: 401, message: 'Usuário ou senha inválidos' });
    expect(calls).toHaveLength(1);
    expect(navigations).toEqual([]);
  });

  it('shares one refresh between concurrent 401s (a refresh token is used once)', async () => {
    storeSession({ roles: ['SELLER'], token: 'old' });
    let refreshes = 0;
    mockFetch(async (call) => {
      if (call.url.includes('refresh_token')) {
        refreshes++;
        await new Promise((r) => setTimeout(r, 10));
        return json(200, { data: { access_token: 'new', refresh_token: 'r2' } });
      }
      return call.headers.authorization === 'Bearer new' ? json(200, {}) : json(401, {});
    });
    const results = await Promise.all([request('api', '/a'), request('api', '/b'), request('api', '/c')]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(refreshes).toBe(1);
  });

  it('refreshSession reports failure without a refresh token', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    expect(await refreshSession()).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('newIdempotencyKey', () => {
  it('makes a new UUID per key', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeJwt, json, mockFetch, storeSession } from '@/test/helpers';
import { signIn, signOut, THROTTLED_FALLBACK } from './auth';
import { setCompany } from './http';
import { setNavigator } from './navigation';
import { COOKIE, readSession } from './session';

let navigations: string[];
const EXP = Math.floor(Date.now() / 1000) + 8 * 3600;
const ACCESS = fakeJwt(EXP);

beforeEach(() => {
  setCompany('yep');
  navigations = [];
  setNavigator((to) => navigations.push(to));
});

function authenticator(roles: unknown[], loginStatus = 200) {
  return mockFetch((call) => {
    if (call.url.startsWith('/authenticator/login')) {
      return loginStatus === 200
        ? json(200, { data: { data: { access_token: ACCESS, refresh_token: 'refresh-1', expires_in: 28800 } } })
        : json(loginStatus, { message: 'x' });
    }
    if (call.url === '/authenticator/auth/payload') return json(200, { payload: { id: 'u7', name: 'Rita Revenda', exp: EXP } });
    if (call.url === '/authenticator/user/u7/role') return json(200, { roles });
    return json(404, {});
  });
}

describe('signIn', () => {
  it('logs in with the trimmed values and stores the session', async () => {
    const calls = authenticator([
      { name: 'RESALE', data: { brand: 'yep' } },
      { name: 'SUPPORT', data: { brand: 'nordata' } },
    ]);
    const result = await signIn('  revenda@yep.demo ', ' Oportuna@2026  ', false);
    expect(result).toEqual({ kind: 'ok', landing: '/Painel/Opportunities', roles: ['RESALE'] });
    expect(calls[0].url).toBe('/authenticator/login?brand=yep');
    expect(atob(calls[0].headers.authorization.replace('Basic ', ''))).toBe('revenda@yep.demo:Oportuna@2026');
    expect(calls[1].headers.authorization).toBe(`Bearer ${ACCESS}`);
    expect(calls[2].headers.company).toBe('yep');
    expect(readSession()).toMatchObject({
      token: ACCESS,
      refreshToken: 'refresh-1',
      exp: EXP,
      company: 'yep',
      username: 'Rita Revenda',
      userid: 'u7',
      permissions: ['RESALE'],
      keepConnection: 'false',
    });
    expect(localStorage.getItem('isLogged')).toBe('true');
    expect(Cookies.get(COOKIE.visit)).toBe('1');
  });

  it('lands representative and support users on the Dashboard', async () => {
    authenticator([{ name: 'REPRESENTATIVE', data: { brand: 'all' } }]);
    expect(await signIn('a', 'b', true)).toMatchObject({ kind: 'ok', landing: '/Painel/Dashboard' });
    expect(Cookies.get('keep_connection')).toBe('true');
  });

  it('reports a 401 as invalid credentials', async () => {
    authenticator([], 401);
    expect(await signIn('a', 'b', true)).toEqual({ kind: 'invalid' });
    expect(Cookies.get('token')).toBeUndefined();
  });

  it("reports a 429 with the server's message", async () => {
    mockFetch(() => json(429, { message: 'Tente novamente em 15 minutos.' }));
    expect(await signIn('a', 'b', true)).toEqual({ kind: 'throttled', message: 'Tente novamente em 15 minutos.' });
    mockFetch(() => json(429, {}));
    expect(await signIn('a', 'b', true)).toEqual({ kind: 'throttled', message: THROTTLED_FALLBACK });
    expect(Cookies.get('token')).toBeUndefined();
  });

  it('reports other failures as an error and stores nothing', async () => {
    authenticator([], 500);
    expect(await signIn('a', 'b', true)).toEqual({ kind: 'error' });
    mockFetch((call) =>
      call.url.startsWith('/authenticator/login')
        ? json(200, { data: { data: { access_token: ACCESS, refresh_token: 'r' } } })
        : json(403, {}),
    );
    expect(await signIn('a', 'b', true)).toEqual({ kind: 'error' });
    expect(Cookies.get('token')).toBeUndefined();
  });
});

describe('signOut', () => {
  it('revokes the refresh token, forgets the session and goes to /', async () => {
    storeSession({ roles: ['SELLER'], refreshToken: 'refresh-9' });
    const calls = mockFetch(() => json(204));
    await signOut();
    expect(calls[0]).toMatchObject({ url: '/authenticator/auth/logout', method: 'POST', body: { refresh_token: 'refresh-9' } });
    expect(Cookies.get('token')).toBeUndefined();
    expect(Cookies.get('refresh_token')).toBeUndefined();
    expect(Cookies.get('user_permissions')).toBeUndefined();
    expect(Cookies.get('keep_connection')).toBeUndefined();
    expect(Cookies.get('exp')).toBeUndefined();
    expect(navigations).toEqual(['/']);
  });
});

import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt, json, mockFetch, storeSession, type Call } from '@/test/helpers';

type HttpModule = typeof import('./http');

/**
 * A LockManager stand-in: exclusive locks granted in request order, one holder
 * at a time, like navigator.locks across the tabs of an origin.
 */
function fakeLocks() {
  const log: string[] = [];
  let tail: Promise<unknown> = Promise.resolve();
  let held = false;
  const manager = {
    request: vi.fn((name: string, _options: unknown, fn: () => Promise<unknown>) => {
      log.push(name);
      const run = tail.then(async () => {
        held = true;
        try {
          return await fn();
        } finally {
          held = false;
        }
      });
      tail = run.catch(() => undefined);
      return run;
    }),
  };
  return { manager, log, isHeld: () => held };
}

/** A fresh copy of the http module: one "tab" (its own in-tab refresh state; cookies are shared). */
async function openTab(): Promise<HttpModule> {
  vi.resetModules();
  const http = await import('./http');
  http.setCompany('yep');
  (await import('./navigation')).setNavigator(() => undefined);
  return http;
}

/** The authenticator's rotation: a refresh token works once; presented again, the family is revoked. */
function rotatingServer() {
  let generation = 1;
  let revoked = false;
  const refreshCalls: Call[] = [];
  const calls = mockFetch(async (call) => {
    if (call.url.endsWith('/auth/refresh_token')) {
      refreshCalls.push(call);
      await new Promise((r) => setTimeout(r, 5));
      if (revoked || call.headers.authorization !== `Bearer refresh-${generation}`) {
        revoked = true; // reuse: the whole family is revoked
        return json(401, { message: 'Sessão encerrada' });
      }
      generation++;
      const exp = Math.floor(Date.now() / 1000) + 7200;
      return json(200, { data: { access_token: `${fakeJwt(exp)}.${generation}`, refresh_token: `refresh-${generation}` } });
    }
    const token = Cookies.get('token') ?? '';
    const fresh = call.headers.authorization === `Bearer ${token}` && token.endsWith(`.${generation}`) && !revoked;
    return fresh ? json(200, { ok: true }) : json(401, {});
  });
  return { calls, refreshCalls, revoked: () => revoked };
}

beforeEach(() => {
  storeSession({ roles: ['SELLER'], token: 'expired-access', refreshToken: 'refresh-1' });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('refresh across tabs (Web Locks)', () => {
  it('two tabs refreshing at once present the refresh token once and both stay signed in', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { ...navigator, locks: locks.manager });
    const server = rotatingServer();
    const tabA = await openTab();
    const tabB = await openTab();
    expect(tabA).not.toBe(tabB);

    const [a, b] = await Promise.all([tabA.request('api', '/opportunity/user'), tabB.request('api', '/opportunity/user')]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(server.refreshCalls).toHaveLength(1);
    expect(server.revoked()).toBe(false);
    expect(locks.log).toEqual(['oportuna-refresh', 'oportuna-refresh']);
    expect(Cookies.get('refresh_token')).toBe('refresh-2');
  });

  it('without the lock the two tabs present the same token and the family is revoked (what the lock prevents)', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    const server = rotatingServer();
    const tabA = await openTab();
    const tabB = await openTab();
    const results = await Promise.all([tabA.refreshSession(), tabB.refreshSession()]);
    expect(server.refreshCalls).toHaveLength(2);
    expect(server.revoked()).toBe(true);
    expect(results).toContain(false);
  });

  it('holds the lock while calling the server', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { ...navigator, locks: locks.manager });
    let heldDuringCall = false;
    mockFetch((call) => {
      if (call.url.endsWith('/auth/refresh_token')) heldDuringCall = locks.isHeld();
      return json(200, { data: { access_token: 'new-access', refresh_token: 'refresh-2' } });
    });
    const tab = await openTab();
    expect(await tab.refreshSession()).toBe(true);
    expect(heldDuringCall).toBe(true);
    expect(locks.manager.request).toHaveBeenCalledWith('oportuna-refresh', { mode: 'exclusive' }, expect.any(Function));
  });

  it('uses the tokens another tab stored while this one waited for the lock, without calling the server', async () => {
    const calls = mockFetch(() => json(500, {}));
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        // Another tab holds the lock first and rotates the pair.
        request: async (_name: string, _opts: unknown, fn: () => Promise<unknown>) => {
          Cookies.set('token', 'rotated-access', { path: '/' });
          Cookies.set('refresh_token', 'refresh-2', { path: '/' });
          return fn();
        },
      },
    });
    const tab = await openTab();
    expect(await tab.refreshSession()).toBe(true);
    expect(calls).toHaveLength(0);
    expect(Cookies.get('token')).toBe('rotated-access');
  });

  it('uses the pair another tab stored after this one found its token expired, though it reads the new refresh token first', async () => {
    // A guard reads the session as it renders and refreshes in an effect: meanwhile another tab
    // rotated the pair, so the refresh token this tab would present is already the new one.
    const calls = mockFetch(() => json(500, {}));
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks().manager });
    const tab = await openTab();
    Cookies.set('token', 'rotated-access', { path: '/' });
    Cookies.set('refresh_token', 'refresh-2', { path: '/' });
    expect(await tab.refreshSession('expired-access')).toBe(true);
    expect(calls).toHaveLength(0);
    expect(Cookies.get('refresh_token')).toBe('refresh-2');
  });

  it('refreshes when the stored token is still the one found expired', async () => {
    const calls = mockFetch(() => json(200, { data: { access_token: 'new-access', refresh_token: 'refresh-2' } }));
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks().manager });
    const tab = await openTab();
    expect(await tab.refreshSession('expired-access')).toBe(true);
    expect(calls.map((c) => c.headers.authorization)).toEqual(['Bearer refresh-1']);
    expect(Cookies.get('token')).toBe('new-access');
  });

  it('fails when another tab ended the session while this one waited', async () => {
    const calls = mockFetch(() => json(500, {}));
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: async (_name: string, _opts: unknown, fn: () => Promise<unknown>) => {
          Cookies.remove('token', { path: '/' });
          Cookies.remove('refresh_token', { path: '/' });
          return fn();
        },
      },
    });
    const tab = await openTab();
    expect(await tab.refreshSession()).toBe(false);
    expect(calls).toHaveLength(0);
  });

  it('falls back to an in-tab refresh where navigator.locks is missing', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    const server = rotatingServer();
    const tab = await openTab();
    const results = await Promise.all([tab.request('api', '/a'), tab.request('api', '/b')]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(server.refreshCalls).toHaveLength(1);
  });

  it('retries at once, without refreshing, when the pair was rotated while the call was out', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    let first = true;
    const calls = mockFetch((call) => {
      if (first) {
        first = false;
        Cookies.set('token', 'rotated-access', { path: '/' }); // another tab refreshed meanwhile
        return json(401, {});
      }
      return call.headers.authorization === 'Bearer rotated-access' ? json(200, {}) : json(401, {});
    });
    const tab = await openTab();
    expect((await tab.request('api', '/x')).status).toBe(200);
    expect(calls.map((c) => c.url)).toEqual(['/api/x', '/api/x']);
  });

  it("reads the browser's cookie store after the lock, not this tab's possibly stale copy", async () => {
    const calls = mockFetch(() => json(500, {}));
    const newAccess = fakeJwt(Math.floor(Date.now() / 1000) + 7200);
    // document.cookie still shows the old pair; the cookie store already holds the rotated one.
    const store = new Map([
      ['token', newAccess],
      ['refresh_token', 'refresh-2'],
    ]);
    vi.stubGlobal('cookieStore', { get: async (name: string) => (store.has(name) ? { name, value: store.get(name) } : null) });
    vi.stubGlobal('navigator', { ...navigator, locks: fakeLocks().manager });
    const tab = await openTab();
    expect(await tab.refreshSession()).toBe(true);
    expect(calls).toHaveLength(0);
    expect(Cookies.get('token')).toBe(newAccess); // this tab's copy brought up to date
    expect(Cookies.get('refresh_token')).toBe('refresh-2');
  });
});

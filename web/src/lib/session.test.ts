import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeJwt } from '@/test/helpers';
import {
  COOKIE,
  DEFAULT_EXP,
  VISIT_MARKER,
  cookieAttributes,
  acceptLgpd,
  clearAllExceptLgpd,
  clearOnLogout,
  dismissWarning,
  endSessionOfPreviousVisit,
  isLgpdAccepted,
  isTokenExpired,
  isWarningDismissed,
  markLoggedIn,
  parseExp,
  readSession,
  saveCompany,
  savePermissions,
  saveProfile,
  saveTokens,
} from './session';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const nowSeconds = NOW / 1000;

describe('token expiry', () => {
  it('treats a token as expired within 1000 seconds of exp', () => {
    expect(isTokenExpired(nowSeconds + 999, NOW)).toBe(true);
    expect(isTokenExpired(nowSeconds + 1000, NOW)).toBe(false);
    expect(isTokenExpired(nowSeconds + 5000, NOW)).toBe(false);
    expect(isTokenExpired(nowSeconds - 10, NOW)).toBe(true);
  });

  it('uses 999999999999 when exp is missing', () => {
    expect(parseExp(undefined)).toBe(DEFAULT_EXP);
    expect(parseExp('')).toBe(DEFAULT_EXP);
    expect(parseExp('abc')).toBe(DEFAULT_EXP);
    expect(parseExp('1768478400')).toBe(1768478400);
    expect(isTokenExpired(undefined, NOW)).toBe(false);
    expect(readSession().exp).toBe(DEFAULT_EXP);
  });
});

describe('stored session', () => {
  it('stores the login values in cookies that last 7 days', () => {
    const exp = nowSeconds + 3600;
    saveTokens(fakeJwt(exp), 'refresh-1');
    saveCompany('yep', false);
    saveProfile({ id: '42', name: 'Ana Lima', exp });
    savePermissions(['RESALE', 'SELLER']);
    const s = readSession();
    expect(s).toMatchObject({
      refreshToken: 'refresh-1',
      company: 'yep',
      username: 'Ana Lima',
      userid: '42',
      exp,
      keepConnection: 'false',
      permissions: ['RESALE', 'SELLER'],
    });
    expect(Cookies.get('user_permissions')).toBe('["RESALE","SELLER"]');
  });

  it('takes exp from the JWT, else from expires_in', () => {
    saveTokens(fakeJwt(nowSeconds + 60), 'r');
    expect(readSession().exp).toBe(nowSeconds + 60);
    saveTokens('not-a-jwt', 'r', 3600, NOW);
    expect(readSession().exp).toBe(nowSeconds + 3600);
  });

  it('logout removes token, exp, permissions, refresh token and keep_connection only', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', true);
    saveProfile({ id: '1', name: 'A', exp: 5 });
    savePermissions(['SELLER']);
    clearOnLogout();
    expect(Cookies.get('token')).toBeUndefined();
    expect(Cookies.get('exp')).toBeUndefined();
    expect(Cookies.get('user_permissions')).toBeUndefined();
    expect(Cookies.get('refresh_token')).toBeUndefined();
    expect(Cookies.get('keep_connection')).toBeUndefined();
    expect(Cookies.get('company')).toBe('yep');
    expect(Cookies.get('username')).toBe('A');
  });

  it('clearing all stored data keeps the LGPD acceptance', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', true);
    savePermissions(['SELLER']);
    acceptLgpd();
    markLoggedIn();
    localStorage.setItem('opportunity_preferences', '{}');
    clearAllExceptLgpd();
    expect(Object.keys(Cookies.get())).toEqual(['lgpd_accepted']);
    expect(isLgpdAccepted()).toBe(true);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.getItem(VISIT_MARKER)).toBeNull();
  });
});

describe('keep_connection', () => {
  it('ends a session started without keep-connected on the next visit (the browser reopened: no visit cookie)', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', false);
    acceptLgpd();
    expect(endSessionOfPreviousVisit()).toBe(true);
    expect(Cookies.get('token')).toBeUndefined();
    expect(isLgpdAccepted()).toBe(true);
  });

  it('keeps it in the tab that logged in (reload)', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', false);
    markLoggedIn();
    expect(endSessionOfPreviousVisit()).toBe(false);
    expect(Cookies.get('token')).toBe('t');
  });

  it('keeps it in a second tab of the same browser session (the visit cookie is shared; sessionStorage is not)', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', false);
    markLoggedIn();
    sessionStorage.clear(); // a new tab starts with an empty sessionStorage
    expect(endSessionOfPreviousVisit()).toBe(false);
    expect(Cookies.get('token')).toBe('t');
    expect(Cookies.get('refresh_token')).toBe('r');
  });

  it('writes the visit cookie without an expiry, so that the browser drops it when it closes', () => {
    const set = vi.spyOn(Cookies, 'set');
    markLoggedIn();
    const call = set.mock.calls.find(([name]) => name === COOKIE.visit);
    expect(call?.[2]).toMatchObject({ path: '/', sameSite: 'Strict' });
    expect(call?.[2]).not.toHaveProperty('expires');
  });

  it('keeps a tab that logged in under the per-tab marker of an earlier build', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', false);
    sessionStorage.setItem(VISIT_MARKER, '1');
    expect(endSessionOfPreviousVisit()).toBe(false);
    expect(Cookies.get(COOKIE.visit)).toBe('1');
  });

  it('keeps a session started with keep-connected', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', true);
    expect(endSessionOfPreviousVisit()).toBe(false);
    expect(Cookies.get('token')).toBe('t');
  });

  it('logout forgets the visit', () => {
    markLoggedIn();
    clearOnLogout();
    expect(Cookies.get(COOKIE.visit)).toBeUndefined();
  });
});

describe('cookie attributes', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('are Secure over https, SameSite=Strict and path / always', () => {
    expect(cookieAttributes(7, { protocol: 'https:' })).toEqual({ path: '/', sameSite: 'Strict', secure: true, expires: 7 });
    expect(cookieAttributes(7, { protocol: 'http:' })).toEqual({ path: '/', sameSite: 'Strict', secure: false, expires: 7 });
    expect(cookieAttributes(undefined, { protocol: 'https:' })).toEqual({ path: '/', sameSite: 'Strict', secure: true });
  });

  it('are used for every session cookie, Secure following the page protocol', () => {
    const set = vi.spyOn(Cookies, 'set');
    saveTokens(fakeJwt(2_000_000_000), 'r', 100);
    saveCompany('yep', true);
    savePermissions(['SELLER']);
    saveProfile({ id: 'u1', name: 'Maria' });
    acceptLgpd();
    expect(set).toHaveBeenCalled();
    for (const [name, , attrs] of set.mock.calls) {
      expect(attrs, name).toMatchObject({ path: '/', sameSite: 'Strict', secure: window.location.protocol === 'https:' });
    }
    set.mockClear();
    vi.stubGlobal('location', { ...window.location, protocol: 'https:' });
    saveTokens('t', 'r', 100);
    for (const [name, , attrs] of set.mock.calls) expect(attrs, name).toMatchObject({ secure: true, sameSite: 'Strict' });
    vi.unstubAllGlobals();
  });
});

describe('e-mail notice', () => {
  it('is remembered for 30 days after dismissal', () => {
    expect(isWarningDismissed(NOW)).toBe(false);
    dismissWarning(NOW);
    expect(isWarningDismissed(NOW + 29 * 86400000)).toBe(true);
    expect(isWarningDismissed(NOW + 31 * 86400000)).toBe(false);
  });
});

import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../test/helpers';
import {
  DEFAULT_EXP,
  VISIT_MARKER,
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
  it('ends a session started without keep-connected on the next visit', () => {
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

  it('keeps a session started with keep-connected', () => {
    saveTokens('t', 'r', 100);
    saveCompany('yep', true);
    expect(endSessionOfPreviousVisit()).toBe(false);
    expect(Cookies.get('token')).toBe('t');
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

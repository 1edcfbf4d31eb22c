import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { MAX_USERS_PER_KEY, currentUserScope, readUserPreferences, writeUserPreferences } from './userPreferences';

describe('per-user list preferences', () => {
  it('keeps one entry per brand and user under the spec key', () => {
    writeUserPreferences('opportunity_preferences', { amount: 25 }, 'nordata/ana');
    writeUserPreferences('opportunity_preferences', { amount: 50 }, 'nordata/bia');
    writeUserPreferences('opportunity_preferences', { amount: 75 }, 'etiquetron/ana');
    expect(readUserPreferences('opportunity_preferences', 'nordata/ana')).toEqual({ amount: 25 });
    expect(readUserPreferences('opportunity_preferences', 'nordata/bia')).toEqual({ amount: 50 });
    expect(readUserPreferences('opportunity_preferences', 'etiquetron/ana')).toEqual({ amount: 75 });
    expect(readUserPreferences('opportunity_preferences', 'nordata/caio')).toBeNull();
    expect(JSON.parse(localStorage.getItem('opportunity_preferences') ?? '')).toEqual({
      users: { 'nordata/ana': { amount: 25 }, 'nordata/bia': { amount: 50 }, 'etiquetron/ana': { amount: 75 } },
    });
  });

  it("scopes by the session's company and user id", () => {
    Cookies.set('company', 'nordata', { path: '/' });
    Cookies.set('userid', 'u-9', { path: '/' });
    expect(currentUserScope()).toBe('nordata/u-9');
    writeUserPreferences('resale_preferences', { date: '' });
    expect(readUserPreferences('resale_preferences', 'nordata/u-9')).toEqual({ date: '' });
  });

  it('lets the next user adopt a value of the earlier flat shape, and keeps it for nobody else once saved', () => {
    localStorage.setItem('seller_preferences', JSON.stringify({ name: 'Ana', amount: 25 }));
    expect(readUserPreferences('seller_preferences', 'nordata/ana')).toEqual({ name: 'Ana', amount: 25 });
    writeUserPreferences('seller_preferences', { name: '', amount: 10 }, 'nordata/ana');
    expect(readUserPreferences('seller_preferences', 'nordata/bia')).toBeNull();
  });

  it(`keeps the ${MAX_USERS_PER_KEY} most recently saved users`, () => {
    for (let i = 0; i <= MAX_USERS_PER_KEY; i++) writeUserPreferences('k', i, `b/u${i}`);
    expect(readUserPreferences('k', 'b/u0')).toBeNull();
    expect(readUserPreferences('k', 'b/u1')).toBe(1);
    writeUserPreferences('k', 'again', 'b/u1');
    writeUserPreferences('k', 'new', 'b/new');
    expect(readUserPreferences('k', 'b/u1')).toBe('again');
    expect(readUserPreferences('k', 'b/u2')).toBeNull();
  });

  it('reads nothing from what is not JSON', () => {
    localStorage.setItem('k', '{oops');
    expect(readUserPreferences('k', 'b/u')).toBeNull();
    writeUserPreferences('k', 1, 'b/u');
    expect(readUserPreferences('k', 'b/u')).toBe(1);
  });
});

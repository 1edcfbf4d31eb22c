import Cookies from 'js-cookie';
import { describe, expect, it, vi } from 'vitest';
import { json, mockFetch, storeSession } from '@/test/helpers';
import {
  NOTIFICATIONS_COOKIE,
  lastSeenNotification,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  newestId,
  safeLink,
  saveLastSeenNotification,
} from './notifications';

describe('notificationsApi', () => {
  it('calls the three endpoints', async () => {
    storeSession({ roles: ['SELLER'] });
    const calls = mockFetch(() => json(200, { result: [], unread: 0 }));
    await listNotifications();
    await markNotificationRead(7);
    await markAllNotificationsRead();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/notifications?limit=20',
      'PATCH /api/notifications/7/read',
      'PATCH /api/notifications/read-all',
    ]);
  });

  it('follows only portal paths', () => {
    expect(safeLink('/Painel/Opportunities/abc')).toBe('/Painel/Opportunities/abc');
    expect(safeLink('//evil.example/x')).toBeNull();
    expect(safeLink('https://evil.example/')).toBeNull();
    expect(safeLink('javascript:alert(1)')).toBeNull();
    expect(safeLink('/\\evil.example')).toBeNull();
    expect(safeLink(null)).toBeNull();
  });

  it('remembers the newest seen id per user, only moving forward', () => {
    expect(lastSeenNotification('u1')).toBe(0);
    saveLastSeenNotification('u1', 12);
    expect(Cookies.get(NOTIFICATIONS_COOKIE)).toBe('u1:12');
    saveLastSeenNotification('u1', 5);
    expect(lastSeenNotification('u1')).toBe(12);
    expect(lastSeenNotification('u2')).toBe(0);
    saveLastSeenNotification('u2', 3);
    expect(lastSeenNotification('u2')).toBe(3);
    expect(lastSeenNotification('u1')).toBe(0);
    Cookies.set(NOTIFICATIONS_COOKIE, 'u1:abc');
    expect(lastSeenNotification('u1')).toBe(0);
  });

  it('newestId', () => {
    expect(newestId([])).toBe(0);
    expect(newestId([{ id: 3 }, { id: 9 }, { id: 4 }] as never)).toBe(9);
  });
});

describe('notifications cookie', () => {
  it('is written SameSite=Strict, path /, Secure over https, for 30 days', () => {
    const set = vi.spyOn(Cookies, 'set');
    saveLastSeenNotification('u1', 12);
    expect(set).toHaveBeenCalledWith('notifications', 'u1:12', {
      path: '/',
      sameSite: 'Strict',
      secure: window.location.protocol === 'https:',
      expires: 30,
    });
    set.mockClear();
    vi.stubGlobal('location', { ...window.location, protocol: 'https:' });
    saveLastSeenNotification('u1', 13);
    expect(set.mock.calls[0][2]).toMatchObject({ secure: true, sameSite: 'Strict' });
    vi.unstubAllGlobals();
    set.mockRestore();
  });
});

import { describe, expect, it } from 'vitest';
import { decideAccess, decideForPath, findPanelRoute, firstLanding, menuFor } from './guards';
import type { SessionSnapshot } from './session';

const NOW = Date.UTC(2026, 0, 15, 12);
const LATER = NOW / 1000 + 3600;

function session(roles: string[], extra: Partial<SessionSnapshot> = {}): SessionSnapshot {
  return { token: 't', exp: LATER, refreshToken: 'r', company: 'yep', permissions: roles, keepConnection: 'true', ...extra };
}

// The spec's route table (§2), as paths a user can open.
const TABLE: Record<string, string[]> = {
  '/Painel/Dashboard': ['REPRESENTATIVE', 'SUPPORT'],
  '/Painel/Reports': ['REPRESENTATIVE', 'SUPPORT'],
  '/Painel/Resales': ['REPRESENTATIVE', 'SUPPORT'],
  '/Painel/Resales/details': ['REPRESENTATIVE', 'SUPPORT'],
  '/Painel/Coverage': ['REPRESENTATIVE', 'SUPPORT'],
  '/Painel/Opportunities': ['REPRESENTATIVE', 'SUPPORT', 'SELLER', 'RESALE'],
  '/Painel/Opportunities/registration': ['SELLER', 'RESALE'],
  '/Painel/Opportunities/abc123': ['REPRESENTATIVE', 'SUPPORT', 'SELLER', 'RESALE'],
  '/Painel/History/abc123': ['REPRESENTATIVE', 'SUPPORT', 'SELLER', 'RESALE'],
  '/Painel/Settings': ['REPRESENTATIVE', 'SUPPORT', 'SELLER', 'RESALE'],
  '/Painel/Users': ['SUPPORT', 'RESALE', 'REPRESENTATIVE'],
  '/Painel/Users/registration': ['RESALE'],
  '/Painel/Users/abc123': ['RESALE', 'REPRESENTATIVE', 'SUPPORT'],
};
const ROLES = ['REPRESENTATIVE', 'SUPPORT', 'SELLER', 'RESALE'];

describe('route guard: role × route', () => {
  for (const [path, allowed] of Object.entries(TABLE)) {
    for (const role of ROLES) {
      const expected = allowed.includes(role) ? 'allow' : 'login';
      it(`${role} on ${path} → ${expected}`, () => {
        expect(decideForPath(session([role]), path, 'yep', NOW).kind).toBe(expected);
      });
    }
  }

  it('allows a user with several roles where any of them is allowed', () => {
    expect(decideForPath(session(['SELLER', 'SUPPORT']), '/Painel/Dashboard', 'yep', NOW).kind).toBe('allow');
    expect(decideForPath(session(['SELLER', 'SUPPORT']), '/Painel/Opportunities/registration', 'yep', NOW).kind).toBe(
      'allow',
    );
    expect(decideForPath(session(['REPRESENTATIVE', 'SUPPORT']), '/Painel/Users/registration', 'yep', NOW)).toEqual({
      kind: 'login',
      reason: 'forbidden',
    });
  });

  it('matches paths without regard to case and reads registration as a route, not an id', () => {
    expect(findPanelRoute('/painel/users/registration')?.path).toBe('Users/registration');
    expect(findPanelRoute('/Painel/Users/77')?.path).toBe('Users/:id');
    expect(findPanelRoute('/Painel/Unknown')).toBeUndefined();
    expect(decideForPath(session(ROLES), '/Painel/Unknown', 'yep', NOW).kind).toBe('login');
  });
});

describe('route guard: session', () => {
  it('sends a user without a token, or of another company, to login', () => {
    expect(decideAccess(session(ROLES, { token: undefined }), null, 'yep', NOW)).toEqual({ kind: 'login', reason: 'no-session' });
    expect(decideAccess(session(ROLES, { company: 'nordata' }), null, 'yep', NOW).kind).toBe('login');
  });

  it('sends an expired session to login unless it can be refreshed', () => {
    const expired = { exp: NOW / 1000 + 500 };
    expect(decideAccess(session(ROLES, expired), null, 'yep', NOW)).toEqual({ kind: 'refresh' });
    expect(decideAccess(session(ROLES, { ...expired, keepConnection: 'false' }), null, 'yep', NOW)).toEqual({
      kind: 'login',
      reason: 'expired',
    });
    expect(decideAccess(session(ROLES, { ...expired, refreshToken: undefined }), null, 'yep', NOW).kind).toBe('login');
  });

  it('refuses a session without roles', () => {
    expect(decideAccess(session([]), null, 'yep', NOW)).toEqual({ kind: 'login', reason: 'forbidden' });
  });
});

describe('landing and menu', () => {
  it('lands representative and support on the Dashboard, others on Opportunities', () => {
    expect(firstLanding(['REPRESENTATIVE'])).toBe('/Painel/Dashboard');
    expect(firstLanding(['SUPPORT'])).toBe('/Painel/Dashboard');
    expect(firstLanding(['SELLER'])).toBe('/Painel/Opportunities');
    expect(firstLanding(['RESALE'])).toBe('/Painel/Opportunities');
    expect(firstLanding(['SELLER', 'SUPPORT'])).toBe('/Painel/Dashboard');
  });

  it('shows the menu entries of each role (spec §6)', () => {
    const routes = (roles: string[]) => menuFor(roles).map((e) => e.route);
    expect(routes(['REPRESENTATIVE'])).toEqual(['Dashboard', 'Reports', 'Opportunities', 'Resales', 'Coverage', 'Users', 'Settings']);
    expect(routes(['SUPPORT'])).toEqual(['Dashboard', 'Reports', 'Opportunities', 'Resales', 'Coverage', 'Users', 'Settings']);
    expect(routes(['RESALE'])).toEqual(['Opportunities', 'Users', 'Settings']);
    expect(routes(['SELLER'])).toEqual(['Opportunities', 'Settings']);
  });
});

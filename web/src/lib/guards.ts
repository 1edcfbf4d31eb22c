import { matchPath } from 'react-router';
import { ROLES, hasAnyRole, type Role } from './roles';
import { isTokenExpired, type SessionSnapshot } from './session';

const ALL: readonly Role[] = ROLES;

/** One protected screen: its path, who may open it, and its title (spec §2 table). */
export interface PanelRoute {
  /** Path under /Painel/, without the leading slash. */
  path: string;
  roles: readonly Role[];
  title: string;
}

// Static paths come before the dynamic ones so that `registration` is not read as an id.
export const PANEL_ROUTES: readonly PanelRoute[] = [
  { path: 'Dashboard', roles: ['REPRESENTATIVE', 'SUPPORT'], title: 'Dashboard' },
  { path: 'Reports', roles: ['REPRESENTATIVE', 'SUPPORT'], title: 'Relatórios' },
  { path: 'Resales', roles: ['REPRESENTATIVE', 'SUPPORT'], title: 'Revendas' },
  { path: 'Resales/details', roles: ['REPRESENTATIVE', 'SUPPORT'], title: 'Detalhes da revenda' },
  { path: 'Coverage', roles: ['REPRESENTATIVE', 'SUPPORT'], title: 'Cobertura' },
  { path: 'Opportunities', roles: ALL, title: 'Oportunidades' },
  { path: 'Opportunities/registration', roles: ['SELLER', 'RESALE'], title: 'Registro de Oportunidades' },
  { path: 'Opportunities/:id', roles: ALL, title: 'Detalhes da oportunidade' },
  { path: 'History/:id', roles: ALL, title: 'Histórico' },
  { path: 'Settings', roles: ALL, title: 'Configurações' },
  { path: 'Users', roles: ['SUPPORT', 'RESALE', 'REPRESENTATIVE'], title: 'Usuários' },
  { path: 'Users/registration', roles: ['RESALE'], title: 'Cadastre seu vendedor' },
  { path: 'Users/:id', roles: ['RESALE', 'REPRESENTATIVE', 'SUPPORT'], title: 'Detalhes do usuário' },
];

export const PANEL_BASE = '/Painel';

/** The details screen of an opportunity. */
export function detailsPath(id: string): string {
  return `${PANEL_BASE}/Opportunities/${encodeURIComponent(id)}`;
}

/** The history screen of a record (an opportunity unless said). */
export function historyPath(id: string, type: 'Opportunities' | 'Users' | 'Resales' = 'Opportunities'): string {
  return `${PANEL_BASE}/History/${encodeURIComponent(id)}?type=${type}`;
}

/**
 * The details screen of a company, by its id only (as the server's links):
 * the screen reads the company from the server. The spec's screen reads every
 * value from the query string; the contact's e-mail, phone, CNPJ and address
 * would then sit in browser history and proxies' logs (LGPD, docs/partners.md).
 */
export function resaleDetailsPath(r: { id: string }): string {
  return `${PANEL_BASE}/Resales/details?${new URLSearchParams({ id: r.id }).toString()}`;
}

/** The route entry a panel pathname belongs to, or undefined. */
export function findPanelRoute(pathname: string): PanelRoute | undefined {
  const staticFirst = [...PANEL_ROUTES].sort(
    (a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')),
  );
  return staticFirst.find((r) => matchPath({ path: `${PANEL_BASE}/${r.path}`, end: true }, pathname));
}

/** Side-menu entries (spec §6 "Menu"), in display order. */
export interface MenuEntry {
  route: string;
  label: string;
  roles: readonly Role[];
}

export const MENU: readonly MenuEntry[] = [
  { route: 'Dashboard', label: 'Dashboard', roles: ['REPRESENTATIVE', 'SUPPORT'] },
  { route: 'Reports', label: 'Relatórios', roles: ['REPRESENTATIVE', 'SUPPORT'] },
  { route: 'Opportunities', label: 'Oportunidades', roles: ALL },
  { route: 'Resales', label: 'Revendas', roles: ['REPRESENTATIVE', 'SUPPORT'] },
  { route: 'Coverage', label: 'Cobertura', roles: ['REPRESENTATIVE', 'SUPPORT'] },
  { route: 'Users', label: 'Usuários', roles: ['RESALE', 'SUPPORT', 'REPRESENTATIVE'] },
  { route: 'Settings', label: 'Configurações', roles: ALL },
];

export function menuFor(userRoles: readonly string[]): MenuEntry[] {
  return MENU.filter((entry) => hasAnyRole(userRoles, entry.roles));
}

/** First landing after login: Dashboard for representative or support, else Opportunities. */
export function firstLanding(userRoles: readonly string[]): string {
  return hasAnyRole(userRoles, ['REPRESENTATIVE', 'SUPPORT'])
    ? `${PANEL_BASE}/Dashboard`
    : `${PANEL_BASE}/Opportunities`;
}

/** Whether a stored session may be used as is: token not expired and stored for this company. */
export function hasValidSession(s: SessionSnapshot, company: string, now = Date.now()): boolean {
  return !!s.token && s.company === company && !isTokenExpired(s.exp, now);
}

/** Why the guard sent the user to Login. */
export type GuardDenial = 'no-session' | 'expired' | 'forbidden';

export type GuardDecision =
  /** Open the screen. */
  | { kind: 'allow' }
  /** Token expired, but a kept session may be renewed once before giving up. */
  | { kind: 'refresh' }
  /** Back to Login. */
  | { kind: 'login'; reason: GuardDenial };

/**
 * The navigation guard (spec §2): a protected route needs a stored, unexpired
 * token for this company and one of the route's roles. When only the token
 * expired, a refresh token is stored and the user asked to stay connected, the
 * guard asks for one refresh first.
 */
export function decideAccess(
  s: SessionSnapshot,
  allowed: readonly Role[] | null,
  company: string,
  now = Date.now(),
): GuardDecision {
  if (!s.token || s.company !== company) return { kind: 'login', reason: 'no-session' };
  if (isTokenExpired(s.exp, now)) {
    if (s.refreshToken && s.keepConnection === 'true') return { kind: 'refresh' };
    return { kind: 'login', reason: 'expired' };
  }
  if (allowed && !hasAnyRole(s.permissions, allowed)) return { kind: 'login', reason: 'forbidden' };
  if (s.permissions.length === 0) return { kind: 'login', reason: 'forbidden' };
  return { kind: 'allow' };
}

/** Guard decision for a panel pathname; unknown panel paths are refused. */
export function decideForPath(s: SessionSnapshot, pathname: string, company: string, now = Date.now()): GuardDecision {
  const route = findPanelRoute(pathname);
  return decideAccess(s, route ? route.roles : [], company, now);
}

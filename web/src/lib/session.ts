import Cookies from 'js-cookie';

/** Cookie names (spec §3 "Stored client values"). */
export const COOKIE = {
  token: 'token',
  exp: 'exp',
  refreshToken: 'refresh_token',
  company: 'company',
  username: 'username',
  userid: 'userid',
  permissions: 'user_permissions',
  keepConnection: 'keep_connection',
  /** LGPD (privacy policy) acceptance; the spec does not name it. */
  lgpd: 'lgpd_accepted',
  /**
   * The visit of a session started with keep_connection 'false': a browser
   * session cookie (no expiry), shared by every tab, dropped when the browser
   * closes (see endSessionOfPreviousVisit). The spec does not name it.
   */
  visit: 'oportuna_visit',
} as const;

/** Local storage keys (spec §3). */
export const STORAGE = {
  isLogged: 'isLogged',
  warning: 'warning',
  sellerPreferences: 'seller_preferences',
  opportunityPreferences: 'opportunity_preferences',
  resalePreferences: 'resale_preferences',
} as const;

/**
 * The per-tab sessionStorage marker earlier builds used for the visit. Only read,
 * so that a tab that logged in before the visit cookie existed keeps its session.
 */
export const VISIT_MARKER = 'oportuna_visit';

export const SESSION_COOKIE_DAYS = 7;
export const LGPD_COOKIE_DAYS = 30;
export const WARNING_DAYS = 30;
/** Used when exp is missing (spec §9). Seconds since the epoch. */
export const DEFAULT_EXP = 999999999999;
/** A token is treated as expired this many seconds before its exp (spec §9). */
export const EXPIRY_MARGIN_SECONDS = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Attributes of every cookie the client writes (docs/security-browser.md):
 * path /, SameSite=Strict (the server never reads these cookies, only this
 * origin's scripts do, so no cross-site request needs them), and Secure when
 * the portal is served over https. `days` undefined: a browser session cookie.
 */
export function cookieAttributes(days?: number, loc: Pick<Location, 'protocol'> = window.location): Cookies.CookieAttributes {
  const attrs: Cookies.CookieAttributes = { path: '/', sameSite: 'Strict', secure: loc.protocol === 'https:' };
  if (days !== undefined) attrs.expires = days;
  return attrs;
}

function setCookie(name: string, value: string, days?: number): void {
  Cookies.set(name, value, cookieAttributes(days));
}

function removeCookie(name: string): void {
  Cookies.remove(name, cookieAttributes());
}

/** Everything the client stored about the session, read at once. */
export interface SessionSnapshot {
  token?: string;
  exp: number;
  refreshToken?: string;
  company?: string;
  username?: string;
  userid?: string;
  permissions: string[];
  keepConnection?: string;
}

/** exp as stored, or the default when missing or unreadable. */
export function parseExp(raw: string | undefined | null): number {
  if (raw === undefined || raw === null || raw.trim() === '') return DEFAULT_EXP;
  const n = Number(raw);
  return Number.isFinite(n) ? n : DEFAULT_EXP;
}

/** True when exp (seconds) is less than 1000 s away from now (ms). */
export function isTokenExpired(exp: number | undefined, now = Date.now()): boolean {
  const value = exp === undefined || !Number.isFinite(exp) ? DEFAULT_EXP : exp;
  return value - now / 1000 < EXPIRY_MARGIN_SECONDS;
}

export function parsePermissions(raw: string | undefined | null): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function readSession(): SessionSnapshot {
  return {
    token: Cookies.get(COOKIE.token) || undefined,
    exp: parseExp(Cookies.get(COOKIE.exp)),
    refreshToken: Cookies.get(COOKIE.refreshToken) || undefined,
    company: Cookies.get(COOKIE.company) || undefined,
    username: Cookies.get(COOKIE.username) || undefined,
    userid: Cookies.get(COOKIE.userid) || undefined,
    permissions: parsePermissions(Cookies.get(COOKIE.permissions)),
    keepConnection: Cookies.get(COOKIE.keepConnection) || undefined,
  };
}

export function getToken(): string | undefined {
  return Cookies.get(COOKIE.token) || undefined;
}

export function getRefreshToken(): string | undefined {
  return Cookies.get(COOKIE.refreshToken) || undefined;
}

/** Reads exp (seconds) from a JWT without verifying it; undefined when unreadable. */
export function jwtExp(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : undefined;
  } catch {
    return undefined;
  }
}

/** Stores a token pair (login or refresh). exp comes from the JWT, else expires_in, else the default. */
export function saveTokens(accessToken: string, refreshToken: string, expiresIn?: number, now = Date.now()): void {
  setCookie(COOKIE.token, accessToken, SESSION_COOKIE_DAYS);
  setCookie(COOKIE.refreshToken, refreshToken, SESSION_COOKIE_DAYS);
  const exp =
    jwtExp(accessToken) ??
    (typeof expiresIn === 'number' && expiresIn > 0 ? Math.floor(now / 1000) + expiresIn : undefined);
  if (exp !== undefined) setCookie(COOKIE.exp, String(exp), SESSION_COOKIE_DAYS);
}

export function saveCompany(company: string, keepConnection: boolean): void {
  setCookie(COOKIE.company, company, SESSION_COOKIE_DAYS);
  setCookie(COOKIE.keepConnection, keepConnection ? 'true' : 'false', SESSION_COOKIE_DAYS);
}

export function saveProfile(profile: { id: string; name: string; exp?: number }): void {
  setCookie(COOKIE.userid, profile.id, SESSION_COOKIE_DAYS);
  setCookie(COOKIE.username, profile.name, SESSION_COOKIE_DAYS);
  setCookie(COOKIE.exp, String(profile.exp ?? DEFAULT_EXP), SESSION_COOKIE_DAYS);
}

export function savePermissions(roles: readonly string[]): void {
  setCookie(COOKIE.permissions, JSON.stringify(roles), SESSION_COOKIE_DAYS);
}

/** Marks the session as started by a login in this browser session (this visit). */
export function markLoggedIn(): void {
  localStorage.setItem(STORAGE.isLogged, 'true');
  setCookie(COOKIE.visit, '1');
}

/** Logout (spec §4): removes token, exp, permissions, refresh token and keep_connection. */
export function clearOnLogout(): void {
  for (const name of [
    COOKIE.token,
    COOKIE.exp,
    COOKIE.permissions,
    COOKIE.refreshToken,
    COOKIE.keepConnection,
    COOKIE.visit,
  ]) {
    removeCookie(name);
  }
  sessionStorage.removeItem(VISIT_MARKER);
}

/**
 * Clears all stored data except the LGPD acceptance flag (spec §4, §8): every
 * cookie but the LGPD one, local storage and this tab's visit marker.
 */
export function clearAllExceptLgpd(): void {
  for (const name of Object.keys(Cookies.get())) {
    if (name !== COOKIE.lgpd) removeCookie(name);
  }
  localStorage.clear();
  sessionStorage.removeItem(VISIT_MARKER);
}

/**
 * keep_connection (spec §4): a session started with the box unticked does not
 * survive to the next visit. A visit is the browser session: the login sets the
 * visit cookie without an expiry, which every tab of the browser shares and the
 * browser drops when it closes. So a reload or a second tab keeps the session
 * (a new tab must not end the first tab's session), while the browser reopened
 * finds keep_connection 'false' without the visit cookie and clears what the
 * previous visit stored. Returns true when it cleared the session.
 */
export function endSessionOfPreviousVisit(): boolean {
  if (Cookies.get(COOKIE.keepConnection) !== 'false') return false;
  if (Cookies.get(COOKIE.visit)) return false;
  if (sessionStorage.getItem(VISIT_MARKER)) {
    // A tab that logged in under the per-tab marker of an earlier build: same visit.
    setCookie(COOKIE.visit, '1');
    return false;
  }
  clearAllExceptLgpd();
  return true;
}

// LGPD acceptance (cookie, 30 days).
export function isLgpdAccepted(): boolean {
  return Cookies.get(COOKIE.lgpd) === 'true';
}

export function acceptLgpd(): void {
  setCookie(COOKIE.lgpd, 'true', LGPD_COOKIE_DAYS);
}

// E-mail delivery notice: dismissal time in local storage 'warning', shown again after 30 days.
export function isWarningDismissed(now = Date.now()): boolean {
  const raw = localStorage.getItem(STORAGE.warning);
  if (!raw) return false;
  let at = Number(raw);
  if (!Number.isFinite(at)) {
    try {
      at = Number((JSON.parse(raw) as { dismissedAt?: unknown }).dismissedAt);
    } catch {
      return false;
    }
  }
  return Number.isFinite(at) && now - at < WARNING_DAYS * DAY_MS;
}

export function dismissWarning(now = Date.now()): void {
  localStorage.setItem(STORAGE.warning, String(now));
}

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
} as const;

/** Local storage keys (spec §3). */
export const STORAGE = {
  isLogged: 'isLogged',
  warning: 'warning',
  sellerPreferences: 'seller_preferences',
  opportunityPreferences: 'opportunity_preferences',
  resalePreferences: 'resale_preferences',
} as const;

/** sessionStorage marker: this tab logged in during the current visit (see docs/web.md). */
export const VISIT_MARKER = 'oportuna_visit';

export const SESSION_COOKIE_DAYS = 7;
export const LGPD_COOKIE_DAYS = 30;
export const WARNING_DAYS = 30;
/** Used when exp is missing (spec §9). Seconds since the epoch. */
export const DEFAULT_EXP = 999999999999;
/** A token is treated as expired this many seconds before its exp (spec §9). */
export const EXPIRY_MARGIN_SECONDS = 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

function setCookie(name: string, value: string, days: number): void {
  Cookies.set(name, value, { expires: days, path: '/', sameSite: 'Lax' });
}

function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
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

/** Marks the session as started by a login in this tab (this visit). */
export function markLoggedIn(): void {
  localStorage.setItem(STORAGE.isLogged, 'true');
  sessionStorage.setItem(VISIT_MARKER, '1');
}

/** Logout (spec §4): removes token, exp, permissions, refresh token and keep_connection. */
export function clearOnLogout(): void {
  for (const name of [COOKIE.token, COOKIE.exp, COOKIE.permissions, COOKIE.refreshToken, COOKIE.keepConnection]) {
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
 * survive to the next visit. A visit is a browser tab's session storage: the
 * login sets a marker there, so a reload in that tab keeps the session, while a
 * new tab or window (or the browser reopened) finds no marker. Returns true
 * when it cleared the session.
 */
export function endSessionOfPreviousVisit(): boolean {
  if (Cookies.get(COOKIE.keepConnection) !== 'false') return false;
  if (sessionStorage.getItem(VISIT_MARKER)) return false;
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

import { navigateTo } from './navigation';
import { loginPath } from './returnPath';
import { COOKIE, clearAllExceptLgpd, getRefreshToken, getToken, saveTokens } from './session';

/** The three services behind the one server (docs/api.md). */
export const SERVICE_BASE = {
  api: '/api',
  authenticator: '/authenticator',
  mailer: '/mailer',
} as const;
export type Service = keyof typeof SERVICE_BASE;

/**
 * What every call returns. Statuses below 500 come back as they are (spec §7),
 * a network failure or a 5xx comes back with status 500: nothing is thrown.
 */
export interface HttpResponse<T = unknown> {
  status: number;
  /** 2xx. */
  ok: boolean;
  /** Parsed body of a 2xx answer, else null. */
  data: T | null;
  /** `message` of the body, when the server sent one. */
  message?: string;
  /** `errors` of the body, when the server sent some. */
  errors?: unknown[];
  /** Parsed body whatever the status (null when empty or not JSON). */
  body: unknown;
}

export type Authorization =
  /** Bearer with the stored access token (the default). */
  | { kind: 'session' }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'none' };

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Sent as JSON, or as is when FormData. */
  body?: unknown;
  headers?: Record<string, string>;
  auth?: Authorization;
  /**
   * On a 401, refresh the token pair and retry once (spec §8). Default true for
   * calls made with the session's token; login, refresh and public calls set false.
   */
  refreshOn401?: boolean;
  signal?: AbortSignal;
}

let company = '';

/** The brand slug sent as the `company` header on every call. Set once at start. */
export function setCompany(slug: string): void {
  company = slug;
}

export function getCompany(): string {
  return company;
}

/** base64 of a UTF-8 string (btoa only takes Latin-1). */
export function base64Utf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  bytes.forEach((b) => {
    binary += String.fromCharCode(b);
  });
  return btoa(binary);
}

function buildUrl(service: Service, path: string, query?: RequestOptions['query']): string {
  let url = SERVICE_BASE[service] + (path.startsWith('/') ? path : `/${path}`);
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null) params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

function authorizationHeader(auth: Authorization): string | undefined {
  switch (auth.kind) {
    case 'session': {
      const token = getToken();
      return token ? `Bearer ${token}` : undefined;
    }
    case 'bearer':
      return `Bearer ${auth.token}`;
    case 'basic':
      return `Basic ${base64Utf8(`${auth.username}:${auth.password}`)}`;
    case 'none':
      return undefined;
  }
}

async function send<T>(service: Service, path: string, opts: RequestOptions): Promise<HttpResponse<T>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  if (company) headers.company = company;
  const authorization = authorizationHeader(opts.auth ?? { kind: 'session' });
  if (authorization) headers.Authorization = authorization;

  let body: BodyInit | undefined;
  if (opts.body instanceof FormData) {
    body = opts.body;
  } else if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(opts.body);
  }

  let res: Response;
  try {
    res = await fetch(buildUrl(service, path, opts.query), {
      method: opts.method ?? 'GET',
      headers,
      body,
      signal: opts.signal,
      credentials: 'same-origin',
    });
  } catch {
    return { status: 500, ok: false, data: null, body: null };
  }

  let parsed: unknown = null;
  try {
    const text = await res.text();
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const status = res.status >= 500 ? 500 : res.status;
  const ok = status >= 200 && status < 300;
  const record = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  return {
    status,
    ok,
    data: ok ? (parsed as T) : null,
    message: typeof record.message === 'string' ? record.message : undefined,
    errors: Array.isArray(record.errors) ? record.errors : undefined,
    body: parsed,
  };
}

interface TokenPair {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
}

/** The Web Lock that serializes refreshes across the tabs of this origin. */
export const REFRESH_LOCK = 'oportuna-refresh';

/** A refresh that takes longer gives up (and frees the lock for the other tabs). */
const REFRESH_TIMEOUT_MS = 20_000;

let refreshing: Promise<boolean> | null = null;

/**
 * Runs fn holding the cross-tab refresh lock (Web Locks API). Without
 * navigator.locks (older browsers, jsdom) fn runs at once: the refresh is then
 * shared inside this tab only.
 */
function withRefreshLock<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks || typeof locks.request !== 'function') return fn();
  return locks.request(REFRESH_LOCK, { mode: 'exclusive' }, fn) as Promise<T>;
}

/**
 * Exchanges the stored refresh token for a new pair and stores it. The
 * authenticator rotates refresh tokens and treats a reused one as theft, so the
 * same token must never be presented twice: callers inside one tab share one
 * call, and tabs take turns through a Web Lock. After taking the lock the
 * refresh-token cookie (shared by every tab) is read again: when it differs from
 * the one this tab was about to present, another tab already rotated the pair,
 * and its tokens are used instead of calling the server. So they are when the
 * stored access token is no longer `seen`, the one the caller found expired or
 * refused: another tab may have rotated the pair between that moment and this
 * call (a guard reads the session as it renders and refreshes after).
 */
export function refreshSession(seen?: string): Promise<boolean> {
  if (!refreshing) {
    const presented = getRefreshToken();
    refreshing = (presented ? withRefreshLock(() => doRefresh(presented, seen)) : Promise.resolve(false))
      .catch(() => false)
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

async function doRefresh(presented: string, seen: string | undefined): Promise<boolean> {
  const refreshToken = await storedCookie(COOKIE.refreshToken);
  if (!refreshToken || !company) return false;
  const token = await storedCookie(COOKIE.token);
  if (refreshToken !== presented || (seen !== undefined && token !== undefined && token !== seen)) {
    // Rotated by another tab meanwhile: take its pair (and bring this tab's copy up to date).
    if (!token) return false;
    if (token !== getToken() || refreshToken !== getRefreshToken()) saveTokens(token, refreshToken);
    return true;
  }
  const res = await send<{ data?: TokenPair }>(
    'authenticator',
    `/${encodeURIComponent(company)}/auth/refresh_token`,
    { auth: { kind: 'bearer', token: refreshToken }, signal: timeoutSignal(REFRESH_TIMEOUT_MS) },
  );
  const pair = res.ok ? res.data?.data : undefined;
  if (!pair?.access_token || !pair.refresh_token) return false;
  saveTokens(pair.access_token, pair.refresh_token, pair.expires_in);
  // One round trip to the browser's cookie store before the lock is released, so that the next
  // tab reads the new pair there.
  await storedCookie(COOKIE.refreshToken);
  return true;
}

interface CookieStoreLike {
  get(name: string): Promise<{ value?: string } | null | undefined>;
}

/**
 * A cookie as the browser's cookie store holds it (CookieStore API), not this
 * tab's copy: Chromium's document.cookie may lag behind a write another tab
 * made a moment ago. document.cookie where the API is missing.
 */
async function storedCookie(name: string): Promise<string | undefined> {
  const store = (globalThis as { cookieStore?: CookieStoreLike }).cookieStore;
  if (store && typeof store.get === 'function') {
    try {
      const c = await store.get(name);
      // js-cookie writes values percent-encoded where needed; read them back as it does.
      return c?.value ? c.value.replace(/(%[\dA-F]{2})+/gi, decodeURIComponent) : undefined;
    } catch {
      // fall back to this tab's copy
    }
  }
  return name === COOKIE.token ? getToken() : name === COOKIE.refreshToken ? getRefreshToken() : undefined;
}

function timeoutSignal(ms: number): AbortSignal | undefined {
  return typeof AbortSignal !== 'undefined' && typeof AbortSignal.timeout === 'function'
    ? AbortSignal.timeout(ms)
    : undefined;
}

/** Ends the session after a 401 that a refresh could not cure (spec §8). */
export function endSession(): void {
  clearAllExceptLgpd();
  // The login comes back to this screen (lib/returnPath.ts).
  navigateTo(loginPath(window.location.pathname + window.location.search + window.location.hash));
}

/** Calls a service; see HttpResponse for what comes back. */
export async function request<T = unknown>(
  service: Service,
  path: string,
  opts: RequestOptions = {},
): Promise<HttpResponse<T>> {
  const usesSession = (opts.auth ?? { kind: 'session' }).kind === 'session';
  const refreshOn401 = opts.refreshOn401 ?? usesSession;
  const sent = usesSession ? getToken() : undefined;
  const first = await send<T>(service, path, opts);
  if (first.status !== 401 || !refreshOn401) return first;

  // The pair was rotated (by this tab or another) while the call was out: retry with it.
  const current = usesSession ? getToken() : undefined;
  const rotated = current !== undefined && current !== sent;
  if (!rotated && !(await refreshSession(sent))) {
    endSession();
    return first;
  }
  const second = await send<T>(service, path, opts);
  if (second.status === 401) endSession();
  return second;
}

/** A fresh idempotency key (a UUID; crypto.randomUUID needs a secure context, so a fallback). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

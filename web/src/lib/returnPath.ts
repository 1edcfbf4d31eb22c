/**
 * The return address of the login: a screen of the panel opened while logged
 * out (an e-mail's link, a bookmark, an expired session) sends the user to
 * `/?next=<path>`, and the login goes back there. Only a path of this portal
 * is ever followed: never another host (`//evil`, `/\evil`, `https://…`), a
 * scheme (`javascript:`), nor a page outside the panel.
 */

export const NEXT_PARAM = 'next';

/** Where a followed link may lead: the panel only. */
const PANEL_PREFIX = '/Painel/';

/**
 * The path if it is a same-origin path ('/…'), else null. Browsers read '\'
 * as '/', so '/\evil' is '//evil', another host; control characters and
 * spaces are stripped by URL parsers and could hide either.
 */
export function samePath(raw: string | null | undefined): string | null {
  const p = String(raw ?? '');
  if (!p.startsWith('/') || p.startsWith('//') || p.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(p)) return null;
  try {
    const base = 'http://portal.invalid';
    const u = new URL(p, base);
    if (u.origin !== base) return null;
    return u.pathname + u.search + u.hash;
  } catch {
    return null;
  }
}

/** The path if it is a same-origin path of the panel (`/Painel/…`), else null. */
export function safeReturnPath(raw: string | null | undefined): string | null {
  const p = samePath(raw);
  return p && p.toLowerCase().startsWith(PANEL_PREFIX.toLowerCase()) ? p : null;
}

/** The login's address that leads back to `path` (the login alone when the path is not followable). */
export function loginPath(path: string | null | undefined): string {
  const next = safeReturnPath(path);
  return next ? `/?${NEXT_PARAM}=${encodeURIComponent(next)}` : '/';
}

/** The return address a login URL's query carries, when it is followable. */
export function returnPathFrom(search: string): string | null {
  return safeReturnPath(new URLSearchParams(search).get(NEXT_PARAM));
}

import { getCompany, request, type HttpResponse } from './http';
import type { RoleEntry } from './roles';

/** Typed calls of the authentication service (spec §7, docs/api.md). */

export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in?: number;
}

export interface TokenPayload {
  id: string;
  name: string;
  exp?: number;
  brand?: string;
  roles?: string[];
}

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  phone?: string | null;
  doc?: string | null;
  roles?: RoleEntry[];
  /** false once a reseller deleted (deactivated) the user; absent counts as active. */
  active?: boolean;
}

/** GET /login?brand= with Basic auth. */
export function login(username: string, password: string, brand = getCompany()) {
  return request<{ data: { data: TokenPair } }>('authenticator', '/login', {
    query: { brand },
    auth: { kind: 'basic', username, password },
    refreshOn401: false,
  });
}

/** GET /auth/payload with a given access token (right after login) or the stored one. */
export function payload(token?: string) {
  return request<{ payload: TokenPayload }>('authenticator', '/auth/payload', {
    auth: token ? { kind: 'bearer', token } : { kind: 'session' },
    refreshOn401: !token,
  });
}

/** GET /user/{id}/role. */
export function userRoles(id: string, token?: string) {
  return request<{ roles: RoleEntry[] }>('authenticator', `/user/${encodeURIComponent(id)}/role`, {
    auth: token ? { kind: 'bearer', token } : { kind: 'session' },
    refreshOn401: !token,
  });
}

/** GET /user/{id}. */
export function getUser(id: string) {
  return request<{ data: UserRecord }>('authenticator', `/user/${encodeURIComponent(id)}`);
}

/** POST /auth/logout with the refresh token; the token family is revoked. */
export function logout(refreshToken: string) {
  return request<null>('authenticator', '/auth/logout', {
    method: 'POST',
    body: { refresh_token: refreshToken },
    refreshOn401: false,
  });
}

/** POST /auth/reset_password: sends the reset e-mail. */
export function resetPassword(input: { company: string; redirect_url: string; email: string }) {
  return request<null>('authenticator', '/auth/reset_password', {
    method: 'POST',
    body: input,
    auth: { kind: 'none' },
  });
}

/** POST /auth/update_password for the signed-in user (Settings). */
export function updatePassword(input: { password: string; confirmation: string }): Promise<HttpResponse<{ message?: string }>> {
  return request<{ message?: string }>('authenticator', '/auth/update_password', {
    method: 'POST',
    body: input,
  });
}

/**
 * POST /auth/reset_password/check {token}: whether a reset link can still be
 * used, before the user types a password. 204: usable; 410 (with the message):
 * used, expired or unknown. Any other answer (e.g. 404 where the server has no
 * such route yet, 5xx) says nothing, and the form is shown as before.
 */
export async function checkResetToken(token: string, signal?: AbortSignal): Promise<'valid' | 'invalid' | 'unknown'> {
  const res = await request<{ message?: string }>('authenticator', '/auth/reset_password/check', {
    method: 'POST',
    body: { token },
    auth: { kind: 'none' },
    signal,
  });
  if (res.status === 204 || res.status === 200) return 'valid';
  if (res.status === 410) return 'invalid';
  return 'unknown';
}

/** POST /auth/update_password with the token of a reset link (no session). */
export function updatePasswordWithToken(input: { token: string; password: string; confirmation: string }) {
  return request<{ message?: string }>('authenticator', '/auth/update_password', {
    method: 'POST',
    body: input,
    auth: { kind: 'none' },
  });
}

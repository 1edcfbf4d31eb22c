import * as authApi from './authApi';
import { getCompany } from './http';
import { firstLanding } from './guards';
import { navigateTo } from './navigation';
import { filterRolesForCompany } from './roles';
import {
  clearOnLogout,
  getRefreshToken,
  markLoggedIn,
  saveCompany,
  savePermissions,
  saveProfile,
  saveTokens,
} from './session';

export type SignInResult =
  | { kind: 'ok'; landing: string; roles: string[] }
  /** 401: 'Usuário ou senha inválidos'. */
  | { kind: 'invalid' }
  /** 429: too many failed attempts; the server's message says for how long. */
  | { kind: 'throttled'; message: string }
  /** Anything else: 'Houve um erro. Tente mais tarde!'. */
  | { kind: 'error' };

/** Shown on a 429 whose body carries no message. */
export const THROTTLED_FALLBACK = 'Muitas tentativas de acesso. Aguarde alguns minutos e tente novamente.';

/**
 * The login flow (spec §4, §7): Basic login with the trimmed values, store the
 * pair, read the payload (id, name, exp), then the roles valid for this company.
 */
export async function signIn(username: string, password: string, keepConnection: boolean): Promise<SignInResult> {
  const company = getCompany();
  const res = await authApi.login(username.trim(), password.trim(), company);
  if (res.status === 401) return { kind: 'invalid' };
  if (res.status === 429) return { kind: 'throttled', message: res.message || THROTTLED_FALLBACK };
  const pair = res.ok ? res.data?.data?.data : undefined;
  if (!pair?.access_token || !pair.refresh_token) return { kind: 'error' };

  saveTokens(pair.access_token, pair.refresh_token, pair.expires_in);
  saveCompany(company, keepConnection);

  const who = await authApi.payload(pair.access_token);
  const profile = who.ok ? who.data?.payload : undefined;
  if (!profile?.id) {
    clearOnLogout();
    return { kind: 'error' };
  }
  const rolesRes = await authApi.userRoles(String(profile.id), pair.access_token);
  if (!rolesRes.ok || !Array.isArray(rolesRes.data?.roles)) {
    clearOnLogout();
    return { kind: 'error' };
  }
  const roles = filterRolesForCompany(rolesRes.data.roles, company);
  if (roles.length === 0) {
    clearOnLogout();
    return { kind: 'invalid' };
  }
  saveProfile({ id: String(profile.id), name: profile.name || username.trim(), exp: profile.exp });
  savePermissions(roles);
  markLoggedIn();
  return { kind: 'ok', landing: firstLanding(roles), roles };
}

/** Logout (spec §4): revoke the refresh token, forget the session, back to Login. */
export async function signOut(): Promise<void> {
  const refreshToken = getRefreshToken();
  if (refreshToken) await authApi.logout(refreshToken);
  clearOnLogout();
  navigateTo('/');
}

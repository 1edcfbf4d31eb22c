/** Role names as the authenticator sends them (spec §6). */
export const ROLES = ['REPRESENTATIVE', 'RESALE', 'SELLER', 'SUPPORT'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  REPRESENTATIVE: 'Representante',
  RESALE: 'Revenda',
  SELLER: 'Vendedor',
  SUPPORT: 'Suporte',
};

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function hasAnyRole(userRoles: readonly string[], allowed: readonly Role[]): boolean {
  return userRoles.some((r) => (allowed as readonly string[]).includes(r));
}

/** Labels of the user's known roles, in the order of ROLES. */
export function roleLabels(userRoles: readonly string[]): string[] {
  return ROLES.filter((r) => userRoles.includes(r)).map((r) => ROLE_LABELS[r]);
}

/** A role as returned by GET /authenticator/user/{id}/role. */
export interface RoleEntry {
  name: string;
  data?: { brand?: string | null } | null;
}

/**
 * Keeps the names of the roles valid for the current company: those whose
 * data.brand is the company, 'all', or empty (spec §4 "Session").
 */
export function filterRolesForCompany(roles: readonly RoleEntry[], company: string): string[] {
  const wanted = company.toLowerCase();
  const names: string[] = [];
  for (const role of roles) {
    if (!role || typeof role.name !== 'string' || role.name === '') continue;
    const brand = (role.data?.brand ?? '').trim().toLowerCase();
    if (brand === '' || brand === 'all' || brand === wanted) {
      if (!names.includes(role.name)) names.push(role.name);
    }
  }
  return names;
}

/** Initials for the connected-user badge: at most two letters. */
export function initials(name: string | null | undefined): string {
  const words = (name ?? '')
    .trim()
    .split(/[\s@._-]+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w));
  if (words.length === 0) return '?';
  const first = firstLetter(words[0]);
  if (words.length === 1) return first;
  return first + firstLetter(words[words.length - 1]);
}

function firstLetter(word: string): string {
  const match = word.match(/[\p{L}\p{N}]/u);
  return match ? match[0].toLocaleUpperCase('pt-BR') : '';
}

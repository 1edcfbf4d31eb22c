import { useMutation, useQueryClient } from '@tanstack/react-query';
import { getCompany, request, type HttpResponse } from '@/lib/http';
import { hasAnyRole } from '@/lib/roles';

/** Sellers and partner users (spec §3 "Seller", §6 "Seller list", §7, §8; docs/api.md). */

/** A user of the Users list. Staff lists also carry the roles and the company's name. */
export interface SellerRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  active: boolean;
  roles?: string[];
  resale?: string;
}

export interface SellerPage {
  result: SellerRow[];
  total: number;
}

export const MSG_PERMISSION_DENIED = 'Permission denied';

/**
 * Which list a user sees (spec §6 "Seller list"): RESALE its company's sellers;
 * otherwise REPRESENTATIVE or SUPPORT the brand's list; anyone else 'Permission denied'.
 */
export type SellerListSource = { ok: true; kind: 'seller' | 'representative' } | { ok: false; message: string };

export function sellerListSource(roles: readonly string[]): SellerListSource {
  if (roles.includes('RESALE')) return { ok: true, kind: 'seller' };
  if (hasAnyRole(roles, ['REPRESENTATIVE', 'SUPPORT'])) return { ok: true, kind: 'representative' };
  return { ok: false, message: MSG_PERMISSION_DENIED };
}

export interface SellerListQuery {
  amount: number;
  page: number;
  /** 'Nome do vendedor' as applied; '' lists everyone. */
  name: string;
}

/**
 * One page of the Users list, normalised to {result, total}: with a name, GET
 * /seller/name (answers {total, data}); else GET /seller/all (RESALE) or GET
 * /representative/all (staff, by brand). A 404 of a seller list is an empty list
 * (spec §8).
 */
export async function listSellers(
  kind: 'seller' | 'representative',
  q: SellerListQuery,
  signal?: AbortSignal,
): Promise<HttpResponse<SellerPage>> {
  const name = q.name.trim();
  if (name !== '') {
    const res = await request<{ total: number; data: SellerRow[] }>('api', '/seller/name', {
      query: { amount: q.amount, page: q.page, name, brand: getCompany() },
      signal,
    });
    return normalise(res, (d) => ({ result: Array.isArray(d.data) ? d.data : [], total: Number(d.total) || 0 }));
  }
  const path = kind === 'seller' ? '/seller/all' : '/representative/all';
  const query: Record<string, string | number> = { amount: q.amount, page: q.page, status: 'true' };
  if (kind === 'representative') query.brand = getCompany();
  const res = await request<SellerPage>('api', path, { query, signal });
  return normalise(res, (d) => ({ result: Array.isArray(d.result) ? d.result : [], total: Number(d.total) || 0 }));
}

function normalise<T>(res: HttpResponse<T>, map: (data: T) => SellerPage): HttpResponse<SellerPage> {
  if (res.status === 404) return { ...res, status: 200, ok: true, data: { result: [], total: 0 } };
  if (!res.ok || !res.data) return { ...res, data: null };
  return { ...res, data: map(res.data) };
}

export const MSG_SELLER_CREATED = 'Vendedor cadastrado com sucesso';
export const MSG_SELLER_EMAIL_USED =
  'O email fornecido já foi utilizado por outro usuário! Por favor, digite outro email!';
export const MSG_SELLER_INVALID = 'Dados do usuário inválidos';
export const MSG_SELLER_ERROR = 'Erro ao cadastrar o vendedor';

export interface NewSeller {
  name: string;
  email: string;
  /** Digits only. */
  phone: string;
}

/** POST /api/seller (RESALE): {email, name, phone, host}; the invitation's link points at host. */
export function createSeller(seller: NewSeller, host = window.location.host) {
  return request<{ message?: string; id?: string }>('api', '/seller', {
    method: 'POST',
    body: { email: seller.email, name: seller.name, phone: seller.phone, host },
  });
}

/**
 * The message of a seller-creation answer (spec §8 "Seller creation"): 409 the
 * e-mail is taken; other ≥400 the first message of `errors`, else 'Dados do
 * usuário inválidos' (a 400 without details), else the response's message;
 * default 'Erro ao cadastrar o vendedor'.
 */
export function sellerCreationOutcome(res: HttpResponse<unknown>): { ok: boolean; message: string } {
  if (res.status === 201 || res.ok) return { ok: true, message: MSG_SELLER_CREATED };
  if (res.status === 409) return { ok: false, message: MSG_SELLER_EMAIL_USED };
  if (res.status >= 400 && res.status < 500) {
    const first = (res.errors ?? [])
      .map((e) => (typeof e === 'string' ? e : (e as { message?: unknown } | null)?.message))
      .find((m): m is string => typeof m === 'string' && m.trim() !== '');
    if (first) return { ok: false, message: first };
    if (res.status === 400) return { ok: false, message: MSG_SELLER_INVALID };
    if (res.message) return { ok: false, message: res.message };
  }
  return { ok: false, message: MSG_SELLER_ERROR };
}

/**
 * Whether a user record of GET /authenticator/user/{id} is deactivated (its
 * 'Excluir usuário' is done). A record without `active` counts as active.
 */
export function isDeactivated(user: { active?: boolean } | null | undefined): boolean {
  return user?.active === false;
}

export const MSG_USER_DELETED = 'Usuário deletado com sucesso';
export const MSG_USER_ERROR = 'Houve um erro. Tente novamente mais tarde!';

/** PATCH /api/seller/inative/{id} (RESALE): deactivates one of the company's sellers. */
export function deactivateSeller(id: string) {
  return request<{ message?: string }>('api', `/seller/inative/${encodeURIComponent(id)}`, { method: 'PATCH' });
}

/** How long the 'Desfazer' of a deletion is offered (the server allows it for 10 minutes: docs/api.md). */
export const UNDO_DELETE_MS = 10_000;
export const MSG_USER_RESTORED = 'Exclusão desfeita: o usuário voltou a ter acesso.';
export const MSG_UNDO_FAILED = 'Não foi possível desfazer a exclusão.';

/** PATCH /api/seller/restore/{id} (RESALE): undoes the deletion of one of the company's sellers, shortly after it. */
export function restoreSeller(id: string) {
  return request<{ message?: string }>('api', `/seller/restore/${encodeURIComponent(id)}`, { method: 'PATCH' });
}

/** A new seller (spec §6 "Seller record") as a mutation; once created, the cached lists are stale. */
export function useCreateSeller() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (seller: NewSeller) => createSeller(seller),
    onSuccess: (res) => {
      if (res.ok) void client.invalidateQueries({ queryKey: ['list'] });
    },
  });
}

/** A seller's deletion as a mutation; once done, the cached lists are stale. */
export function useDeactivateSeller() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deactivateSeller(id),
    onSuccess: (res) => {
      if (res.ok) void client.invalidateQueries({ queryKey: ['list'] });
    },
  });
}

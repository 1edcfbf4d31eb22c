import { useMutation } from '@tanstack/react-query';
import { getCompany, request, type HttpResponse } from '@/lib/http';

/** Reseller sign-up (spec §7 `POST /register/resale`, §8 "Reseller registration"). */

/** Spec §3 "Reseller registration payload". */
export interface ResaleRegistration {
  email: string;
  /** Digits only. */
  phone: string;
  contactName: string;
  /** Digits only. */
  cnpj: string;
  /** Always empty: a sign-up grants no role before approval. */
  role: string[];
  brand: string;
  fantasyName: string;
  corporateName: string;
  street: string;
  state: string;
  /** Digits only. */
  cep: string;
  city: string;
  country: string;
}

export const MSG_RESALE_REGISTERED = 'Revenda cadastrada com sucesso';
export const MSG_RESALE_DUPLICATE = 'Já existe uma revenda registrada nesse email';
/** The server's answer to a CNPJ already registered at the brand (code CNPJ_TAKEN); the spec has no wording of its own. */
export const MSG_RESALE_CNPJ_TAKEN = 'Já existe uma revenda registrada com este CNPJ.';
export const CODE_CNPJ_TAKEN = 'CNPJ_TAKEN';
export const MSG_REGISTRATION_ERROR = 'Houve um erro. Tente mais tarde!';
/** Server messages that mean "already registered" (spec §8). */
export const DUPLICATE_MESSAGES: readonly string[] = ['Email já está sendo utilizado', 'Email ou Doc já existente'];
/** After a 429 the client waits this long, then tries once more (spec §4, §9). */
export const REGISTRATION_RETRY_MS = 60_000;

export type RegistrationOutcome =
  | { kind: 'success'; message: string }
  /** The e-mail is taken: go back to step 1 with the message. */
  | { kind: 'duplicate'; message: string }
  /** The CNPJ is registered: stay on step 2 (the CNPJ's) with the message. */
  | { kind: 'duplicate-cnpj'; message: string }
  /** Wait REGISTRATION_RETRY_MS with the loading screen, then retry once. */
  | { kind: 'rate-limit' }
  | { kind: 'error'; message: string };

/** What a sign-up answer means for the screen (spec §8). */
export function registrationOutcome(res: HttpResponse<unknown>): RegistrationOutcome {
  if (res.status === 201) return { kind: 'success', message: MSG_RESALE_REGISTERED };
  const code = (res.body as { code?: unknown } | null)?.code;
  if (res.status === 400 && (code === CODE_CNPJ_TAKEN || res.message === MSG_RESALE_CNPJ_TAKEN)) {
    return { kind: 'duplicate-cnpj', message: MSG_RESALE_CNPJ_TAKEN };
  }
  if (res.status === 400 || (res.message !== undefined && DUPLICATE_MESSAGES.includes(res.message))) {
    return { kind: 'duplicate', message: MSG_RESALE_DUPLICATE };
  }
  if (res.status === 429) return { kind: 'rate-limit' };
  return { kind: 'error', message: MSG_REGISTRATION_ERROR };
}

type SignUp = Omit<ResaleRegistration, 'brand' | 'role' | 'country'> & Partial<ResaleRegistration>;

/**
 * POST /api/register/resale (public), with the attempt's Idempotency-Key: a
 * sign-up sent again with its key (its answer lost, the rate limit's retry) is
 * answered as the first call, not as "CNPJ already registered".
 */
export function registerResale(body: SignUp, idempotencyKey: string) {
  const payload: ResaleRegistration = { role: [], brand: getCompany(), country: 'Brasil', ...body };
  return request<{ message?: string; id?: string }>('api', '/register/resale', {
    method: 'POST',
    body: payload,
    headers: { 'Idempotency-Key': idempotencyKey },
    auth: { kind: 'none' },
  });
}

/** The reseller sign-up (POST /register/resale) as a mutation. */
export function useRegisterResale() {
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: SignUp; idempotencyKey: string }) => registerResale(body, idempotencyKey),
  });
}

import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/http';

/** Contact request (spec §3, §8 "Contact"): public, the brand goes in the company header. */

export interface ContactRequest {
  fullName: string;
  email: string;
  title: string;
  description: string;
}

export const MSG_CONTACT_SENT = 'Email enviado com sucesso!';
export const MSG_CONTACT_ERROR = 'Erro ao solicitar contato, por favor tente novamente mais tarde!';

/** POST /api/contact. */
export function sendContact(body: ContactRequest) {
  return request<{ message?: string }>('api', '/contact', { method: 'POST', body, auth: { kind: 'none' } });
}

/** The message the screen shows for an answer, and whether it is a success. */
export function contactOutcome(status: number): { ok: boolean; message: string } {
  return status >= 200 && status < 300
    ? { ok: true, message: MSG_CONTACT_SENT }
    : { ok: false, message: MSG_CONTACT_ERROR };
}

/** The contact request as a mutation. */
export function useSendContact() {
  return useMutation({ mutationFn: (body: ContactRequest) => sendContact(body) });
}

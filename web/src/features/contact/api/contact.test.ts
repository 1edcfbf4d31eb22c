import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '@/test/helpers';
import { setCompany } from '@/lib/http';
import { MSG_CONTACT_ERROR, MSG_CONTACT_SENT, contactOutcome, sendContact } from './contact';

describe('contactApi', () => {
  it('posts the four fields with the company header and no session', async () => {
    setCompany('printaq');
    const calls = mockFetch(() => json(200, { message: MSG_CONTACT_SENT }));
    const body = { fullName: 'Ana', email: 'ana@x.com.br', title: 'Dúvida', description: 'Olá' };
    await sendContact(body);
    expect(calls[0]).toMatchObject({ url: '/api/contact', method: 'POST', body });
    expect(calls[0].headers.company).toBe('printaq');
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('maps the status to the spec messages', () => {
    expect(contactOutcome(200)).toEqual({ ok: true, message: MSG_CONTACT_SENT });
    expect(contactOutcome(400)).toEqual({ ok: false, message: MSG_CONTACT_ERROR });
    expect(contactOutcome(500)).toEqual({ ok: false, message: MSG_CONTACT_ERROR });
  });
});

import { describe, expect, it } from 'vitest';
import { json, mockFetch, storeSession } from '@/test/helpers';
import { setCompany, type HttpResponse } from '@/lib/http';
import {
  MSG_APPROVE_FAILED,
  MSG_CREATE_FAILED,
  MSG_CRM_COMMUNICATION,
  MSG_CRM_CUSTOMER,
  MSG_CRM_LOCKED,
  MSG_GENERIC,
  MSG_REFUSE_FAILED,
  MSG_RENEWAL_DECISION_FAILED,
  MSG_RENEWAL_REQUEST_FAILED,
  MSG_SESSION_ENDED,
  MSG_UPDATE_FAILED,
  approveFailureMessage,
  approveOpportunity,
  createFailureMessage,
  createOpportunity,
  decideRenewal,
  getCrmSellers,
  getOpportunity,
  refuseFailureMessage,
  refuseOpportunity,
  renewalDecisionFailureMessage,
  renewalRequestFailureMessage,
  requestRenewal,
  updateFailureMessage,
  updateOpportunity,
  updateProbability,
} from './opportunity';
import type { CreateOpportunityPayload } from '../model/payload';

function res(status: number, body: Record<string, unknown> = {}): HttpResponse<unknown> {
  return {
    status,
    ok: status >= 200 && status < 300,
    data: null,
    body,
    message: typeof body.message === 'string' ? body.message : undefined,
  };
}

describe('opportunityApi calls', () => {
  it('creates with an Idempotency-Key header and the session', async () => {
    setCompany('nordata');
    storeSession({ roles: ['SELLER'], token: 'tk', company: 'nordata' });
    const calls = mockFetch(() => json(200, { message: 'Oportunidade cadastrada com sucesso', data: { id: 'x' } }));
    const payload = { name: '', cnpj: '11222333000181' } as CreateOpportunityPayload;
    const r = await createOpportunity(payload, 'key-1');
    expect(r.ok).toBe(true);
    expect(calls[0]).toMatchObject({ url: '/api/opportunity/create', method: 'POST', body: payload });
    expect(calls[0].headers['idempotency-key']).toBe('key-1');
    expect(calls[0].headers.authorization).toBe('Bearer tk');
  });

  it('sends every decision with its own Idempotency-Key', async () => {
    setCompany('nordata');
    storeSession({ roles: ['REPRESENTATIVE'], token: 'tk', company: 'nordata' });
    const calls = mockFetch(() => json(200, { message: 'ok', data: { id: 'op-1' } }));
    await approveOpportunity('op-1', 'Nome', 50);
    await refuseOpportunity('op-1', 'Motivo');
    await updateOpportunity('op-1', 'Nome', 75);
    await updateProbability('op-1', 75);
    await requestRenewal('op-1', { reason: 'r', probabilityClosing: 25, projectStillInScope: 'Sim', lastVisitDate: '2026-01-01' } as never);
    await decideRenewal('op-1', { approve: true });
    const keys = calls.map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(6);
    for (const k of keys) expect(k).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys).size).toBe(6);
  });

  it('reads the record as data.data[0]', async () => {
    mockFetch(() => json(200, { data: [{ id: 'op-1', name: 'N' }] }));
    const r = await getOpportunity('op-1');
    expect(r.record).toEqual({ id: 'op-1', name: 'N' });
  });

  it('sends the decision bodies of docs/api.md', async () => {
    const calls = mockFetch(() => json(200, { message: 'ok' }));
    await approveOpportunity('a', ' Nome ', 50);
    await refuseOpportunity('a', ' motivo ');
    await updateOpportunity('a', 'Novo', 75);
    await updateProbability('a', 100);
    await requestRenewal('a', { reason: 'r', probabilityClosing: 25, projectStillInScope: 'Sim', lastVisitDate: '01/05/26' });
    await decideRenewal('a', { approve: true, name: 'N', probabilityClosing: 25 });
    await decideRenewal('a', { approve: false, reason: ' não ' });
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PATCH', '/api/opportunity/a', { status: 'approved', name: 'Nome', probabilityClosing: 50 }],
      ['PATCH', '/api/opportunity/a', { status: 'disapproved', reason: 'motivo' }],
      ['PATCH', '/api/opportunity/a', { name: 'Novo', probabilityClosing: 75 }],
      ['PATCH', '/api/opportunity', { id: 'a', probabilityClosing: 100 }],
      [
        'PATCH',
        '/api/opportunity/renovation/a/request',
        { reason: 'r', probabilityClosing: 25, projectStillInScope: 'Sim', lastVisitDate: '01/05/26' },
      ],
      ['PATCH', '/api/opportunity/renovation/a', { status: 'approved', name: 'N', probabilityClosing: 25 }],
      ['PATCH', '/api/opportunity/renovation/a', { status: 'disapproved', reason: 'não' }],
    ]);
  });

  it('lists the CRM sellers, or reports the failure', async () => {
    mockFetch(() => json(200, [{ name: 'Vanessa', user_id: 'u1', company: 'Revenda' }]));
    expect(await getCrmSellers()).toEqual({ ok: true, sellers: [{ name: 'Vanessa', user_id: 'u1', company: 'Revenda' }] });
    mockFetch(() => json(502, { message: 'Não foi possivel recuperar os vendedores no Salesforce' }));
    expect(await getCrmSellers()).toEqual({ ok: false, status: 500 });
  });
});

describe('spec §8 messages', () => {
  it('create: 401, 423 and the default', () => {
    expect(createFailureMessage(res(200))).toBeNull();
    expect(createFailureMessage(res(401))).toBe(MSG_SESSION_ENDED);
    expect(createFailureMessage(res(423, { message: 'x' }))).toBe(MSG_CRM_LOCKED);
    expect(createFailureMessage(res(400))).toBe(MSG_CREATE_FAILED);
    expect(createFailureMessage(res(500))).toBe(MSG_CREATE_FAILED);
  });

  it('approve: 423 server message, CRM codes, other 4xx, 5xx message', () => {
    expect(approveFailureMessage(res(423, { message: 'Bloqueada no CRM' }))).toBe('Bloqueada no CRM');
    expect(approveFailureMessage(res(422, { code: 'CUSTOMER_NOT_FOUND', message: 'x' }))).toBe(MSG_CRM_CUSTOMER);
    // a 502 reaches the caller as 500 with its body
    expect(approveFailureMessage(res(500, { code: 'CRM_COMMUNICATION_ERROR', message: 'x' }))).toBe(MSG_CRM_COMMUNICATION);
    expect(approveFailureMessage(res(500, { message: 'falha CRM_COMMUNICATION_ERROR' }))).toBe(MSG_CRM_COMMUNICATION);
    for (const s of [400, 403, 404, 409]) expect(approveFailureMessage(res(s, { message: 'x' }))).toBe(MSG_APPROVE_FAILED);
    expect(approveFailureMessage(res(500, { message: 'O sistema demorou a responder.' }))).toBe('O sistema demorou a responder.');
    expect(approveFailureMessage(res(500))).toBe(MSG_GENERIC);
    expect(MSG_GENERIC).toBe('Houve um erro. Tente novamente mais tarde!');
  });

  it('refuse, update and renewal', () => {
    expect(refuseFailureMessage(res(409))).toBe(MSG_REFUSE_FAILED);
    expect(refuseFailureMessage(res(500, { message: 'm' }))).toBe('m');
    expect(updateFailureMessage(res(409))).toBe(MSG_UPDATE_FAILED);
    expect(updateFailureMessage(res(500))).toBe(MSG_UPDATE_FAILED);
    expect(renewalRequestFailureMessage(res(400))).toBe(MSG_RENEWAL_REQUEST_FAILED);
    expect(renewalRequestFailureMessage(res(200))).toBeNull();
    expect(renewalDecisionFailureMessage(res(409))).toBe(MSG_RENEWAL_DECISION_FAILED);
    expect(renewalDecisionFailureMessage(res(422, { code: 'CUSTOMER_NOT_FOUND' }))).toBe(MSG_CRM_CUSTOMER);
  });
});

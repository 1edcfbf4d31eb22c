import { expect, test } from '@playwright/test';
import { apiSession, register, runTag } from './list-support';
import { randomCnpj } from './support';

/**
 * Customer data in Temporal (issue 13, item 2; docs/security-payloads.md): the
 * history stores every payload encrypted, and the dev server's Temporal UI
 * (E2E_TEMPORAL_UI, started by scripts/e2e.sh with --ui-codec-endpoint) shows
 * it decrypted through `oportuna codec-server`. Brand bipsul: no other spec
 * registers or counts its opportunities.
 */
const UI = process.env.E2E_TEMPORAL_UI ?? '';
// The customer of list-support's register().
const CUSTOMER = { contact: 'Carla Nogueira', email: 'compras@cliente-e2e.com.br', phone: '31987650000' };

/** Every string of a JSON value, and each base64 one decoded too (payload data and metadata). */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') {
    out.push(v);
    if (/^[A-Za-z0-9+/=_-]{8,}$/.test(v)) out.push(Buffer.from(v, 'base64').toString('latin1'));
  } else if (Array.isArray(v)) {
    for (const x of v) strings(x, out);
  } else if (v && typeof v === 'object') {
    for (const x of Object.values(v)) strings(x, out);
  }
  return out;
}

test('the Temporal UI shows a registration decrypted while the raw history holds none of the customer', async ({ page, request }) => {
  expect(UI, 'the Temporal UI of the stack (scripts/e2e.sh sets E2E_TEMPORAL_UI)').not.toBe('');
  const s = await apiSession(request, 'bipsul', 'vendedor1');
  const tag = runTag('UI');
  const id = await register(s, { name: `Projeto ${tag}`, cnpj: randomCnpj(), fantasyName: `Cliente ${tag}`, corporateName: `Cliente ${tag} Ltda` });
  const wf = encodeURIComponent(`opportunity/${id}`);

  // The raw history, as the frontend serves it to anyone without the codec.
  const res = await request.get(`${UI}/api/v1/namespaces/default/workflows/${wf}/history`);
  expect(res.status()).toBe(200);
  const raw = strings(await res.json()).join('\n');
  expect(raw).toContain('EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED');
  expect(raw, 'payloads are encrypted').toContain('binary/encrypted');
  for (const [field, value] of Object.entries({ ...CUSTOMER, name: `Projeto ${tag}`, owner: 'vendedor1@bipsul.demo' })) {
    expect(raw.includes(value), `the raw history holds the ${field} (${value})`).toBe(false);
  }

  // The UI decrypts through the codec server.
  const decoded = page.waitForResponse((r) => r.url().endsWith('/decode') && r.request().method() === 'POST');
  await page.goto(`${UI}/namespaces/default/workflows/${wf}`);
  expect((await decoded).status()).toBe(200);
  await expect(page.getByText(`"brand": "bipsul"`)).toBeVisible(); // the workflow's input
  const accepted = page.getByText('Workflow Execution Update Accepted').first();
  await accepted.scrollIntoViewIfNeeded();
  await accepted.click();
  await expect(page.getByText(CUSTOMER.email).first()).toBeVisible();
  await expect(page.getByText(CUSTOMER.contact).first()).toBeVisible();
});

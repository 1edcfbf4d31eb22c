import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { dateDigits, login, pageApi, randomCnpj, registrationBody, shot, shots, url, watchScreens } from './support';

// Long flows (several sign-ins, workflow updates): generous limits on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ actionTimeout: 20_000, navigationTimeout: 30_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * Opportunity details (spec §2, §4, §5, §8): approval, refusal, renewal request
 * and decision, support's read-only view. Brands printaq (opportunities this
 * spec registers) and marcatto (the seeded renovation and expired ones, with
 * short durations: seed/opportunities.go); no other spec changes them.
 */
const DECISIONS = 'printaq';
const RENEWALS = 'marcatto';

interface Row {
  id: string;
  status: string;
  name: string;
}

interface Rec extends Row {
  approveDate: string | null;
  reason: string;
  register: string;
  conflicts?: { id: string }[];
}

/** Console errors and failed calls while the page shows the registration or details screen (not the list). */
const watchConsole = (page: Page, allowed: RegExp[] = []) => watchScreens(page, /\/Painel\/Opportunities\/[^/]+$/, allowed);

async function record(page: Page, id: string): Promise<Rec> {
  const res = await pageApi<{ data: Rec[] }>(page, 'GET', `/api/opportunity/id/${id}`);
  expect(res.status).toBe(200);
  return res.body.data[0];
}

/** A signed-in page in a context of its own. */
async function signedIn(browser: Browser, slug: string, user: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, slug, user);
  return page;
}

/** Registers an opportunity through the API as the signed-in seller. */
async function register(page: Page, cnpj: string, customer: string): Promise<string> {
  const res = await pageApi<{ data: Row }>(
    page,
    'POST',
    '/api/opportunity/create',
    registrationBody(DECISIONS, cnpj, customer, { haveCollector: true, haveCollectorDescription: 'Coletores antigos' }, { amount: 4 }),
  );
  expect(res.status).toBe(200);
  return res.body.data.id;
}

async function closeSuccess(page: Page, message: string, slug: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Feito!' });
  await expect(dialog).toContainText(message);
  await dialog.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(url(slug, '/Painel/Opportunities'));
}

test('the representative approves one (name required) and refuses another with a reason', async ({ browser }, info) => {
  const seller = await signedIn(browser, DECISIONS, 'vendedor2');
  const cnpj = randomCnpj();
  const first = await register(seller, cnpj, 'Atacado Aprovação');
  const second = await register(seller, cnpj, 'Atacado Reprovação');

  const rep = await signedIn(browser, DECISIONS, 'representante');
  const errors = watchConsole(rep);
  await rep.goto(url(DECISIONS, `/Painel/Opportunities/${first}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Em Análise');
  await expect(rep.getByTestId('detail-user-name')).toHaveText('Victor Souza');
  await expect(rep.getByTestId('detail-user-email')).toHaveText(`vendedor2@${DECISIONS}.demo`);
  await expect(rep.getByTestId('detail-estimated')).toHaveText('R$ 12.602,00');

  // The name is required to approve.
  const name = rep.locator('#opportunity-name');
  await name.fill('');
  await rep.getByRole('button', { name: 'Aprovar', exact: true }).click();
  await expect(rep.getByText('Por favor, digite um nome para a oportunidade!!')).toBeVisible();
  await expect(rep.getByRole('dialog', { name: 'Aprovar oportunidade' })).toHaveCount(0);
  await name.fill('Projeto E2E Atacado');
  await rep.locator('#opportunity-probability').selectOption('75');
  await shots(rep, info, 'details-representative-analysis');
  await rep.getByRole('button', { name: 'Aprovar', exact: true }).click();
  const confirm = rep.getByRole('dialog', { name: 'Aprovar oportunidade' });
  await expect(confirm).toContainText('Deseja aprovar a oportunidade "Projeto E2E Atacado"?');
  await shot(rep, info, 'details-approve-confirmation-desktop');
  await confirm.getByRole('button', { name: 'Aprovar', exact: true }).click();
  await closeSuccess(rep, 'Oportunidade aprovada com sucesso', DECISIONS);
  const approved = await record(rep, first);
  expect(approved).toMatchObject({ status: 'approved', name: 'Projeto E2E Atacado' });
  expect(approved.register).not.toBe('');

  await rep.goto(url(DECISIONS, `/Painel/Opportunities/${first}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Aprovado');
  await expect(rep.getByTestId('detail-register')).toHaveText(approved.register);
  await expect(rep.getByTestId('detail-probability')).toHaveText('71% - 99%');
  await expect(rep.getByRole('button', { name: 'Aprovar', exact: true })).toHaveCount(0);

  // The second registration of the same customer shows the first as a conflict; refuse it.
  await rep.goto(url(DECISIONS, `/Painel/Opportunities/${second}`));
  await expect(rep.getByTestId('conflict-list').getByRole('link', { name: 'Ver registro' })).toHaveAttribute('href', new RegExp(`${first}$`));
  await rep.getByRole('button', { name: 'Reprovar' }).click();
  const refuse = rep.getByRole('dialog', { name: 'Reprovar oportunidade' });
  await expect(refuse).toContainText('Digite abaixo o motivo da reprovação');
  const confirmRefuse = refuse.getByRole('button', { name: 'Reprovar' });
  await expect(confirmRefuse).toBeDisabled();
  await refuse.locator('#refusal-reason').fill('   ');
  await expect(confirmRefuse).toBeDisabled();
  await refuse.locator('#refusal-reason').fill('Cliente já registrado por esta revenda.');
  await expect(confirmRefuse).toBeEnabled();
  await shot(rep, info, 'details-refuse-dialog-desktop');
  await confirmRefuse.click();
  await closeSuccess(rep, 'Oportunidade reprovada com sucesso', DECISIONS);

  await rep.goto(url(DECISIONS, `/Painel/Opportunities/${second}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Reprovado');
  await expect(rep.getByTestId('detail-reason')).toContainText('Motivo da reprovação');
  await expect(rep.getByTestId('detail-reason')).toContainText('Cliente já registrado por esta revenda.');
  await expect(rep.getByTestId('detail-actions').getByRole('button')).toHaveCount(0);
  await shots(rep, info, 'details-disapproved');

  // The seller sees the refusal too, without the registering user's e-mail.
  await seller.goto(url(DECISIONS, `/Painel/Opportunities/${second}`));
  await expect(seller.getByTestId('detail-reason')).toContainText('Cliente já registrado por esta revenda.');
  await expect(seller.getByTestId('detail-user-email')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('support sees the details with no action buttons', async ({ browser }, info) => {
  const page = await signedIn(browser, DECISIONS, 'suporte');
  const errors = watchConsole(page);
  const list = await pageApi<{ result: Row[] }>(page, 'GET', '/api/opportunity/all?status=analysis&amount=1');
  const id = list.body.result[0].id;
  await page.goto(url(DECISIONS, `/Painel/Opportunities/${id}`));
  await expect(page.getByTestId('detail-status')).toHaveText('Em Análise');
  await expect(page.getByTestId('section-company')).toBeVisible();
  await expect(page.getByTestId('detail-actions').getByRole('button')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Atualizar registro' })).toHaveCount(0);
  await expect(page.locator('#opportunity-name')).toHaveCount(0);
  await shots(page, info, 'details-support');
  expect(errors).toEqual([]);
});

test('a seller requests the renewal of a renovation (?renovation=true) and the representative approves it', async ({
  browser,
}, info) => {
  const start = Date.now();
  const seller = await signedIn(browser, RENEWALS, 'vendedor1');
  const errors = watchConsole(seller);
  const list = await pageApi<{ result: Row[] }>(seller, 'GET', '/api/opportunity/user?status=renovation');
  expect(list.body.result.length).toBeGreaterThan(0);
  const id = list.body.result[0].id;

  await seller.goto(url(RENEWALS, `/Painel/Opportunities/${id}?renovation=true`));
  const dialog = seller.getByRole('dialog', { name: 'Solicitar renovação' });
  await expect(dialog).toBeVisible();
  await expect(seller.getByTestId('detail-status')).toHaveText('Renovação');
  await dialog.getByRole('button', { name: 'Solicitar renovação' }).click();
  await expect(dialog.getByText('*Campo Obrigatório')).toHaveCount(4);
  await dialog.locator('#renewal-lastVisitDate').pressSequentially(dateDigits(2));
  await expect(dialog.getByText('Data de visita deve ser uma data passada ou a atual!')).toBeVisible();
  await dialog.locator('#renewal-lastVisitDate').fill('');
  await dialog.locator('#renewal-lastVisitDate').pressSequentially(dateDigits(-1));
  await expect(dialog.getByText('Data de visita deve ser uma data passada ou a atual!')).toHaveCount(0);
  await dialog.getByRole('radiogroup', { name: 'A proposta foi enviada?' }).locator('label', { hasText: /^Sim$/ }).click();
  await dialog.getByRole('radiogroup', { name: 'O produto foi homologado?' }).locator('label', { hasText: /^Não$/ }).click();
  await dialog.locator('#renewal-nextStep').fill('Prova de conceito em junho');
  await dialog.locator('#renewal-probabilityClosing').selectOption('75');
  await dialog.getByRole('radiogroup', { name: 'Projeto continua em pauta' }).locator('label', { hasText: /^Sim$/ }).click();
  await dialog.locator('#renewal-reason').fill('O cliente confirmou o orçamento do segundo semestre.');
  await expect(dialog.getByText('*Campo Obrigatório')).toHaveCount(0);
  await shots(seller, info, 'details-renewal-dialog');
  await dialog.getByRole('button', { name: 'Solicitar renovação' }).click();
  await closeSuccess(seller, 'Renovação solicitada com sucesso', RENEWALS);
  expect((await record(seller, id)).status).toBe('awaiting_renovation');
  expect(errors).toEqual([]);

  const rep = await signedIn(browser, RENEWALS, 'representante');
  const repErrors = watchConsole(rep);
  await rep.goto(url(RENEWALS, `/Painel/Opportunities/${id}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Aguardando Renovação');
  await expect(rep.getByTestId('detail-reason')).toContainText('Motivo da solicitação de renovação');
  await expect(rep.getByTestId('detail-reason')).toContainText('O cliente confirmou o orçamento do segundo semestre.');
  await expect(rep.getByTestId('detail-probability')).toHaveText('71% - 99%');
  await shots(rep, info, 'details-awaiting-renovation');
  await rep.getByRole('button', { name: 'Aprovar Renovação' }).click();
  const confirm = rep.getByRole('dialog', { name: 'Aprovar Renovação' });
  await expect(confirm).toContainText('Deseja aprovar a renovação');
  await confirm.getByRole('button', { name: 'Aprovar Renovação' }).click();
  await closeSuccess(rep, 'Renovação aprovada com sucesso', RENEWALS);

  // Approved anew (the seeded short renewal window may already have moved it back to renovation).
  const after = await record(rep, id);
  expect(['approved', 'renovation']).toContain(after.status);
  expect(new Date(after.approveDate ?? 0).getTime()).toBeGreaterThanOrEqual(start - 60_000);
  expect(repErrors).toEqual([]);
});

test('a seller requests the renewal of an expired one and the representative refuses it with a reason', async ({
  browser,
}, info) => {
  const seller = await signedIn(browser, RENEWALS, 'vendedor2');
  const list = await pageApi<{ result: Row[] }>(seller, 'GET', '/api/opportunity/user?status=expired');
  expect(list.body.result.length).toBeGreaterThan(0);
  const id = list.body.result[0].id;

  await seller.goto(url(RENEWALS, `/Painel/Opportunities/${id}`));
  await expect(seller.getByTestId('detail-status')).toHaveText('Expirado');
  await seller.getByRole('button', { name: 'Solicitar renovação' }).click();
  const dialog = seller.getByRole('dialog', { name: 'Solicitar renovação' });
  await dialog.locator('#renewal-lastVisitDate').pressSequentially(dateDigits(0));
  await dialog.locator('#renewal-probabilityClosing').selectOption('25');
  await dialog.getByRole('radiogroup', { name: 'Projeto continua em pauta' }).locator('label', { hasText: /^Não$/ }).click();
  await dialog.locator('#renewal-reason').fill('Cliente pediu mais prazo.');
  await dialog.getByRole('button', { name: 'Solicitar renovação' }).click();
  await closeSuccess(seller, 'Renovação solicitada com sucesso', RENEWALS);

  const rep = await signedIn(browser, RENEWALS, 'representante');
  await rep.goto(url(RENEWALS, `/Painel/Opportunities/${id}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Aguardando Renovação');
  await rep.getByRole('button', { name: 'Recusar Renovação' }).click();
  const refuse = rep.getByRole('dialog', { name: 'Recusar Renovação' });
  await expect(refuse).toContainText('Digite abaixo o motivo da reprovação');
  await expect(refuse.getByRole('button', { name: 'Recusar Renovação' })).toBeDisabled();
  await refuse.locator('#refusal-reason').fill('Projeto sem previsão de compra.');
  await refuse.getByRole('button', { name: 'Recusar Renovação' }).click();
  await closeSuccess(rep, 'Renovação reprovada com sucesso', RENEWALS);
  const after = await record(rep, id);
  expect(after).toMatchObject({ status: 'disapproved', reason: 'Projeto sem previsão de compra.' });
  await rep.goto(url(RENEWALS, `/Painel/Opportunities/${id}`));
  await expect(rep.getByTestId('detail-reason')).toContainText('Motivo da reprovação');
  await shot(rep, info, 'details-renewal-refused-desktop');
});

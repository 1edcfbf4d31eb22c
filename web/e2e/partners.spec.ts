import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import { email as demoEmail, expectLogin, login, maskCnpj, openLogin, PORT, randomCnpj, shot, submitLogin, url } from './support';

/**
 * Partners and accounts (issue 6) on the brand rotulus, whose demo data no
 * other spec changes: reseller sign-up, approval and rejection, the e-mailed
 * set-password links (read from the dev mailbox), sellers added and deleted,
 * contact, recovery, and the notifications bell.
 */
const SLUG = 'rotulus';
const NEW_PASSWORD = 'Parceiro@2026';

/** A unique mailbox name for this run. */
function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** Console errors of a page; 'Failed to load resource' is allowed where a test provokes a 4xx. */
function watchConsole(page: Page, allowFailedResources = false): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    if (allowFailedResources && msg.text().startsWith('Failed to load resource')) return;
    errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/** At 390 px the page must not scroll sideways (tables scroll inside their card). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
}

interface Mail {
  subject: string;
  html: string;
  text: string;
  to: string[];
  links: string[];
  createdAt: string;
}

/** The dev mailbox's e-mails to an address, newest first. */
async function mailsTo(request: APIRequestContext, to: string): Promise<Mail[]> {
  // The mailbox is the same on every host; Node resolves plain localhost (not <slug>.localhost).
  const res = await request.get(`http://localhost:${PORT}/mailbox/api/messages?to=${encodeURIComponent(to)}&limit=20`);
  expect(res.status()).toBe(200);
  return ((await res.json()) as { messages: Mail[] }).messages;
}

/** Waits for an e-mail to `to` whose subject matches, and returns it. */
async function waitForMail(request: APIRequestContext, to: string, subject: RegExp): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailsTo(request, to)).find((m) => subject.test(m.subject));
        return found?.subject ?? '';
      },
      // A failed first attempt is retried after 1, 2, 4, 8, 16 s (workflows.SendEmail).
      { timeout: 60_000, message: `e-mail to ${to} matching ${subject}` },
    )
    .toMatch(subject);
  return found!;
}

/** The set-password link of an e-mail (the portal's /reset-password?token=…). */
function setPasswordLink(mail: Mail): string {
  const link = mail.links.find((l) => l.includes('/reset-password?token='));
  expect(link, `set-password link in "${mail.subject}"`).toBeTruthy();
  return link!;
}

/**
 * Accepts the LGPD banner of a fresh browser context (it always shows there). It
 * waits for the banner instead of checking once: a banner drawn after a one-off
 * check would stay over the bottom of the form.
 */
async function acceptLgpd(page: Page): Promise<void> {
  const accept = page.getByTestId('lgpd-accept');
  await expect(accept).toBeVisible();
  await accept.click();
  await expect(page.getByTestId('lgpd-banner')).toHaveCount(0);
}

/** Opens an e-mailed link in a fresh browser context, sets the password and lands on Login. */
async function setPasswordFromLink(browser: Browser, link: string, info: TestInfo, name: string): Promise<void> {
  const context = await browser.newContext({ locale: 'pt-BR' });
  const page = await context.newPage();
  const errors = watchConsole(page);
  await page.goto(link);
  await acceptLgpd(page);
  await page.getByLabel('Nova senha', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Confirme a nova senha', { exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Finalizar' }).click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Senha atualizada com sucesso');
  await shot(page, info, name);
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expectLogin(page);
  expect(errors).toEqual([]);
  // The link is spent: opened again, it says so before any password is typed
  // (POST /authenticator/auth/reset_password/check answers 410, the one failed resource expected).
  // Every browser test comes from one address, which is locked after 10 unusable links
  // within an hour (auth.ResetTokenFreePerAddress): the suite presents 5 (3 here, 2 in
  // a11y.spec.ts), so --repeat-each on this test soon meets the lock.
  await page.goto(link);
  await expect(page.getByTestId('reset-link-invalid')).toContainText('Link de redefinição inválido ou expirado.');
  await expect(page.getByLabel('Nova senha', { exact: true })).toHaveCount(0);
  expect(errors.filter((e) => !/^Failed to load resource: .* 410 /.test(e))).toEqual([]);
  await context.close();
}

/** Signs a new user in on the brand (the page must be fresh). */
async function loginAs(page: Page, user: string): Promise<void> {
  await openLogin(page, SLUG);
  await submitLogin(page, user, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/Painel\//);
}

/** The bell's unread count, asked again (reload) until it has the title. */
async function expectNotification(page: Page, title: RegExp): Promise<void> {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('notifications-count')).toBeVisible({ timeout: 3_000 });
    await page.getByTestId('notifications-bell').click();
    await expect(page.getByTestId('notifications-panel').getByText(title).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 40_000, intervals: [1_000, 2_000, 3_000] });
}

/** Ticks or unticks a status of the Resales filter (Blueprint hides the input under its label). */
async function statusFilter(page: Page, label: string): Promise<void> {
  await page.locator('.partners-status-filter label', { hasText: new RegExp(`^${label}$`) }).click();
}

/** Adds a seller through 'Adicionar vendedores' (the page is the reseller's). */
async function addSeller(page: Page, name: string, address: string, phoneDigits: string): Promise<void> {
  await page.getByTestId('menu-Users').click();
  await page.getByRole('button', { name: 'Adicionar vendedores' }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Cadastre seu vendedor');
  const finish = page.getByRole('button', { name: 'Finalizar' });
  await page.getByLabel(/^Nome/).fill(name);
  await page.getByLabel(/^E-mail corporativo/).fill(address);
  await expect(finish).toBeDisabled();
  await page.getByLabel(/^Telefone corporativo/).pressSequentially(phoneDigits);
  await expect(page.getByLabel(/^Telefone corporativo/)).toHaveValue(
    `(${phoneDigits.slice(0, 2)}) ${phoneDigits.slice(2, 7)}-${phoneDigits.slice(7)}`,
  );
  await expect(finish).toBeEnabled();
  await finish.click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Vendedor cadastrado com sucesso');
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Users'));
  await expect(page.getByTestId('users-table')).toContainText(address);
}

test('a company signs up, is approved, sets its password, adds sellers; a seller joins, another is deleted', async ({
  page,
  browser,
  request,
}, info) => {
  test.setTimeout(300_000);
  // The 409 of the duplicate seller is logged by the browser as a failed resource.
  const errors = watchConsole(page, true);
  const resaleEmail = `${unique('revenda')}@e2e-parceiros.com.br`;
  const doc = randomCnpj();

  // --- Sign-up: step 1 then step 2 with the automatic lookup --------------------------
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url(SLUG, '/Registration'));
  await acceptLgpd(page);
  await expect(page.getByTestId('page-title')).toHaveText('Cadastre sua revenda');
  await expect(page.getByTestId('step-title')).toHaveText('Crie seu usuário');
  await expect(page.getByTestId('registration-progress')).toHaveAttribute('aria-valuenow', '50');
  const next = page.getByRole('button', { name: 'Próximo' });
  await expect(next).toBeDisabled();
  await page.getByLabel(/^Nome do contato/).fill('Paula Parceira');
  await page.getByLabel(/^E-mail/).fill('paula@');
  await page.getByLabel(/^Telefone/).pressSequentially('3198765');
  await page.getByLabel(/^Nome do contato/).focus();
  await expect(page.getByText('Verifique o email digitado')).toBeVisible();
  await expect(page.getByText('Verifique o telefone digitado')).toBeVisible();
  await expect(next).toBeDisabled();
  await page.getByLabel(/^E-mail/).fill(resaleEmail);
  await page.getByLabel(/^Telefone/).press('End');
  await page.getByLabel(/^Telefone/).pressSequentially('4321');
  await expect(page.getByLabel(/^Telefone/)).toHaveValue('(31) 98765-4321');
  await expect(next).toBeEnabled();
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'registration-step-1-390px');
  await next.click();

  await expect(page.getByTestId('step-title')).toHaveText('Sua revenda');
  await expect(page.getByTestId('registration-progress')).toHaveAttribute('aria-valuenow', '100');
  const finish = page.getByRole('button', { name: 'Finalizar' });
  await expect(finish).toBeDisabled();
  const lookup = page.waitForResponse((r) => r.url().includes(`/api/cnpj/${doc}`));
  await page.getByLabel(/^CNPJ/).pressSequentially(doc);
  await expect(page.getByLabel(/^CNPJ/)).toHaveValue(maskCnpj(doc));
  expect((await lookup).status()).toBe(200);
  await expect(page.getByLabel('Razão social')).not.toHaveValue('');
  await expect(page.getByLabel('CEP')).toHaveValue(/^\d{5}-\d{3}$/);
  await expect(page.getByLabel('Estado')).toHaveValue(/^[A-Z]{2}$/);
  await expect(page.getByLabel('Nome fantasia')).not.toHaveValue('');
  await expect(page.getByLabel('Razão social')).toHaveAttribute('readonly', '');
  const corporateName = await page.getByLabel('Razão social').inputValue();
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'registration-step-2-390px');
  await expect(finish).toBeEnabled();
  const signUp = page.waitForRequest((r) => r.url().endsWith('/api/register/resale') && r.method() === 'POST');
  await finish.click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Revenda cadastrada com sucesso');
  // The sign-up carries its Idempotency-Key, so the same call sent again (its
  // answer lost) is answered as the first (api's
  // TestASignUpRepeatedWithItsKeyIsAnsweredAsTheFirst; not sent again here:
  // the form takes 5 a minute per address, see first-hour.spec.ts).
  expect((await signUp).headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expectLogin(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // --- The representative is told, opens the company from the bell, approves it ------
  const repContext = await browser.newContext({ locale: 'pt-BR' });
  const rep = await repContext.newPage();
  const repErrors = watchConsole(rep);
  await login(rep, SLUG, 'representante');
  await expectNotification(rep, new RegExp(`Nova revenda aguardando análise: ${corporateName}`));
  await shot(rep, info, 'bell-representative-new-resale');
  await rep
    .getByTestId('notifications-panel')
    .getByText(`Nova revenda aguardando análise: ${corporateName}`)
    .first()
    .click();
  await expect(rep).toHaveURL(/\/Painel\/Resales\/details\?/);
  await expect(rep.getByTestId('resale-docNum')).toHaveText(maskCnpj(doc));
  await expect(rep.getByTestId('resale-email')).toHaveText(resaleEmail);
  await expect(rep.getByTestId('resale-phone')).toHaveText('(31) 98765-4321');
  await expect(rep.getByTestId('resale-status')).toHaveText('Em Análise');

  // The list shows it too, with the status filter.
  await rep.getByTestId('menu-Resales').click();
  await statusFilter(rep, 'Em Análise');
  const row = rep.locator('[data-testid^="resale-row-"]', { hasText: maskCnpj(doc) });
  await expect(row).toContainText(corporateName);
  await expect(row).toContainText('Em Análise');
  await expect(row).toContainText('Paula Parceira');
  await shot(rep, info, 'resales-list');
  await row.getByTestId('resale-details-link').click();
  await expect(rep.getByTestId('page-title')).toHaveText('Detalhes da revenda');
  await shot(rep, info, 'resale-details-analysis');
  await rep.getByRole('button', { name: 'Aprovar' }).click();
  await rep.getByRole('dialog').getByRole('button', { name: 'Aprovar' }).click();
  await expect(rep.getByTestId('success-modal-message')).toHaveText('Revenda aprovada com sucesso');
  await rep.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(rep).toHaveURL(url(SLUG, '/Painel/Resales'));
  await statusFilter(rep, 'Em Análise');
  await statusFilter(rep, 'Aprovado');
  await expect(rep.locator('[data-testid^="resale-row-"]', { hasText: maskCnpj(doc) })).toContainText('Aprovado');
  expect(repErrors).toEqual([]);

  // --- The e-mailed link sets the password; the reseller logs in -----------------------
  const welcome = await waitForMail(request, resaleEmail, /^Revenda aprovada/);
  await setPasswordFromLink(browser, setPasswordLink(welcome), info, 'resale-set-password');
  await loginAs(page, resaleEmail);
  await expect(page).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  await expect(page.getByTestId('user-role')).toHaveText('Revenda');

  // The bell shows the approval.
  await expectNotification(page, /Sua revenda foi aprovada/);
  await shot(page, info, 'bell-reseller-approved');
  await page.keyboard.press('Escape');

  // --- The reseller adds two sellers --------------------------------------------------
  const sellerA = `${unique('vendedora')}@e2e-parceiros.com.br`;
  const sellerB = `${unique('vendedor')}@e2e-parceiros.com.br`;
  await addSeller(page, 'Bianca Vendedora', sellerA, '31988887777');
  await addSeller(page, 'Bruno Vendedor', sellerB, '31977776666');
  await shot(page, info, 'users-list-reseller');

  // A 409 for an e-mail already used.
  await page.getByRole('button', { name: 'Adicionar vendedores' }).click();
  // The list has a 'Nome do vendedor' field too: wait for the form before typing.
  await expect(page.getByTestId('page-title')).toHaveText('Cadastre seu vendedor');
  await page.getByLabel(/^Nome/).fill('Outra Pessoa');
  await page.getByLabel(/^E-mail corporativo/).fill(sellerA);
  await page.getByLabel(/^Telefone corporativo/).pressSequentially('31966665555');
  await page.getByRole('button', { name: 'Finalizar' }).click();
  await expect(page.getByTestId('error-modal-message')).toHaveText(
    'O email fornecido já foi utilizado por outro usuário! Por favor, digite outro email!',
  );
  await page.getByRole('dialog').getByRole('button', { name: 'Voltar' }).click();

  // The name filter.
  await page.getByTestId('menu-Users').click();
  await page.getByLabel('Nome do vendedor').fill('Bianca');
  await page.getByLabel('Nome do vendedor').press('Enter');
  await expect(page.getByTestId('users-table')).toContainText(sellerA);
  await expect(page.getByTestId('users-table')).not.toContainText(sellerB);
  await page.getByLabel('Nome do vendedor').fill('');
  await page.getByRole('button', { name: 'Buscar pelo nome' }).click();
  await expect(page.getByTestId('users-table')).toContainText(sellerB);

  // --- Both sellers accept their invitations; the first logs in -----------------------
  for (const [address, name] of [
    [sellerA, 'seller-a-set-password'],
    [sellerB, 'seller-b-set-password'],
  ]) {
    const invitation = await waitForMail(request, address, /^Convite para o Portal de Oportunidades/);
    await setPasswordFromLink(browser, setPasswordLink(invitation), info, name);
  }
  const sellerContext = await browser.newContext({ locale: 'pt-BR' });
  const seller = await sellerContext.newPage();
  await loginAs(seller, sellerA);
  await expect(seller).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  await expect(seller.getByTestId('user-role')).toHaveText('Vendedor');
  await sellerContext.close();

  // The second can log in too, before the deletion.
  const bContext = await browser.newContext({ locale: 'pt-BR' });
  const b = await bContext.newPage();
  watchConsole(b);
  await loginAs(b, sellerB);
  await expect(b.getByTestId('user-role')).toHaveText('Vendedor');

  // --- The reseller deletes the second seller ------------------------------------------
  await page.getByTestId('menu-Users').click();
  const bRow = page.locator('[data-testid^="user-row-"]', { hasText: sellerB });
  await bRow.getByTestId('user-details-link').click();
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes do vendedor');
  await expect(page.getByTestId('detail-email')).toHaveText(sellerB);
  await expect(page.getByTestId('detail-phone')).toHaveText('(31) 97777-6666');
  await shot(page, info, 'seller-details');
  await page.getByRole('button', { name: 'Excluir usuário' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Usuário deletado com sucesso');
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Users'));
  await expect(page.getByTestId('users-table')).toContainText(sellerA);
  await expect(page.getByTestId('users-table')).not.toContainText(sellerB);

  // Once signed out, he cannot log in again.
  await b.getByRole('button', { name: 'Sair' }).click();
  await expectLogin(b);
  await submitLogin(b, sellerB, NEW_PASSWORD);
  await expect(b.getByTestId('login-error')).toHaveText('Usuário ou senha inválidos');
  await shot(b, info, 'deleted-seller-login');
  await bContext.close();

  // The deletion is in the user's history.
  await page.locator('[data-testid^="user-row-"]', { hasText: sellerA }).getByTestId('user-history-link').click();
  await expect(page).toHaveURL(/\/Painel\/History\/[^?]+\?type=Users/);

  await repContext.close();
  expect(errors).toEqual([]);
});

test('a rejected sign-up shows the reason, on screen and in the e-mail', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  const address = `${unique('reprovada')}@e2e-parceiros.com.br`;
  const doc = randomCnpj();
  const corporateName = `Reprovada ${unique('Ltda')}`;
  // The sign-up itself (tested through the screens above) is posted from the brand's page.
  await openLogin(page, SLUG);
  const status = await page.evaluate(async (body) => {
    const res = await fetch('/api/register/resale', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.status;
  }, {
    email: address,
    phone: '11987654321',
    contactName: 'Rita Recusada',
    cnpj: doc,
    role: [],
    brand: SLUG,
    fantasyName: '',
    corporateName,
    street: 'Rua Um, 10',
    state: 'SP',
    cep: '01001000',
    city: 'São Paulo',
    country: 'Brasil',
  });
  expect(status).toBe(201);

  await submitLogin(page, demoEmail('representante', SLUG));
  await expect(page).toHaveURL(/\/Painel\//);
  await page.getByTestId('menu-Resales').click();
  const row = page.locator('[data-testid^="resale-row-"]', { hasText: maskCnpj(doc) });
  await row.click();
  await expect(page.getByTestId('resale-fantasyName')).toHaveText('N/C');
  await page.getByRole('button', { name: 'Reprovar' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Digite abaixo o motivo da reprovação');
  const confirm = dialog.getByRole('button', { name: 'Reprovar' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Digite abaixo o motivo da reprovação').fill('CNPJ sem atividade de revenda');
  await expect(confirm).toBeEnabled();
  await shot(page, info, 'resale-reject-reason');
  await confirm.click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Revenda reprovada com sucesso');
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Resales'));

  await statusFilter(page, 'Reprovado');
  const refused = page.locator('[data-testid^="resale-row-"]', { hasText: maskCnpj(doc) });
  await expect(refused).toContainText('Reprovado');
  await refused.click();
  await expect(page.getByText('Razão da reprovação')).toBeVisible();
  await expect(page.getByTestId('resale-reason-text')).toHaveText('CNPJ sem atividade de revenda');
  await expect(page.getByRole('button', { name: 'Aprovar' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Reprovar' })).toHaveCount(0);
  await shot(page, info, 'resale-details-disapproved');

  const mail = await waitForMail(request, address, /^Cadastro de revenda reprovado/);
  expect(mail.text).toContain('CNPJ sem atividade de revenda');
  expect(errors).toEqual([]);
});

test("recovery with an unknown e-mail says 'Não foi encontrado um usuário com o email solicitado!'", async ({ page }) => {
  const errors = watchConsole(page, true);
  await openLogin(page, SLUG);
  await page.getByRole('link', { name: 'Esqueceu sua senha?' }).click();
  // The login has an 'E-mail' field too: wait for the recovery screen before typing.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Recuperar senha');
  await page.getByLabel('E-mail').fill(`${unique('ninguem')}@e2e-parceiros.com.br`);
  await page.getByRole('button', { name: 'Recuperar senha' }).click();
  await expect(page.getByTestId('error-modal-message')).toHaveText('Não foi encontrado um usuário com o email solicitado!');
  expect(errors).toEqual([]);
});

test('the contact form sends and the e-mail reaches the brand administrator', async ({ page, request }, info) => {
  test.setTimeout(90_000);
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url(SLUG, '/Contact'));
  await acceptLgpd(page);
  await expect(page.getByTestId('page-title')).toHaveText('Contato');
  await expect(page.getByRole('region', { name: 'Atendimento' })).toContainText('Segunda a quinta-feira: 08:00 às 18:00');
  await expect(page.getByRole('region', { name: 'Atendimento' })).toContainText('Sexta-feira: 08:00 às 17:00');
  const brand = await page.evaluate(async () => (await fetch('/api/brand')).json());
  await expect(page.getByRole('region', { name: 'Atendimento' })).toContainText(brand.contact.phones[0]);
  await expect(page.getByRole('region', { name: 'Atendimento' })).toContainText(brand.contact.address);

  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByText('*Campo Obrigatório')).toHaveCount(4);
  const title = `Quero ser parceiro ${unique('t')}`;
  await page.getByLabel(/^Nome completo/).fill('Carlos Contato');
  await page.getByLabel(/^E-mail/).fill('carlos@e2e-parceiros.com.br');
  await page.getByLabel(/^Assunto/).fill(title);
  await page.getByLabel(/^Mensagem/).fill('Gostaria de saber como me tornar revenda.');
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'contact-390px');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.getByTestId('success-modal-message')).toHaveText('Email enviado com sucesso!');
  await page.getByRole('button', { name: 'Voltar ao início' }).click();
  await expectLogin(page);

  const mail = await waitForMail(request, brand.admin.email.toLowerCase(), new RegExp(`^Contato pelo portal: ${title}$`));
  expect(mail.text).toContain('Carlos Contato');
  expect(mail.text).toContain('Gostaria de saber como me tornar revenda.');
  expect(errors).toEqual([]);
});

test('staff see the Users list of the brand; the seller list is keyboard reachable', async ({ page }, info) => {
  test.setTimeout(120_000);
  const errors = watchConsole(page);
  await login(page, SLUG, 'suporte');
  await page.getByTestId('menu-Users').click();
  await expect(page.getByTestId('page-title')).toHaveText('Usuários');
  await expect(page.getByRole('button', { name: 'Adicionar vendedores' })).toHaveCount(0);
  await expect(page.getByTestId('users-table')).toContainText(demoEmail('vendedor1', SLUG));
  await expect(page.getByTestId('users-table')).toContainText(demoEmail('revenda', SLUG));
  const filter = page.getByLabel('Nome do vendedor');
  await filter.focus();
  await page.keyboard.type('Vanessa');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('users-table')).toContainText(demoEmail('vendedor1', SLUG));
  await expect(page.getByTestId('users-table')).not.toContainText(demoEmail('vendedor2', SLUG));
  await page.reload();
  await expect(page.getByLabel('Nome do vendedor')).toHaveValue('Vanessa');
  await page.getByTestId('user-details-link').first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes do vendedor');
  await expect(page.getByTestId('detail-email')).toHaveText(demoEmail('vendedor1', SLUG));
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'user-details-390px');
  await page.goto(url(SLUG, '/Painel/Users'));
  await expect(page.getByTestId('users-table')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'users-list-390px');
  await page.goto(url(SLUG, '/Painel/Resales'));
  await expect(page.getByTestId('resales-table')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'resales-list-390px');
  await page.getByTestId('notifications-bell').click();
  await expect(page.getByTestId('notifications-panel')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'bell-390px');
  expect(errors).toEqual([]);
});

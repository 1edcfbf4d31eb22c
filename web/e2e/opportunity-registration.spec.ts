import { expect as baseExpect, test, type Page } from '@playwright/test';
import { dateDigits, expectNoSidewaysScroll, login, pageApi, randomCnpj, shot, url, watchScreens } from './support';
import { showColumns } from './columns-support';

// Long flows (several sign-ins, workflow updates): generous limits on a busy machine.
test.describe.configure({ timeout: 180_000 });
test.use({ actionTimeout: 20_000, navigationTimeout: 30_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * New opportunity (spec §2, §3, §5, §8) on the brand scanbrisa, whose demo data
 * no other spec changes. Each test signs in a different user: the company
 * lookup allows 3 queries a minute per user.
 */
const SLUG = 'scanbrisa';
const REGISTRATION = '/Painel/Opportunities/registration';

/** The registration and details screens. */
const FORM_SCREENS = /\/Painel\/Opportunities\/[^/]+$/;
/** The list, the registration and the details screens. */
const OPPORTUNITY_SCREENS = /\/Painel\/Opportunities(\/[^/]+)?$/;

/** Console errors and failed calls while the page shows one of the screens under test (by default registration or details). */
const watchConsole = (page: Page, allowed: RegExp[] = [], screens: RegExp = FORM_SCREENS) => watchScreens(page, screens, allowed);

async function choose(page: Page, group: string, option: string): Promise<void> {
  await page
    .getByRole('radiogroup', { name: group })
    .locator('label', { hasText: new RegExp(`^${option}$`) })
    .click();
}

async function fillLine(page: Page, kind: string, index: number, pn: string, desc: string, amount: string, price: string) {
  await page.getByTestId(`line-${kind}-${index}-partNumber`).fill(pn);
  await page.getByTestId(`line-${kind}-${index}-description`).fill(desc);
  await page.getByTestId(`line-${kind}-${index}-amount`).pressSequentially(amount);
  await page.getByTestId(`line-${kind}-${index}-price`).pressSequentially(price);
}

test('a seller registers an opportunity with products, accessories and a competitor; the representative finds and approves it', async ({
  page,
  browser,
}, info) => {
  const errors = watchConsole(page);
  await login(page, SLUG, 'vendedor1');
  await page.goto(url(SLUG, REGISTRATION));
  await expect(page.getByTestId('page-title')).toHaveText('Registro de Oportunidades');
  await expect(page.locator('#probabilityClosing')).toHaveValue('25');
  await expect(page.locator('#name')).toHaveCount(0); // the name is the representative's
  await shot(page, info, 'registration-empty-desktop');

  // Company lookup at 18 characters; the company fields are read-only.
  const cnpj = randomCnpj();
  const maskedCnpj = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`;
  await page.locator('#cnpj').pressSequentially(cnpj);
  await expect(page.locator('#cnpj')).toHaveValue(maskedCnpj);
  await expect(page.locator('#corporateName')).not.toHaveValue('');
  await expect(page.locator('#city')).not.toHaveValue('');
  await expect(page.locator('#cep')).toHaveValue(/^\d{5}-\d{3}$/);
  await expect(page.locator('#corporateName')).toHaveAttribute('readonly', '');
  const corporateName = await page.locator('#corporateName').inputValue();

  await page.locator('#contact').fill('Carla Nogueira');
  await page.locator('#phone').pressSequentially('11987654321');
  await expect(page.locator('#phone')).toHaveValue('(11) 98765-4321');
  await page.locator('#email').fill('compras@cliente-e2e.com.br');
  await choose(page, 'Faz parte de um grupo/rede?', 'Não');
  await page.locator('#aplication').fill('Controle de estoque');
  await page.locator('#specification').fill('Leitura de código de barras 2D');
  await choose(page, 'Produto homologado?', 'Sim');
  await choose(page, 'Possui equipamento similar?', 'Não');
  await choose(page, 'Possui parceiro de software?', 'Sim');
  await page.locator('#partnerOwner').selectOption('Software de Parceiros');
  await page.locator('#partnerName').fill('ERP Sul');
  await page.locator('#opportunityType').selectOption('public');
  await page.locator('#opportunityTypeStatus').selectOption('Em licitação');
  await page.locator('#conclusionDate').pressSequentially(dateDigits(60));
  await expect(page.locator('#conclusionDate')).toHaveValue(/^\d{2}\/\d{2}\/\d{2}$/);
  await page.locator('#opportunityOrigin').selectOption('Trade Show');
  await page.locator('#probabilityClosing').selectOption('50');

  // Lines: 2 × 1500,00 + accessories 3 × 50,25; the competitor stays out of the total.
  await fillLine(page, 'product', 0, 'CT-40', 'Coletor de dados CT-40', '2', '1500');
  await expect(page.getByTestId('estimated-total')).toHaveText('R$ 3.000,00');
  await page.getByRole('button', { name: 'Adicionar acessório' }).click();
  await fillLine(page, 'accessory', 0, 'BAT-40', 'Bateria extra', '3', '50,25');
  await page.getByRole('button', { name: 'Adicionar acessório' }).click();
  await fillLine(page, 'accessory', 1, 'CAB-1', 'Cabo', '1', '9,9');
  await page.getByTestId('remove-accessory-1').click();
  await page.getByRole('button', { name: 'Adicionar concorrente' }).click();
  await fillLine(page, 'competitor', 0, 'RIVAL-9', 'Coletor concorrente', '10', '999,99');
  await expect(page.getByTestId('estimated-total')).toHaveText('R$ 3.150,75');

  // The CRM's sellers ('name — company'); pick the first.
  await expect(page.locator('#seller option')).not.toHaveCount(1);
  await page.locator('#seller').selectOption({ index: 1 });
  const sellerName = ((await page.locator('#seller option:checked').textContent()) ?? '').split(' — ')[0];
  expect(sellerName).not.toBe('');

  // Guidelines PDF, then the terms.
  await page.getByRole('button', { name: 'Ler as diretrizes' }).click();
  await expect(page.getByTestId('pdf-viewer-frame')).toHaveAttribute('src', `/brand-assets/${SLUG}/guidelines.pdf`);
  // Closed by its button: once the PDF has loaded, Chromium's viewer inside the
  // frame may hold the keyboard focus and keep an Escape to itself.
  await page.getByRole('dialog').getByRole('button', { name: /fechar|close/i }).first().click();
  await expect(page.getByTestId('pdf-viewer-frame')).toHaveCount(0);
  await page.locator('label', { hasText: 'Li e aceito as diretrizes de registro de oportunidades' }).click();
  await expect(page.locator('#acceptedTerm')).toBeChecked();
  await shot(page, info, 'registration-filled-desktop');

  // A double click registers once (the button locks and the Idempotency-Key repeats).
  let creates = 0;
  page.on('request', (r) => {
    if (r.url().endsWith('/api/opportunity/create') && r.method() === 'POST') creates += 1;
  });
  const created = page.waitForResponse((r) => r.url().endsWith('/api/opportunity/create'));
  await page.getByRole('button', { name: 'Finalizar registro' }).dblclick();
  const res = await created;
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { data: { id: string; estimated: number; status: string } };
  expect(body.data.estimated).toBe(3150.75);
  expect(body.data.status).toBe('analysis');
  const dialog = page.getByRole('dialog', { name: 'Feito!' });
  await expect(dialog).toContainText('Oportunidade cadastrada com sucesso');
  await dialog.getByRole('button', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  expect(creates).toBeLessThanOrEqual(2);
  const mine = await pageApi<{ total: number }>(page, 'GET', `/api/opportunity/user?cnpj=${cnpj}`);
  expect(mine.body.total).toBe(1);

  // The details show what was saved: estimated without the competitor, the three groups.
  await page.goto(url(SLUG, `/Painel/Opportunities/${body.data.id}`));
  await expect(page.getByTestId('detail-status')).toHaveText('Em Análise');
  await expect(page.getByTestId('detail-estimated')).toHaveText('R$ 3.150,75');
  await expect(page.getByTestId('detail-corporateName')).toHaveText(corporateName);
  await expect(page.getByTestId('section-accessories')).toContainText('BAT-40');
  await expect(page.getByTestId('section-accessories')).not.toContainText('CAB-1');
  await expect(page.getByTestId('section-competitors')).toContainText('RIVAL-9');
  await expect(page.getByTestId('detail-origin')).toHaveText('Feira/Evento');
  await expect(page.getByTestId('detail-probability')).toHaveText('50% - 70%');
  await expect(page.getByTestId('detail-seller')).toHaveText(sellerName);
  await expect(page.getByTestId('detail-actions').getByRole('button')).toHaveCount(0);
  await shot(page, info, 'details-seller-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, info, 'details-seller-390');
  expect(errors).toEqual([]);

  // A representative of the brand finds it in the list by its CNPJ, opens it from its row and
  // approves it: the name is required first.
  const repContext = await browser.newContext();
  const rep = await repContext.newPage();
  const repErrors = watchConsole(rep, [], OPPORTUNITY_SCREENS);
  await login(rep, SLUG, 'representante');
  await rep.goto(url(SLUG, '/Painel/Opportunities'));
  await expect(rep.getByTestId('page-title')).toHaveText('Oportunidades');
  await showColumns(rep, ['CNPJ', 'Aprovação']);
  const cnpjFilter = rep.getByLabel('CNPJ');
  await cnpjFilter.pressSequentially(cnpj);
  await expect(cnpjFilter).toHaveValue(maskedCnpj);
  const row = rep.getByTestId('opportunity-row');
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('row-cnpj')).toHaveText(maskedCnpj);
  await expect(row.getByTestId('row-status')).toHaveText('Em Análise');
  await expect(row.getByTestId('row-approval')).toHaveText('Sem Data');
  await shot(rep, info, 'list-representative-filtered-desktop');
  await row.getByTestId('row-name').click();
  await expect(rep).toHaveURL(url(SLUG, `/Painel/Opportunities/${body.data.id}`));
  await expect(rep.getByTestId('detail-status')).toHaveText('Em Análise');
  await expect(rep.getByTestId('detail-estimated')).toHaveText('R$ 3.150,75');

  const name = rep.locator('#opportunity-name');
  await expect(name).not.toHaveValue(''); // the server's default name
  await name.fill('');
  await rep.getByRole('button', { name: 'Aprovar', exact: true }).click();
  await expect(rep.getByText('Por favor, digite um nome para a oportunidade!!')).toBeVisible();
  await expect(rep.getByRole('dialog', { name: 'Aprovar oportunidade' })).toHaveCount(0);
  await shot(rep, info, 'details-approve-name-required-desktop');
  const approvedName = `Projeto E2E ${cnpj.slice(0, 8)}`;
  await name.fill(approvedName);
  await expect(rep.getByText('Por favor, digite um nome para a oportunidade!!')).toHaveCount(0);
  await rep.getByRole('button', { name: 'Aprovar', exact: true }).click();
  const confirm = rep.getByRole('dialog', { name: 'Aprovar oportunidade' });
  await expect(confirm).toContainText(`Deseja aprovar a oportunidade "${approvedName}"?`);
  await confirm.getByRole('button', { name: 'Aprovar', exact: true }).click();
  const approved = rep.getByRole('dialog', { name: 'Feito!' });
  await expect(approved).toContainText('Oportunidade aprovada com sucesso');
  await shot(rep, info, 'details-approved-desktop');
  await approved.getByRole('button', { name: 'Voltar ao início' }).click();

  // Back on the list (the CNPJ filter is kept): approved, with its new name and approval date.
  await expect(rep).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  await expect(cnpjFilter).toHaveValue(maskedCnpj);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('row-status')).toHaveText('Aprovado');
  await expect(row.getByTestId('row-name')).toHaveText(approvedName);
  await expect(row.getByTestId('row-approval')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  await shot(rep, info, 'list-representative-approved-desktop');
  await row.getByTestId('row-name').click();
  await expect(rep.getByTestId('detail-status')).toHaveText('Aprovado');
  await expect(rep.getByTestId('detail-actions').getByRole('button')).toHaveCount(0);
  await rep.setViewportSize({ width: 390, height: 844 });
  await shot(rep, info, 'details-approved-390');
  expect(repErrors).toEqual([]);
  await repContext.close();
});

test("a missing-field attempt lists the labels in 'Campos obrigatórios ausentes!'", async ({ page }, info) => {
  const errors = watchConsole(page);
  await login(page, SLUG, 'vendedor2');
  await page.goto(url(SLUG, REGISTRATION));
  await page.locator('#contact').fill('Paulo Henrique');
  await page.locator('#phone').pressSequentially('0000000000');
  await page.locator('#email').fill('paulo@cliente');
  await fillLine(page, 'product', 0, 'ZL-420', '', '', '');
  await page.getByRole('button', { name: 'Finalizar registro' }).click();

  const dialog = page.getByRole('dialog', { name: 'Campos obrigatórios ausentes!' });
  await expect(dialog).toBeVisible();
  const labels = await page.getByTestId('missing-fields-list').locator('li').allTextContents();
  // The read-only company fields wait for the lookup: only the CNPJ is listed before it.
  expect(labels).toEqual([
    'CNPJ',
    'Telefone',
    'Email do cliente',
    'Faz parte de um grupo/rede?',
    'Aplicação',
    'Especificação',
    'Produto homologado?',
    'Possui equipamento similar?',
    'Possui parceiro de software?',
    'Tipo de órgão',
    'Data de conclusão',
    'Origem da oportunidade',
    'Descrição do produto',
    'Quantidade do produto',
    'Preço do produto',
    'Vendedor',
    'Aceite dos termos',
  ]);
  await shot(page, info, 'registration-missing-fields-desktop');
  await dialog.getByRole('button', { name: 'Fechar', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#cnpj')).toBeFocused(); // the first field marked invalid
  await expect(page.getByText('Numero inválido')).toBeVisible();
  await expect(page.getByText('Email inválido')).toBeVisible();
  expect(await page.getByText('*Campo Obrigatório').count()).toBeGreaterThan(10);

  // A past conclusion date has its own message.
  await page.locator('#conclusionDate').pressSequentially(dateDigits(-3));
  await page.locator('#conclusionDate').blur();
  await expect(page.getByText('Data de conclusão deve ser uma data futura')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an unknown CNPJ opens the CNPJ modal and leaves the company empty', async ({ page }) => {
  const errors = watchConsole(page, [/^\/api\/cnpj\//]); // the lookup's 404 is expected
  await login(page, SLUG, 'revenda');
  await page.goto(url(SLUG, REGISTRATION));
  await page.locator('#cnpj').pressSequentially(randomCnpj(true));
  const dialog = page.getByRole('dialog', { name: 'Ops!' });
  await expect(dialog).toContainText('CNPJ inválido! Por favor digite um CNPJ válido!');
  await dialog.getByRole('button', { name: 'Voltar' }).click();
  await expect(page.locator('#corporateName')).toHaveValue('');
  expect(errors).toEqual([]);
});

test('the form is usable at 390 px and by keyboard', async ({ page }, info) => {
  const errors = watchConsole(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, SLUG, 'revenda');
  await page.goto(url(SLUG, REGISTRATION));
  await expect(page.getByTestId('page-title')).toHaveText('Registro de Oportunidades');
  await expectNoSidewaysScroll(page);
  await shot(page, info, 'registration-empty-390');

  // Keyboard: the CNPJ field, then onwards with Tab; the submit button is reachable.
  await page.locator('#cnpj').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator('#fantasyName')).toBeFocused();
  await page.getByRole('button', { name: 'Finalizar registro' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Campos obrigatórios ausentes!' })).toBeVisible();
  await shot(page, info, 'registration-missing-fields-390');
  expect(errors).toEqual([]);
});

test('the registration screen is refused to a representative, inside the panel', async ({ page }) => {
  await login(page, SLUG, 'representante');
  await page.goto(url(SLUG, REGISTRATION));
  await expect(page.getByTestId('page-title')).toHaveText('Sem permissão');
  await expect(page.getByLabel('E-mail')).toHaveCount(0);
});

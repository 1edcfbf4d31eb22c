import { expect, test, type Locator } from '@playwright/test';
import { apiSession, decide, register, runTag, watchConsole } from './list-support';
import { login, maskCnpj, randomCnpj, shots, url } from './support';
/**
 * History (spec §2 "History"): each change with Portuguese labels, the user
 * column for representatives only, the back button. Brand rotulus.
 */
const SLUG = 'rotulus';
// Each test registers and decides opportunities through the workflows first.
test.describe.configure({ timeout: 120_000 });

/** The table's columns as a representative sees them. */
const COLUMNS = ['Ação', 'Usuário', 'Campo alterado', 'Valor anterior', 'Novo valor', 'Data da modificação'];

const cells = async (row: Locator) => ({
  attribute: await row.getByTestId('history-attribute').textContent(),
  old: await row.getByTestId('history-old').textContent(),
  new: await row.getByTestId('history-new').textContent(),
});

test('the history shows each change with Portuguese labels', async ({ page, request }, info) => {
  const tag = runTag('HST');
  const cnpj = randomCnpj();
  const seller = await apiSession(request, SLUG, 'vendedor1');
  const rep = await apiSession(request, SLUG, 'representante');
  const id = await register(seller, {
    name: `${tag} Inicial`,
    cnpj,
    fantasyName: `Loja ${tag}`,
    corporateName: `Comércio ${tag} Ltda`,
  });
  await decide(rep, id, { approve: true, name: `${tag} Aprovada`, probability: 75 });
  const edit = await rep.call('PATCH', '/opportunity', { id, probabilityClosing: 100 });
  expect(edit.status).toBe(200);

  const errors = watchConsole(page);
  await login(page, SLUG, 'representante');
  // From the list: the row's history link.
  await page.goto(url(SLUG, '/Painel/Opportunities'));
  await page.getByLabel('Nome da oportunidade').fill(tag);
  await expect(page.getByTestId('opportunity-row')).toHaveCount(1);
  await page.getByTestId('row-history').click();
  await expect(page).toHaveURL(url(SLUG, `/Painel/History/${id}?type=Opportunities`));
  await expect(page.getByTestId('page-title')).toHaveText('Histórico');

  const table = page.getByTestId('history-table');
  await expect(table.getByRole('columnheader')).toHaveText(COLUMNS);
  // Newest first: the probability edit, the approval, the creation.
  const actions = table.getByTestId('history-action');
  await expect(actions).toHaveText(['Atualização', 'Atualização', 'Criação']);
  await expect(table.getByTestId('history-user')).toHaveText(['Renata Almeida', 'Renata Almeida', 'Vanessa Lima']);
  await expect(table.getByTestId('history-date').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

  const rows = table.getByTestId('history-row');
  expect(await cells(rows.nth(0))).toEqual({ attribute: 'Probabilidade de fechamento', old: '71% - 99%', new: '100%' });
  const approval = [await cells(rows.nth(1)), await cells(rows.nth(2)), await cells(rows.nth(3))];
  expect(approval).toEqual([
    { attribute: 'Status', old: 'Em Análise', new: 'Aprovado' },
    { attribute: 'Nome da oportunidade', old: `${tag} Inicial`, new: `${tag} Aprovada` },
    { attribute: 'Probabilidade de fechamento', old: '0% - 49%', new: '71% - 99%' },
  ]);
  const creation = table.locator('[data-testid="history-row"]').filter({ has: page.getByTestId('history-attribute') });
  const all = await creation.evaluateAll((trs) =>
    trs.map((tr) => [
      tr.querySelector('[data-testid="history-attribute"]')?.textContent,
      tr.querySelector('[data-testid="history-new"]')?.textContent,
    ]),
  );
  const created = Object.fromEntries(all.slice(4));
  expect(created).toMatchObject({
    'Nome da oportunidade': `${tag} Inicial`,
    CNPJ: maskCnpj(cnpj),
    'Nome fantasia': `Loja ${tag}`,
    'Razão social': `Comércio ${tag} Ltda`,
    Contato: 'Carla Nogueira',
    'E-mail': 'compras@cliente-e2e.com.br',
    Telefone: '(31) 98765-0000',
    'Probabilidade de fechamento': '0% - 49%',
    'Valor estimado': 'R$ 3.000,00',
    Status: 'Em Análise',
  });
  await shots(page, info, 'history');

  await page.getByTestId('history-back').click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Opportunities'));
  expect(errors).toEqual([]);
});

test('a seller sees the history of its opportunity without the user column', async ({ page, request }) => {
  const tag = runTag('HSV');
  const seller = await apiSession(request, SLUG, 'vendedor1');
  const rep = await apiSession(request, SLUG, 'representante');
  const id = await register(seller, {
    name: `${tag} Recusada`,
    cnpj: randomCnpj(),
    fantasyName: `Loja ${tag}`,
    corporateName: `Comércio ${tag} Ltda`,
  });
  await decide(rep, id, { approve: false, reason: 'Cliente já atendido por outra revenda.' });

  await login(page, SLUG, 'vendedor1');
  await page.goto(url(SLUG, `/Painel/History/${id}?type=Opportunities`));
  const table = page.getByTestId('history-table');
  // A seller does not see who made each change.
  await expect(table.getByRole('columnheader')).toHaveText(COLUMNS.filter((c) => c !== 'Usuário'));
  await expect(table.getByTestId('history-user')).toHaveCount(0);
  const rows = table.getByTestId('history-row');
  expect(await cells(rows.nth(0))).toEqual({ attribute: 'Status', old: 'Em Análise', new: 'Reprovado' });
  expect(await cells(rows.nth(1))).toEqual({ attribute: 'Motivo', old: '—', new: 'Cliente já atendido por outra revenda.' });
});

test("a record without history shows 'Sem Histórico'", async ({ page }) => {
  await login(page, SLUG, 'representante');
  await page.goto(url(SLUG, '/Painel/History/00000000-0000-4000-8000-000000000000?type=Resales'));
  await expect(page.getByTestId('history-empty')).toHaveText('Sem Histórico');
  await page.getByTestId('history-back').click();
  await expect(page).toHaveURL(url(SLUG, '/Painel/Resales'));
});

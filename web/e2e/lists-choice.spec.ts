import { expect, test, type Locator, type Page, type TestInfo } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { setColumn } from './columns-support';
import { apiSession, register, runTag, watchConsole } from './list-support';
import { expectNoSidewaysScroll, login, randomCnpj, shot, url } from './support';

/**
 * The lists a new user meets (docs/web.md "Columns", "Global search", "Undo"):
 * the opportunity table's columns by role, the 'Colunas' chooser, sideways
 * scrolling with the name in view, the sort of a phone's cards, the validity
 * cues, the Users list tapped on a phone with a seller's deletion undone, and
 * the global search within the user's role. On a light brand (nordata) and a
 * red one (etiquetron), at 1366×768 and 390×844; each screen is attached as a
 * screenshot. The opportunities and sellers these tests add carry a tag of
 * this run; nothing else of these brands changes. axe checks the chooser, the
 * cards with their sort and the search dialog.
 */
const SLUGS = ['nordata', 'etiquetron'] as const;
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

// Registrations go through the workflows; a busy machine needs time.
test.describe.configure({ timeout: 150_000 });

/** What the screen shows now (a list scrolled sideways, a long page's top), saved and attached. */
async function view(page: Page, info: TestInfo, name: string, what?: Locator): Promise<void> {
  await shot(what ?? page, info, name, false);
}

/** How far a region scrolls sideways beyond what it shows. */
const overflow = (region: Locator) => region.evaluate((el) => el.scrollWidth - el.clientWidth);

/** At a phone's width, waits for the side menu to finish sliding away (its transition follows a resize). */
async function settle(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.querySelector('.side-menu')?.getBoundingClientRect().right ?? 0))
    .toBeLessThanOrEqual(0);
}

for (const slug of SLUGS) {
  test(`${slug}: the representative's opportunity columns, the chooser, sideways scrolling and the phone's sort`, async ({ page }, info) => {
    const errors = watchConsole(page);
    await page.setViewportSize(DESKTOP);
    await login(page, slug, 'representante');
    await page.goto(url(slug, '/Painel/Opportunities'));
    const table = page.getByTestId('opportunity-table');
    const region = page.getByRole('region', { name: 'Tabela de oportunidades' });
    await expect(page.getByTestId('opportunity-row').first()).toBeVisible();

    // The representative's default: who registered each deal, and how long it waits; it fits 1366 px.
    await expect(table.locator('thead th')).toHaveText([
      'Ações',
      'Nome da oportunidade',
      'Status',
      'Cliente',
      'Valor estimado',
      'Tempo em análise',
      'Revenda',
      'Vendedor',
    ]);
    expect(await overflow(region)).toBeLessThanOrEqual(1);
    await expect(table.getByTestId('row-seller').first()).not.toHaveText('');
    // Validity cues in Brasília's days.
    await expect(table.getByTestId('validity-cue').first()).toHaveText(/^expir(a|ou) /);
    await shot(page, info, `${slug}-oportunidades-padrao-1366`);

    // 'Colunas': every column, then the table scrolls sideways inside its card.
    await page.getByRole('button', { name: 'Colunas' }).click();
    const menu = page.getByRole('list', { name: 'Colunas exibidas' });
    await expect(menu.getByRole('checkbox', { name: 'Nome da oportunidade' })).toBeDisabled();
    await shot(page, info, `${slug}-oportunidades-colunas-1366`);
    expect(await seriousViolations(page), 'the chooser open').toEqual([]);
    const labels = await menu.getByRole('checkbox').evaluateAll((els) => els.map((el) => el.closest('label')?.textContent?.trim() ?? ''));
    for (const label of labels) await setColumn(page, label, true);
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader')).toHaveCount(16);
    expect(await overflow(region)).toBeGreaterThan(300);
    await expectNoSidewaysScroll(page);

    // Scrolled to its end, Ações and the name stay where they were.
    const firstRow = table.getByTestId('opportunity-row').first();
    const nameLeft = () => firstRow.locator('td.col-name').evaluate((el) => el.getBoundingClientRect().left);
    const before = await nameLeft();
    await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(300);
    expect(Math.abs((await nameLeft()) - before)).toBeLessThanOrEqual(1);
    await expect(table.locator('thead th.col-distributor')).toBeInViewport();
    await expect(firstRow.getByTestId('row-details')).toBeInViewport();
    await view(page, info, `${slug}-oportunidades-todas-as-colunas-rolada-1366`, page.locator('.list-card').last());

    // Remembered for this user (with the filters).
    await page.reload();
    await expect(table.getByRole('columnheader')).toHaveCount(16);
    await page.getByRole('button', { name: 'Colunas' }).click();
    await page.getByRole('button', { name: 'Restaurar padrão' }).click();
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader')).toHaveCount(8);

    // A phone: cards, and 'Ordenar por' with the direction, since there are no headers to click.
    await page.setViewportSize(PHONE);
    await expect.poll(() => firstRow.evaluate((el) => getComputedStyle(el).display)).toBe('block');
    // The card's buttons sit in its top right corner, clear of its first value.
    const card = (await firstRow.boundingBox())!;
    const eye = (await firstRow.getByTestId('row-details').boundingBox())!;
    const label = (await firstRow.getByTestId('row-name').boundingBox())!;
    expect(eye.x).toBeGreaterThan(card.x + card.width / 2);
    expect(eye.y - card.y).toBeLessThan(24);
    expect(label.x + label.width).toBeLessThanOrEqual(eye.x + 1);
    const sortBy = page.getByRole('combobox', { name: 'Ordenar por' });
    await expect(sortBy).toBeVisible();
    let sent = page.waitForRequest((r) => r.url().includes('/api/opportunity/all') && r.url().includes('estimated=desc'));
    await sortBy.selectOption({ label: 'Valor estimado' });
    await sent;
    sent = page.waitForRequest((r) => r.url().includes('/api/opportunity/all') && r.url().includes('estimated=asc'));
    await page.getByTestId('sort-direction').click();
    await sent;
    const values = await table.getByTestId('row-estimated').allTextContents();
    const numbers = values.map((v) => Number(v.replace(/[^\d,]/g, '').replace(',', '.')));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    await settle(page);
    await expectNoSidewaysScroll(page);
    await shot(page, info, `${slug}-oportunidades-390`);
    expect(await seriousViolations(page), 'the cards and their sort').toEqual([]);
    await sortBy.scrollIntoViewIfNeeded();
    await view(page, info, `${slug}-oportunidades-cartoes-390`);
    expect(errors).toEqual([]);
  });

  test(`${slug}: the resales list's columns and sort`, async ({ page }, info) => {
    const errors = watchConsole(page);
    await page.setViewportSize(DESKTOP);
    await login(page, slug, 'representante');
    await page.goto(url(slug, '/Painel/Resales'));
    const table = page.getByTestId('resales-table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText(['Revenda', 'CNPJ', 'Telefone', 'Contato', 'Solicitado em', 'Status', 'Ações']);
    await shot(page, info, `${slug}-revendas-1366`);
    await page.getByRole('button', { name: 'Colunas' }).click();
    await expect(page.getByRole('list', { name: 'Colunas exibidas' })).toBeVisible();
    await setColumn(page, 'Telefone', false);
    await page.keyboard.press('Escape');
    await expect(table.getByRole('columnheader')).toHaveText(['Revenda', 'CNPJ', 'Contato', 'Solicitado em', 'Status', 'Ações']);
    await page.reload();
    await expect(table.getByRole('columnheader')).toHaveCount(6);

    await page.setViewportSize(PHONE);
    const sent = page.waitForRequest((r) => r.url().includes('/api/resale/all') && r.url().includes('createdAt=1'));
    await page.getByTestId('sort-direction').click();
    await sent;
    await expect(page.getByTestId('sort-direction')).toHaveText('Crescente');
    await settle(page);
    await expectNoSidewaysScroll(page);
    await shot(page, info, `${slug}-revendas-390`);
    expect(errors).toEqual([]);
  });

  test.describe(() => {
    test.use({ hasTouch: true });

    test(`${slug}: on a phone a reseller taps a seller's eye, deletes the seller and undoes it`, async ({ page, request }, info) => {
      // A seller of this run (invited: it exists before setting a password).
      const tag = runTag('UND');
      const name = `Sara ${tag}`;
      const reseller = await apiSession(request, slug, 'revenda');
      const created = await reseller.call<{ id: string }>('POST', '/seller', {
        name,
        email: `${tag.toLowerCase()}@revenda-e2e.com.br`,
        phone: '31987650011',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const id = created.body.id;

      const errors = watchConsole(page);
      await page.setViewportSize(DESKTOP);
      await login(page, slug, 'revenda');
      await page.goto(url(slug, '/Painel/Users'));
      await page.getByTestId('seller-name-filter').fill(tag);
      await page.getByTestId('seller-name-filter').press('Enter');
      const row = page.getByTestId(`user-row-${id}`);
      await expect(row).toBeVisible();
      await shot(page, info, `${slug}-usuarios-1366`);

      await page.setViewportSize(PHONE);
      await expect.poll(() => row.evaluate((el) => getComputedStyle(el).display)).toBe('block');
      await settle(page);
      await expectNoSidewaysScroll(page);
      await shot(page, info, `${slug}-usuarios-390`);
      // The eye takes the tap (the history cell beside it used to lie over it).
      await row.getByTestId('user-details-link').tap();
      await expect(page).toHaveURL(url(slug, `/Painel/Users/${id}`));
      await expect(page.getByTestId('detail-name')).toHaveText(name);
      await shot(page, info, `${slug}-usuario-detalhes-390`);

      await page.getByRole('button', { name: 'Excluir usuário' }).tap();
      await page.getByRole('dialog').getByRole('button', { name: 'Excluir', exact: true }).tap();
      const done = page.getByRole('dialog', { name: 'Feito!' });
      await expect(done).toContainText('Usuário deletado com sucesso');
      await done.getByRole('button', { name: 'Voltar ao início' }).tap();
      await expect(page).toHaveURL(url(slug, '/Painel/Users'));
      await expect(row).toHaveCount(0);
      const undo = page.getByRole('button', { name: 'Desfazer' });
      await expect(page.getByText(`Usuário excluído: ${name}.`)).toBeVisible();
      await shot(page, info, `${slug}-usuario-excluido-desfazer-390`);
      await undo.tap();
      await expect(page.getByText('Exclusão desfeita: o usuário voltou a ter acesso.')).toBeVisible();
      await expect(row).toBeVisible();

      // At 1366 the details screen too.
      await page.setViewportSize(DESKTOP);
      await row.getByTestId('user-details-link').click();
      await expect(page.getByTestId('delete-user')).toBeVisible();
      await shot(page, info, `${slug}-usuario-detalhes-1366`);
      expect(errors).toEqual([]);
    });
  });

  test(`${slug}: the global search finds within the user's role and brand`, async ({ page, browser, request }, info) => {
    // An opportunity registered by vendedor2: the representative and vendedor2 find it, vendedor1 does not.
    const tag = runTag('BUS');
    const client = `Mercearia ${tag}`;
    const seller2 = await apiSession(request, slug, 'vendedor2');
    const id = await register(seller2, { name: '', cnpj: randomCnpj(), fantasyName: client, corporateName: `${client} Ltda` });

    const errors = watchConsole(page);
    await page.setViewportSize(DESKTOP);
    await login(page, slug, 'representante');
    await page.goto(url(slug, '/Painel/Opportunities'));
    await expect(page.getByTestId('opportunity-row').first()).toBeVisible();
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Buscar' });
    const input = dialog.getByRole('combobox', { name: 'Buscar oportunidades, revendas e usuários' });
    await expect(input).toBeFocused();
    await input.fill(tag.toLowerCase());
    const options = dialog.getByRole('option');
    await expect(options).toHaveCount(1);
    await expect(options.first()).toContainText(client);
    // The brand's companies and users too.
    await input.fill('Modelo');
    await expect(dialog.getByRole('group', { name: 'Revendas' }).getByRole('option').first()).toContainText('Revenda Modelo');
    await input.fill('vendedor');
    await expect(dialog.getByRole('group', { name: 'Usuários' }).getByRole('option').first()).toBeVisible();
    await shot(page, info, `${slug}-busca-1366`);
    expect(await seriousViolations(page), 'the search dialog').toEqual([]);
    await input.fill(tag);
    await expect(options).toHaveCount(1);
    await input.press('Enter');
    await expect(page).toHaveURL(url(slug, `/Painel/Opportunities/${id}`));
    await expect(dialog).toHaveCount(0);
    // The details say when the validity ends: 90 days after the registration, today.
    await expect(page.getByTestId('detail-status')).toHaveText('Em Análise');
    await expect(page.locator('.op-header').getByTestId('validity-cue')).toHaveText('expira em 90 dias');
    await shot(page, info, `${slug}-detalhes-validade-1366`);
    await page.setViewportSize(PHONE);
    await settle(page);
    await expectNoSidewaysScroll(page);
    await shot(page, info, `${slug}-detalhes-validade-390`);
    await view(page, info, `${slug}-detalhes-validade-topo-390`);

    // On a phone the top bar's magnifier opens it.
    await page.getByRole('button', { name: 'Buscar', exact: true }).click();
    await dialog.getByRole('combobox').fill(tag);
    await expect(options).toHaveCount(1);
    await shot(page, info, `${slug}-busca-390`);
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    expect(errors).toEqual([]);

    // The sellers: one registered it, the other finds nothing of it.
    for (const [user, found] of [
      ['vendedor2', 1],
      ['vendedor1', 0],
    ] as const) {
      const context = await browser.newContext({ viewport: DESKTOP });
      const other = await context.newPage();
      await login(other, slug, user);
      await expect(other.getByTestId('global-search-button')).toBeVisible();
      await other.keyboard.press('Control+k');
      const search = other.getByRole('dialog', { name: 'Buscar' });
      await search.getByRole('combobox').fill(tag);
      if (found) await expect(search.getByRole('option')).toHaveCount(1);
      else await expect(other.getByTestId('global-search-status')).toHaveText(`Nada encontrado para “${tag}”.`);
      await context.close();
    }
  });
}

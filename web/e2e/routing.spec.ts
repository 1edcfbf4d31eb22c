import { expect, test, type Page } from '@playwright/test';
import { setColumn } from './columns-support';
import { login, pageApi, randomCnpj, registrationBody, shots, url, watchScreens } from './support';

/**
 * Routing (docs/deal-desk.md "Routing") on a light and a red brand: a
 * registration of a customer in BA goes to representante2@ (the demo's
 * coverage), 'Cobertura' lists and edits a coverage (multi@'s, put back at the
 * end: no other spec reads coverage), and 'Redistribuir' hands the
 * registration this spec created to representante@, whose 'Minhas' then lists it.
 */
for (const slug of ['nordata', 'etiquetron'] as const) {
  test(`${slug}: Cobertura, the responsible representatives and Redistribuir`, async ({ browser }, info) => {
    test.setTimeout(120_000);
    // The seller registers a customer in BA.
    const sellerCtx = await browser.newContext();
    const seller = await sellerCtx.newPage();
    await login(seller, slug, 'vendedor1');
    const customer = `Roteada ${slug} ${Date.now() % 100000}`;
    const body = { ...registrationBody(slug, randomCnpj(), customer), state: 'BA', city: 'Salvador', cep: '40010000' };
    const created = await pageApi<{ data: { id: string } }>(seller, 'POST', '/api/opportunity/create', body);
    expect(created.status).toBe(200);
    const id = created.body.data.id;
    await sellerCtx.close();

    const page: Page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchScreens(page, /\/Painel\/(Coverage|Opportunities)/);
    await login(page, slug, 'representante');

    // Cobertura: the demo coverage, an edit of multi@'s, its history.
    await page.getByTestId('menu-Coverage').click();
    await expect(page.getByTestId('page-title')).toHaveText('Cobertura');
    const card = (name: string) => page.getByTestId('coverage-card').filter({ hasText: name });
    await expect(card('Renata Almeida').getByTestId('coverage-states')).toHaveText('ES, MG, PR, RJ, RS, SC, SP');
    await expect(card('Mariana Torres').getByTestId('coverage-states')).toHaveText('Nenhuma UF');
    await page.getByRole('button', { name: 'Editar cobertura de Mariana Torres' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('Centro-Oeste', { exact: true }).click();
    await shots(page, info, `${slug}-cobertura-dialog`);
    await dialog.getByTestId('coverage-save').click();
    await expect(page.getByText('Cobertura atualizada com sucesso')).toBeVisible();
    await page.getByRole('button', { name: 'Voltar ao início' }).click();
    await expect(card('Mariana Torres').getByTestId('coverage-states')).toHaveText('DF, GO, MS, MT');
    await expect(page.getByTestId('coverage-history')).toContainText('UFs: nenhuma → DF, GO, MS, MT');
    await shots(page, info, `${slug}-cobertura`);

    // The registration's responsible representative, then Redistribuir.
    await page.goto(url(slug, `/Painel/Opportunities/${id}`));
    const reps = page.getByTestId('detail-representatives');
    await expect(reps).toContainText('Rodrigo Prates');
    await page.getByTestId('reassign-button').click();
    const reassign = page.getByRole('dialog');
    await reassign.getByText(/^Renata Almeida/).click();
    await reassign.getByText(/^Rodrigo Prates/).click();
    await reassign.getByLabel(/Motivo/).fill('Cliente atendido pela regional Sudeste');
    // The reason is typed in the portal's type, not the browser's monospace default for a text area.
    expect(await reassign.getByLabel(/Motivo/).evaluate((el) => getComputedStyle(el).fontFamily)).toBe(
      await page.evaluate(() => getComputedStyle(document.body).fontFamily),
    );
    await shots(page, info, `${slug}-redistribuir-dialog`);
    await reassign.getByTestId('reassign-submit').click();
    await expect(page.getByText('Representantes responsáveis atualizados com sucesso')).toBeVisible();
    await page.getByRole('button', { name: 'Voltar ao início' }).click();
    await expect(reps).toContainText('Renata Almeida');
    await expect(reps).not.toContainText('Rodrigo Prates');
    await shots(page, info, `${slug}-responsaveis`);

    // 'Minhas' lists it for representante@, with the 'Responsável' column.
    await page.goto(url(slug, '/Painel/Opportunities'));
    await page.getByTestId('filter-mine').click();
    await page.getByRole('button', { name: 'Colunas' }).click();
    await setColumn(page, 'Responsável', true);
    await page.keyboard.press('Escape');
    const row = page.getByTestId('opportunity-row').filter({ hasText: customer });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('row-responsible')).toHaveText('Renata Almeida');
    await shots(page, info, `${slug}-minhas`);
    await page.getByTestId('filter-mine').click(); // leave the preference as it was

    // Put multi@'s coverage back.
    const list = await pageApi<{ representatives: { id: string; email: string }[] }>(page, 'GET', '/api/coverage');
    const multi = list.body.representatives.find((r) => r.email.startsWith('multi@'))!;
    expect((await pageApi(page, 'PUT', `/api/coverage/${multi.id}`, { states: [], resaleIds: [] })).status).toBe(200);
    expect(errors).toEqual([]);
  });
}

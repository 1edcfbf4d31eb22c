import { expect, test, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { showColumns } from './columns-support';
import { apiSession, decide, register, runTag, watchConsole } from './list-support';
import { login, maskCnpj, randomCnpj, shots, url } from './support';
/**
 * Opportunities list (spec §2, §6, §8): filters, persistence, page size
 * 'Todas', the Excel export. Brand lumetra; each test registers its own
 * opportunities under a unique tag and filters by it.
 */
const SLUG = 'lumetra';
// Each test registers and decides opportunities through the workflows first.
test.describe.configure({ timeout: 120_000 });

interface Fixture {
  tag: string;
  cnpj: string;
  approved: string;
  analysis: string;
  sameCustomer: string;
}

/** Three opportunities: two of one customer (one approved), one of another. */
async function fixture(request: Parameters<typeof apiSession>[0], prefix: string): Promise<Fixture> {
  const tag = runTag(prefix);
  const seller = await apiSession(request, SLUG, 'vendedor1');
  const rep = await apiSession(request, SLUG, 'representante');
  const cnpj = randomCnpj();
  const base = { fantasyName: `Loja ${tag}`, corporateName: `Comércio ${tag} Ltda` };
  const approvedId = await register(seller, { ...base, name: `${tag} Alfa`, cnpj });
  await decide(rep, approvedId, { approve: true, name: `${tag} Alfa` });
  const analysisId = await register(seller, { ...base, name: `${tag} Beta`, cnpj: randomCnpj(), state: 'SP', city: 'Campinas' });
  const sameId = await register(seller, { ...base, name: `${tag} Gama`, cnpj });
  return { tag, cnpj, approved: approvedId, analysis: analysisId, sameCustomer: sameId };
}

const rows = (page: Page) => page.getByTestId('opportunity-row');
const names = (page: Page) => page.getByTestId('row-name').allTextContents();

async function openList(page: Page): Promise<void> {
  await login(page, SLUG, 'representante');
  await page.goto(url(SLUG, '/Painel/Opportunities'));
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
  await expect(rows(page).first()).toBeVisible();
}

test('the representative finds an opportunity by name, status and CNPJ', async ({ page, request }, info) => {
  const f = await fixture(request, 'LST');
  const errors = watchConsole(page);
  await openList(page);
  await expect(page.getByTestId('add-opportunity')).toHaveCount(0);

  await page.getByLabel('Nome da oportunidade').fill(f.tag);
  await expect(rows(page)).toHaveCount(3);
  expect(await names(page)).toEqual([`${f.tag} Gama`, `${f.tag} Beta`, `${f.tag} Alfa`]);
  await showColumns(page, ['CNPJ', 'Probabilidade', 'Aprovação', 'Distribuidor']);
  const approvedRow = rows(page).filter({ hasText: `${f.tag} Alfa` });
  await expect(approvedRow.getByTestId('row-status')).toHaveText('Aprovado');
  await expect(approvedRow.getByTestId('row-approval')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(approvedRow.getByTestId('probability-bar')).toHaveText('71% - 99%');
  await expect(approvedRow.getByTestId('row-distributor')).toHaveText('Distribuidora Horizonte');
  const analysisRow = rows(page).filter({ hasText: `${f.tag} Beta` });
  await expect(analysisRow.getByTestId('row-approval')).toHaveText('Sem Data');
  await expect(analysisRow.getByTestId('age-bar')).toHaveText('0 dias atrás');
  await expect(analysisRow.getByTestId('row-estimated')).toHaveText('R$ 3.000,00');

  await page.getByRole('button', { name: 'Análise', exact: true }).click();
  await expect(rows(page)).toHaveCount(2);
  expect(await names(page)).toEqual([`${f.tag} Gama`, `${f.tag} Beta`]);

  const cnpj = page.getByLabel('CNPJ');
  await cnpj.pressSequentially(f.cnpj.slice(0, 8));
  await expect(cnpj).toHaveValue(maskCnpj(f.cnpj).slice(0, 10));
  await cnpj.pressSequentially(f.cnpj.slice(8));
  await expect(cnpj).toHaveValue(maskCnpj(f.cnpj));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).getByTestId('row-name')).toHaveText(`${f.tag} Gama`);
  await expect(rows(page).getByTestId('row-cnpj')).toHaveText(maskCnpj(f.cnpj));

  // State and city come from the geography service.
  await page.getByRole('button', { name: 'Todos', exact: true }).click();
  await cnpj.fill('');
  await expect(rows(page)).toHaveCount(3);
  await page.getByLabel('Estado').selectOption('SP');
  await expect(page.getByLabel('Cidade').locator('option', { hasText: 'Campinas' })).toHaveCount(1);
  await page.getByLabel('Cidade').selectOption('Campinas');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).getByTestId('row-name')).toHaveText(`${f.tag} Beta`);
  await shots(page, info, 'opportunities-list');

  // At 390 px the rows are cards: nothing is off-screen, nothing scrolls sideways (e2e/list-fit.spec.ts).
  await page.setViewportSize({ width: 390, height: 844 });
  const region = page.getByRole('region', { name: 'Tabela de oportunidades' });
  await expect.poll(() => region.evaluate((el) => getComputedStyle(el.querySelector('tbody tr')!).display)).toBe('block');
  expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A row opens its details; its history link opens the history.
  await rows(page).getByTestId('row-name').click();
  await expect(page).toHaveURL(url(SLUG, `/Painel/Opportunities/${f.analysis}`));
  expect(errors).toEqual([]);
});

test('the filters, the sort and the page size survive a reload', async ({ page, request }) => {
  const f = await fixture(request, 'PRF');
  const errors = watchConsole(page);
  await openList(page);
  await page.getByLabel('Nome da oportunidade').fill(f.tag);
  await page.getByRole('button', { name: 'Aprovados', exact: true }).click();
  await page.getByRole('combobox', { name: 'linhas/página' }).selectOption('25');
  await page.getByRole('button', { name: 'Ordenar por valor estimado' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).getByTestId('row-name')).toHaveText(`${f.tag} Alfa`);

  const request2 = page.waitForResponse((r) => r.url().includes('/api/opportunity/all'));
  await page.reload();
  const query = new URL((await request2).url()).searchParams;
  expect(Object.fromEntries(query)).toMatchObject({ name: f.tag, status: 'approved', amount: '25', estimated: 'desc' });
  await expect(page.getByLabel('Nome da oportunidade')).toHaveValue(f.tag);
  await expect(page.getByRole('button', { name: 'Aprovados', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('combobox', { name: 'linhas/página' })).toHaveValue('25');
  await expect(rows(page)).toHaveCount(1);
  // Kept for this user at this brand (components/userPreferences.ts).
  const stored = await page.evaluate(() => {
    const all = JSON.parse(localStorage.getItem('opportunity_preferences') ?? 'null');
    const company = document.cookie.match(/(?:^|; )company=([^;]*)/)?.[1] ?? '';
    const user = document.cookie.match(/(?:^|; )userid=([^;]*)/)?.[1] ?? '';
    return all?.users?.[`${decodeURIComponent(company)}/${decodeURIComponent(user)}`];
  });
  expect(stored).toMatchObject({ filters: { name: f.tag, status: ['approved'] }, amount: 25, sort: { field: 'estimated' } });
  expect(errors).toEqual([]);
});

test("page size 'Todas' shows every opportunity on one page", async ({ page, request }) => {
  await fixture(request, 'ALL');
  const errors = watchConsole(page);
  await openList(page);
  const first = page.waitForResponse((r) => r.url().includes('/api/opportunity/all') && r.url().includes('amount=99999'));
  await page.getByRole('combobox', { name: 'linhas/página' }).selectOption({ label: 'Todas' });
  const body = (await (await first).json()) as { result: unknown[]; total: number };
  expect(body.total).toBeGreaterThan(10);
  await expect(rows(page)).toHaveCount(body.total);
  await expect(page.getByTestId('list-total')).toHaveText(`${body.total} oportunidades`);
  await expect(page.getByTestId(/^page-\d+$/)).toHaveCount(1);
  await expect(page.getByTestId('page-next')).toBeDisabled();
  expect(errors).toEqual([]);
});

test('the export downloads an .xlsx whose rows are the filtered list', async ({ page, request }, info) => {
  const f = await fixture(request, 'XLS');
  const errors = watchConsole(page);
  await openList(page);
  await page.getByLabel('Nome da oportunidade').fill(f.tag);
  await page.getByRole('button', { name: 'Análise', exact: true }).click();
  await expect(rows(page)).toHaveCount(2);
  const listed = await names(page);

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exportar Excel' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Oportunidades.*\.xlsx$/);
  const path = info.outputPath('Oportunidades.xlsx');
  await file.saveAs(path);

  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const sheet = book.getWorksheet('Oportunidades');
  expect(sheet, 'sheet Oportunidades').toBeTruthy();
  const header = (sheet!.getRow(1).values as unknown[]).map((v) => String(v ?? ''));
  const nameCol = header.indexOf('Nome da oportunidade');
  const statusCol = header.indexOf('Status');
  const cnpjCol = header.indexOf('CNPJ');
  expect(nameCol).toBeGreaterThan(0);
  const exported: { name: string; status: string; cnpj: string }[] = [];
  for (let r = 2; r <= sheet!.rowCount; r++) {
    const row = sheet!.getRow(r);
    const name = String(row.getCell(nameCol).value ?? '');
    if (name) exported.push({ name, status: String(row.getCell(statusCol).value), cnpj: String(row.getCell(cnpjCol).value) });
  }
  expect(exported.map((e) => e.name)).toEqual(listed);
  expect(exported.map((e) => e.status)).toEqual(['Em Análise', 'Em Análise']);
  expect(exported[0].cnpj.replace(/\D/g, '')).toBe(f.cnpj);
  await expect(page.getByRole('button', { name: 'Exportar Excel' })).toBeEnabled();
  expect(errors).toEqual([]);
});

import { expect, test } from '@playwright/test';
import { BRANDS, login, maskCnpj, shot, url, withCheckDigits } from './support';

/**
 * A new user's first hour, on a light brand (nordata) and a red one
 * (etiquetron), at 1366×768 and 390×844:
 * - a company's details are opened by links that carry its id only (the list,
 *   the bell), never its contact's e-mail, phone, CNPJ or address, which a URL
 *   would leave in browser history and proxies' logs; an old link with them is
 *   cut to the id and its values are not shown;
 * - signing up with a CNPJ already registered names the CNPJ and stays on
 *   step 2 (it said the e-mail was taken and went back to step 1).
 * Only reads the seed's demo companies; sign-ups are refused, nothing is stored.
 */
const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;
const SLUGS = ['nordata', 'etiquetron'] as const;

/** The brand's approved demo reseller's CNPJ (seed.ResaleCNPJ). */
function demoResaleCnpj(slug: string): string {
  const i = BRANDS.indexOf(slug as (typeof BRANDS)[number]);
  return withCheckDigits(`${String(11222300 + i * 7).padStart(8, '0')}0001`);
}

/** The query string of a details link holds the id and nothing else. */
function expectIdOnly(href: string): string {
  const u = new URL(href, 'http://x');
  expect(u.pathname).toBe('/Painel/Resales/details');
  expect([...u.searchParams.keys()]).toEqual(['id']);
  const id = u.searchParams.get('id') ?? '';
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  return id;
}

for (const slug of SLUGS) {
  for (const size of SIZES) {
    test(`${slug} ${size.width}px: a company's details are linked by its id only`, async ({ page }, info) => {
      await page.setViewportSize(size);
      await login(page, slug, 'representante');
      await page.goto(url(slug, '/Painel/Resales'));
      const row = page.getByTestId(/^resale-row-/).filter({ hasText: 'Distribuidora Alfa Automação Ltda' });
      await expect(row).toBeVisible();
      const link = row.getByTestId('resale-details-link');
      const id = expectIdOnly((await link.getAttribute('href')) ?? '');
      await link.click();
      await expect(page).toHaveURL(url(slug, `/Painel/Resales/details?id=${id}`));
      await expect(page.getByTestId('resale-email')).toHaveText(`paula@cadastro-${slug}.demo`);
      await expect(page.getByTestId('resale-status')).toHaveText('Em Análise');
      await expect(page.getByRole('button', { name: 'Aprovar' })).toBeVisible();
      await shot(page, info, `resale-details-${slug}-${size.width}`, false);

      // The bell's notice of the sign-up links the same way.
      await page.getByTestId('notifications-bell').click();
      const notice = page.getByTestId('notifications-panel').getByText(/Nova revenda aguardando análise: Distribuidora Alfa/).first();
      await expect(notice).toBeVisible();
      await shot(page, info, `bell-${slug}-${size.width}`, false);
      await notice.click();
      await expect(page).toHaveURL(url(slug, `/Painel/Resales/details?id=${id}`));

      // An old link, with the company in its query string, is cut to the id
      // and its values never show.
      await page.goto(url(slug, `/Painel/Resales/details?id=${id}&email=antigo%40exemplo.com&name=Nome+Antigo&docNum=99888777000166`));
      await expect(page).toHaveURL(url(slug, `/Painel/Resales/details?id=${id}`));
      await expect(page.getByTestId('resale-email')).toHaveText(`paula@cadastro-${slug}.demo`);
      await expect(page.getByText('antigo@exemplo.com')).toHaveCount(0);
      await expect(page.getByText('Nome Antigo')).toHaveCount(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(size.width);
    });
  }
}

// Two sign-ups only (one per brand and size): the public form takes 5 a minute per address.
for (const [slug, size] of [
  ['nordata', SIZES[0]],
  ['etiquetron', SIZES[1]],
] as const) {
  test(`${slug} ${size.width}px: a CNPJ already registered is named and the sign-up stays on step 2`, async ({ page }, info) => {
    await page.setViewportSize(size);
    await page.goto(url(slug, '/Registration'));
    const accept = page.getByTestId('lgpd-accept');
    await expect(accept).toBeVisible();
    await accept.click();
    await page.getByLabel(/^Nome do contato/).fill('Paula Parceira');
    await page.getByLabel(/^E-mail/).fill(`nova-${Date.now().toString(36)}@e2e-cnpj.com.br`);
    await page.getByLabel(/^Telefone/).pressSequentially('31987654321');
    await page.getByRole('button', { name: 'Próximo' }).click();
    await expect(page.getByTestId('step-title')).toHaveText('Sua revenda');
    const doc = demoResaleCnpj(slug);
    const lookup = page.waitForResponse((r) => r.url().includes(`/api/cnpj/${doc}`));
    await page.getByLabel(/^CNPJ/).pressSequentially(doc);
    await expect(page.getByLabel(/^CNPJ/)).toHaveValue(maskCnpj(doc));
    expect((await lookup).status()).toBe(200);
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/register/resale'));
    await page.getByRole('button', { name: 'Finalizar' }).click();
    const res = await answer;
    expect(res.status()).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'CNPJ_TAKEN' });
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('Já existe uma revenda registrada com este CNPJ.');
    await expect(dialog).not.toContainText('email');
    await shot(page, info, `signup-cnpj-taken-${slug}-${size.width}`, false);
    await dialog.getByRole('button', { name: 'Voltar' }).click();
    await expect(page.getByTestId('step-title')).toHaveText('Sua revenda');
    await expect(page.getByTestId('registration-progress')).toHaveAttribute('aria-valuenow', '100');
    await expect(page.getByLabel(/^CNPJ/)).toHaveValue(maskCnpj(doc));
  });
}

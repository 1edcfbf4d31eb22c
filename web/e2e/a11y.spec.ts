import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { login, openLogin, shot } from './support';

/**
 * axe-core (WCAG 2.0/2.1 A and AA rules), on a light brand and a red one: no
 * serious or critical violation on the public screens (with the LGPD banner,
 * a reset link that does not exist, the contact form in error), on a form in
 * error and on the forbidden screens. The panel's screens of every role are
 * checked on e2e/screens.spec.ts's tours. axe is injected from node_modules
 * (no download). Each screen is also saved as a screenshot.
 */

// Several screens a test, each loaded, saved and checked by axe, on 2 cores
// shared with the Go tests (make test): past the 45 s default.
test.describe.configure({ timeout: 120_000 });

/** Opens a screen, waits for its title, saves a screenshot and checks it with axe. */
async function check(page: Page, name: string, path: string | null, title?: RegExp | string) {
  if (path !== null) await page.goto(page.url().replace(/^(https?:\/\/[^/]+).*$/, `$1${path}`));
  if (title) await expect(page.getByTestId('page-title').or(page.getByRole('heading', { level: 1 })).first()).toHaveText(title);
  await page.waitForLoadState('networkidle');
  await shot(page, test.info(), name);
  const found = await seriousViolations(page);
  expect(found, `${name}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
}

for (const slug of ['nordata', 'etiquetron']) {
  test(`${slug}: the public screens have no serious accessibility violation`, async ({ page }) => {
    await openLogin(page, slug, { acceptLgpd: false });
    await check(page, `${slug}-login-lgpd`, null);
    await openLogin(page, slug);
    await check(page, `${slug}-login`, null);
    await check(page, `${slug}-recovery`, '/recovery-password');
    await check(page, `${slug}-reset`, '/reset-password?token=nao-existe');
    await check(page, `${slug}-registration`, '/Registration');
    await check(page, `${slug}-contact`, '/Contact');
    // A form in error is checked too: the messages and the invalid fields.
    await page.getByRole('button', { name: 'Enviar' }).click();
    await check(page, `${slug}-contact-errors`, null);
  });

  // Every screen of every role is checked by e2e/screens.spec.ts's tours; here
  // the states they do not reach: a form in error and the forbidden screens.
  test(`${slug}: a form in error and the forbidden screens have no serious accessibility violation`, async ({ browser }) => {
    const as = async (user: string) => {
      const page = await (await browser.newContext()).newPage();
      await login(page, slug, user);
      return page;
    };
    const rep = await as('representante');
    await check(rep, `${slug}-rep-forbidden`, '/Painel/Users/registration', 'Sem permissão');
    const resale = await as('revenda');
    await check(resale, `${slug}-resale-new`, '/Painel/Opportunities/registration', 'Registro de Oportunidades');
    await resale.getByRole('button', { name: 'Finalizar registro' }).click();
    await resale.getByRole('dialog').getByRole('button', { name: 'Fechar', exact: true }).click();
    await check(resale, `${slug}-resale-new-errors`, null);
    const seller = await as('vendedor1');
    await check(seller, `${slug}-seller-forbidden`, '/Painel/Dashboard', 'Sem permissão');
    for (const page of [rep, resale, seller]) await page.context().close();
  });
}

test('at 390 px the panel and a form have no serious accessibility violation', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, 'tagora', 'revenda');
  await check(page, 'tagora-390-opportunities', '/Painel/Opportunities', 'Oportunidades');
  await check(page, 'tagora-390-new', '/Painel/Opportunities/registration', 'Registro de Oportunidades');
});

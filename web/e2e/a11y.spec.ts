import { expect, test, type Page } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { login, openLogin } from './support';

/**
 * axe-core (WCAG 2.0/2.1 A and AA rules) on every screen of every role, on a
 * light brand and a red one: no serious or critical violation. axe is injected
 * from node_modules (no download). Each screen is also saved as a screenshot.
 */

// Up to ten screens a test, each loaded, saved and checked by axe: 30–47 s on 2
// cores shared with the Go tests (make test), past the 45 s default.
test.describe.configure({ timeout: 120_000 });

/** Opens a screen, waits for its title, saves a screenshot and checks it with axe. */
async function check(page: Page, name: string, path: string | null, title?: RegExp | string) {
  if (path !== null) await page.goto(page.url().replace(/^(https?:\/\/[^/]+).*$/, `$1${path}`));
  if (title) await expect(page.getByTestId('page-title').or(page.getByRole('heading', { level: 1 })).first()).toHaveText(title);
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
  const found = await seriousViolations(page);
  expect(found, `${name}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
}

/** The first id a list call answers, called as the signed-in user. */
async function firstId(page: Page, path: string): Promise<string | null> {
  return page.evaluate(async (p) => {
    const cookie = Object.fromEntries(document.cookie.split('; ').map((c) => c.split('=').map(decodeURIComponent)));
    const res = await fetch(p, { headers: { Authorization: `Bearer ${cookie.token}`, company: cookie.company } });
    if (!res.ok) return null;
    const body = await res.json();
    const rows = body?.result ?? body?.data?.result ?? body?.data ?? [];
    return Array.isArray(rows) && rows[0]?.id ? String(rows[0].id) : null;
  }, path);
}

const userId = (page: Page) =>
  page.evaluate(() => decodeURIComponent(document.cookie.split('; ').find((c) => c.startsWith('userid='))?.slice(7) ?? ''));

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

  test(`${slug}: the representative's screens have no serious accessibility violation`, async ({ page }) => {
    await login(page, slug, 'representante');
    await check(page, `${slug}-rep-dashboard`, '/Painel/Dashboard', 'Dashboard');
    await check(page, `${slug}-rep-opportunities`, '/Painel/Opportunities', 'Oportunidades');
    const op = await firstId(page, '/api/opportunity/all?amount=1&page=1');
    expect(op).not.toBeNull();
    await check(page, `${slug}-rep-opportunity`, `/Painel/Opportunities/${op}`, 'Detalhes da oportunidade');
    await check(page, `${slug}-rep-history`, `/Painel/History/${op}?type=Opportunities`, 'Histórico');
    await check(page, `${slug}-rep-resales`, '/Painel/Resales', 'Revendas');
    const resale = await firstId(page, `/api/resale/all?amount=1&page=1&brand=${slug}`);
    if (resale) await check(page, `${slug}-rep-resale`, `/Painel/Resales/details?id=${resale}`, 'Detalhes da revenda');
    await check(page, `${slug}-rep-users`, '/Painel/Users', 'Usuários');
    await check(page, `${slug}-rep-user`, `/Painel/Users/${await userId(page)}`, 'Detalhes do usuário');
    await check(page, `${slug}-rep-settings`, '/Painel/Settings', 'Configurações');
    await check(page, `${slug}-rep-forbidden`, '/Painel/Users/registration', 'Sem permissão');
  });

  test(`${slug}: support's screens have no serious accessibility violation`, async ({ page }) => {
    await login(page, slug, 'suporte');
    await check(page, `${slug}-sup-dashboard`, '/Painel/Dashboard', 'Dashboard');
    await check(page, `${slug}-sup-opportunities`, '/Painel/Opportunities', 'Oportunidades');
    const op = await firstId(page, '/api/opportunity/all?amount=1&page=1');
    if (op) await check(page, `${slug}-sup-opportunity`, `/Painel/Opportunities/${op}`, 'Detalhes da oportunidade');
    await check(page, `${slug}-sup-resales`, '/Painel/Resales', 'Revendas');
    await check(page, `${slug}-sup-users`, '/Painel/Users', 'Usuários');
    await check(page, `${slug}-sup-settings`, '/Painel/Settings', 'Configurações');
  });

  test(`${slug}: the reseller's screens have no serious accessibility violation`, async ({ page }) => {
    await login(page, slug, 'revenda');
    await check(page, `${slug}-resale-opportunities`, '/Painel/Opportunities', 'Oportunidades');
    await check(page, `${slug}-resale-new`, '/Painel/Opportunities/registration', 'Registro de Oportunidades');
    await page.getByRole('button', { name: 'Finalizar registro' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Fechar', exact: true }).click();
    await check(page, `${slug}-resale-new-errors`, null);
    const op = await firstId(page, '/api/opportunity/resale?amount=1&page=1');
    if (op) await check(page, `${slug}-resale-opportunity`, `/Painel/Opportunities/${op}`, 'Detalhes da oportunidade');
    await check(page, `${slug}-resale-users`, '/Painel/Users', 'Usuários');
    await check(page, `${slug}-resale-new-seller`, '/Painel/Users/registration', 'Cadastre seu vendedor');
    await check(page, `${slug}-resale-settings`, '/Painel/Settings', 'Configurações');
  });

  test(`${slug}: the seller's screens have no serious accessibility violation`, async ({ page }) => {
    await login(page, slug, 'vendedor1');
    await check(page, `${slug}-seller-opportunities`, '/Painel/Opportunities', 'Oportunidades');
    await check(page, `${slug}-seller-new`, '/Painel/Opportunities/registration', 'Registro de Oportunidades');
    const op = await firstId(page, '/api/opportunity/user?amount=1&page=1');
    if (op) {
      await check(page, `${slug}-seller-opportunity`, `/Painel/Opportunities/${op}`, 'Detalhes da oportunidade');
      await check(page, `${slug}-seller-history`, `/Painel/History/${op}?type=Opportunities`, 'Histórico');
    }
    await check(page, `${slug}-seller-settings`, '/Painel/Settings', 'Configurações');
    await check(page, `${slug}-seller-forbidden`, '/Painel/Dashboard', 'Sem permissão');
  });
}

test('at 390 px the panel and a form have no serious accessibility violation', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page, 'tagora', 'revenda');
  await check(page, 'tagora-390-opportunities', '/Painel/Opportunities', 'Oportunidades');
  await check(page, 'tagora-390-new', '/Painel/Opportunities/registration', 'Registro de Oportunidades');
});

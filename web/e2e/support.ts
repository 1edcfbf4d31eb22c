import { expect, type Page } from '@playwright/test';

export const PORT = Number(process.env.E2E_PORT ?? 8080);
export const PASSWORD = 'Oportuna@2026';

/** The eleven brands; the first is the fallback. */
export const BRANDS = [
  'nordata',
  'yep',
  'etiquetron',
  'codexa',
  'bipsul',
  'lumetra',
  'rotulus',
  'tagora',
  'scanbrisa',
  'printaq',
  'marcatto',
] as const;

export function url(slug: string, path = '/'): string {
  return `http://${slug}.localhost:${PORT}${path}`;
}

/** Seeded users (backend `oportuna seed`). */
export function email(user: string, slug: string): string {
  return `${user}@${slug}.demo`;
}

export interface BrandJson {
  slug: string;
  name: string;
  title: string;
  logo: string;
  favicon: string;
  colors: { primary: string; secondary: string; primaryText: string };
}

/** The brand the server picks for the page's host. */
export async function brandOf(page: Page): Promise<BrandJson> {
  return page.evaluate(async () => (await fetch('/api/brand')).json());
}

/** Opens the login page of a brand, with the LGPD banner accepted so it covers nothing. */
export async function openLogin(page: Page, slug: string, { acceptLgpd = true } = {}): Promise<void> {
  await page.goto(url(slug, '/'));
  await expect(page.locator('#username')).toBeVisible();
  if (acceptLgpd) {
    const accept = page.getByTestId('lgpd-accept');
    if (await accept.isVisible()) await accept.click();
    await expect(page.getByTestId('lgpd-banner')).toHaveCount(0);
  }
}

/** Fills and submits the login form (the page must be on Login). */
export async function submitLogin(
  page: Page,
  username: string,
  password = PASSWORD,
  { keepConnected = true } = {},
): Promise<void> {
  await page.locator('#username').fill(username);
  await page.locator('#password').fill(password);
  const keep = page.locator('#keep_connection');
  if ((await keep.isChecked()) !== keepConnected) {
    await page.locator('label', { hasText: 'Mantenha-me conectado' }).click();
  }
  await expect(keep).toBeChecked({ checked: keepConnected });
  await page.getByRole('button', { name: 'Entrar' }).click();
}

/** Logs a seeded user in on a brand and waits for the panel. */
export async function login(
  page: Page,
  slug: string,
  user: string,
  opts: { keepConnected?: boolean } = {},
): Promise<void> {
  await openLogin(page, slug);
  await submitLogin(page, email(user, slug), PASSWORD, opts);
  await expect(page).toHaveURL(/\/Painel\//);
}

/** Asserts the page is the Login screen. */
export async function expectLogin(page: Page): Promise<void> {
  await expect(page).toHaveURL(/^http:\/\/[^/]+\/$/);
  await expect(page.locator('#username')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
}

/** data-testids of the side-menu entries shown. */
export async function menuEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav).toBeVisible();
  return nav.locator('[data-testid^="menu-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
}

import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { login, openLogin, url } from './support';

/**
 * Every screen of every role, at 1366×768 and 390×844, on a light brand
 * (nordata) and a red one (etiquetron), saved as the run's artifacts so a
 * person can look at them (test-results/, the HTML report). Each screen is
 * also checked for what a person would notice first: its title is shown, the
 * page never scrolls sideways at 390 px, and no text is cut where a person
 * cannot read the rest (a cell's text may end in '…' only where its tooltip
 * holds the whole); at 1366 px, axe-core finds no serious or critical
 * violation of WCAG 2.0/2.1 A and AA on it (e2e/a11y.spec.ts checks the states
 * no tour reaches: a form in error, the LGPD banner, a forbidden screen). It
 * only reads: no decision is taken.
 */

test.describe.configure({ timeout: 180_000 });
const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;
const BRANDS = ['nordata', 'etiquetron'] as const;

/** A step of a role's tour: how to reach one screen (the seed gives every list rows). */
type Step = { name: string; go: (page: Page, slug: string) => Promise<void> };

const visit = (path: string) => async (page: Page, slug: string) => {
  await page.goto(url(slug, path));
};
const firstOf = (list: string, link: string) => async (page: Page, slug: string) => {
  await page.goto(url(slug, list));
  const first = page.getByTestId(link).locator('visible=true').first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(page).not.toHaveURL(new RegExp(`${list}$`));
};

const OPPORTUNITY: Step[] = [
  { name: 'opportunities', go: visit('/Painel/Opportunities') },
  { name: 'opportunity-details', go: firstOf('/Painel/Opportunities', 'row-details') },
  { name: 'opportunity-history', go: firstOf('/Painel/Opportunities', 'row-history') },
];
const SETTINGS: Step = { name: 'settings', go: visit('/Painel/Settings') };

const ROLES: Record<string, Step[]> = {
  representante: [
    { name: 'dashboard', go: visit('/Painel/Dashboard') },
    ...OPPORTUNITY,
    { name: 'resales', go: visit('/Painel/Resales') },
    { name: 'resale-details', go: firstOf('/Painel/Resales', 'resale-details-link') },
    { name: 'users', go: visit('/Painel/Users') },
    { name: 'user-details', go: firstOf('/Painel/Users', 'user-details-link') },
    SETTINGS,
  ],
  suporte: [
    { name: 'dashboard', go: visit('/Painel/Dashboard') },
    ...OPPORTUNITY,
    { name: 'resales', go: visit('/Painel/Resales') },
    { name: 'users', go: visit('/Painel/Users') },
    SETTINGS,
  ],
  revenda: [
    ...OPPORTUNITY,
    { name: 'opportunity-registration', go: visit('/Painel/Opportunities/registration') },
    { name: 'users', go: visit('/Painel/Users') },
    { name: 'user-details', go: firstOf('/Painel/Users', 'user-details-link') },
    { name: 'seller-registration', go: visit('/Painel/Users/registration') },
    SETTINGS,
  ],
  vendedor1: [
    ...OPPORTUNITY,
    { name: 'opportunity-registration', go: visit('/Painel/Opportunities/registration') },
    SETTINGS,
  ],
};

const PUBLIC: Step[] = [
  { name: 'login', go: visit('/') },
  { name: 'recovery', go: visit('/recovery-password') },
  { name: 'registration', go: visit('/Registration') },
  { name: 'contact', go: visit('/Contact') },
];

async function look(page: Page, info: TestInfo, name: string, phone: boolean): Promise<void> {
  await expect(page.getByTestId('page-title').or(page.locator('h1')).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  // No spinner left: the screen shows its data, not its loading state.
  await expect(page.locator('.bp6-spinner').locator('visible=true')).toHaveCount(0);
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
  if (phone) {
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name}: the page scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
  }
  // Text cut with an ellipsis must keep the whole in a tooltip (title) or an accessible name.
  const cut = await page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('body *'))
      .filter((el) => {
        if (el.children.length > 0 || !el.textContent?.trim()) return false;
        const s = getComputedStyle(el);
        if (s.textOverflow !== 'ellipsis' || el.scrollWidth <= el.clientWidth + 1) return false;
        const holder = el.closest('[title], [aria-label]');
        return !holder || !(holder.getAttribute('title') || holder.getAttribute('aria-label'))?.includes(el.textContent.trim().slice(0, 8));
      })
      .map((el) => el.textContent!.trim().slice(0, 40)),
  );
  expect(cut, `${name}: text cut with no way to read it`).toEqual([]);
  if (!phone) {
    const found = await seriousViolations(page);
    expect(found, `${name}: ${JSON.stringify(found, null, 2)}`).toEqual([]);
  }
}

for (const slug of BRANDS) {
  for (const [form, size] of Object.entries(SIZES)) {
    const phone = form === 'phone';
    test(`${slug} ${form}: the public screens`, async ({ page }, info) => {
      await page.setViewportSize(size);
      await openLogin(page, slug);
      for (const step of PUBLIC) {
        await step.go(page, slug);
        await look(page, info, `${slug}-${form}-public-${step.name}`, phone);
      }
    });
    for (const [user, steps] of Object.entries(ROLES)) {
      test(`${slug} ${form}: every screen of ${user}`, async ({ page }, info) => {
        await page.setViewportSize(size);
        await login(page, slug, user);
        for (const step of steps) {
          await step.go(page, slug);
          await look(page, info, `${slug}-${form}-${user}-${step.name}`, phone);
        }
      });
    }
  }
}

import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { seriousViolations } from './axe-support';
import { login, openLogin, shot, url } from './support';

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

/**
 * Goes to a screen of the panel already open as a link does, without loading the app again: React
 * Router follows the history (popstate). The screen left is marked, and it is gone once the next
 * one shows (each screen has its own title element).
 */
async function navigate(page: Page, slug: string, path: string): Promise<void> {
  if (new URL(page.url()).pathname === path) return;
  await page.getByTestId('page-title').first().evaluate((el) => el.setAttribute('data-tour-left', ''));
  await page.evaluate((to) => {
    const idx = ((window.history.state as { idx?: number } | null)?.idx ?? 0) + 1;
    window.history.pushState({ usr: null, key: `tour${idx}`, idx }, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
  }, path);
  await expect(page).toHaveURL(url(slug, path));
  await expect(page.locator('[data-tour-left]')).toHaveCount(0);
}

/** A public screen, loaded as a visitor's browser does. */
const load = (path: string) => async (page: Page, slug: string) => {
  await page.goto(url(slug, path));
};
const visit = (path: string) => async (page: Page, slug: string) => {
  await navigate(page, slug, path);
};
const firstOf = (list: string, link: string) => async (page: Page, slug: string) => {
  await navigate(page, slug, list);
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
  { name: 'login', go: load('/') },
  { name: 'recovery', go: load('/recovery-password') },
  { name: 'registration', go: load('/Registration') },
  { name: 'contact', go: load('/Contact') },
];

/**
 * Waits until the page has had no request in flight for 300 ms from now: the screen's data is in.
 * (Playwright's networkidle is a state of the document's load, reached once per page load.)
 */
function requestsQuiet(page: Page): () => Promise<void> {
  let inflight = 0;
  let last = 0;
  page.on('request', () => inflight++);
  const ended = () => {
    inflight--;
    last = Date.now();
  };
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return async () => {
    const from = Date.now();
    await expect.poll(() => inflight <= 0 && Date.now() - Math.max(last, from) >= 300, { intervals: [50], timeout: 20_000 }).toBe(true);
  };
}

async function look(page: Page, info: TestInfo, name: string, phone: boolean, quiet: () => Promise<void>): Promise<void> {
  await expect(page.getByTestId('page-title').or(page.locator('h1')).first()).toBeVisible();
  await quiet();
  // No spinner left: the screen shows its data, not its loading state.
  await expect(page.locator('.bp6-spinner').locator('visible=true')).toHaveCount(0);
  await shot(page, info, name);
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
      const quiet = requestsQuiet(page);
      await page.setViewportSize(size);
      await openLogin(page, slug);
      for (const step of PUBLIC) {
        await step.go(page, slug);
        await look(page, info, `${slug}-${form}-public-${step.name}`, phone, quiet);
      }
    });
    for (const [user, steps] of Object.entries(ROLES)) {
      test(`${slug} ${form}: every screen of ${user}`, async ({ page }, info) => {
        const quiet = requestsQuiet(page);
        await page.setViewportSize(size);
        await login(page, slug, user);
        for (const step of steps) {
          await step.go(page, slug);
          await look(page, info, `${slug}-${form}-${user}-${step.name}`, phone, quiet);
        }
      });
    }
  }
}

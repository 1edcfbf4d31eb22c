import { expect, type Cookie, type Locator, type Page, type TestInfo } from '@playwright/test';

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

/**
 * The sessions this worker has logged in through the form, by brand and user.
 * A later login() of the same user puts its cookies in the page's browser and
 * opens the portal, which goes to the panel as for any valid session: typing
 * the form again proves nothing new (login.spec.ts and the session specs test
 * the form). An access token lives 8 h (ACCESS_TOKEN_TTL) and a logout revokes
 * only its refresh token, so a kept session stays valid for the whole run.
 */
const sessions = new Map<string, Cookie[]>();

/**
 * Logs a seeded user in on a brand and waits for the panel. With
 * keepConnected given, or `form`, it always types the login form.
 */
export async function login(
  page: Page,
  slug: string,
  user: string,
  opts: { keepConnected?: boolean; form?: boolean } = {},
): Promise<void> {
  const key = `${slug} ${user}`;
  const reuse = opts.keepConnected === undefined && !opts.form;
  const kept = reuse ? sessions.get(key) : undefined;
  if (kept) {
    await page.context().addCookies(kept);
    await page.goto(url(slug, '/'));
  } else {
    await openLogin(page, slug);
    await submitLogin(page, email(user, slug), PASSWORD, opts);
  }
  await expect(page).toHaveURL(/\/Painel\//);
  if (reuse && !kept) sessions.set(key, await page.context().cookies(url(slug)));
}

/** Asserts the page is the Login screen. */
export async function expectLogin(page: Page): Promise<void> {
  // A screen left logged out is kept as the login's return address (`/?next=`).
  await expect(page).toHaveURL(/^http:\/\/[^/]+\/(\?next=[^#]*)?$/);
  await expect(page.locator('#username')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
}

/** data-testids of the side-menu entries shown. */
export async function menuEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menu principal' });
  await expect(nav).toBeVisible();
  return nav.locator('[data-testid^="menu-"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
}

/**
 * A random CNPJ with valid check digits, never seeded. Its root never starts
 * with 999 (the CNPJ stand-in's unknown companies) unless `unknown`.
 */
export function randomCnpj(unknown = false): string {
  const root = unknown
    ? `999${String(Math.floor(Math.random() * 100_000)).padStart(5, '0')}`
    : String(10_000_000 + Math.floor(Math.random() * 80_000_000));
  return withCheckDigits(`${root}0001`);
}

/** 14 digits from 12 with their check digits. */
export function withCheckDigits(base: string): string {
  const digit = (s: string) => {
    let sum = 0;
    let w = 2;
    for (let i = s.length - 1; i >= 0; i--) {
      sum += Number(s[i]) * w;
      w = w === 9 ? 2 : w + 1;
    }
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  const d1 = digit(base);
  return `${base}${d1}${digit(base + d1)}`;
}

/** 14 digits as 00.000.000/0000-00. */
export function maskCnpj(d: string): string {
  return `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
}

/**
 * Today in the portal's calendar (Brasília), whatever the zone of the machine
 * running the tests: from 21:00 in Brasília the UTC date is already tomorrow.
 */
export function brasiliaToday(): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'America/Sao_Paulo',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(new Date());
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return { year: part('year'), month: part('month'), day: part('day') };
}

/** dd/mm/yy typed as digits, `days` from today in Brasília. */
export function dateDigits(days: number): string {
  const today = brasiliaToday();
  const d = new Date(Date.UTC(today.year, today.month - 1, today.day + days));
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}${p(d.getUTCMonth() + 1)}${p(d.getUTCFullYear() % 100)}`;
}

/**
 * The box of an element once it has stopped moving: a Blueprint dialog opens
 * with a transition that overshoots its size for a moment (its timing curve
 * goes past 1), so a box read during it is wider than the dialog at rest.
 */
export async function settledBox(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  let last = '';
  let box: { x: number; y: number; width: number; height: number } | null = null;
  await expect
    .poll(async () => {
      box = await locator.boundingBox();
      const now = JSON.stringify(box);
      const same = box !== null && now === last;
      last = now;
      return same;
    }, { intervals: [150] })
    .toBe(true);
  return box!;
}

/**
 * A screenshot of the page (the whole page unless fullPage is false) or of one element,
 * saved as <name>.png under web/test-results/<test>/ and attached to the test's report.
 */
export async function shot(target: Page | Locator, info: TestInfo, name: string, fullPage = true): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  if ('goto' in target) await target.screenshot({ path, fullPage });
  else await target.screenshot({ path });
  await info.attach(name, { path, contentType: 'image/png' });
}

/**
 * The page does not scroll sideways. Polled: after a resize the screens switch
 * to their phone layout on the resize event, a frame or more later.
 */
export async function expectNoSidewaysScroll(page: Page, message = 'the page scrolls sideways'): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), { message })
    .toBeLessThanOrEqual(0);
}

/** Desktop then 390 px screenshots of the current screen; at 390 px the page must not scroll sideways. */
export async function shots(page: Page, info: TestInfo, name: string): Promise<void> {
  const size = page.viewportSize();
  await shot(page, info, `${name}-desktop`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page, `${name} overflows at 390 px`);
  await shot(page, info, `${name}-390`);
  if (size) await page.setViewportSize(size);
}

/**
 * Console errors and failed calls (a 4xx the test provokes may be allowed)
 * while the page shows one of the screens under test; other screens are not
 * under test.
 */
export function watchScreens(page: Page, screens: RegExp, allowed: RegExp[] = []): string[] {
  const errors: string[] = [];
  const onOurScreen = () => screens.test(new URL(page.url()).pathname);
  page.on('console', (msg) => {
    if (msg.type() !== 'error' || !onOurScreen()) return;
    if (msg.text().startsWith('Failed to load resource')) return; // reported below with its URL
    errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('response', (res) => {
    if (res.status() < 400 || !onOurScreen()) return;
    const path = new URL(res.url()).pathname;
    if (allowed.some((re) => re.test(path))) return;
    errors.push(`${res.status()} ${res.request().method()} ${path}`);
  });
  return errors;
}

/** An API call from inside the page, with the session cookie's token. */
export async function pageApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const cookie = (name: string) =>
        decodeURIComponent(new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie)?.[1] ?? '');
      const res = await fetch(path, {
        method,
        headers: {
          Authorization: `Bearer ${cookie('token')}`,
          company: cookie('company'),
          'Content-Type': 'application/json',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    { method, path, body },
  );
}

/**
 * An opportunity's registration as the form sends it, for the brand slug and
 * the customer (its trade name; the corporate name adds "Ltda"); project and
 * product change the one project and the one product line.
 */
export function registrationBody(
  slug: string,
  cnpj: string,
  customer: string,
  project: Record<string, unknown> = {},
  product: Record<string, unknown> = {},
): Record<string, unknown> {
  const conclusion = new Date(Date.now() + 90 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  return {
    name: '',
    justification: '',
    cnpj,
    contact: 'Joana Lima',
    network: 'Sim',
    email: 'joana@cliente-e2e.com.br',
    fantasyName: customer,
    corporateName: `${customer} Ltda`,
    street: 'Rua das Flores, 10',
    cep: '01310100',
    city: 'São Paulo',
    state: 'SP',
    probabilityClosing: 25,
    acceptedTerm: 'true',
    country: 'Brasil',
    phone: 11987650000,
    seller: 'Victor Souza',
    sellerSalesforceId: '',
    company: slug,
    opportunityOrigin: 'Prospect',
    projects: [
      {
        aplication: 'Expedição',
        specification: 'Impressão de etiquetas',
        homologated: false,
        haveCollector: false,
        partner: false,
        opportunityType: 'private',
        conclusionDate: conclusion,
        opportunityOrigin: 'Prospect',
        ...project,
      },
    ],
    products: [
      { partNumber: 'ZL-420', description: 'Impressora', amount: 1, price: '3150,50', accessory: false, competition: false, ...product },
    ],
  };
}

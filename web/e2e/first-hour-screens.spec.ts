import { expect as baseExpect, test, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { BRANDS, email, expectNoSidewaysScroll, login, openLogin, pageApi, randomCnpj, registrationBody, settledBox, shot, submitLogin, url } from './support';

/**
 * The first hour of a new user and a new operator: an e-mail's link opened
 * logged out, the bell, the chrome and its focus ring, one status palette,
 * text that is never clipped, the login's carousel, the public pages' hygiene.
 * Screens are saved at 1366×768 and 390×844 on a light brand (nordata) and a
 * red one (etiquetron). Decisions are made on codexa, on opportunities this
 * spec registers (no other spec reads them); elsewhere it only reads, except
 * that opening a notice marks it read.
 */

test.describe.configure({ timeout: 120_000 });
test.use({ actionTimeout: 20_000, navigationTimeout: 30_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const LIGHT = 'nordata';
const RED = 'etiquetron';
const DECISIONS = 'codexa';
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Screenshots of the current screen at 1366 and 390 px; at 390 the page never scrolls sideways. */
async function shots(page: Page, info: TestInfo, name: string, ready?: () => Promise<void>): Promise<void> {
  await page.setViewportSize(DESKTOP);
  await ready?.();
  await shot(page, info, `${name}-1366`);
  await page.setViewportSize(PHONE);
  await ready?.();
  await expectNoSidewaysScroll(page, `${name} scrolls sideways at 390 px`);
  await shot(page, info, `${name}-390`);
  await page.setViewportSize(DESKTOP);
}

/** A fresh context with the LGPD notice accepted on the brand. */
async function fresh(browser: Browser, slug: string, viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ locale: 'pt-BR', viewport });
  await context.addCookies([{ name: 'lgpd_accepted', value: 'true', url: url(slug) }]);
  return context.newPage();
}

interface Notice {
  id: number;
  kind: string;
  link: string;
  readAt: string | null;
}

async function notices(page: Page): Promise<{ result: Notice[]; unread: number }> {
  const res = await pageApi<{ result: Notice[]; unread: number }>(page, 'GET', '/api/notifications?limit=100');
  expect(res.status).toBe(200);
  return res.body;
}

/** The seeded opportunities of the signed-in staff user's brand. */
async function opportunities(page: Page): Promise<{ id: string; status: string; email: string }[]> {
  const res = await pageApi<{ result: { id: string; status: string; email: string }[] }>(page, 'GET', '/api/opportunity/all?amount=50');
  expect(res.status).toBe(200);
  return res.body.result;
}

/** Registers an opportunity through the API as the signed-in seller. */
async function register(page: Page, slug: string): Promise<string> {
  const res = await pageApi<{ data: { id: string } }>(page, 'POST', '/api/opportunity/create', registrationBody(slug, randomCnpj(), 'Avisos Lidos'));
  expect(res.status).toBe(200);
  return res.body.data.id;
}

// ---- colour arithmetic (WCAG) ------------------------------------------------

function parseRgb(css: string): [number, number, number] {
  const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)/.exec(css);
  if (!m) throw new Error(`not an rgb() colour: ${css}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
}

function luminance([r, g, b]: [number, number, number]): number {
  const f = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(parseRgb(a)), luminance(parseRgb(b))].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** The focused element's outline (colour, width) and the opaque background it is drawn on. */
async function focusRing(page: Page): Promise<{ color: string; width: number; style: string; background: string; where: string }> {
  return page.evaluate(() => {
    // Any CSS colour (Blueprint 6 writes oklch()) as rgb(), through a canvas.
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const g = canvas.getContext('2d', { willReadFrequently: true })!;
    const toRgb = (c: string) => {
      g.clearRect(0, 0, 1, 1);
      g.fillStyle = '#000';
      g.fillStyle = c;
      g.fillRect(0, 0, 1, 1);
      const [r, gr, b] = g.getImageData(0, 0, 1, 1).data;
      return `rgb(${r}, ${gr}, ${b})`;
    };
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    // The ring lies outside the element (outline-offset): its surface is the first opaque ancestor's background.
    let bg = 'rgb(255, 255, 255)';
    for (let n: HTMLElement | null = el.parentElement; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (c && !c.startsWith('rgba(0, 0, 0, 0)') && c !== 'transparent' && !/\/ 0\)$/.test(c)) {
        bg = toRgb(c);
        break;
      }
    }
    return {
      color: cs.outlineColor.startsWith('rgb') ? cs.outlineColor : toRgb(cs.outlineColor),
      width: parseFloat(cs.outlineWidth),
      style: cs.outlineStyle,
      background: bg,
      where: `${el.tagName}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}"`,
    };
  });
}

/** From the skip link (the page's first stop), tabs until the focus is inside `scope`. */
async function tabFromStart(page: Page, scope: string): Promise<void> {
  await page.locator('.skip-link').focus();
  await tabInto(page, scope);
}

/** Tabs until the focus is inside `scope` (at most 40 presses). */
async function tabInto(page: Page, scope: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((s) => !!document.activeElement?.closest(s), scope)) return;
  }
  throw new Error(`Tab never reached ${scope}`);
}

async function expectVisibleRing(page: Page): Promise<void> {
  // Blueprint animates the ring: read it once the transition has ended (mid-way it is an oklch() mix).
  await expect.poll(async () => (await focusRing(page)).color).toMatch(/^rgba?\(/);
  const ring = await focusRing(page);
  expect(ring.style, `${ring.where}: no outline`).not.toBe('none');
  expect(ring.width, `${ring.where}: outline width`).toBeGreaterThanOrEqual(2);
  expect(contrast(ring.color, ring.background), `${ring.where}: ring ${ring.color} on ${ring.background}`).toBeGreaterThanOrEqual(3);
}

// ---- 7. an e-mail's link opened logged out ------------------------------------

test("an e-mail's link opened logged out leads through the login to its record; other hosts are refused", async ({ browser }) => {
  const staff = await fresh(browser, LIGHT);
  await login(staff, LIGHT, 'representante');
  const [first] = await opportunities(staff);
  const link = `/Painel/Opportunities/${first.id}`;

  const page = await fresh(browser, LIGHT);
  await page.goto(url(LIGHT, link));
  await expect(page).toHaveURL(url(LIGHT, `/?next=${encodeURIComponent(link)}`));
  await submitLogin(page, email('representante', LIGHT));
  await expect(page).toHaveURL(url(LIGHT, link));
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes da oportunidade');

  for (const evil of ['//evil.example/Painel/x', '/\\evil.example', 'https://evil.example/Painel/x']) {
    const other = await fresh(browser, LIGHT);
    await other.goto(url(LIGHT, `/?next=${encodeURIComponent(evil)}`));
    await submitLogin(other, email('representante', LIGHT));
    await expect(other).toHaveURL(url(LIGHT, '/Painel/Dashboard'));
    await other.context().close();
  }
});

// ---- 8. notifications -----------------------------------------------------------

test("the bell: one request per opening, a notice opens its record and is read, 'Nova' goes", async ({ browser }, info) => {
  const page = await fresh(browser, LIGHT);
  const aborted: string[] = [];
  page.on('requestfailed', (r) => {
    if (r.url().includes('/api/notifications')) aborted.push(`${r.url()} ${r.failure()?.errorText}`);
  });
  await login(page, LIGHT, 'representante');
  const before = await notices(page);
  const target = before.result.find((n) => !n.readAt && n.link.startsWith('/Painel/Opportunities/'));
  expect(target, 'an unread notice of an opportunity').toBeTruthy();

  // The window takes the focus first (a focused window asks the list again by itself).
  await page.getByTestId('page-title').click();
  await page.waitForLoadState('networkidle');
  let lists = 0;
  page.on('request', (r) => {
    if (r.url().includes('/api/notifications?')) lists++;
  });
  await page.getByTestId('notifications-bell').click();
  const panel = page.getByTestId('notifications-panel');
  await expect(panel).toBeVisible();
  const item = panel.getByTestId(`notification-${target!.id}`);
  await expect(item.locator('.notification-new')).toHaveText('Nova');
  await expect(item).toHaveAttribute('href', target!.link);
  await expect.poll(() => lists).toBe(1);
  await shot(page, info, 'bell-open-nordata-1366');
  await item.click();
  await expect(page).toHaveURL(url(LIGHT, target!.link));
  await expect(page.getByTestId('notifications-count')).toHaveText(String(before.unread - 1));
  await page.getByTestId('notifications-bell').click();
  await expect(page.getByTestId('notifications-panel').getByTestId(`notification-${target!.id}`).locator('.notification-new')).toHaveCount(0);
  expect((await notices(page)).result.find((n) => n.id === target!.id)?.readAt).toBeTruthy();
  await page.keyboard.press('Escape');
  expect(aborted).toEqual([]);

  for (const slug of [LIGHT, RED]) {
    const p = await fresh(browser, slug, PHONE);
    await login(p, slug, 'representante');
    await p.getByTestId('notifications-bell').click();
    await expect(p.getByTestId('notifications-panel')).toBeVisible();
    await shot(p, info, `bell-open-${slug}-390`);
    await p.context().close();
  }
});

test("deciding an opportunity reads its notices for every representative who got them", async ({ browser }) => {
  const seller = await fresh(browser, DECISIONS);
  await login(seller, DECISIONS, 'vendedor1');
  const id = await register(seller, DECISIONS);
  const link = `/Painel/Opportunities/${id}`;

  const rep = await fresh(browser, DECISIONS);
  await login(rep, DECISIONS, 'representante');
  const other = await fresh(browser, DECISIONS);
  await login(other, DECISIONS, 'multi');
  // Routing (docs/deal-desk.md): a registration's notices go to its responsible representatives; the
  // representative hands it to both, so two representatives get notices of it.
  const coverage = await pageApi<{ representatives: { id: string; email: string }[] }>(rep, 'GET', '/api/coverage');
  const both = coverage.body.representatives.filter((r) => /^(representante|multi)@/.test(r.email)).map((r) => r.id);
  expect(both).toHaveLength(2);
  const moved = await pageApi(rep, 'POST', `/api/opportunity/${id}/reassign`, { representativeIds: both, reason: 'Os dois acompanham este cliente' });
  expect(moved.status).toBe(200);
  // A notice of the record reaches both (the workflow notifies in the background).
  await expect.poll(async () => (await notices(other)).result.some((n) => n.link === link && !n.readAt), { timeout: 30_000 }).toBe(true);
  const unreadBefore = (await notices(other)).unread;

  const res = await pageApi<{ message: string }>(rep, 'PATCH', `/api/opportunity/${id}`, {
    status: 'approved',
    name: 'Oportunidade Avisos Lidos',
    probabilityClosing: 50,
  });
  expect(res.status).toBe(200);
  const after = await notices(other);
  expect(after.result.filter((n) => n.link === link).every((n) => n.readAt)).toBe(true);
  expect(after.unread).toBe(unreadBefore - 1);
  await other.reload();
  if (after.unread > 0) await expect(other.getByTestId('notifications-count')).toHaveText(String(Math.min(after.unread, 99)));
});

// ---- 11. the chrome, focus, links, one status palette ---------------------------

test('the chrome never reads as an alert; focus is visible on it and on the page; links look like links', async ({ browser }, info) => {
  for (const slug of [LIGHT, RED]) {
    const page = await fresh(browser, slug);
    await login(page, slug, 'representante');
    await expect(page.getByTestId('page-title')).toHaveText('Dashboard');
    const chrome = await page.locator('.panel-navbar').evaluate((el) => getComputedStyle(el).backgroundColor);
    const menu = await page.locator('.side-menu').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(menu).toBe(chrome);
    // Never the error family: Etiquetron's #c62828 nor the danger red.
    for (const red of ['rgb(198, 40, 40)', 'rgb(205, 66, 70)']) expect(chrome).not.toBe(red);
    const [r, g, b] = parseRgb(chrome);
    expect(r > g + 40 && r > b + 40, `${slug}: chrome ${chrome} is a red`).toBe(false);

    await tabFromStart(page, '.side-menu .bp6-menu-item');
    await expectVisibleRing(page);
    await shot(page, info, `focus-side-menu-${slug}`);
    await tabInto(page, '.panel-navbar');
    await expectVisibleRing(page);
    await tabInto(page, '.panel-content');
    await expectVisibleRing(page);
    await shot(page, info, `focus-content-${slug}`);

    // Links: a colour (not the body's slate), underlined.
    const link = page.getByRole('link', { name: 'Visualizar lista' });
    const [lr, lg, lb] = parseRgb(await link.evaluate((el) => getComputedStyle(el).color));
    expect(Math.max(lr, lg, lb) - Math.min(lr, lg, lb), `${slug}: link colour is a grey`).toBeGreaterThan(60);
    expect(await link.evaluate((el) => getComputedStyle(el).textDecorationLine)).toBe('underline');
    await shots(page, info, `dashboard-${slug}`);
    await page.context().close();
  }
});

test('focus is visible on the side menu and the top bar of all 11 brands', async ({ browser }) => {
  test.setTimeout(360_000);
  for (const slug of BRANDS) {
    const page = await fresh(browser, slug);
    await login(page, slug, 'suporte');
    await tabFromStart(page, '.side-menu .bp6-menu-item');
    await expectVisibleRing(page);
    await tabInto(page, '.panel-navbar');
    await expectVisibleRing(page);
    await page.context().close();
  }
});

test('one status palette on every brand: a status has the same colours on the badge, the list and the card', async ({ browser }, info) => {
  const colours: Record<string, string[]> = {};
  for (const slug of [LIGHT, RED]) {
    const page = await fresh(browser, slug);
    await login(page, slug, 'representante');
    const badge = page.locator('.dashboard-page .status-tag.status-analysis, .status-tag.status-analysis').first();
    await expect(badge).toBeVisible();
    const card = page.locator('.total-analysis');
    colours[slug] = [
      await badge.evaluate((el) => getComputedStyle(el).color),
      await badge.evaluate((el) => getComputedStyle(el).backgroundColor),
      await card.evaluate((el) => getComputedStyle(el).borderLeftColor),
    ];
    await page.goto(url(slug, '/Painel/Opportunities'));
    const row = page.locator('.status-tag.status-analysis').first();
    await expect(row).toBeVisible();
    colours[slug].push(await row.evaluate((el) => getComputedStyle(el).color));
    // The longest label is whole: 'Aguardando Renovação', not 'Aguardando R…'.
    const waiting = page.locator('.status-tag.status-renewal', { hasText: 'Aguardando Renovação' }).first();
    await expect(waiting).toBeVisible();
    const clipped = await waiting.evaluate((el) => [...Array.from(el.querySelectorAll('*')), el].some((n) => n.scrollWidth > n.clientWidth + 1));
    expect(clipped, `${slug}: the badge is clipped`).toBe(false);
    await shots(page, info, `opportunities-${slug}`, async () => {
      await expect(page.locator('.status-tag').first()).toBeVisible();
    });
    await page.context().close();
  }
  expect(colours[RED]).toEqual(colours[LIGHT]);
  expect(colours[LIGHT][0]).toBe(colours[LIGHT][3]); // the dashboard's badge and the list's
  expect(colours[LIGHT][2]).toBe('rgb(33, 93, 176)'); // the card's stripe is the status's blue, not the brand's secondary
});

// ---- 12. clipped and broken text ------------------------------------------------

/** Whether every piece of an e-mail between its break points (<wbr>) lies on one line. */
async function emailUnbroken(el: Locator): Promise<boolean> {
  return el.evaluate((node) => {
    const texts: Text[] = [];
    const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) texts.push(t as Text);
    return texts.every((t) => {
      const r = document.createRange();
      r.selectNodeContents(t);
      const tops = new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top)));
      return tops.size <= 1;
    });
  });
}

test('details at 390 px: e-mails break between words, dates are dd/mm/aaaa; the form wraps long names', async ({ browser }, info) => {
  for (const slug of [LIGHT, RED]) {
    const page = await fresh(browser, slug, PHONE);
    await login(page, slug, 'representante');
    const rows = await opportunities(page);
    const longest = [...rows].sort((a, b) => b.email.length - a.email.length)[0];
    await page.goto(url(slug, `/Painel/Opportunities/${longest.id}`));
    await expect(page.getByTestId('detail-email')).toBeVisible();
    expect(await emailUnbroken(page.getByTestId('detail-email'))).toBe(true);
    expect(await emailUnbroken(page.getByTestId('detail-user-email'))).toBe(true);
    await expect(page.getByTestId('detail-conclusionDate')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
    await shots(page, info, `details-${slug}`);

    await page.goto(url(slug, `/Painel/History/${longest.id}`));
    await expect(page.getByTestId('page-title')).toBeVisible();
    await shots(page, info, `history-${slug}`);
    await page.context().close();
  }

  // The seller's form: what the CNPJ lookup fills wraps, a product line says 'Part number' once.
  const seller = await fresh(browser, LIGHT, PHONE);
  await login(seller, LIGHT, 'vendedor1');
  await seller.goto(url(LIGHT, '/Painel/Opportunities/registration'));
  await expect(seller.locator('#corporateName')).toHaveJSProperty('tagName', 'TEXTAREA');
  await expect(seller.getByText('Part number 1')).toHaveCount(0);
  const groupSize = await seller.locator('.op-lines-header .bp6-heading').first().evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const sectionSize = await seller.getByRole('heading', { name: 'Produtos' }).evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(groupSize).toBeLessThan(sectionSize);
  await shots(seller, info, 'registration-nordata');
});

test('dialogs keep a margin on a phone', async ({ browser }, info) => {
  const page = await fresh(browser, RED, PHONE);
  await login(page, RED, 'representante');
  const analysis = (await opportunities(page)).find((o) => o.status === 'analysis');
  expect(analysis, 'a seeded opportunity in analysis').toBeTruthy();
  await page.goto(url(RED, `/Painel/Opportunities/${analysis!.id}`));
  // Opening the approval's confirmation decides nothing; it is closed with 'Cancelar'.
  await page.getByRole('button', { name: 'Aprovar' }).click();
  const dialog = page.locator('.bp6-dialog').first();
  await expect(dialog).toBeVisible();
  const box = await settledBox(dialog);
  expect(box.x).toBeGreaterThanOrEqual(8);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width - 8);
  await shot(page, info, 'dialog-etiquetron-390');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toHaveCount(0);
});

// ---- the login's carousel and the public pages ---------------------------------

test("the carousel's headline is the page's text, whole at any size; its controls lie apart and are 24 px targets", async ({ browser }, info) => {
  for (const slug of [LIGHT, RED]) {
    for (const size of [DESKTOP, PHONE, { width: 1280, height: 900 }]) {
      const page = await fresh(browser, slug, size);
      await openLogin(page, slug);
      const title = page.locator('.carousel-title');
      await expect(title).toHaveText('Registre suas oportunidades');
      const column = (await page.locator('.auth-carousel-column').boundingBox())!;
      const t = (await title.boundingBox())!;
      expect(t.x).toBeGreaterThanOrEqual(column.x);
      expect(t.x + t.width).toBeLessThanOrEqual(column.x + column.width + 0.5);
      const pause = (await page.getByTestId('carousel-pause').boundingBox())!;
      expect(pause.y, 'the pause control lies below the title').toBeGreaterThanOrEqual(t.y + t.height);
      const controls = (await page.getByTestId('carousel-controls').boundingBox())!;
      expect(controls.y + controls.height, 'the carousel is cut at the bottom').toBeLessThanOrEqual(column.y + column.height + 0.5);
      for (const dot of await page.getByTestId('carousel-dot').all()) {
        const d = (await dot.boundingBox())!;
        expect(Math.min(d.width, d.height)).toBeGreaterThanOrEqual(24);
      }
      if (size === DESKTOP || size === PHONE) await shot(page, info, `login-${slug}-${size.width}`);
      await page.context().close();
    }
  }
});

/** GET from inside the page: its Content-Type, Cache-Control and text. */
async function get(page: Page, path: string): Promise<{ type: string; cache: string; text: string }> {
  return page.evaluate(async (p) => {
    const res = await fetch(p);
    return { type: res.headers.get('content-type') ?? '', cache: res.headers.get('cache-control') ?? '', text: await res.text() };
  }, path);
}

test('public pages: robots.txt, a description, 24 px phone links, sized logos, one h1 then h2', async ({ browser }, info) => {
  for (const slug of [LIGHT, RED]) {
    const page = await fresh(browser, slug);
    await openLogin(page, slug);
    const robots = await get(page, '/robots.txt');
    expect(robots.type).toMatch(/^text\/plain/);
    expect(robots.text).toMatch(/^User-agent: \*/m);
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Portal de Oportunidades/);
    const logo = page.getByTestId('brand-logo');
    await expect(logo).toHaveAttribute('width', '220');
    await expect(logo).toHaveAttribute('height', '48');
    const headings = await page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((els) => els.map((e) => e.tagName));
    expect(headings[0]).toBe('H1');
    expect(headings).not.toContain('H5');
    // Brand images are content-addressed and kept a year.
    const src = (await logo.getAttribute('src'))!;
    expect(src).toMatch(/\/logo\.[0-9a-f]{10}\.svg$/);
    expect((await get(page, src)).cache).toBe('public, max-age=31536000, immutable');

    await page.goto(url(slug, '/Contact'));
    for (const tel of await page.locator('a[href^="tel:"]').all()) expect((await tel.boundingBox())!.height).toBeGreaterThanOrEqual(24);
    await shots(page, info, `contact-${slug}`);
    await page.goto(url(slug, '/Registration'));
    await expect(page.getByTestId('page-title').or(page.locator('h1')).first()).toBeVisible();
    await shots(page, info, `sign-up-${slug}`);
    await page.goto(url(slug, '/recovery-password'));
    await expect(page.locator('h1')).toBeVisible();
    await shots(page, info, `recovery-${slug}`);
    await page.context().close();
  }
});

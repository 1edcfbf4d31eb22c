import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { login, url } from './support';

/**
 * Sessions that survive two tabs (docs/security-browser.md, "Cross-tab
 * refresh"): two pages of one context share the cookies, as two tabs do.
 */
const SLUG = 'codexa';

async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  return (await context.cookies()).find((c) => c.name === name)?.value;
}

/** Sets cookies of the session as the browser stores them for the brand's host. */
async function setCookies(context: BrowserContext, values: Record<string, string>): Promise<void> {
  const existing = await context.cookies();
  await context.addCookies(
    Object.entries(values).map(([name, value]) => {
      const c = existing.find((e) => e.name === name)!;
      return { ...c, value };
    }),
  );
}

/**
 * Counts the refresh calls and holds each one 700 ms before it reaches the
 * server, so that the other tab's refresh surely starts while the first is out.
 */
async function holdRefreshes(context: BrowserContext): Promise<{ count: () => number; presented: string[] }> {
  const presented: string[] = [];
  await context.route('**/auth/refresh_token', async (route) => {
    presented.push(route.request().headers().authorization ?? '');
    await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  return { count: () => presented.length, presented };
}

async function expectList(page: Page): Promise<void> {
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
  await expect(page.getByTestId('opportunity-row').first()).toBeVisible();
}

test('two tabs refreshing an expired token at once both stay signed in', async ({ page: a, context }) => {
  test.setTimeout(90_000);
  await login(a, SLUG, 'vendedor1', { keepConnected: true });
  await expectList(a);
  const b = await context.newPage();
  await b.goto(url(SLUG, '/Painel/Opportunities'));
  await expectList(b);
  const refreshes = await holdRefreshes(context);
  const firstRefresh = await cookie(context, 'refresh_token');

  // 1. The access token expired (exp in the past, the server no longer takes the token):
  //    both tabs load at once, the guard of each refreshes before opening the screen.
  await setCookies(context, { exp: String(Math.floor(Date.now() / 1000) - 60), token: 'expired-access-token' });
  await Promise.all([a.reload(), b.reload()]);
  await Promise.all([expectList(a), expectList(b)]);
  expect(refreshes.count()).toBe(1); // the second tab waited for the lock and used the first one's pair
  const secondRefresh = await cookie(context, 'refresh_token');
  expect(secondRefresh).not.toBe(firstRefresh);
  expect(refreshes.presented).toEqual([`Bearer ${firstRefresh}`]);

  // 2. The server refuses the access token while exp still looks valid: both tabs' calls
  //    get a 401 at once, each refreshes and retries.
  await setCookies(context, { token: 'revoked-access-token' });
  await Promise.all([a.reload(), b.reload()]);
  await Promise.all([expectList(a), expectList(b)]);
  expect(refreshes.count()).toBe(2);
  expect(refreshes.presented[1]).toBe(`Bearer ${secondRefresh}`);

  // Both tabs still make authenticated calls with the newest pair.
  const token = await cookie(context, 'token');
  expect(token).not.toBe('revoked-access-token');
  for (const p of [a, b]) {
    const status = await p.evaluate(
      async (t) => (await fetch('/api/opportunity/user', { headers: { Authorization: `Bearer ${t}`, company: 'codexa' } })).status,
      token,
    );
    expect(status).toBe(200);
  }
  await a.reload();
  await expectList(a);
});

test("with 'Mantenha-me conectado' unticked a second tab leaves the first tab's session working", async ({ page: a, context }) => {
  await login(a, SLUG, 'vendedor1', { keepConnected: false });
  await expectList(a);
  const b = await context.newPage();
  await b.goto(url(SLUG, '/Painel/Opportunities'));
  await expectList(b); // the same visit: the browser session is still open
  for (const name of ['token', 'refresh_token', 'exp', 'keep_connection', 'user_permissions']) {
    expect(await cookie(context, name), name).toBeTruthy();
  }
  await b.close();
  // The first tab carries on: a reload and a call to the API.
  await a.reload();
  await expectList(a);
  await a.getByTestId('menu-Settings').click();
  await expect(a.getByText('Atualizar a sua senha')).toBeVisible();
  // The visit is kept by a cookie without expiry, which the browser drops when it closes.
  const visit = (await context.cookies()).find((c) => c.name === 'oportuna_visit');
  expect(visit?.expires).toBe(-1);
  expect(visit?.sameSite).toBe('Strict');
});

test('a link from another site (an e-mail) opens the panel with the session', async ({ page, context }) => {
  await login(page, SLUG, 'vendedor1');
  const target = url(SLUG, '/Painel/Opportunities');
  await context.route('http://webmail.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><a id="go" href="${target}">abrir</a>` }),
  );
  await page.goto('http://webmail.test/');
  await page.locator('#go').click();
  await expect(page).toHaveURL(target);
  await expectList(page);
});

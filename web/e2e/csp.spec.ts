import { expect, test, type Page } from '@playwright/test';
import { login, openLogin, url } from './support';

/**
 * The browser policy (docs/security-browser.md): the app runs under its strict
 * Content-Security-Policy without a single violation, an inline script is
 * refused, and no other site may frame the portal.
 */

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
  source: string;
}

/**
 * Records every CSP violation of the page (securitypolicyviolation events, from
 * an init script that runs before the app) and every console message about a
 * policy (Content-Security-Policy, Permissions-Policy, X-Frame-Options).
 */
async function watchPolicy(page: Page): Promise<{ console: string[]; violations: () => Promise<Violation[]> }> {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: unknown[] };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      w.__violations.push({ directive: e.violatedDirective, blocked: e.blockedURI, sample: e.sample, source: e.sourceFile });
    });
  });
  const console: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Permissions-Policy|Permissions policy|X-Frame-Options|Refused to/i.test(msg.text())) {
      console.push(`${msg.type()}: ${msg.text()}`);
    }
  });
  return {
    console,
    violations: () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations ?? []),
  };
}

async function expectClean(page: Page, watch: Awaited<ReturnType<typeof watchPolicy>>, where: string): Promise<void> {
  expect(await watch.violations(), `CSP violations on ${where}`).toEqual([]);
  expect(watch.console, `policy messages on ${where}`).toEqual([]);
}

test('the app page is served with the strict policy and holds no inline script', async ({ page }) => {
  const res = await page.goto(url('nordata', '/'));
  const headers = res!.headers();
  const csp = headers['content-security-policy'];
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("default-src 'self'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain('unsafe-eval');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['permissions-policy']).toContain('camera=()');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['strict-transport-security']).toBeUndefined(); // http: no HSTS (HSTS_MAX_AGE unset)
  const inline = await page.evaluate(() =>
    [...document.scripts].filter((s) => !s.src && s.type !== 'application/json').map((s) => s.outerHTML.slice(0, 120)),
  );
  expect(inline).toEqual([]);
  // The brand came from the JSON data block, not from a call.
  expect(await page.evaluate(() => JSON.parse(document.getElementById('oportuna-brand')!.textContent!).slug)).toBe('nordata');
});

test('an inline script is refused and reported (the watch sees violations)', async ({ page }) => {
  const watch = await watchPolicy(page);
  await page.goto(url('nordata', '/'));
  await expect(page.locator('#username')).toBeVisible();
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.appendChild(s);
    const div = document.createElement('div');
    div.setAttribute('onclick', 'window.__inlineRan = true');
    document.body.appendChild(div);
    div.click();
  });
  await expect.poll(async () => (await watch.violations()).map((v) => v.directive)).toContain('script-src-elem');
  expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
  expect(await page.evaluate(() => {
    try {
      return String(eval('1 + 1'));
    } catch (e) {
      return (e as Error).name;
    }
  })).toBe('EvalError');
});

test('a representative walks the panel without a policy violation', async ({ page }) => {
  test.setTimeout(90_000);
  const watch = await watchPolicy(page);
  await openLogin(page, 'yep', { acceptLgpd: false });
  // The privacy policy viewer frames the PDF (frame-src 'self'; the PDF allows frame-ancestors 'self').
  await page.getByTestId('lgpd-banner').getByRole('button', { name: 'Ler a Política de Privacidade' }).click();
  await expect(page.getByTestId('pdf-viewer-frame')).toHaveAttribute('src', '/brand-assets/lgpd.pdf');
  await page.waitForTimeout(500);
  await page.getByRole('dialog').getByRole('button', { name: /fechar|close/i }).first().click();
  await page.getByTestId('lgpd-banner').getByRole('button', { name: 'Aceitar' }).click();
  await expectClean(page, watch, 'login');

  await login(page, 'yep', 'representante');
  await expect(page).toHaveURL(url('yep', '/Painel/Dashboard'));
  await expect(page.getByTestId('monthly-chart').locator('svg').first()).toBeVisible();
  await page.getByTestId('chart-point-approved-1').hover();
  await expectClean(page, watch, 'dashboard');

  await page.getByTestId('menu-Opportunities').click();
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
  await expect(page.getByTestId('opportunity-row').first()).toBeVisible();
  await page.getByTestId('row-details').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes da oportunidade');
  await expectClean(page, watch, 'opportunity details');

  await page.goBack();
  await page.getByTestId('row-history').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Histórico');
  await expectClean(page, watch, 'history');

  await page.getByTestId('menu-Resales').click();
  await expect(page.getByTestId('page-title')).toHaveText('Revendas');
  await page.getByTestId('resale-details-link').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes da revenda');
  await page.getByTestId('menu-Users').click();
  await expect(page.getByTestId('page-title')).toHaveText('Usuários');
  await expectClean(page, watch, 'partners');
});

test('a seller opens the registration form and settings without a policy violation', async ({ page }) => {
  const watch = await watchPolicy(page);
  await login(page, 'yep', 'vendedor1');
  await page.goto(url('yep', '/Painel/Opportunities/registration'));
  await expect(page.getByTestId('page-title')).toHaveText('Registro de Oportunidades');
  await page.getByTestId('menu-Settings').click();
  await expect(page.getByText('Atualizar a sua senha')).toBeVisible();
  await expectClean(page, watch, 'registration and settings');

  // The public pages too.
  for (const path of ['/Registration', '/Contact', '/recovery-password']) {
    await page.goto(url('yep', path));
    await expect(page.locator('#root')).not.toBeEmpty();
    await expectClean(page, watch, path);
  }
});

test('the dev mailbox works under its own policy', async ({ page }) => {
  const watch = await watchPolicy(page);
  const res = await page.goto(url('nordata', '/mailbox/'));
  expect(res!.headers()['content-security-policy']).toContain("script-src 'none'");
  await expect(page.getByRole('heading', { name: 'Caixa de e-mails' })).toBeVisible();
  // Its stylesheet applies: the brand's bar under the navbar.
  const border = await page.locator('nav.navbar').evaluate((el) => getComputedStyle(el).borderBottomWidth);
  expect(border).toBe('3px');
  await expectClean(page, watch, 'mailbox');
});

test('no other site can frame the portal (frame-ancestors)', async ({ page }) => {
  const app = url('nordata', '/');
  const refused: string[] = [];
  page.on('console', (msg) => {
    if (/frame-ancestors|X-Frame-Options/.test(msg.text())) refused.push(msg.text());
  });
  await page.route('http://attacker.test/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><iframe id="victim" src="${app}"></iframe>` }),
  );
  await page.goto('http://attacker.test/');
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  expect(frame!.url()).not.toBe(app);
  expect(await frame!.locator('#username').count()).toBe(0);
});

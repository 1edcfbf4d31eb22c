import { expect, test, type Page } from '@playwright/test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

async function expectClean(watch: Awaited<ReturnType<typeof watchPolicy>>, where: string): Promise<void> {
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
    Array.from(document.scripts).filter((s) => !s.src && s.type !== 'application/json').map((s) => s.outerHTML.slice(0, 120)),
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
  // A string handed to setTimeout is eval: refused without 'unsafe-eval'.
  await page.evaluate(() => {
    (window.setTimeout as unknown as (code: string, ms: number) => number)('window.__evalRan = true', 0);
  });
  await expect.poll(async () => (await watch.violations()).map((v) => v.blocked)).toContain('eval');
  expect(await page.evaluate(() => (window as unknown as { __evalRan?: boolean }).__evalRan)).toBeUndefined();
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
  await expectClean(watch, 'login');

  await login(page, 'yep', 'representante');
  await expect(page).toHaveURL(url('yep', '/Painel/Dashboard'));
  await expect(page.getByTestId('monthly-chart').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('chart-point-approved-1')).toHaveCount(1);
  await page.getByTestId('chart-month-1').hover(); // the tooltip (visx, positioned by style props)
  await expect(page.getByTestId('chart-tooltip-approved')).toBeVisible();
  await expectClean(watch, 'dashboard');

  await page.getByTestId('menu-Opportunities').click();
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
  await expect(page.getByTestId('opportunity-row').first()).toBeVisible();
  await page.getByTestId('row-details').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes da oportunidade');
  await expectClean(watch, 'opportunity details');

  await page.goBack();
  await page.getByTestId('row-history').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Histórico');
  await expectClean(watch, 'history');

  await page.getByTestId('menu-Resales').click();
  await expect(page.getByTestId('page-title')).toHaveText('Revendas');
  await page.getByTestId('resale-details-link').first().click();
  await expect(page.getByTestId('page-title')).toHaveText('Detalhes da revenda');
  await page.getByTestId('menu-Users').click();
  await expect(page.getByTestId('page-title')).toHaveText('Usuários');
  await expectClean(watch, 'partners');
});

test('a seller opens the registration form and settings without a policy violation', async ({ page }) => {
  const watch = await watchPolicy(page);
  await login(page, 'yep', 'vendedor1');
  await page.goto(url('yep', '/Painel/Opportunities/registration'));
  await expect(page.getByTestId('page-title')).toHaveText('Registro de Oportunidades');
  await page.getByTestId('menu-Settings').click();
  await expect(page.getByText('Atualizar a sua senha')).toBeVisible();
  await expectClean(watch, 'registration and settings');

  // The public pages too.
  for (const path of ['/Registration', '/Contact', '/recovery-password']) {
    await page.goto(url('yep', path));
    await expect(page.locator('#root')).not.toBeEmpty();
    await expectClean(watch, path);
  }
});

test('the dev mailbox works under its own policy', async ({ page }) => {
  const watch = await watchPolicy(page);
  const res = await page.goto(url('nordata', '/mailbox/'));
  expect(res!.headers()['content-security-policy']).toContain("style-src 'unsafe-inline'");
  expect(res!.headers()['x-frame-options']).toBe('SAMEORIGIN'); // it frames its messages' bodies
  await expect(page.getByRole('heading', { name: 'Caixa de e-mails' })).toBeVisible();
  // Its stylesheet applies: the brand's bar under the navbar.
  const border = await page.locator('nav.navbar').evaluate((el) => getComputedStyle(el).borderBottomWidth);
  expect(border).toBe('3px');
  await expectClean(watch, 'mailbox');
});

test('no other site can frame the portal (frame-ancestors)', async ({ page }) => {
  const app = url('nordata', '/Painel/Opportunities');
  // Another site, on the loopback too (Chromium keeps public pages from framing local ones anyway).
  const attacker = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(`<!doctype html><iframe id="victim" src="${app}"></iframe>`);
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = attacker.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'load' }); // load waits for the frame
    const frame = page.frames().find((f) => f !== page.mainFrame());
    expect(frame).toBeDefined();
    await page.waitForTimeout(500);
    expect(frame!.url()).not.toBe(app);
    expect(await frame!.locator('#root').count()).toBe(0);
  } finally {
    attacker.close();
  }
});

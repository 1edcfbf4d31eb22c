import { expect, test } from '@playwright/test';
import { kb, measureLoad } from './measure';
import { url } from './support';

/**
 * Issue 14 item 6: the login page's first visit costs at most 150 KB of
 * scripts and style sheets on the wire, sent precompressed (brotli) and
 * without the other screens' chunks. `make bench-web` reports the timings.
 */
// Won back after the deal desk (153.7 KB): Blueprint's table of icon names is left out of the
// build (web/build/noIconNames.ts), 8 KB less (docs/web.md, "First load and big lists").
const BUDGET = 150 * 1024;

test('the login page loads at most 150 KB of compressed JS and CSS', async ({ browser }, info) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const encodings = new Map<string, string>();
  page.on('response', (res) => {
    const type = res.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    // Files under 1 KB are not worth compressing (web/build/precompress.ts).
    const small = Number(res.headers()['content-length'] ?? Infinity) < 1024;
    encodings.set(new URL(res.url()).pathname, small ? 'br' : (res.headers()['content-encoding'] ?? ''));
  });
  await page.goto(url('codexa', '/'));
  await expect(page.locator('#username')).toBeVisible();
  await page.close();

  const f = await measureLoad(context, url('codexa', '/'), async (p) => {
    await expect(p.locator('#username')).toBeVisible();
  });
  info.annotations.push({ type: 'first load', description: `JS+CSS ${kb(f.jsCss)} on the wire, ${kb(f.jsCssDecoded)} decoded` });
  await context.close();

  expect(encodings.size).toBeGreaterThan(0);
  for (const [path, encoding] of encodings) expect(encoding, path).toBe('br');
  // No screen but Login's: the dashboard, the lists and the forms are chunks of their own.
  expect([...encodings.keys()].filter((p) => /Dashboard|Opportunit|Registration|PanelLayout|paths-/.test(p))).toEqual([]);
  expect(f.jsCss, `${kb(f.jsCss)} of JS+CSS`).toBeLessThanOrEqual(BUDGET);
});

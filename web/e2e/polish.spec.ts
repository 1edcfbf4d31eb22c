import { expect, test, type Locator } from '@playwright/test';
import { login, openLogin } from './support';

/** Issue 14's fit-and-finish points a rendered page shows (CSS, layout), on a red brand. */

const rgb = (l: Locator, prop: string) => l.evaluate((el, p) => getComputedStyle(el).getPropertyValue(p), prop);
const BLUEPRINT_BLUE = 'rgb(45, 114, 210)';
const GREEN = 'rgb(35, 133, 81)';

test('etiquetron dashboard: accents from the brand, refusals this month in red, round ticks', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await login(page, 'etiquetron', 'representante');
  await expect(page.getByTestId('page-title')).toHaveText('Dashboard');
  const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-accent').trim());
  expect(accent).toBe('#37474f'); // Etiquetron's secondary: its red primary would read as an error

  // '+N este mês': green for approvals, red for refusals.
  const refusals = await rgb(page.getByTestId('total-disapproved-month'), 'color');
  expect(refusals).not.toBe(GREEN);
  expect(refusals).toBe('rgb(172, 47, 51)');
  expect(await rgb(page.getByTestId('total-approved-month'), 'color')).toBe('rgb(28, 110, 66)');

  // The selected tab follows the brand, not Blueprint's blue.
  const tab = page.getByRole('tab', { name: 'Oportunidades' });
  expect(await rgb(tab, 'color')).not.toBe(BLUEPRINT_BLUE);
  expect(await rgb(tab, 'color')).toBe('rgb(55, 71, 79)');

  // The y axis is ticked at round values (1, 2 or 5 × 10ⁿ apart).
  const ticks = await page
    .locator('.dashboard-chart-card svg .visx-axis-left text')
    .evaluateAll((els) => els.map((e) => Number((e.textContent ?? '').replace(/\./g, ''))));
  expect(ticks.length).toBeGreaterThan(1);
  const step = ticks[1] - ticks[0];
  expect(String(step)).toMatch(/^(1|2|5)0*$/);
  for (const t of ticks) expect(t % step).toBe(0);
});

test('etiquetron: the focus ring is visible and never the error red; a field in error keeps its red border', async ({ page }) => {
  await openLogin(page, 'etiquetron');
  await page.locator('#username').focus();
  // Blueprint animates the ring: read it once the transition has ended (mid-way it is an oklab() mix).
  const ring = () => rgb(page.locator('#username'), 'box-shadow');
  await expect.poll(ring).toContain('rgb(55, 71, 79)');
  expect(await ring()).not.toContain('rgb(198, 40, 40)');
  expect(await ring()).not.toContain('rgb(205, 66, 70)');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Shift+Tab');
  await expect.poll(ring).toContain('rgb(55, 71, 79)');
});

test("the carousel image fills its column (no bands) and the carousel can be paused", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' }); // the tests ask for less motion (the carousel then starts paused)
  await page.setViewportSize({ width: 1366, height: 768 });
  await openLogin(page, 'nordata');
  const image = page.getByTestId('carousel-active');
  await expect(image).toBeVisible();
  expect(await rgb(image, 'object-fit')).toBe('cover');
  const column = await page.locator('.auth-carousel-column').boundingBox();
  const box = await image.boundingBox();
  expect(box?.width).toBeCloseTo(column?.width ?? 0, 0);
  expect(box?.height).toBeCloseTo(column?.height ?? 0, 0);
  const pause = page.getByRole('button', { name: 'Pausar carrossel' });
  if (await pause.count()) {
    await pause.click();
    await expect(page.getByRole('button', { name: 'Retomar carrossel' })).toHaveAttribute('aria-pressed', 'true');
  }
});

test("at 768 px the LGPD banner leaves the login's footer in sight", async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await openLogin(page, 'tagora', { acceptLgpd: false });
  const banner = page.getByTestId('lgpd-banner');
  await expect(banner).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const footer = await page.locator('.auth-footer').boundingBox();
  const over = await banner.boundingBox();
  expect(footer).not.toBeNull();
  expect(over).not.toBeNull();
  expect(footer!.y + footer!.height).toBeLessThanOrEqual(over!.y);
  await expect(page.getByTestId('contact-link')).toBeInViewport();
});

test('the skip link is the first stop of the keyboard and leads to the content', async ({ page }) => {
  await login(page, 'tagora', 'vendedor1');
  await page.reload();
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Pular para o conteúdo' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
});

test('etiquetron: the refuse dialog opens calm (no red before anything is typed)', async ({ page }) => {
  await login(page, 'etiquetron', 'representante');
  const id = await page.evaluate(async () => {
    const cookie = Object.fromEntries(document.cookie.split('; ').map((c) => c.split('=').map(decodeURIComponent)));
    const res = await fetch('/api/opportunity/all?amount=1&page=1&status=analysis', {
      headers: { Authorization: `Bearer ${cookie.token}`, company: cookie.company },
    });
    return (await res.json())?.result?.[0]?.id as string | undefined;
  });
  expect(id).toBeTruthy();
  await page.goto(page.url().replace(/\/Painel\/.*$/, `/Painel/Opportunities/${id}`));
  await page.getByTestId('refuse-button').click();
  const reason = page.getByTestId('refusal-reason');
  await expect(reason).toBeFocused();
  const ring = await rgb(reason, 'box-shadow');
  expect(ring).not.toContain('rgb(198, 40, 40)');
  expect(ring).not.toContain('rgb(205, 66, 70)');
  await expect(reason).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('dialog', { name: 'Reprovar oportunidade' })).not.toContainText('*Campo Obrigatório');
});

test('a dialog enters without motion when the system asks for less of it, and grows in 300 ms otherwise', async ({ page }) => {
  await openLogin(page, 'etiquetron');
  // A dialog in Blueprint's entering state, as an Overlay2 sets it on opening.
  const entering = () =>
    page.evaluate(() => {
      const container = document.createElement('div');
      container.className = 'bp6-dialog-container bp6-overlay-enter bp6-overlay-enter-active';
      const dialog = document.createElement('div');
      dialog.className = 'bp6-dialog';
      container.appendChild(dialog);
      document.body.appendChild(container);
      const duration = getComputedStyle(dialog).transitionDuration;
      container.remove();
      return duration;
    });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await entering()).toBe('0s');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await entering()).toBe('0.3s');
});

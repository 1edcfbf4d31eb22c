import { expect, test } from '@playwright/test';
import { openLogin } from './support';

test('the LGPD banner opens the policy and does not return after acceptance', async ({ page, context }) => {
  await openLogin(page, 'tagora', { acceptLgpd: false });
  const banner = page.getByTestId('lgpd-banner');
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Ler a Política de Privacidade' }).click();
  await expect(page.getByTestId('pdf-viewer-frame')).toHaveAttribute('src', '/brand-assets/lgpd.pdf');
  await page.getByRole('dialog').getByRole('button', { name: /fechar|close/i }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await banner.getByRole('button', { name: 'Aceitar' }).click();
  await expect(banner).toHaveCount(0);
  const lgpd = (await context.cookies()).find((c) => c.name === 'lgpd_accepted');
  expect(lgpd?.value).toBe('true');
  // About 30 days.
  const days = ((lgpd?.expires ?? 0) - Date.now() / 1000) / 86400;
  expect(days).toBeGreaterThan(29);
  expect(days).toBeLessThanOrEqual(30.01);

  await page.reload();
  await expect(page.locator('#username')).toBeVisible();
  await expect(page.getByTestId('lgpd-banner')).toHaveCount(0);

  const next = await context.newPage();
  await next.goto(page.url());
  await expect(next.locator('#username')).toBeVisible();
  await expect(next.getByTestId('lgpd-banner')).toHaveCount(0);
});

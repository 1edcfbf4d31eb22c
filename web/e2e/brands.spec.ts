import { expect, test } from '@playwright/test';
import { BRANDS, brandOf, url } from './support';

for (const slug of BRANDS) {
  test(`${slug}: the host shows its own title, logo, favicon and colour`, async ({ page }) => {
    await page.goto(url(slug, '/'));
    await expect(page.locator('#username')).toBeVisible();
    const brand = await brandOf(page);
    expect(brand.slug).toBe(slug);

    await expect(page).toHaveTitle(brand.title);
    const logo = page.locator('img[data-testid=brand-logo]');
    await expect(logo).toHaveAttribute('src', brand.logo);
    await expect(logo).toHaveAttribute('alt', brand.name);
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await expect(page.locator('link[rel~=icon]').first()).toHaveAttribute('href', brand.favicon);

    const primary = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--brand-primary').trim(),
    );
    expect(primary.toLowerCase()).toBe(brand.colors.primary.toLowerCase());
    // The primary button wears it.
    const entrar = page.getByRole('button', { name: 'Entrar' });
    const background = await entrar.evaluate((el) => getComputedStyle(el).backgroundColor);
    const hex = brand.colors.primary.replace('#', '');
    const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
    expect(background).toBe(`rgb(${r}, ${g}, ${b})`);
  });
}

test('an unknown host gets the first brand', async ({ page }) => {
  await page.goto(url('desconhecida', '/'));
  const brand = await brandOf(page);
  expect(brand.slug).toBe(BRANDS[0]);
  await expect(page).toHaveTitle(brand.title);
});

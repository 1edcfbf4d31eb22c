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
    const rgbOf = (color: string) => {
      const hex = color.replace('#', '');
      const [r, g, b] = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
      return `rgb(${r}, ${g}, ${b})`;
    };
    // The shell wears the primary colour (the carousel's column on the login page).
    const column = await page.locator('.auth-carousel-column').evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(column).toBe(rgbOf(brand.colors.primary));
    // Controls wear the brand's accent (lib/brandTheme.ts): the primary colour, except where it
    // reads as an error (Etiquetron, Tagora: the secondary) or is too light for AA text (Scanbrisa: darkened).
    const accent = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--brand-accent').trim());
    const entrar = page.getByRole('button', { name: 'Entrar' });
    const background = await entrar.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).toBe(rgbOf(accent));
    if (slug === 'etiquetron' || slug === 'tagora') expect(accent).toBe(brand.colors.secondary.toLowerCase());
    else if (slug !== 'scanbrisa') expect(accent).toBe(brand.colors.primary.toLowerCase());
  });
}

test('an unknown host gets the first brand', async ({ page }) => {
  await page.goto(url('desconhecida', '/'));
  const brand = await brandOf(page);
  expect(brand.slug).toBe(BRANDS[0]);
  await expect(page).toHaveTitle(brand.title);
});

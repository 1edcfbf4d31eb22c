import { expect, type Page } from '@playwright/test';

/**
 * Ticks columns of a list in its 'Colunas' chooser (components/ColumnChooser)
 * and closes it: a list shows its role's default columns (docs/web.md
 * "Columns"), so a test that reads another column asks for it first.
 */
export async function showColumns(page: Page, labels: readonly string[]): Promise<void> {
  await page.getByRole('button', { name: 'Colunas' }).click();
  const menu = page.getByRole('list', { name: 'Colunas exibidas' });
  await expect(menu).toBeVisible();
  for (const label of labels) {
    const box = menu.getByRole('checkbox', { name: label, exact: true });
    if (!(await box.isChecked())) await box.check({ force: true });
    await expect(box).toBeChecked();
  }
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
}

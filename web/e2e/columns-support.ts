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
  for (const label of labels) await setColumn(page, label, true);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
}

/**
 * Ticks (or unticks) one column in the open chooser. A click landing while the popover still
 * opens may change nothing: it is tried again until the box shows the state asked for.
 */
export async function setColumn(page: Page, label: string, shown: boolean): Promise<void> {
  const box = page.getByRole('list', { name: 'Colunas exibidas' }).getByRole('checkbox', { name: label, exact: true });
  await expect(async () => {
    if ((await box.isChecked()) !== shown) await box.click({ force: true });
    await expect(box).toBeChecked({ checked: shown, timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

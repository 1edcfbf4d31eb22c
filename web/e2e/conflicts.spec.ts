import { expect as baseExpect, test, type Browser, type Page } from '@playwright/test';
import { login, pageApi, registrationBody, shots, url, watchScreens, withCheckDigits } from './support';

test.describe.configure({ timeout: 180_000 });
test.use({ actionTimeout: 20_000, navigationTimeout: 30_000, viewport: { width: 1366, height: 768 } });
const expect = baseExpect.configure({ timeout: 20_000 });

/**
 * Conflicts (docs/deal-desk.md, "Conflicts"): two registrations of one company
 * (head office and branch: one CNPJ root) side by side for the representative,
 * the 409 of approving the later one and its override with a reason, and the
 * neutral notice a seller sees. On a light brand (nordata) and the red one
 * (etiquetron), on registrations only this spec creates (random roots).
 */
async function signedIn(browser: Browser, slug: string, user: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await login(page, slug, user);
  return page;
}

async function register(page: Page, slug: string, cnpj: string, customer: string): Promise<string> {
  const res = await pageApi<{ data: { id: string } }>(page, 'POST', '/api/opportunity/create', registrationBody(slug, cnpj, customer));
  expect(res.status).toBe(200);
  return res.body.data.id;
}

for (const slug of ['nordata', 'etiquetron']) {
  test(`${slug}: the later registration of a company is approved only with a reason`, async ({ browser }, info) => {
    const root = String(10_000_000 + Math.floor(Math.random() * 80_000_000));
    const tag = root.slice(-4);
    const seller = await signedIn(browser, slug, 'vendedor1');
    const first = await register(seller, slug, withCheckDigits(`${root}0001`), `Matriz Conflito ${tag}`);
    const later = await register(seller, slug, withCheckDigits(`${root}0002`), `Filial Conflito ${tag}`);

    const rep = await signedIn(browser, slug, 'representante');
    // The one failed call: the 409 of approving the later registration without a reason.
    const errors = watchScreens(rep, /\/Painel\/Opportunities\/[^/]+$/, [new RegExp(`^/api/opportunity/${later}$`)]);
    await rep.goto(url(slug, `/Painel/Opportunities/${later}`));
    const cards = rep.getByTestId('conflict-list').getByTestId('conflict-card');
    await expect(cards).toHaveCount(2);
    await expect(cards.first()).toContainText('Primeiro registro');
    await expect(cards.first()).toContainText('Mesma raiz de CNPJ');
    await expect(cards.first()).toContainText(`Matriz Conflito ${tag} Ltda`);
    await expect(cards.nth(1)).toContainText('Este registro');
    await rep.getByTestId('section-conflicts').scrollIntoViewIfNeeded();
    await shots(rep, info, `${slug}-conflicts-panel`);

    await rep.locator('#opportunity-name').fill('Projeto Filial');
    await rep.getByRole('button', { name: 'Aprovar', exact: true }).click();
    await rep.getByRole('dialog', { name: 'Aprovar oportunidade' }).getByRole('button', { name: 'Aprovar', exact: true }).click();
    const override = rep.getByRole('dialog', { name: 'Conflito de registro' });
    await expect(override.getByTestId('override-message')).toContainText(first);
    await expect(override.getByTestId('override-message')).toContainText('em análise');
    await expect(override.getByTestId('override-confirm')).toBeDisabled();
    await override.getByTestId('override-reason').fill('Cliente confirmou a compra pela filial.');
    await shots(rep, info, `${slug}-override-dialog`);
    await override.getByTestId('override-confirm').click();
    await expect(rep.getByRole('dialog', { name: 'Feito!' })).toContainText('Oportunidade aprovada com sucesso');

    await rep.goto(url(slug, `/Painel/Opportunities/${first}`));
    await expect(rep.getByTestId('conflict-override')).toContainText('Cliente confirmou a compra pela filial.');
    await expect(rep.getByTestId('conflict-override')).toContainText(later);
    expect(errors).toEqual([]);

    await seller.goto(url(slug, `/Painel/Opportunities/${first}`));
    await expect(seller.getByTestId('conflict-notice')).toContainText('Existe outro registro para este cliente.');
    await expect(seller.getByTestId('conflict-list')).toHaveCount(0);
    await shots(seller, info, `${slug}-conflict-notice`);
  });
}

import { expect, test } from '@playwright/test';
import { expectLogin, login, url } from './support';

test('with keep-connected unticked the session does not survive to the next visit', async ({ page, context, browser }) => {
  await login(page, 'nordata', 'vendedor1', { keepConnected: false });
  await expect(page).toHaveURL(url('nordata', '/Painel/Opportunities'));

  // A reload is the same visit (a second tab too: e2e/session-tabs.spec.ts).
  await page.reload();
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');

  // The browser reopened is a new visit: it keeps the persistent cookies and drops the
  // session ones (the visit cookie).
  const state = await context.storageState();
  const reopened = await browser.newContext({
    storageState: { ...state, cookies: state.cookies.filter((c) => c.expires !== -1) },
  });
  const next = await reopened.newPage();
  await next.goto(url('nordata', '/Painel/Opportunities'));
  await expectLogin(next);
  const names = (await reopened.cookies()).map((c) => c.name);
  for (const name of ['token', 'refresh_token', 'exp', 'user_permissions', 'keep_connection', 'company']) {
    expect(names).not.toContain(name);
  }
  expect(names).toContain('lgpd_accepted');
  await reopened.close();
});

test('with keep-connected ticked the session survives a new tab', async ({ page, context }) => {
  await login(page, 'yep', 'representante', { keepConnected: true });
  const next = await context.newPage();
  await next.goto(url('yep', '/'));
  await expect(next).toHaveURL(url('yep', '/Painel/Dashboard'));
  await expect(next.getByTestId('page-title')).toHaveText('Dashboard');
});

test('settings validate the new password before calling the server', async ({ page }) => {
  await login(page, 'bipsul', 'vendedor2');
  await page.getByTestId('menu-Settings').click();
  await expect(page.getByText('Atualizar a sua senha')).toBeVisible();
  await page.locator('#password').fill('fraca');
  await expect(page.getByText(/A senha deve conter no mínimo 8 caracteres/)).toBeVisible();
  await page.locator('#password').fill('Oportuna@2026');
  await page.locator('#confirmation').fill('Oportuna@2027');
  await expect(page.getByText('As senhas não conferem!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
});

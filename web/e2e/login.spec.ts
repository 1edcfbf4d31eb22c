import { expect, test } from '@playwright/test';
import { email, expectLogin, login, openLogin, submitLogin, url } from './support';

test("a wrong password shows 'Usuário ou senha inválidos'", async ({ page }) => {
  await openLogin(page, 'nordata');
  await submitLogin(page, email('representante', 'nordata'), 'Senha@Errada1');
  await expect(page.getByTestId('login-error')).toHaveText('Usuário ou senha inválidos');
  await expectLogin(page);
});

test('a user of one brand cannot log in on another brand', async ({ page }) => {
  await openLogin(page, 'yep');
  await submitLogin(page, email('representante', 'nordata'));
  await expect(page.getByTestId('login-error')).toHaveText('Usuário ou senha inválidos');
});

test('Entrar stays disabled until both trimmed fields are filled', async ({ page }) => {
  await openLogin(page, 'nordata');
  const entrar = page.getByRole('button', { name: 'Entrar' });
  await expect(entrar).toBeDisabled();
  await page.locator('#username').fill('   ');
  await page.locator('#password').fill('x');
  await expect(entrar).toBeDisabled();
  await page.locator('#username').fill('  vendedor1@nordata.demo  ');
  await expect(entrar).toBeEnabled();
});

test('the login page shows version, carousel, links and the e-mail notice', async ({ page }) => {
  await openLogin(page, 'yep');
  await expect(page.getByTestId('app-version')).toHaveText(/^Versão \S+/);
  await expect(page.getByTestId('login-carousel').locator('img').first()).toHaveAttribute('src', /\/brand-assets\/yep\//);
  await expect(page.getByRole('link', { name: 'Esqueceu sua senha?' })).toBeVisible();
  await expect(page.getByTestId('email-notice')).toBeVisible();
  await page.getByRole('button', { name: 'Entendi' }).click();
  await page.reload();
  await expect(page.locator('#username')).toBeVisible();
  await expect(page.getByTestId('email-notice')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cadastre-se' }).click();
  await expect(page).toHaveURL(url('yep', '/Registration'));
  await page.getByRole('link', { name: 'Voltar ao login' }).click();
  await page.getByRole('link', { name: 'Esqueceu sua senha?' }).click();
  await expect(page).toHaveURL(url('yep', '/recovery-password'));
  await expect(page.getByRole('button', { name: 'Recuperar senha' })).toBeVisible();
});

test('a user with a valid session reaching / goes to the panel', async ({ page }) => {
  await login(page, 'yep', 'vendedor1');
  await page.goto(url('yep', '/'));
  await expect(page).toHaveURL(url('yep', '/Painel/Opportunities'));
  await expect(page.getByTestId('page-title')).toHaveText('Oportunidades');
});

test('logout returns to Login and the panel is no longer reachable', async ({ page, context }) => {
  await login(page, 'nordata', 'revenda');
  await page.getByRole('button', { name: 'Sair' }).click();
  await expectLogin(page);
  const names = (await context.cookies()).map((c) => c.name);
  expect(names).not.toContain('token');
  expect(names).not.toContain('refresh_token');
  await page.goto(url('nordata', '/Painel/Opportunities'));
  await expectLogin(page);
});

test('unknown paths go to Login', async ({ page }) => {
  await page.goto(url('codexa', '/nao/existe'));
  await expectLogin(page);
});

import { expect, test } from '@playwright/test';
import { login, menuEntries, url } from './support';

const ALL_MENU = ['menu-Dashboard', 'menu-Reports', 'menu-Opportunities', 'menu-Resales', 'menu-Coverage', 'menu-Users', 'menu-Settings'];

const CASES = [
  {
    user: 'representante',
    role: 'Representante',
    landing: '/Painel/Dashboard',
    title: 'Dashboard',
    menu: ALL_MENU,
    forbidden: '/Painel/Users/registration',
  },
  {
    user: 'suporte',
    role: 'Suporte',
    landing: '/Painel/Dashboard',
    title: 'Dashboard',
    menu: ALL_MENU,
    forbidden: '/Painel/Opportunities/registration',
  },
  {
    user: 'revenda',
    role: 'Revenda',
    landing: '/Painel/Opportunities',
    title: 'Oportunidades',
    menu: ['menu-Opportunities', 'menu-Users', 'menu-Settings'],
    forbidden: '/Painel/Resales',
  },
  {
    user: 'vendedor1',
    role: 'Vendedor',
    landing: '/Painel/Opportunities',
    title: 'Oportunidades',
    menu: ['menu-Opportunities', 'menu-Settings'],
    forbidden: '/Painel/Dashboard',
  },
];

for (const slug of ['nordata', 'yep']) {
  for (const c of CASES) {
    test(`${slug}: ${c.user} lands on ${c.title}, sees its menu and is refused ${c.forbidden}`, async ({ page }) => {
      await login(page, slug, c.user, { form: true });
      await expect(page).toHaveURL(url(slug, c.landing));
      await expect(page.getByTestId('page-title')).toHaveText(c.title);
      expect(await menuEntries(page)).toEqual(c.menu);
      await expect(page.getByTestId('user-role')).toContainText(c.role);
      await expect(page.getByTestId('user-initials')).toHaveText(/^\p{Lu}{1,2}$/u);

      // Refused inside the panel: the session goes on ('Sem permissão', menu and badge still there).
      await page.goto(url(slug, c.forbidden));
      await expect(page.getByTestId('page-title')).toHaveText('Sem permissão');
      await expect(page.getByTestId('forbidden-screen')).toContainText('Você não tem permissão para acessar essa página.');
      expect(await menuEntries(page)).toEqual(c.menu);
      await page.getByRole('button', { name: 'Voltar ao início' }).click();
      await expect(page).toHaveURL(url(slug, c.landing));
    });
  }
}

test('a user with several roles is allowed where any of them is', async ({ page }) => {
  await login(page, 'nordata', 'multi', { form: true });
  await expect(page).toHaveURL(url('nordata', '/Painel/Dashboard'));
  expect(await menuEntries(page)).toEqual(ALL_MENU);
  await expect(page.getByTestId('user-role')).toContainText('Representante');
  await expect(page.getByTestId('user-role')).toContainText('Suporte');
  await page.getByTestId('menu-Users').click();
  await expect(page.getByTestId('page-title')).toHaveText('Usuários');
  await page.getByTestId('menu-Resales').click();
  await expect(page.getByTestId('page-title')).toHaveText('Revendas');
});

test('the menu opens each screen of a representative', async ({ page }) => {
  await login(page, 'yep', 'representante');
  for (const [entry, title] of [
    ['menu-Opportunities', 'Oportunidades'],
    ['menu-Resales', 'Revendas'],
    ['menu-Users', 'Usuários'],
    ['menu-Settings', 'Configurações'],
    ['menu-Dashboard', 'Dashboard'],
  ]) {
    await page.getByTestId(entry).click();
    await expect(page.getByTestId('page-title')).toHaveText(title);
  }
  await page.getByRole('button', { name: 'Voltar' }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Configurações');
});

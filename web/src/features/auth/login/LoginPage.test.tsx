import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { fakeJwt, json, mockFetch, renderAt, storeSession } from '@/test/helpers';

function publicApi(extra: (url: string) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = extra(call.url);
    if (answer) return answer;
    if (call.url === '/api/version') return json(200, { version: '0.1.0' });
    if (call.url.startsWith('/api/image')) return json(200, { data: [] });
    return json(404, {});
  });
}

/** The authenticator lets a seller of Yep in (id 9, 'Vera Vendedora', a session of 8 hours). */
function sellerLogin() {
  const exp = Math.floor(Date.now() / 1000) + 3600 * 8;
  publicApi((url) => {
    if (url.startsWith('/authenticator/login'))
      return json(200, { data: { data: { access_token: fakeJwt(exp), refresh_token: 'r' } } });
    if (url === '/authenticator/auth/payload') return json(200, { payload: { id: '9', name: 'Vera Vendedora', exp } });
    if (url === '/authenticator/user/9/role') return json(200, { roles: [{ name: 'SELLER', data: { brand: 'yep' } }] });
    return undefined;
  });
}

function submitButton() {
  return screen.getByRole('button', { name: 'Entrar' });
}

describe('LoginPage', () => {
  it('enables Entrar only when both trimmed values are filled', async () => {
    publicApi();
    renderAt('/', <AppRoutes />);
    const user = userEvent.setup();
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('E-mail'), '   ');
    await user.type(screen.getByLabelText('Senha'), 'x');
    expect(submitButton()).toBeDisabled();
    await user.type(screen.getByLabelText('E-mail'), 'a@b.co');
    expect(submitButton()).toBeEnabled();
    await user.clear(screen.getByLabelText('Senha'));
    await user.type(screen.getByLabelText('Senha'), '  ');
    expect(submitButton()).toBeDisabled();
  });

  it('shows the form pieces of spec §2', async () => {
    publicApi();
    renderAt('/', <AppRoutes />);
    expect(screen.getByRole('checkbox', { name: 'Mantenha-me conectado' })).toBeChecked();
    expect(screen.getByRole('link', { name: 'Esqueceu sua senha?' })).toHaveAttribute('href', '/recovery-password');
    expect(screen.getByRole('button', { name: 'Cadastre-se' })).toBeInTheDocument();
    expect(screen.getByTestId('contact-link')).toHaveAttribute('href', '/Contact');
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('src', '/brand-assets/yep/logo.svg');
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('alt', 'Yep');
    expect(await screen.findByText('Versão 0.1.0')).toBeInTheDocument();
    expect(screen.getByTestId('email-notice')).toBeInTheDocument();
  });

  it('toggles the password visibility', async () => {
    publicApi();
    renderAt('/', <AppRoutes />);
    const input = screen.getByLabelText('Senha');
    expect(input).toHaveAttribute('type', 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Mostrar senha' }));
    expect(input).toHaveAttribute('type', 'text');
    await userEvent.click(screen.getByRole('button', { name: 'Ocultar senha' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it("shows 'Usuário ou senha inválidos' on a 401", async () => {
    publicApi((url) => (url.startsWith('/authenticator/login') ? json(401, { message: 'Usuário ou senha inválidos' }) : undefined));
    renderAt('/', <AppRoutes />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'a@yep.demo');
    await userEvent.type(screen.getByLabelText('Senha'), 'errada');
    await userEvent.click(submitButton());
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Usuário ou senha inválidos');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it("shows the server's message on a 429 (too many attempts), not the error modal", async () => {
    const message =
      'Muitas tentativas de acesso sem sucesso para este usuário. Por segurança, o acesso está bloqueado temporariamente; tente novamente em 30 segundos.';
    publicApi((url) => (url.startsWith('/authenticator/login') ? json(429, { message }) : undefined));
    renderAt('/', <AppRoutes />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'a@yep.demo');
    await userEvent.type(screen.getByLabelText('Senha'), 'Oportuna@2026');
    await userEvent.click(submitButton());
    expect(await screen.findByTestId('login-throttled')).toHaveTextContent(message);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByTestId('login-error')).not.toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it("shows the error modal 'Houve um erro. Tente mais tarde!' on other failures", async () => {
    publicApi((url) => (url.startsWith('/authenticator/login') ? json(500, {}) : undefined));
    renderAt('/', <AppRoutes />);
    await userEvent.type(screen.getByLabelText('E-mail'), 'a@yep.demo');
    await userEvent.type(screen.getByLabelText('Senha'), 'x');
    await userEvent.click(submitButton());
    expect(await screen.findByRole('dialog')).toHaveTextContent('Houve um erro. Tente mais tarde!');
    expect(screen.getByRole('dialog')).toHaveTextContent('Ops!');
  });

  it('logs in and lands on the first page of the role', async () => {
    sellerLogin();
    renderAt('/', <AppRoutes />);
    await userEvent.click(screen.getByRole('checkbox', { name: 'Mantenha-me conectado' }));
    await userEvent.type(screen.getByLabelText('E-mail'), ' vendedor1@yep.demo ');
    await userEvent.type(screen.getByLabelText('Senha'), 'Oportuna@2026');
    await userEvent.click(submitButton());
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities'));
    expect(screen.getByTestId('page-title')).toHaveTextContent('Oportunidades');
    expect(Cookies.get('keep_connection')).toBe('false');
  });

  it('sends a user with a valid stored session straight to the panel', async () => {
    publicApi();
    storeSession({ roles: ['SUPPORT'] });
    renderAt('/', <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Dashboard'));
  });

  it('shows the form when the stored token is expired', async () => {
    publicApi();
    storeSession({ roles: ['SUPPORT'], exp: Math.floor(Date.now() / 1000) + 100 });
    renderAt('/', <AppRoutes />);
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/);
  });

  it('remembers the dismissal of the e-mail notice', async () => {
    publicApi();
    const { unmount } = renderAt('/', <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: 'Entendi' }));
    expect(screen.queryByTestId('email-notice')).not.toBeInTheDocument();
    expect(Number(localStorage.getItem('warning'))).toBeGreaterThan(0);
    unmount();
    renderAt('/', <AppRoutes />);
    expect(screen.queryByTestId('email-notice')).not.toBeInTheDocument();
  });
  describe('return address (an e-mail link opened while logged out)', () => {
    async function signIn() {
      await userEvent.type(screen.getByLabelText('E-mail'), 'vendedor1@yep.demo');
      await userEvent.type(screen.getByLabelText('Senha'), 'Oportuna@2026');
      await userEvent.click(submitButton());
    }

    it('goes through the login to the linked opportunity', async () => {
      sellerLogin();
      renderAt('/Painel/Opportunities/6f1c-42?renovation=true', <AppRoutes />);
      await waitFor(() =>
        expect(screen.getByTestId('location')).toHaveTextContent('/?next=%2FPainel%2FOpportunities%2F6f1c-42%3Frenovation%3Dtrue'),
      );
      await signIn();
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities\/6f1c-42\?renovation=true$/));
    });

    it.each(['//evil.example/Painel/x', '/\\evil.example', 'https://evil.example/Painel/x', '/Contact'])(
      'refuses the return address %j and lands on the first page',
      async (next) => {
        sellerLogin();
        renderAt(`/?next=${encodeURIComponent(next)}`, <AppRoutes />);
        await signIn();
        await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities$/));
      },
    );

    it('lands on the first page when the role may not open the linked screen', async () => {
      sellerLogin();
      renderAt(`/?next=${encodeURIComponent('/Painel/Dashboard')}`, <AppRoutes />);
      await signIn();
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities$/));
    });

    it('sends a user already signed in straight to the linked screen', async () => {
      publicApi();
      storeSession({ roles: ['SUPPORT'] });
      renderAt(`/?next=${encodeURIComponent('/Painel/Resales')}`, <AppRoutes />);
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Resales$/));
    });
  });
});

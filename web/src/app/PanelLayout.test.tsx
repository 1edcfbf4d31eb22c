import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { fakeJwt, json, mockFetch, renderAt, storeSession } from '@/test/helpers';

const menuIds = () =>
  within(screen.getByRole('navigation', { name: 'Menu principal' }))
    .queryAllByTestId(/^menu-/)
    .map((el) => el.getAttribute('data-testid'));

describe('panel', () => {
  it.each([
    [['REPRESENTATIVE'], '/Painel/Opportunities', ['menu-Dashboard', 'menu-Reports', 'menu-Opportunities', 'menu-Resales', 'menu-Coverage', 'menu-Users', 'menu-Settings']],
    [['SUPPORT'], '/Painel/Opportunities', ['menu-Dashboard', 'menu-Reports', 'menu-Opportunities', 'menu-Resales', 'menu-Coverage', 'menu-Users', 'menu-Settings']],
    [['RESALE'], '/Painel/Opportunities', ['menu-Opportunities', 'menu-Users', 'menu-Settings']],
    [['SELLER'], '/Painel/Opportunities', ['menu-Opportunities', 'menu-Settings']],
  ])('%s: /Painel goes to %s and the menu shows its entries', async (roles, landing, menu) => {
    storeSession({ roles });
    mockFetch(() => json(200, {}));
    renderAt('/Painel', <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(landing));
    expect(menuIds()).toEqual(menu);
  });

  it('shows the connected user with initials, name and role', () => {
    storeSession({ roles: ['REPRESENTATIVE', 'SUPPORT'], name: 'Marcos Antônio Lima' });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Settings', <AppRoutes />);
    expect(screen.getByTestId('user-initials')).toHaveTextContent('ML');
    expect(screen.getByTestId('user-name')).toHaveTextContent('Marcos Antônio Lima');
    expect(screen.getByTestId('user-role')).toHaveTextContent('Representante');
    expect(screen.getByTestId('user-role')).toHaveTextContent('Suporte');
    expect(screen.getByTestId('brand-logo')).toHaveAttribute('alt', 'Yep');
  });

  it('navigates with the menu and shows each screen title', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Dashboard', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Dashboard');
    for (const [id, title] of [
      ['menu-Opportunities', 'Oportunidades'],
      ['menu-Resales', 'Revendas'],
      ['menu-Coverage', 'Cobertura'],
      ['menu-Users', 'Usuários'],
      ['menu-Settings', 'Configurações'],
    ]) {
      await userEvent.click(screen.getByTestId(id));
      expect(screen.getByTestId('page-title')).toHaveTextContent(title);
    }
  });

  it('titles Users/:id by role', () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Users/42', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Detalhes do vendedor');
  });

  it("starts the keyboard at 'Pular para o conteúdo', which moves the focus to the screen's content", async () => {
    storeSession({ roles: ['SELLER'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Settings', <AppRoutes />);
    await screen.findByTestId('page-title');
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Pular para o conteúdo' });
    expect(skip).toHaveFocus();
    await userEvent.click(skip);
    expect(screen.getByRole('main')).toHaveFocus();
    expect(screen.getByRole('main')).toContainElement(screen.getByTestId('page-title'));
  });

  it("shows 'Sem permissão' inside the panel on a route the role may not open, keeping the session", async () => {
    storeSession({ roles: ['SELLER'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Dashboard', <AppRoutes />);
    expect(await screen.findByTestId('forbidden-screen')).toBeInTheDocument();
    expect(screen.getByTestId('page-title')).toHaveTextContent('Sem permissão');
    expect(screen.getByText('Você não tem permissão para acessar essa página.')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Dashboard');
    expect(screen.queryByLabelText('E-mail')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Sair/ })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities'));
  });

  it('sends a user with no role at this brand to login', async () => {
    storeSession({ roles: [] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Dashboard', <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(screen.getByTestId('login-forbidden')).toBeInTheDocument();
  });

  it('sends an expired session that was not kept to login', async () => {
    storeSession({ roles: ['SELLER'], keep: false, exp: Math.floor(Date.now() / 1000) + 10 });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Opportunities', <AppRoutes />);
    // The login keeps the way back to the screen (lib/returnPath.ts).
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?next=%2FPainel%2FOpportunities$/));
  });

  it('refreshes an expired kept session once before giving up', async () => {
    storeSession({ roles: ['SELLER'], exp: Math.floor(Date.now() / 1000) + 10, refreshToken: 'r1' });
    const fresh = fakeJwt(Math.floor(Date.now() / 1000) + 8 * 3600);
    const calls = mockFetch((call) =>
      call.url === '/authenticator/yep/auth/refresh_token'
        ? json(200, { data: { access_token: fresh, refresh_token: 'r2' } })
        : json(200, {}),
    );
    renderAt('/Painel/Opportunities', <AppRoutes />);
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Oportunidades');
    expect(calls.filter((c) => c.url.includes('refresh_token'))).toHaveLength(1);
    expect(Cookies.get('token')).toBe(fresh);
  });

  it('clears the session when that refresh fails', async () => {
    storeSession({ roles: ['SELLER'], exp: Math.floor(Date.now() / 1000) + 10 });
    mockFetch(() => json(401, {}));
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/\?next=%2FPainel%2FOpportunities$/));
    expect(Cookies.get('token')).toBeUndefined();
  });

  it('logs out to login and the panel is no longer reachable', async () => {
    storeSession({ roles: ['SELLER'], refreshToken: 'r9' });
    const calls = mockFetch(() => new Response(null, { status: 204 }));
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(calls.find((c) => c.url === '/authenticator/auth/logout')?.body).toEqual({ refresh_token: 'r9' });
    expect(Cookies.get('token')).toBeUndefined();
    expect(screen.getByLabelText('E-mail')).toBeInTheDocument();
  });

  it('redirects unknown paths to /', async () => {
    mockFetch(() => json(200, {}));
    renderAt('/nao-existe', <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });
});

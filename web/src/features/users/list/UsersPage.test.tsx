import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';
import { loadSellerPreferences } from './preferences';

const SELLERS = [
  { id: 'u1', name: 'Vanessa Lima', email: 'vanessa@alfa.com.br', phone: '11987650004', active: true },
  { id: 'u2', name: 'Victor Souza', email: 'victor@alfa.com.br', phone: null, active: true },
];

const apiCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/api/seller') || c.url.startsWith('/api/representative'));

describe('UsersPage', () => {
  it("RESALE: its sellers, the columns, 'Sem Telefone', links, and 'Adicionar vendedores'", async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = mockFetch((c) => (c.url.startsWith('/api/seller/all') ? json(200, { result: SELLERS, total: 2 }) : json(200, {})));
    renderAt('/Painel/Users', <AppRoutes />);
    const table = await screen.findByTestId('users-table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Ações',
      'Histórico',
      'Nome',
      'E-mail',
      'Telefone',
    ]);
    expect(apiCalls(calls)[0].url).toBe('/api/seller/all?amount=10&page=1&status=true');
    expect(screen.getByTestId('user-row-u1')).toHaveTextContent('(11) 98765-0004');
    expect(screen.getByTestId('user-row-u2')).toHaveTextContent('Sem Telefone');
    expect(within(screen.getByTestId('user-row-u1')).getByTestId('user-details-link')).toHaveAttribute('href', '/Painel/Users/u1');
    expect(within(screen.getByTestId('user-row-u1')).getByTestId('user-history-link')).toHaveAttribute(
      'href',
      '/Painel/History/u1?type=Users',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar vendedores' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Users/registration'));
  });

  it("staff: the brand's list, no 'Adicionar vendedores'; a 404 is 'Sem conteúdo'", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = mockFetch(() => json(404, { message: 'x' }));
    renderAt('/Painel/Users', <AppRoutes />);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('Sem conteúdo');
    expect(apiCalls(calls)[0].url).toBe('/api/representative/all?amount=10&page=1&status=true&brand=yep');
    expect(screen.queryByRole('button', { name: 'Adicionar vendedores' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('error-modal-message')).not.toBeInTheDocument();
  });

  it("'Nome do vendedor' applies on Enter or the magnifier and is kept in seller_preferences", async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/seller/name')
        ? json(200, { total: 1, data: [SELLERS[1]] })
        : c.url.startsWith('/api/seller/all')
          ? json(200, { result: SELLERS, total: 2 })
          : json(200, {}),
    );
    const { unmount } = renderAt('/Painel/Users', <AppRoutes />);
    await screen.findByTestId('users-table');
    const input = screen.getByLabelText('Nome do vendedor');
    await userEvent.type(input, 'Vic');
    expect(apiCalls(calls)).toHaveLength(1);
    await userEvent.type(input, '{Enter}');
    await waitFor(() => expect(apiCalls(calls).at(-1)?.url).toBe('/api/seller/name?amount=10&page=1&name=Vic&brand=yep'));
    await waitFor(() => expect(screen.queryByTestId('user-row-u1')).not.toBeInTheDocument());
    expect(screen.getByTestId('user-row-u2')).toBeInTheDocument();
    expect(loadSellerPreferences()).toEqual({ name: 'Vic', amount: 10 });

    await userEvent.clear(input);
    await userEvent.type(input, 'Vanessa');
    await userEvent.click(screen.getByRole('button', { name: 'Buscar pelo nome' }));
    await waitFor(() => expect(apiCalls(calls).at(-1)?.url).toContain('name=Vanessa'));
    await userEvent.selectOptions(screen.getByTestId('page-size'), '1000');
    await waitFor(() => expect(apiCalls(calls).at(-1)?.url).toContain('amount=1000'));
    expect(within(screen.getByTestId('page-size')).getAllByRole('option').map((o) => o.textContent)).toEqual([
      '10',
      '25',
      '50',
      '75',
      '100',
      '1000',
    ]);

    unmount();
    renderAt('/Painel/Users', <AppRoutes />);
    await waitFor(() => expect(apiCalls(calls).at(-1)?.url).toBe('/api/seller/name?amount=1000&page=1&name=Vanessa&brand=yep'));
    expect(screen.getByLabelText('Nome do vendedor')).toHaveValue('Vanessa');
  });

  it('other failures show the list error', async () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(500, {}));
    renderAt('/Painel/Users', <AppRoutes />);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });
});

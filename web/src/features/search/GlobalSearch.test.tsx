import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';
import { shortcutHint } from './GlobalSearch';

const ANSWER = {
  opportunities: [
    { id: 'o1', status: 'approved', name: 'Projeto Aurora', fantasyName: 'Padaria Sol', corporateName: 'Sol Ltda', cnpj: '11222333000181', createdAt: '' },
  ],
  resales: [
    {
      id: 'r1', status: 'approved', corporateName: 'Aurora Distribuição Ltda', fantasyName: 'Aurora', cnpj: '22333444000181', phone: '',
      contactName: 'Olga', email: 'contato@aurora.com.br', cep: '', city: '', street: '', state: '', reason: '', createdAt: '',
    },
  ],
  users: [{ id: 'u7', name: 'Olga Aurora', email: 'olga@aurora.com.br', roles: ['RESALE'], resale: 'Aurora Distribuição Ltda' }],
  more: { opportunities: true, resales: false, users: false },
};

function server(answer: (c: Call) => Response = () => json(200, ANSWER)) {
  return mockFetch((c) => (c.url.startsWith('/api/search') ? answer(c) : json(200, { result: [], total: 0 })));
}
const searchCalls = (calls: Call[]) => calls.filter((c) => c.url.startsWith('/api/search'));

describe('global search', { timeout: 30_000 }, () => {
  it('opens with Ctrl+K, asks once 2 characters are typed, and lists each kind with its status', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await userEvent.keyboard('{Control>}k{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Buscar' });
    const input = within(dialog).getByRole('combobox', { name: 'Buscar oportunidades, revendas e usuários' });
    await waitFor(() => expect(input).toHaveFocus());
    await userEvent.type(input, 'a');
    expect(within(dialog).getByTestId('global-search-status')).toHaveTextContent('Digite ao menos 2 caracteres');
    await userEvent.type(input, 'u');
    const options = await within(dialog).findAllByRole('option');
    expect(searchCalls(calls).map((c) => [c.method, c.url, c.body])).toEqual([['POST', '/api/search', { q: 'au' }]]);
    expect(options.map((o) => o.getAttribute('data-kind'))).toEqual(['opportunities', 'resales', 'users']);
    expect(options[0]).toHaveTextContent('Projeto Aurora');
    expect(options[0]).toHaveTextContent('Padaria Sol · 11.222.333/0001-81');
    expect(options[0]).toHaveTextContent('Aprovado');
    expect(options[2]).toHaveTextContent('olga@aurora.com.br · Revenda · Aurora Distribuição Ltda');
    expect(within(dialog).getByRole('group', { name: 'Oportunidades' })).toHaveTextContent('Há mais resultados');
    expect(within(dialog).getByRole('group', { name: 'Usuários' })).not.toHaveTextContent('Há mais resultados');
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    expect(input).toHaveAttribute('aria-activedescendant', options[0].id);
  });

  it('moves with the arrows and opens the chosen record with Enter', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server();
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: /Buscar/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Buscar' });
    const input = within(dialog).getByRole('combobox', { name: 'Buscar oportunidades, revendas e usuários' });
    await userEvent.type(input, 'aurora');
    const results = within(await within(dialog).findByRole('listbox', { name: 'Resultados da busca' }));
    await results.findAllByRole('option');
    await userEvent.keyboard('{ArrowDown}');
    expect(results.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    // Past the last it goes round to the first, and back.
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(results.getAllByRole('option')[2]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Users/u7'));
    expect(screen.queryByRole('dialog', { name: 'Buscar' })).not.toBeInTheDocument();
  });

  it('says when nothing matches, and shows the server message of a refused search', async () => {
    storeSession({ roles: ['SELLER'] });
    let answer = json(200, { opportunities: [], resales: [], users: [], more: {} });
    server(() => answer.clone());
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await userEvent.keyboard('{Meta>}k{/Meta}');
    const input = await screen.findByRole('combobox', { name: 'Buscar oportunidades, revendas e usuários' });
    await userEvent.type(input, 'zz');
    await waitFor(() => expect(screen.getByTestId('global-search-status')).toHaveTextContent('Nada encontrado para “zz”.'));
    answer = json(400, { message: 'A busca aceita até 100 caracteres.' });
    await userEvent.type(input, 'x');
    await waitFor(() => expect(screen.getByTestId('global-search-status')).toHaveTextContent('A busca aceita até 100 caracteres.'));
  });

  it('names the shortcut of the platform', () => {
    expect(shortcutHint('MacIntel')).toBe('⌘ K');
    expect(shortcutHint('Linux x86_64')).toBe('Ctrl K');
  });
});

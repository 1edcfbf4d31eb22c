import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { Resale } from '../api/resale';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';
import { loadResalePreferences, saveResalePreferences } from './preferences';

function resale(n: number, over: Partial<Resale> = {}): Resale {
  return {
    id: `r-${n}`,
    status: 'analysis',
    corporateName: `Revenda ${n} Ltda`,
    fantasyName: n % 2 ? `Fantasia ${n}` : '',
    cnpj: '11222333000181',
    phone: '31987654321',
    contactName: `Contato ${n}`,
    email: `c${n}@x.com.br`,
    cep: '30140071',
    city: 'Belo Horizonte',
    street: 'Rua A, 1',
    state: 'MG',
    reason: '',
    createdAt: '2026-03-05T15:00:00Z',
    ...over,
  };
}

const listCalls = (calls: { url: string }[]) => calls.filter((c) => c.url.startsWith('/api/resale/all'));

describe('ResalesPage', () => {
  it('lists the columns with formatted values and links to details and history', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/resale/all')
        ? json(200, { result: [resale(1), resale(2, { status: 'disapproved', reason: 'Sem estoque' })], total: 2 })
        : json(200, {}),
    );
    renderAt('/Painel/Resales', <AppRoutes />);
    const table = await screen.findByTestId('resales-table');
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Revenda',
      'CNPJ',
      'Telefone',
      'Contato',
      'Solicitado em',
      'Status',
      'Ações',
    ]);
    const row = screen.getByTestId('resale-row-r-1');
    expect(row).toHaveTextContent('Revenda 1 Ltda');
    expect(row).toHaveTextContent('11.222.333/0001-81');
    expect(row).toHaveTextContent('(31) 98765-4321');
    expect(row).toHaveTextContent('Contato 1');
    expect(row).toHaveTextContent('05/03/2026');
    expect(row).toHaveTextContent('Em Análise');
    expect(screen.getByTestId('resale-row-r-2')).toHaveTextContent('Reprovado');
    expect(screen.getByTestId('resale-row-r-2')).toHaveTextContent('N/C');
    expect(listCalls(calls)[0].url).toBe('/api/resale/all?amount=10&page=1&brand=yep&createdAt=-1');
    expect(within(row).getByTestId('resale-history-link')).toHaveAttribute('href', '/Painel/History/r-1?type=Resales');
    // The details link carries the id only (no CNPJ, contact or reason in the URL).
    expect(within(row).getByTestId('resale-details-link')).toHaveAttribute('href', '/Painel/Resales/details?id=r-1');
    await userEvent.click(within(screen.getByTestId('resale-row-r-2')).getAllByRole('cell')[0]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Resales\/details\?id=r-2$/));
  });

  it('filters by status and date, sorts -1/1, pages, and keeps it all under resale_preferences', async () => {
    storeSession({ roles: ['SUPPORT'] });
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/resale/all') ? json(200, { result: [resale(1)], total: 30 }) : json(200, {}),
    );
    const { unmount } = renderAt('/Painel/Resales', <AppRoutes />);
    await screen.findByTestId('resales-table');
    await userEvent.click(screen.getByLabelText('Reprovado'));
    await userEvent.click(screen.getByLabelText('Em Análise'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toContain('status=analysis%2Cdisapproved'));
    await userEvent.type(screen.getByLabelText('Data da solicitação'), '0503');
    expect(listCalls(calls).at(-1)?.url).not.toContain('date=');
    await userEvent.type(screen.getByLabelText('Data da solicitação'), '2026');
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toContain('date=05%2F03%2F2026'));
    await userEvent.click(screen.getByTestId('sort-createdAt'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toContain('createdAt=1'));
    await userEvent.selectOptions(screen.getByTestId('page-size'), 'Todas');
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toContain('amount=99999'));
    await userEvent.selectOptions(screen.getByTestId('page-size'), '25');
    await userEvent.click(await screen.findByTestId('page-2'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toBe(
      '/api/resale/all?amount=25&page=2&brand=yep&createdAt=1&status=analysis%2Cdisapproved&date=05%2F03%2F2026',
    ));
    expect(loadResalePreferences()).toMatchObject({ status: ['analysis', 'disapproved'], date: '05/03/2026', createdAt: 1, amount: 25 });

    unmount();
    renderAt('/Painel/Resales', <AppRoutes />);
    await screen.findAllByTestId('resales-table');
    expect(listCalls(calls).at(-1)?.url).toBe(
      '/api/resale/all?amount=25&page=1&brand=yep&createdAt=1&status=analysis%2Cdisapproved&date=05%2F03%2F2026',
    );
    expect(screen.getByLabelText('Em Análise')).toBeChecked();
    expect(screen.getByLabelText('Aprovado')).not.toBeChecked();
    expect(screen.getByLabelText('Data da solicitação')).toHaveValue('05/03/2026');
  });

  it("hides columns chosen off in 'Colunas', per user, and sorts from 'Ordenar por' as from the header", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = mockFetch((c) =>
      c.url.startsWith('/api/resale/all') ? json(200, { result: [resale(1)], total: 1 }) : json(200, {}),
    );
    renderAt('/Painel/Resales', <AppRoutes />);
    const table = await screen.findByTestId('resales-table');
    await userEvent.click(screen.getByRole('button', { name: 'Colunas' }));
    expect(await screen.findByRole('checkbox', { name: 'Revenda' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Telefone' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Contato' }));
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual([
      'Revenda',
      'CNPJ',
      'Solicitado em',
      'Status',
      'Ações',
    ]);
    expect(screen.getByTestId('resale-row-r-1')).not.toHaveTextContent('(31) 98765-4321');
    expect(loadResalePreferences('yep/u1').columns).toEqual(['resale', 'cnpj', 'date', 'status', 'actions']);
    expect(loadResalePreferences('yep/someone-else').columns).toHaveLength(7);

    await userEvent.click(screen.getByTestId('sort-direction'));
    await waitFor(() => expect(listCalls(calls).at(-1)?.url).toContain('createdAt=1'));
    expect(screen.getByTestId('sort-createdAt')).toHaveAccessibleName('Solicitado em: ordenar (agora: mais antigas primeiro)');
  });

  it("shows 'Sem conteúdo' for an empty page and the list error otherwise", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    let fail = false;
    mockFetch((c) =>
      c.url.startsWith('/api/resale/all') ? (fail ? json(500, {}) : json(200, { result: [], total: 0 })) : json(200, {}),
    );
    const { unmount } = renderAt('/Painel/Resales', <AppRoutes />);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('Sem conteúdo');
    unmount();
    fail = true;
    renderAt('/Painel/Resales', <AppRoutes />);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });

  it('ignores unreadable preferences', () => {
    localStorage.setItem('resale_preferences', '{"status":["x","approved"],"date":"<b>","createdAt":7,"amount":3}');
    expect(loadResalePreferences()).toMatchObject({ status: ['approved'], date: '', createdAt: -1, amount: 10 });
    expect(loadResalePreferences().columns).toEqual(['resale', 'cnpj', 'phone', 'contact', 'date', 'status', 'actions']);
    localStorage.setItem('resale_preferences', 'não é json');
    expect(loadResalePreferences().amount).toBe(10);
    saveResalePreferences({ status: [], date: '', createdAt: 1, amount: 99999, columns: ['resale', 'actions'] });
    expect(loadResalePreferences().amount).toBe(99999);
  });
});

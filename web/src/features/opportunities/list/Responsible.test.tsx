import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { OpportunityRow } from '../api/list';
import { json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

function row(id: string, representative: OpportunityRow['representative']): OpportunityRow {
  return {
    id, status: 'analysis', name: `Oportunidade ${id}`, cnpj: '33444522000106', fantasyName: 'Cliente', corporateName: 'Cliente Ltda',
    contact: 'Helena', email: 'c@x.com.br', state: 'BA', city: 'Salvador', probabilityClosing: 50, estimated: 100, register: '',
    seller: 'Vanessa Lima', resale: 'Revenda Modelo', approveDate: null, validUntil: null, createdAt: '2026-11-20T15:00:00.000Z', representative,
  };
}

function server() {
  return mockFetch((call: Call) => {
    if (call.url.startsWith('/api/geo/')) return json(200, []);
    if (call.url.startsWith('/api/opportunity/all')) {
      const mine = new URL(call.url, 'http://x').searchParams.get('mine') === 'true';
      const rows = [row('a1', [{ id: 'u2', name: 'Rodrigo Prates', email: 'representante2@x.demo' }])];
      if (!mine) rows.push(row('a2', []));
      return json(200, { result: rows, total: rows.length });
    }
    return json(404, { message: 'Recurso não encontrado.' });
  });
}

describe("'Responsável' and 'Minhas'", () => {
  it("shows the responsible representatives (or 'Todos') and filters a representative's own on the server", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />);
    const rows = await screen.findAllByTestId('opportunity-row');
    // 'Responsável' is one of the columns 'Colunas' adds (the defaults fit 1366 px).
    expect(within(rows[0]).queryByTestId('row-responsible')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Colunas' }));
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Responsável' }));
    // Each row by its name (the two were registered at the same instant: their order is not the point).
    const rowOf = (id: string) => screen.getAllByTestId('opportunity-row').find((r) => r.textContent?.includes(`Oportunidade ${id}`))!;
    expect(within(rowOf('a1')).getByTestId('row-responsible')).toHaveTextContent('Rodrigo Prates');
    expect(within(rowOf('a2')).getByTestId('row-responsible')).toHaveTextContent('Todos');

    const mine = screen.getByTestId('filter-mine');
    expect(mine).toHaveAttribute('aria-pressed', 'false');
    await userEvent.click(mine);
    await waitFor(() => expect(screen.getAllByTestId('opportunity-row')).toHaveLength(1));
    const last = calls.filter((c) => c.url.startsWith('/api/opportunity/all')).at(-1)!;
    expect(new URL(last.url, 'http://x').searchParams.get('mine')).toBe('true');
    expect(screen.getByTestId('filter-mine')).toHaveAttribute('aria-pressed', 'true');
  });

  it("offers 'Minhas' to representatives only", async () => {
    storeSession({ roles: ['SUPPORT'] });
    server();
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await screen.findAllByTestId('opportunity-row');
    expect(screen.queryByTestId('filter-mine')).not.toBeInTheDocument();
  });
});

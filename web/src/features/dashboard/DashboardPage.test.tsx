import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { DashboardData, SummaryRow } from './api/dashboard';
import recorded from './testdata/dashboard-status.json';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';

const now = new Date();
const current = now.getMonth() + 1;
const LABELS = ['Jan', 'Fev', 'Mar', 'Abr', 'Mai', 'Jun', 'Jul', 'Ago', 'Set', 'Out', 'Nov', 'Dez'];

/** A row as the server sends it (a whole list row and its product); the dashboard reads a few of its fields. */
function recent(i: number): SummaryRow & Record<string, unknown> {
  return {
    id: `r${i}`,
    status: i % 2 ? 'approved' : 'analysis',
    name: `Oportunidade ${i}`,
    cnpj: '33444522000106',
    fantasyName: 'Cliente',
    corporateName: `Empresa ${i} Ltda`,
    contact: `Contato ${i}`,
    email: 'c@x.com',
    state: 'SP',
    city: 'Campinas',
    probabilityClosing: 25,
    estimated: 100,
    register: '',
    seller: 'Vanessa',
    resale: 'Revenda',
    approveDate: null,
    validUntil: null,
    createdAt: now.toISOString(),
    product: i === 0 ? 'Coletor de dados CT-40' : '',
  };
}

const DATA: DashboardData = {
  months: Array.from({ length: current }, (_, i) => ({
    month: i + 1,
    label: LABELS[i],
    approved: i + 1 === current ? 4 : 1,
    disapproved: i + 1 === current ? 6 : 0,
  })),
  approved: { total: 12, thisMonth: 4 },
  disapproved: { total: 5, thisMonth: 2 },
  analysis: { total: 7, thisMonth: 3 },
  recent: Array.from({ length: 11 }, (_, i) => recent(i)),
};

function server(status = 200, body: unknown = { data: DATA }) {
  return mockFetch((call) => (call.url.startsWith('/api/dashboard/status') ? json(status, body) : json(200, {})));
}

describe('Dashboard', () => {
  it("reads the brand's figures and shows the totals with this month's '+N'", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Dashboard', <AppRoutes />);
    expect(await screen.findByTestId('total-approved-value')).toHaveTextContent('12');
    expect(calls.filter((c) => c.url.startsWith('/api/dashboard/')).map((c) => c.url)).toEqual([
      '/api/dashboard/status?brand=yep',
    ]);
    expect(screen.getByTestId('total-approved-month')).toHaveTextContent('+4');
    expect(screen.getByTestId('total-disapproved-value')).toHaveTextContent('5');
    expect(screen.getByTestId('total-disapproved-month')).toHaveTextContent('+2');
    expect(screen.getByTestId('total-analysis-value')).toHaveTextContent('7');
    expect(screen.getByTestId('total-analysis-month')).toHaveTextContent('+3');
  });

  it("charts each month from January to now, y up to the highest month × 1.5, with the month's counts", async () => {
    storeSession({ roles: ['SUPPORT'] });
    server();
    renderAt('/Painel/Dashboard', <AppRoutes />);
    const chart = await screen.findByTestId('monthly-chart');
    expect(chart).toHaveAttribute('data-y-max', '9');
    for (let month = 1; month <= current; month++) {
      expect(screen.getByTestId(`chart-month-${month}`)).toBeInTheDocument();
    }
    expect(screen.queryByTestId(`chart-month-${current + 1}`)).not.toBeInTheDocument();
    expect(screen.getByTestId(`chart-point-approved-${current}`)).toHaveAttribute('data-value', '4');
    expect(screen.getByTestId(`chart-point-disapproved-${current}`)).toHaveAttribute('data-value', '6');
    expect(within(chart).getByText('Jan')).toBeInTheDocument();

    const hit = screen.getByTestId(`chart-month-${current}`);
    expect(hit).toHaveAccessibleName(/4 aprovadas, 6 reprovadas$/);
    fireEvent.focus(hit);
    expect(await screen.findByTestId('chart-tooltip-approved')).toHaveTextContent('Aprovadas: 4');
    expect(screen.getByTestId('chart-tooltip-disapproved')).toHaveTextContent('Reprovadas: 6');
  });

  it("shows only the approvals on the tab 'Aprovados'", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server();
    renderAt('/Painel/Dashboard', <AppRoutes />);
    expect(await screen.findByTestId('monthly-chart')).toHaveAttribute('data-y-max', '9');
    await userEvent.click(screen.getByRole('tab', { name: 'Aprovados' }));
    expect(screen.queryByTestId(`chart-point-disapproved-${current}`)).not.toBeInTheDocument();
    expect(screen.getByTestId('monthly-chart')).toHaveAttribute('data-y-max', '6');
    await userEvent.click(screen.getByRole('tab', { name: 'Oportunidades' }));
    expect(screen.getByTestId(`chart-point-disapproved-${current}`)).toBeInTheDocument();
  });

  it("lists the last 11 in 'Resumo' and opens one from its actions", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(200, { data: { ...DATA, recent: [...DATA.recent, recent(11), recent(12)] } });
    renderAt('/Painel/Dashboard', <AppRoutes />);
    const rows = await screen.findAllByTestId('summary-row');
    expect(rows).toHaveLength(11);
    // The table scrolls sideways inside a named region the keyboard can reach.
    const region = screen.getByRole('region', { name: 'Tabela de resumo' });
    expect(region).toContainElement(screen.getByTestId('summary-table'));
    expect(region).toHaveAttribute('tabindex', '0');
    expect(within(screen.getByTestId('summary-table')).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Contato',
      'Razão social',
      'Produto',
      'Status',
      'Ações',
    ]);
    expect(rows[0]).toHaveTextContent('Contato 0');
    expect(rows[0]).toHaveTextContent('Empresa 0 Ltda');
    expect(rows[0]).toHaveTextContent('Coletor de dados CT-40');
    expect(rows[0]).toHaveTextContent('Em Análise');
    expect(rows[1]).toHaveTextContent('Aprovado');
    await userEvent.click(within(rows[2]).getByTestId('summary-details'));
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/r2');
  });

  it("shows each row's main product from the server's real answer (api/dashboard_test.go records it)", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(200, recorded);
    renderAt('/Painel/Dashboard', <AppRoutes />);
    const rows = await screen.findAllByTestId('summary-row');
    const product = (row: HTMLElement) => within(row).getAllByRole('cell')[2].textContent;
    const byId = new Map(rows.map((r) => [r.getAttribute('data-id'), product(r)]));
    const answer = recorded.data.recent as { id: string; product: string }[];
    expect(answer.map((r) => byId.get(r.id))).toEqual(answer.map((r) => r.product || 'N/C'));
    expect([...byId.values()]).toContain('Coletor de dados CT-40');
    expect([...byId.values()]).toContain('ZT-411');
  });

  it("links 'Visualizar lista' and the tools", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server();
    renderAt('/Painel/Dashboard', <AppRoutes />);
    await screen.findByTestId('monthly-chart');
    expect(screen.getByRole('link', { name: /Visualizar lista/ })).toHaveAttribute('href', '/Painel/Opportunities');
    expect(screen.getByText('Ferramentas Disponíveis')).toBeInTheDocument();
    expect(screen.getByTestId('tool-users')).toHaveAttribute('href', '/Painel/Users');
    expect(screen.getByTestId('tool-resales')).toHaveAttribute('href', '/Painel/Resales');
    expect(screen.getByTestId('tool-support')).toHaveAttribute('href', '/Contact');
    expect(screen.getByTestId('tool-account')).toHaveAttribute('href', '/Painel/Settings');
    await userEvent.click(screen.getByRole('link', { name: /Visualizar lista/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities');
  });

  it('shows the error modal when the figures cannot be read', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(500, {});
    renderAt('/Painel/Dashboard', <AppRoutes />);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
    await waitFor(() => expect(screen.getByTestId('dashboard-error')).toBeInTheDocument());
  });
});

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import type { Report } from './api/reports';
import recorded from './testdata/report.json';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';
import { lastDays, MSG_PERIOD_ORDER, MSG_PERIOD_TOO_LONG, readPeriod, longDay } from './model/period';

/** The answer recorded from the server (api/reports_test.go TestReportFiguresAreTheHandComputedOnes). */
const REPORT = (recorded as { data: Report }).data;

function server(status = 200, body: unknown = { data: REPORT }) {
  return mockFetch((call) => (call.url.startsWith('/api/reports') ? json(status, body) : json(200, {})));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('Relatórios', () => {
  it('asks for the last 90 days and shows the headline figures', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Reports', <AppRoutes />);
    expect(await screen.findByTestId('figure-decisions-value')).toHaveTextContent('5');
    const p = lastDays(90);
    expect(calls.filter((c) => c.url.startsWith('/api/reports')).map((c) => c.url)).toEqual([
      `/api/reports?from=${p.from}&to=${p.to}`,
    ]);
    expect(screen.getByTestId('figure-p50-value')).toHaveTextContent('36,5 h');
    expect(screen.getByTestId('figure-p50')).toHaveTextContent('p90: 76,8 h');
    expect(screen.getByTestId('figure-sla-value')).toHaveTextContent('40%');
    expect(screen.getByTestId('figure-sla')).toHaveTextContent('Decididas em até 24 h (SLA)');
    expect(screen.getByTestId('figure-pipeline-value')).toHaveTextContent('R$ 4.000,00');
    expect(screen.getByTestId('report-from')).toHaveValue(longDay(p.from));
  });

  it('draws each chart with a text alternative and its table', async () => {
    storeSession({ roles: ['SUPPORT'] });
    server();
    renderAt('/Painel/Reports', <AppRoutes />);
    const months = await screen.findByTestId('chart-months');
    expect(within(months).getByRole('img')).toHaveAccessibleName(/Nov\/2026: 5 decisões, mediana 36,5 h, p90 76,8 h/);
    const resales = screen.getByTestId('chart-resales');
    expect(within(resales).getAllByTestId('chart-resales-bar').map((b) => b.getAttribute('data-value'))).toEqual(['1', '0.5']);
    expect(within(resales).getByRole('img')).toHaveAccessibleName(/Revenda Dois: 100% aprovadas \(2 de 2 decididas\)/);
    const states = screen.getByTestId('chart-states');
    expect(within(states).getByRole('img')).toHaveAccessibleName(/MG: R\$ 2\.300,00 em 2 oportunidades abertas/);

    const resaleRows = within(screen.getByTestId('table-resales')).getAllByRole('row');
    expect(resaleRows[1]).toHaveTextContent('Revenda Dois');
    expect(resaleRows[1]).toHaveTextContent('22.333.444/0001-81');
    expect(resaleRows[1]).toHaveTextContent('R$ 3.000,00');
    expect(within(screen.getByTestId('table-representatives')).getAllByRole('row')[2]).toHaveTextContent('Renata Almeida336,5 h66,7%');
    expect(within(screen.getByTestId('table-products')).getAllByRole('row')[1]).toHaveTextContent('Produto ZT-411');
    const expiring = within(screen.getByTestId('table-expiring')).getAllByRole('row');
    expect(expiring).toHaveLength(3);
    expect(expiring[1]).toHaveTextContent('em 10 dias');
    expect(expiring[1]).toHaveTextContent('Renovação');
  });

  it('refuses a period the server would refuse, before asking', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Reports', <AppRoutes />);
    await screen.findByTestId('figure-decisions-value');
    const user = userEvent.setup();
    await user.clear(screen.getByTestId('report-from'));
    await user.type(screen.getByTestId('report-from'), '301126');
    await user.clear(screen.getByTestId('report-to'));
    await user.type(screen.getByTestId('report-to'), '011126');
    await user.click(screen.getByTestId('report-apply'));
    expect(await screen.findByTestId('report-period-error')).toHaveTextContent(MSG_PERIOD_ORDER);
    expect(screen.getByTestId('report-preset')).toHaveValue('custom');
    expect(calls.filter((c) => c.url.startsWith('/api/reports'))).toHaveLength(1);

    await user.clear(screen.getByTestId('report-to'));
    await user.type(screen.getByTestId('report-to'), '301126');
    await user.click(screen.getByTestId('report-apply'));
    await waitFor(() =>
      expect(calls.map((c) => c.url)).toContain('/api/reports?from=2026-11-30&to=2026-11-30'),
    );
    expect(screen.queryByTestId('report-period-error')).toBeNull();
  });

  it('reads the presets', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Reports', <AppRoutes />);
    await screen.findByTestId('figure-decisions-value');
    fireEvent.change(screen.getByTestId('report-preset'), { target: { value: '30' } });
    const p = lastDays(30);
    await waitFor(() => expect(calls.map((c) => c.url)).toContain(`/api/reports?from=${p.from}&to=${p.to}`));
    expect(screen.getByTestId('report-period-text')).toHaveTextContent(`De ${p.from.split('-').reverse().join('/')}`);
  });

  it("shows the server's message", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(400, { message: 'O período pode ter no máximo 366 dias.' });
    renderAt('/Painel/Reports', <AppRoutes />);
    expect(await screen.findByText('O período pode ter no máximo 366 dias.')).toBeInTheDocument();
  });

  it('exports the workbook of the period', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = mockFetch((call) =>
      call.url.startsWith('/api/reports/export')
        ? new Response('PK', {
            status: 200,
            headers: { 'Content-Disposition': 'attachment; filename="Relatorios-2026-09-01-a-2026-11-30.xlsx"' },
          })
        : call.url.startsWith('/api/reports')
          ? json(200, { data: REPORT })
          : json(200, {}),
    );
    const createObjectURL = vi.fn(() => 'blob:relatorios');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderAt('/Painel/Reports', <AppRoutes />);
    await screen.findByTestId('figure-decisions-value');
    fireEvent.click(screen.getByTestId('report-export'));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalledTimes(1));
    const p = lastDays(90);
    const exp = calls.find((c) => c.url.startsWith('/api/reports/export'));
    expect(exp?.url).toBe(`/api/reports/export?from=${p.from}&to=${p.to}`);
    expect(exp?.headers.company).toBe('yep');
    expect(click).toHaveBeenCalled();
  });

  it('is in the menu of the representative and support only', async () => {
    storeSession({ roles: ['SELLER'] });
    server();
    renderAt('/Painel/Opportunities', <AppRoutes />);
    await screen.findByTestId('menu-Opportunities');
    expect(screen.queryByTestId('menu-Reports')).toBeNull();
  });
});

describe('readPeriod', () => {
  it('takes dd/mm/aaaa days (dd/mm/aa too) and the server’s limits', () => {
    expect(readPeriod('01/11/2026', '30/11/2026')).toEqual({ period: { from: '2026-11-01', to: '2026-11-30' } });
    expect(readPeriod('01/11/26', '30/11/26')).toEqual({ period: { from: '2026-11-01', to: '2026-11-30' } });
    expect(readPeriod('30/11/25', '30/11/26')).toEqual({ period: { from: '2025-11-30', to: '2026-11-30' } });
    expect(readPeriod('29/11/25', '30/11/26')).toEqual({ error: MSG_PERIOD_TOO_LONG });
    expect(readPeriod('31/02/26', '30/11/26')).toHaveProperty('error');
    expect(readPeriod('', '30/11/26')).toHaveProperty('error');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { CoverageData, CoverageHistoryRow } from './api/coverage';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';

const ALL = ['AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO'];

function data(): CoverageData {
  return {
    representatives: [
      { id: 'u1', name: 'Renata Almeida', email: 'representante@nordata.demo', states: ['ES', 'MG', 'PR', 'RJ', 'RS', 'SC', 'SP'], resales: [] },
      { id: 'u2', name: 'Mariana Torres', email: 'multi@nordata.demo', states: [], resales: [] },
    ],
    states: ALL,
    resales: [{ id: 'r1', name: 'Revenda Modelo Ltda', cnpj: '11222300000181' }],
  };
}

const HISTORY: CoverageHistoryRow[] = [
  { id: 1, representativeId: 'u1', userId: 's', username: 'Sérgio Costa', date: '2026-11-20T15:00:00Z',
    modifications: [{ attribute: 'coverageStates', oldValue: 'SP', newValue: 'ES,MG,PR,RJ,RS,SC,SP' }] },
];

function server(put: (body: unknown) => Response = () => json(200, { message: 'Cobertura atualizada com sucesso', data: data().representatives[1] })) {
  const puts: { url: string; body: unknown }[] = [];
  const fetch = mockFetch((call) => {
    if (call.url.startsWith('/api/coverage/history')) return json(200, { result: HISTORY });
    if (call.method === 'PUT') {
      const body = call.body;
      puts.push({ url: call.url, body });
      return put(body);
    }
    if (call.url.startsWith('/api/coverage')) return json(200, data());
    return json(200, {});
  });
  return { fetch, puts };
}

describe('Cobertura', () => {
  it("lists the brand's representatives with their UFs, the UFs nobody covers and the history", async () => {
    storeSession({ roles: ['SUPPORT'] });
    server();
    renderAt('/Painel/Coverage', <AppRoutes />);
    expect(await screen.findByRole('heading', { name: 'Renata Almeida' })).toBeInTheDocument();
    const cards = screen.getAllByTestId('coverage-card');
    expect(within(cards[0]).getByTestId('coverage-states')).toHaveTextContent('ES, MG, PR, RJ, RS, SC, SP');
    expect(within(cards[1]).getByTestId('coverage-states')).toHaveTextContent('Nenhuma UF');
    expect(screen.getByTestId('coverage-uncovered')).toHaveTextContent('AC, AL, AP');
    const history = await screen.findByTestId('coverage-history');
    expect(history).toHaveTextContent('Sérgio Costa');
    expect(history).toHaveTextContent('UFs: SP → ES, MG, PR, RJ, RS, SC, SP');
  });

  it('edits a coverage with the UF checkboxes and a reseller account, and sends it', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const { puts } = server();
    renderAt('/Painel/Coverage', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Editar cobertura de Mariana Torres' }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByTestId('coverage-save');
    expect(save).toBeDisabled(); // nothing changed yet
    await userEvent.click(within(dialog).getByLabelText('Nordeste'));
    await userEvent.click(within(dialog).getByLabelText('BA')); // off again
    await userEvent.selectOptions(within(dialog).getByLabelText('Revendas atendidas'), 'r1');
    expect(within(dialog).getByTestId('coverage-accounts')).toHaveTextContent('Revenda Modelo Ltda (11.222.300/0001-81)');
    await userEvent.click(save);
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].url).toBe('/api/coverage/u2');
    expect(puts[0].body).toEqual({ states: ['AL', 'CE', 'MA', 'PB', 'PE', 'PI', 'RN', 'SE'], resaleIds: ['r1'] });
    expect(await screen.findByText('Cobertura atualizada com sucesso')).toBeInTheDocument();
  });

  it("shows the server's pt-BR refusal", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(() => json(400, { message: 'O usuário informado não é representante desta marca.' }));
    renderAt('/Painel/Coverage', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Editar cobertura de Mariana Torres' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByLabelText('SP'));
    await userEvent.click(within(dialog).getByTestId('coverage-save'));
    expect(await screen.findByText('O usuário informado não é representante desta marca.')).toBeInTheDocument();
  });

  it('is not open to a seller or a reseller', async () => {
    storeSession({ roles: ['SELLER'] });
    server();
    renderAt('/Painel/Coverage', <AppRoutes />);
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Renata Almeida' })).not.toBeInTheDocument());
    expect(screen.queryByTestId('menu-Coverage')).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { HistoryEntry, HistoryModification } from './api/history';
import { json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

const ID = '6f1d1c3e-0000-4000-8000-000000000001';

/** An entry of the opportunity ID's history: by whom, what, when, and its changes. */
function entry(id: number, userId: string, username: string, actionType: string, date: string, modifications: HistoryModification[]): HistoryEntry {
  return { id, typeId: ID, type: 'opportunity', userId, username, actionType, modifications, date };
}

const ENTRIES = [
  entry(2, 'rep', 'Renata Almeida', 'update', '2026-11-20T14:30:00Z', [
    { attribute: 'status', oldValue: 'analysis', newValue: 'approved' },
    { attribute: 'probabilityClosing', oldValue: '25', newValue: '75' },
  ]),
  entry(1, 'seller', 'Vanessa Lima', 'create', '2026-11-19T10:00:00Z', [
    { attribute: 'name', oldValue: '', newValue: 'Oportunidade Hospital' },
    { attribute: 'estimated', oldValue: '', newValue: '58680.00' },
  ]),
];

const HISTORY = '/api/history/getByTypeId';

/** Answers the history calls; returns them (the panel's own calls are left out). */
function server(answer: (call: Call) => Response = () => json(200, { result: ENTRIES, total: 2 })) {
  const calls = mockFetch((call) => (call.url.startsWith(HISTORY) ? answer(call) : json(200, {})));
  return {
    get length() {
      return calls.filter((c) => c.url.startsWith(HISTORY)).length;
    },
    at: (i: number) => calls.filter((c) => c.url.startsWith(HISTORY)).at(i)!,
  };
}

const query = (call: Call) => Object.fromEntries(new URL(call.url, 'http://x').searchParams);

describe('History', () => {
  it.each([
    ['Opportunities', `/api/opportunity/id/${ID}`, { data: [{ id: ID, name: 'Projeto Armazém Central' }] }, 'Oportunidade: Projeto Armazém Central'],
    ['Resales', `/api/resale/${ID}`, { data: { id: ID, corporateName: 'Alfa Coletores Ltda' } }, 'Revenda: Alfa Coletores Ltda'],
    ['Users', `/authenticator/user/${ID}`, { data: { id: ID, name: 'Vanessa Lima' } }, 'Usuário: Vanessa Lima'],
  ])("titles a %s history by the record's name, not its id", async (type, url, body, title) => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    mockFetch((call) =>
      call.url.startsWith(HISTORY) ? json(200, { result: ENTRIES, total: 2 }) : call.url === url ? json(200, body) : json(200, {}),
    );
    renderAt(`/Painel/History/${ID}?type=${type}`, <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('history-subject')).toHaveTextContent(title));
    expect(screen.getByTestId('history-subject')).not.toHaveTextContent(ID);
  });

  it('shows each change with Portuguese labels and the user name to a representative', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt(`/Painel/History/${ID}?type=Opportunities`, <AppRoutes />);
    const table = await screen.findByTestId('history-table');
    expect(query(calls.at(0))).toEqual({ typeId: ID, amount: '10', page: '1' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Ação',
      'Usuário',
      'Campo alterado',
      'Valor anterior',
      'Novo valor',
      'Data da modificação',
    ]);
    const rows = within(table).getAllByTestId('history-row');
    expect(rows).toHaveLength(4);
    const text = (el: HTMLElement, id: string) => within(el).queryByTestId(id)?.textContent;
    expect(text(rows[0], 'history-action')).toBe('Atualização');
    expect(text(rows[0], 'history-user')).toBe('Renata Almeida');
    expect([text(rows[0], 'history-attribute'), text(rows[0], 'history-old'), text(rows[0], 'history-new')]).toEqual([
      'Status',
      'Em Análise',
      'Aprovado',
    ]);
    expect([text(rows[1], 'history-attribute'), text(rows[1], 'history-old'), text(rows[1], 'history-new')]).toEqual([
      'Probabilidade de fechamento',
      '0% - 49%',
      '71% - 99%',
    ]);
    expect(text(rows[2], 'history-action')).toBe('Criação');
    expect([text(rows[2], 'history-attribute'), text(rows[2], 'history-old'), text(rows[2], 'history-new')]).toEqual([
      'Nome da oportunidade',
      '—',
      'Oportunidade Hospital',
    ]);
    expect(text(rows[3], 'history-new')).toBe('R$ 58.680,00');
    expect(text(rows[0], 'history-date')).toMatch(/^20\/11\/2026 \d{2}:30$/);
  });

  it.each([['SELLER'], ['RESALE'], ['SUPPORT']])('hides the user column from %s', async (role) => {
    storeSession({ roles: [role] });
    server(() => json(200, { result: ENTRIES.map((e) => ({ ...e, username: '' })), total: 2 }));
    renderAt(`/Painel/History/${ID}?type=Opportunities`, <AppRoutes />);
    const table = await screen.findByTestId('history-table');
    expect(within(table).queryByRole('columnheader', { name: 'Usuário' })).not.toBeInTheDocument();
    expect(within(table).queryAllByTestId('history-user')).toHaveLength(0);
  });

  it("shows 'Sem Histórico' when there is nothing (also on a 404)", async () => {
    storeSession({ roles: ['SELLER'] });
    server(() => json(404, { message: 'Sem Histórico' }));
    renderAt(`/Painel/History/${ID}?type=Opportunities`, <AppRoutes />);
    expect(await screen.findByTestId('history-empty')).toHaveTextContent('Sem Histórico');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('pages from 1 and changes the rows per page', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server(() => json(200, { result: ENTRIES, total: 23 }));
    renderAt(`/Painel/History/${ID}?type=Opportunities`, <AppRoutes />);
    await screen.findByTestId('history-table');
    expect(screen.getAllByTestId(/^page-\d+$/).map((b) => b.textContent)).toEqual(['1', '2', '3']);
    await userEvent.click(screen.getByRole('button', { name: 'Próxima página' }));
    await waitFor(() => expect(query(calls.at(-1))).toMatchObject({ page: '2', amount: '10' }));
    const size = screen.getByRole('combobox', { name: 'linhas/página' });
    expect(Array.from((size as HTMLSelectElement).options).map((o) => o.text)).toEqual(['10', '25', '50', '75', '100', '1000']);
    await userEvent.selectOptions(size, '25');
    await waitFor(() => expect(query(calls.at(-1))).toMatchObject({ page: '1', amount: '25' }));
  });

  it.each([
    ['Opportunities', '/Painel/Opportunities'],
    ['Users', '/Painel/Users'],
    ['Resales', '/Painel/Resales'],
  ])("'Voltar' goes back to the route named by type=%s", async (type, back) => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server();
    renderAt(`/Painel/History/${ID}?type=${type}`, <AppRoutes />);
    await screen.findByTestId('history-table');
    await userEvent.click(screen.getByTestId('history-back'));
    expect(screen.getByTestId('location')).toHaveTextContent(back);
  });

  it('shows the error modal when the history fails', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(() => json(500, {}));
    renderAt(`/Painel/History/${ID}?type=Opportunities`, <AppRoutes />);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import type { OpportunityRow } from '../api/list';
import { json, mockFetch, renderAt, storeSession, TEST_BRAND, type Call } from '@/test/helpers';

const BRAND = { ...TEST_BRAND, distributor: 'Distribuidora Horizonte' };
const DAY = 24 * 60 * 60 * 1000;

const NOW = Date.now();

function row(over: Partial<OpportunityRow>): OpportunityRow {
  return {
    id: 'id-1',
    status: 'analysis',
    name: 'Oportunidade Hospital',
    cnpj: '33444522000106',
    fantasyName: 'Santa Clara',
    corporateName: 'Hospital Santa Clara',
    contact: 'Helena',
    email: 'compras@x.com.br',
    state: 'MG',
    city: 'Belo Horizonte',
    probabilityClosing: 50,
    estimated: 1234.5,
    register: '',
    seller: 'Vanessa Lima',
    resale: 'Revenda Modelo',
    approveDate: null,
    validUntil: null,
    createdAt: new Date(NOW - 25 * DAY).toISOString(),
    ...over,
  };
}

const ROWS = [
  row({ id: 'a1' }),
  row({
    id: 'a2',
    status: 'approved',
    name: 'Oportunidade Rota Sul',
    approveDate: '2026-03-04T15:00:00Z',
    createdAt: new Date(NOW - 26 * DAY).toISOString(),
    probabilityClosing: 75,
    register: 'CRM-0002',
  }),
  row({
    id: 'a3',
    status: 'disapproved',
    name: 'Oportunidade Boa Compra',
    probabilityClosing: 0,
    createdAt: new Date(NOW - 27 * DAY).toISOString(),
  }),
];

const STATES = [
  { id: 35, sigla: 'SP', nome: 'São Paulo' },
  { id: 31, sigla: 'MG', nome: 'Minas Gerais' },
];
const CITIES = [
  { id: 3106200, nome: 'Belo Horizonte' },
  { id: 3132404, nome: 'Itajubá' },
];

/** A server: geography plus the list, answering `page` for every list call. */
function server(page: (call: Call) => Response = () => json(200, { result: ROWS, total: ROWS.length })) {
  return mockFetch((call) => {
    if (call.url === '/api/geo/states') return json(200, STATES);
    if (call.url.startsWith('/api/geo/states/MG/cities')) return json(200, CITIES);
    if (call.url.startsWith('/api/opportunity/')) return page(call);
    return json(404, { message: 'Recurso não encontrado.' });
  });
}

const listCalls = (calls: Call[]) => calls.filter((c) => /^\/api\/opportunity\/(all|user|resale)/.test(c.url));
const lastQuery = (calls: Call[]) => {
  const all = listCalls(calls);
  return Object.fromEntries(new URL(all[all.length - 1].url, 'http://x').searchParams);
};

afterEach(() => vi.useRealTimers());

// Typing-heavy tests run long on a busy shared machine (the other screens' suites allow 30 s too).
describe('Opportunities list', { timeout: 30_000 }, () => {
  it("reads the list of all for a representative, who sees the company and the seller, and chooses the other columns in 'Colunas'", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    const rows = await screen.findAllByTestId('opportunity-row');
    expect(rows).toHaveLength(3);
    expect(listCalls(calls)[0].url.split('?')[0]).toBe('/api/opportunity/all');
    expect(lastQuery(calls)).toEqual({ brandName: 'yep', amount: '10', page: '1', createdAt: 'desc' });

    const [analysis, approved, disapproved] = rows;
    expect(within(analysis).getByTestId('row-status')).toHaveTextContent('Em Análise');
    expect(within(analysis).getByTestId('validity-cue')).toHaveTextContent('expira em 65 dias');
    expect(within(analysis).getByTestId('age-bar')).toHaveTextContent('25 dias atrás');
    expect(within(analysis).getByTestId('row-estimated')).toHaveTextContent('R$ 1.234,50');
    expect(within(analysis).getByTestId('row-resale')).toHaveTextContent('Revenda Modelo');
    expect(within(analysis).getByTestId('row-seller')).toHaveTextContent('Vanessa Lima');
    expect(within(analysis).queryByTestId('row-approval')).not.toBeInTheDocument();
    expect(within(analysis).queryByTestId('row-cnpj')).not.toBeInTheDocument();
    expect(within(disapproved).queryByTestId('validity-cue')).not.toBeInTheDocument();

    // The other columns are one click away, and stay chosen (per user: opportunity_preferences).
    await userEvent.click(screen.getByRole('button', { name: 'Colunas' }));
    for (const label of ['CNPJ', 'Probabilidade', 'Aprovação', 'Registro', 'Distribuidor']) {
      await userEvent.click(await screen.findByRole('checkbox', { name: label }));
    }
    expect(within(analysis).getByTestId('row-approval')).toHaveTextContent('Sem Data');
    expect(within(analysis).getByTestId('row-cnpj')).toHaveTextContent('33.444.522/0001-06');
    expect(within(analysis).getByTestId('row-distributor')).toHaveTextContent('Distribuidora Horizonte');
    expect(within(analysis).getByTestId('probability-bar')).toHaveTextContent('50% - 70%');

    expect(within(approved).getByTestId('row-status')).toHaveTextContent('Aprovado');
    expect(within(approved).queryByTestId('age-bar')).not.toBeInTheDocument();
    expect(within(approved).getByTestId('row-approval')).toHaveTextContent('04/03/2026');
    expect(within(approved).getByTestId('row-register')).toHaveTextContent('CRM-0002');

    expect(within(disapproved).getByTestId('row-status')).toHaveTextContent('Reprovado');
    expect(within(disapproved).getByTestId('row-approval')).toHaveTextContent('Sem Data');
    expect(within(disapproved).getByTestId('probability-bar')).toHaveTextContent('N/C');
    const stored = JSON.parse(localStorage.getItem('opportunity_preferences') ?? '{}');
    expect(stored.users['yep/u1'].columns).toEqual(expect.arrayContaining(['cnpj', 'approval', 'distributor', 'resale']));

    // The columns widen the table's least width: beyond the card it scrolls sideways.
    const table = screen.getByTestId('opportunity-table');
    expect(Number.parseInt(table.style.minWidth, 10)).toBeGreaterThan(1500);

    expect(screen.getByTestId('list-total')).toHaveTextContent('3 oportunidades');
    expect(screen.queryByTestId('add-opportunity')).not.toBeInTheDocument();

    // The sideways-scrolling table is a named region the keyboard can reach (390 px screens).
    const region = screen.getByRole('region', { name: 'Tabela de oportunidades' });
    expect(region).toContainElement(screen.getByTestId('opportunity-table'));
    expect(region).toHaveAttribute('tabindex', '0');
  });

  it.each([
    [['SELLER'], '/api/opportunity/user'],
    [['RESALE'], '/api/opportunity/resale'],
  ])("%s reads %s and sees 'Adicionar Oportunidade'", async (roles, path) => {
    storeSession({ roles });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    expect(listCalls(calls)[0].url.split('?')[0]).toBe(path);
    // A link styled as a button (Enter follows it; it claims no button role that Space would not honour).
    const add = screen.getByRole('link', { name: 'Adicionar Oportunidade' });
    expect(add).not.toHaveAttribute('role');
    expect(screen.queryByRole('button', { name: 'Adicionar Oportunidade' })).not.toBeInTheDocument();
    await userEvent.click(add);
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/registration');
  });

  it('support reads the list of all and cannot add', async () => {
    storeSession({ roles: ['SUPPORT'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    expect(listCalls(calls)[0].url.split('?')[0]).toBe('/api/opportunity/all');
    expect(screen.queryByText('Adicionar Oportunidade')).not.toBeInTheDocument();
  });

  it('waits 500 ms after the last keystroke before filtering by text', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    const before = listCalls(calls).length;

    await user.type(screen.getByLabelText('Nome da oportunidade'), 'Hosp');
    await act(async () => {
      vi.advanceTimersByTime(450);
    });
    expect(listCalls(calls)).toHaveLength(before);
    await act(async () => {
      vi.advanceTimersByTime(60);
    });
    await waitFor(() => expect(listCalls(calls)).toHaveLength(before + 1));
    expect(lastQuery(calls)).toMatchObject({ name: 'Hosp', page: '1' });
  });

  it('masks the CNPJ filter and sends its digits; filters by status at once', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');

    await userEvent.click(screen.getByRole('button', { name: 'Aprovados' }));
    await userEvent.click(screen.getByRole('button', { name: 'Análise' }));
    await waitFor(() => expect(lastQuery(calls).status).toBe('approved,analysis'));
    expect(screen.getByRole('button', { name: 'Aprovados' })).toHaveAttribute('aria-pressed', 'true');

    const cnpj = screen.getByLabelText('CNPJ');
    await userEvent.type(cnpj, '33444522000106');
    expect(cnpj).toHaveValue('33.444.522/0001-06');
    await waitFor(() => expect(lastQuery(calls).cnpj).toBe('33444522000106'));

    await userEvent.click(screen.getByRole('button', { name: 'Todos' }));
    await waitFor(() => expect(lastQuery(calls).status).toBeUndefined());
  });

  it('takes an alphanumeric CNPJ in the filter, upper-cased as typed, and sends it without punctuation', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    const cnpj = screen.getByLabelText('CNPJ');
    await userEvent.type(cnpj, '12abc34501de35');
    expect(cnpj).toHaveValue('12.ABC.345/01DE-35');
    await waitFor(() => expect(lastQuery(calls).cnpj).toBe('12ABC34501DE35'));
  });

  it('fills the state select from the geography service, then its cities', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    const state = screen.getByLabelText('Estado');
    await waitFor(() => expect(within(state).getByRole('option', { name: 'Minas Gerais (MG)' })).toBeInTheDocument());
    const city = screen.getByLabelText('Cidade');
    expect(city).toBeDisabled();

    await userEvent.selectOptions(state, 'MG');
    await waitFor(() => expect(within(city).getByRole('option', { name: 'Itajubá' })).toBeInTheDocument());
    expect(lastQuery(calls).state).toBe('MG');
    await userEvent.selectOptions(city, 'Itajubá');
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ state: 'MG', city: 'Itajubá' }));
  });

  it('notes under the selects when the geography service fails', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    mockFetch((call) => {
      if (call.url === '/api/geo/states') return json(503, { message: 'indisponível' });
      if (call.url.startsWith('/api/opportunity/')) return json(200, { result: ROWS, total: ROWS.length });
      return json(404, { message: 'Recurso não encontrado.' });
    });
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    const state = screen.getByLabelText('Estado');
    await waitFor(() => expect(state).toHaveAccessibleDescription('Houve um erro. Tente novamente mais tarde!'));
    expect(screen.getByLabelText('Cidade')).not.toHaveAccessibleDescription();
  });

  it('notes under the city select when the cities of a state cannot be read', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    mockFetch((call) => {
      if (call.url === '/api/geo/states') return json(200, STATES);
      if (call.url.startsWith('/api/geo/states/MG/cities')) return json(500, {});
      if (call.url.startsWith('/api/opportunity/')) return json(200, { result: ROWS, total: ROWS.length });
      return json(404, { message: 'Recurso não encontrado.' });
    });
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    const state = screen.getByLabelText('Estado');
    await waitFor(() => expect(within(state).getByRole('option', { name: 'Minas Gerais (MG)' })).toBeInTheDocument());
    expect(state).not.toHaveAccessibleDescription();
    await userEvent.selectOptions(state, 'MG');
    await waitFor(() =>
      expect(screen.getByLabelText('Cidade')).toHaveAccessibleDescription('Houve um erro. Tente novamente mais tarde!'),
    );
  });

  it('keeps filters, sort and page size across a remount (opportunity_preferences)', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    const first = renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    await userEvent.click(screen.getByRole('button', { name: 'Reprovados' }));
    await userEvent.type(screen.getByLabelText('E-mail'), 'compras');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'linhas/página' }), 'Todas');
    await userEvent.click(screen.getByRole('button', { name: 'Ordenar por valor estimado' }));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ email: 'compras', amount: '99999', estimated: 'desc' }));
    first.unmount();

    calls.length = 0;
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    expect(lastQuery(calls)).toMatchObject({
      status: 'disapproved',
      email: 'compras',
      amount: '99999',
      estimated: 'desc',
      page: '1',
    });
    expect(screen.getByLabelText('E-mail')).toHaveValue('compras');
    expect(screen.getByRole('combobox', { name: 'linhas/página' })).toHaveValue('99999');
    expect(screen.getByRole('button', { name: 'Reprovados' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'Limpar filtros' }));
    await waitFor(() => expect(lastQuery(calls).status).toBeUndefined());
    expect(lastQuery(calls).email).toBeUndefined();
    expect(JSON.parse(localStorage.getItem('opportunity_preferences') ?? '{}').users['yep/u1'].filters.email).toBe('');
  });

  it('sorts on the estimated value and the creation date, toggling the direction', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    await userEvent.click(screen.getByRole('button', { name: 'Ordenar por valor estimado' }));
    await waitFor(() => expect(lastQuery(calls).estimated).toBe('desc'));
    await userEvent.click(screen.getByRole('button', { name: 'Ordenar por valor estimado' }));
    await waitFor(() => expect(lastQuery(calls).estimated).toBe('asc'));
    expect(lastQuery(calls).createdAt).toBeUndefined();
    // 'Ordenar por' does what the headers do, also for a column not shown (Cadastro, for staff).
    expect(screen.queryByRole('button', { name: 'Ordenar por cadastro' })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Ordenar por' }), 'Cadastro');
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ createdAt: 'asc' }));
    await userEvent.click(screen.getByTestId('sort-direction'));
    await waitFor(() => expect(lastQuery(calls)).toMatchObject({ createdAt: 'desc' }));
    expect(screen.getByRole('combobox', { name: 'Ordenar por' })).toHaveValue('createdAt');
  });

  it('pages through the total with the paginator', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = server(() => json(200, { result: ROWS, total: 95 }));
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    expect(screen.getAllByTestId(/^page-\d+$/).map((b) => b.textContent)).toEqual(['1', '2', '3', '4']);
    await userEvent.click(screen.getByTestId('page-3'));
    await waitFor(() => expect(lastQuery(calls).page).toBe('3'));
    await userEvent.click(screen.getByRole('button', { name: 'Avançar 4 páginas' }));
    await waitFor(() => expect(lastQuery(calls).page).toBe('7'));
    expect(screen.getAllByTestId(/^page-\d+$/).map((b) => b.textContent)).toEqual(['5', '6', '7', '8']);
  });

  it('opens the details on a row click', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    const rows = await screen.findAllByTestId('opportunity-row');
    await userEvent.click(within(rows[1]).getByTestId('row-name'));
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities/a2');
  });

  it('links each row to its history', async () => {
    storeSession({ roles: ['SELLER'] });
    server();
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    const rows = await screen.findAllByTestId('opportunity-row');
    await userEvent.click(within(rows[0]).getByRole('link', { name: /Histórico/ }));
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/History/a1?type=Opportunities');
  });

  it("shows 'Sem conteúdo' when nothing matches", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(() => json(200, { result: [], total: 0 }));
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    expect(await screen.findByTestId('list-empty')).toHaveTextContent('Sem conteúdo');
  });

  it('shows the error modal when the list fails, with the server message for a 4xx', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(() => json(500, { message: 'boom' }));
    const first = renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
    first.unmount();

    server(() => json(400, { message: 'Data inválida: use dd/mm/aaaa.' }));
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Data inválida: use dd/mm/aaaa.');
  });

  it('goes to / when the session cannot be renewed after a 401', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], refreshToken: null });
    server(() => json(401, { message: 'Não autorizado' }));
    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('downloads the export with the applied filters, and shows an error when it fails', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    let exportStatus = 200;
    const calls = mockFetch((call) => {
      if (call.url.startsWith('/api/opportunity/export')) {
        return exportStatus === 200
          ? new Response('PK', { status: 200, headers: { 'Content-Disposition': 'attachment; filename="Oportunidades.xlsx"' } })
          : json(exportStatus, { message: 'boom' });
      }
      if (call.url.startsWith('/api/opportunity/')) return json(200, { result: ROWS, total: 3 });
      return json(200, []);
    });
    const createObjectURL = vi.fn(() => 'blob:oportunidades');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    renderAt('/Painel/Opportunities', <AppRoutes />, BRAND);
    await screen.findAllByTestId('opportunity-row');
    await userEvent.click(screen.getByRole('button', { name: 'Expirados' }));
    await userEvent.click(screen.getByRole('button', { name: 'Exportar Excel' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const exportCall = calls.find((c) => c.url.startsWith('/api/opportunity/export'))!;
    expect(Object.fromEntries(new URL(exportCall.url, 'http://x').searchParams)).toMatchObject({
      status: 'expired',
      createdAt: 'desc',
    });
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('Oportunidades.xlsx');
    expect(createObjectURL).toHaveBeenCalledTimes(1);

    exportStatus = 500;
    await userEvent.click(screen.getByRole('button', { name: 'Exportar Excel' }));
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });
});

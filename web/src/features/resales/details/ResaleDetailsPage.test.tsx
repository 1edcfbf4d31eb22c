import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../App';
import { json, mockFetch, renderAt, storeSession, type Call } from '../../../test/helpers';

vi.setConfig({ testTimeout: 30_000 });

const QUERY = {
  id: 'r-1',
  status: 'analysis',
  docNum: '11222333000181',
  corporateName: 'Alfa Comércio Ltda',
  fantasyName: '',
  name: 'Ana Souza',
  email: 'ana@alfa.com.br',
  phone: '31987654321',
  cep: '30140071',
  city: 'Belo Horizonte',
  state: 'MG',
  street: 'Rua das Flores, 100',
  reason: '',
};

function path(over: Partial<typeof QUERY> = {}) {
  return `/Painel/Resales/details?${new URLSearchParams({ ...QUERY, ...over }).toString()}`;
}

/** The record endpoint answers 404 unless `record` is given, so the query string stays what is shown. */
function backend(decision: (c: Call) => Response, record?: object) {
  return mockFetch((c) => {
    if (c.url.startsWith('/api/resale/update/')) return decision(c);
    if (c.url === '/api/resale/r-1') return record ? json(200, { data: record }) : json(404, { message: 'Revenda não encontrada.' });
    return json(200, {});
  });
}

describe('ResaleDetailsPage', () => {
  it('shows every value of the query string, formatted, with N/C for a blank trade name', async () => {
    storeSession({ roles: ['SUPPORT'] });
    backend(() => json(201, {}));
    renderAt(path(), <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Detalhes da revenda');
    expect(screen.getByTestId('resale-corporateName')).toHaveTextContent('Alfa Comércio Ltda');
    expect(screen.getByTestId('resale-fantasyName')).toHaveTextContent('N/C');
    expect(screen.getByTestId('resale-docNum')).toHaveTextContent('11.222.333/0001-81');
    expect(screen.getByTestId('resale-name')).toHaveTextContent('Ana Souza');
    expect(screen.getByTestId('resale-email')).toHaveTextContent('ana@alfa.com.br');
    expect(screen.getByTestId('resale-phone')).toHaveTextContent('(31) 98765-4321');
    expect(screen.getByTestId('resale-cep')).toHaveTextContent('30140-071');
    expect(screen.getByTestId('resale-street')).toHaveTextContent('Rua das Flores, 100');
    expect(screen.getByTestId('resale-city')).toHaveTextContent('Belo Horizonte');
    expect(screen.getByTestId('resale-state')).toHaveTextContent('MG');
    expect(screen.getByTestId('resale-status')).toHaveTextContent('Em Análise');
    expect(screen.getByRole('button', { name: 'Aprovar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reprovar' })).toBeInTheDocument();
    expect(screen.getByTestId('resale-history')).toHaveAttribute('href', '/Painel/History/r-1?type=Resales');
  });

  it.each(['approved', 'disapproved'])('has no decision buttons when %s', (status) => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}));
    renderAt(path({ status }), <AppRoutes />);
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reprovar' })).not.toBeInTheDocument();
  });

  it("shows 'Razão da reprovação', or 'Sem Justificativa'", () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}));
    const { unmount } = renderAt(path({ status: 'disapproved', reason: 'CNPJ inativo' }), <AppRoutes />);
    expect(screen.getByText('Razão da reprovação')).toBeInTheDocument();
    expect(screen.getByTestId('resale-reason-text')).toHaveTextContent('CNPJ inativo');
    unmount();
    renderAt(path({ status: 'disapproved' }), <AppRoutes />);
    expect(screen.getByTestId('resale-reason-text')).toHaveTextContent('Sem Justificativa');
  });

  it("approves after the confirmation: 201 'Revenda aprovada com sucesso', then Resales", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = backend(() => json(201, { message: 'Revenda aprovada com sucesso' }));
    renderAt(path(), <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Alfa Comércio Ltda');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByTestId('success-modal-message')).toHaveTextContent('Revenda aprovada com sucesso');
    const call = calls.find((c) => c.url === '/api/resale/update/r-1');
    expect(call?.method).toBe('PATCH');
    expect(call?.body).toEqual({ status: 'approved', reason: '', host: window.location.host });
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Resales$/));
  });

  it('refuses with a required reason: 200 then Resales', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = backend(() => json(200, { message: 'Revenda reprovada com sucesso' }));
    renderAt(path(), <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: 'Reprovar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Digite abaixo o motivo da reprovação');
    const confirm = within(dialog).getByTestId('refusal-confirm');
    expect(confirm).toBeDisabled();
    // The server takes at most 2000 characters (api.MaxResaleReason).
    expect(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação')).toHaveAttribute('maxlength', '2000');
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), '   ');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), 'CNPJ inativo');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    expect(await screen.findByTestId('success-modal-message')).toHaveTextContent('Revenda reprovada com sucesso');
    expect(calls.find((c) => c.url === '/api/resale/update/r-1')?.body).toMatchObject({
      status: 'disapproved',
      reason: 'CNPJ inativo',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Resales$/));
  });

  it.each([
    [500, {}],
    [409, { message: 'Ação não permitida: a revenda está aprovada.' }],
    [404, { message: 'Revenda não encontrada.' }],
    [403, { message: 'Você não tem permissão para acessar este recurso.' }],
  ])('a failed decision (%i) shows the generic error modal and stays', async (status, body) => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(status, body));
    renderAt(path(), <AppRoutes />);
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Aprovar' }));
    const message = await screen.findByTestId('error-modal-message');
    expect(message).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
    if ('message' in body) expect(message).not.toHaveTextContent(body.message);
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Resales/details?');
  });

  it("the server's current record replaces an outdated query string", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}), {
      id: 'r-1',
      status: 'approved',
      corporateName: 'Alfa Comércio Ltda',
      fantasyName: 'Alfa',
      cnpj: '11222333000181',
      phone: '31987654321',
      contactName: 'Ana Souza',
      email: 'ana@alfa.com.br',
      cep: '30140071',
      city: 'Belo Horizonte',
      street: 'Rua das Flores, 100',
      state: 'MG',
      reason: '',
      createdAt: '2026-03-01T12:00:00Z',
    });
    renderAt(path(), <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('resale-status')).toHaveTextContent('Aprovado'));
    expect(screen.getByTestId('resale-fantasyName')).toHaveTextContent('Alfa');
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
  });
});

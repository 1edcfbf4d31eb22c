import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { expectTexts, json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

/** GET /api/resale/r-1's company. */
const RECORD = {
  id: 'r-1',
  status: 'analysis',
  cnpj: '11222333000181',
  corporateName: 'Alfa Comércio Ltda',
  fantasyName: '',
  contactName: 'Ana Souza',
  email: 'ana@alfa.com.br',
  phone: '31987654321',
  cep: '30140071',
  city: 'Belo Horizonte',
  state: 'MG',
  street: 'Rua das Flores, 100',
  reason: '',
  createdAt: '2026-03-01T12:00:00Z',
};

/** The link of the list, the bell and the e-mails: the id only. */
const PATH = '/Painel/Resales/details?id=r-1';

/** The decision endpoint answers `decision`; the record endpoint `record` (404 when null). */
function backend(decision: (c: Call) => Response, record: object | null = RECORD) {
  return mockFetch((c) => {
    if (c.url.startsWith('/api/resale/update/')) return decision(c);
    if (c.url === '/api/resale/r-1') return record ? json(200, { data: record }) : json(404, { message: 'Revenda não encontrada.' });
    return json(200, {});
  });
}

describe('ResaleDetailsPage', () => {
  it("shows the server's record, formatted, with N/C for a blank trade name", async () => {
    storeSession({ roles: ['SUPPORT'] });
    backend(() => json(201, {}));
    renderAt(PATH, <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Detalhes da revenda');
    // The fields stand (with '—') before the record arrives: wait for the record, not the field.
    await waitFor(() => expect(screen.getByTestId('resale-corporateName')).toHaveTextContent('Alfa Comércio Ltda'));
    expectTexts({
      'resale-fantasyName': 'N/C',
      'resale-docNum': '11.222.333/0001-81',
      'resale-name': 'Ana Souza',
      'resale-email': 'ana@alfa.com.br',
      'resale-phone': '(31) 98765-4321',
      'resale-cep': '30140-071',
      'resale-street': 'Rua das Flores, 100',
      'resale-city': 'Belo Horizonte',
      'resale-state': 'MG',
      'resale-status': 'Em Análise',
    });
    expect(screen.getByRole('button', { name: 'Aprovar' })).toBeInTheDocument();
    expect(screen.queryByTestId('resale-loading')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reprovar' })).toBeInTheDocument();
    expect(screen.getByTestId('resale-history')).toHaveAttribute('href', '/Painel/History/r-1?type=Resales');
  });

  it.each(['approved', 'disapproved'])('has no decision buttons when %s', async (status) => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}), { ...RECORD, status });
    renderAt(PATH, <AppRoutes />);
    expect(await screen.findByTestId('resale-status')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reprovar' })).not.toBeInTheDocument();
  });

  it("shows 'Razão da reprovação', or 'Sem Justificativa'", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}), { ...RECORD, status: 'disapproved', reason: 'CNPJ inativo' });
    const { unmount } = renderAt(PATH, <AppRoutes />);
    expect(await screen.findByText('Razão da reprovação')).toBeInTheDocument();
    expect(screen.getByTestId('resale-reason-text')).toHaveTextContent('CNPJ inativo');
    unmount();
    backend(() => json(201, {}), { ...RECORD, status: 'disapproved' });
    renderAt(PATH, <AppRoutes />);
    expect(await screen.findByTestId('resale-reason-text')).toHaveTextContent('Sem Justificativa');
  });

  it("approves after the confirmation: 201 'Revenda aprovada com sucesso', then Resales", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const calls = backend(() => json(201, { message: 'Revenda aprovada com sucesso' }));
    renderAt(PATH, <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Aprovar' }));
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
    renderAt(PATH, <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reprovar' }));
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
    renderAt(PATH, <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Aprovar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Aprovar' }));
    const message = await screen.findByTestId('error-modal-message');
    expect(message).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
    if ('message' in body) expect(message).not.toHaveTextContent(body.message);
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Resales/details?');
  });

  it('an old link with the company in its query string is cut to the id, and its values are never shown', async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    const old = new URLSearchParams({
      id: 'r-1',
      status: 'analysis',
      docNum: '99888777000166',
      name: 'Nome Antigo',
      email: 'antigo@alfa.com.br',
      phone: '11900000000',
    });
    backend(() => json(201, {}), { ...RECORD, status: 'approved' });
    renderAt(`/Painel/Resales/details?${old.toString()}`, <AppRoutes />);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Resales\/details\?id=r-1$/));
    expect(await screen.findByTestId('resale-status')).toHaveTextContent('Aprovado');
    expect(screen.getByTestId('resale-email')).toHaveTextContent('ana@alfa.com.br');
    for (const value of ['Nome Antigo', 'antigo@alfa.com.br', '99.888.777/0001-66', '(11) 90000-0000']) {
      expect(screen.queryByText(value)).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
  });

  it("an unknown company says 'Revenda não encontrada.' and offers no decision", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend(() => json(201, {}), null);
    renderAt(PATH, <AppRoutes />);
    expect(await screen.findByTestId('resale-load-error')).toHaveTextContent('Revenda não encontrada.');
    expect(screen.queryByTestId('resale-loading')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
  });
});

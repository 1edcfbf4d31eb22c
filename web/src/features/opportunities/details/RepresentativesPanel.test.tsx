import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

const ID = '0b6f7c1e-1111-4222-8333-444455556666';
const RENATA = { id: 'u1', name: 'Renata Almeida', email: 'representante@nordata.demo' };
const RODRIGO = { id: 'u2', name: 'Rodrigo Prates', email: 'representante2@nordata.demo' };

function record(representative: unknown[], status = 'analysis') {
  return {
    id: ID, brandId: 'nordata', status, name: 'Oportunidade Roteada', cnpj: '11222333000181', contact: 'Carla', phone: '11987654321',
    email: 'c@cliente.com.br', network: 'Não', fantasyName: 'Cliente', corporateName: 'Cliente Ltda', street: 'Rua A', state: 'SP',
    city: 'Campinas', cep: '01310100', country: 'Brasil', probabilityClosing: 50, seller: 'Vanessa', sellerSalesforceId: '', estimated: 100,
    register: '', reason: '', acceptedTerm: true, approveDate: null, validUntil: null, renovationDate: null, requestRenovationAt: null,
    lastVisitDate: '', projectStillInScope: '', userId: 'v1', userName: 'Vanessa', resaleId: 'r1', resale: 'Revenda', conflicts: [],
    createdAt: '2026-05-01T12:00:00Z', projects: [], products: [], representative,
  };
}

function server(reassign: (call: Call) => Response) {
  let current: unknown[] = [RENATA];
  return mockFetch((call) => {
    if (call.url.startsWith(`/api/opportunity/${ID}/reassign`)) {
      const res = reassign(call);
      if (res.status === 200) current = [RODRIGO];
      return res;
    }
    if (call.url.startsWith(`/api/opportunity/id/${ID}`)) return json(200, { data: [record(current)] });
    if (call.url.startsWith('/api/coverage')) return json(200, { representatives: [RENATA, RODRIGO], states: [], resales: [] });
    return json(200, {});
  });
}

describe('Responsáveis', () => {
  it('shows the responsible representatives and reassigns them with a reason', async () => {
    storeSession({ roles: ['SUPPORT'] });
    const calls = server(() => json(200, { message: 'Representantes responsáveis atualizados com sucesso', data: record([RODRIGO]) }));
    renderAt(`/Painel/Opportunities/${ID}`, <AppRoutes />);
    expect(await screen.findByTestId('detail-representatives')).toHaveTextContent('Renata Almeida (representante@nordata.demo)');
    await userEvent.click(screen.getByTestId('reassign-button'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(await within(dialog).findByLabelText('Rodrigo Prates (representante2@nordata.demo)'));
    await userEvent.click(within(dialog).getByLabelText('Renata Almeida (representante@nordata.demo)'));
    const submit = within(dialog).getByTestId('reassign-submit');
    expect(submit).toBeDisabled(); // no reason yet
    await userEvent.type(within(dialog).getByLabelText(/Motivo/), 'Cliente da regional Nordeste');
    await userEvent.click(submit);
    await waitFor(() => expect(calls.some((c) => c.url.endsWith('/reassign'))).toBe(true));
    const sent = calls.find((c) => c.url.endsWith('/reassign'))!;
    expect(sent.method).toBe('POST');
    expect(sent.body).toEqual({ representativeIds: ['u2'], reason: 'Cliente da regional Nordeste' });
    expect(await screen.findByText('Representantes responsáveis atualizados com sucesso')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('detail-representatives')).toHaveTextContent('Rodrigo Prates'));
  });

  it("shows the server's refusal in pt-BR", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    server(() => json(400, { message: 'Esses já são os representantes responsáveis.' }));
    renderAt(`/Painel/Opportunities/${ID}`, <AppRoutes />);
    await userEvent.click(await screen.findByTestId('reassign-button'));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Motivo/), 'x');
    await userEvent.click(within(dialog).getByTestId('reassign-submit'));
    expect(await screen.findByText('Esses já são os representantes responsáveis.')).toBeInTheDocument();
  });

  it("tells a seller who answers for it, without 'Redistribuir'", async () => {
    storeSession({ roles: ['SELLER'] });
    server(() => json(403, {}));
    renderAt(`/Painel/Opportunities/${ID}`, <AppRoutes />);
    expect(await screen.findByTestId('detail-representatives')).toHaveTextContent('Renata Almeida');
    expect(screen.queryByTestId('reassign-button')).not.toBeInTheDocument();
  });
});

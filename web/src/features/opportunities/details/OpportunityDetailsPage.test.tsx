import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { OpportunityRecord } from '../api/opportunity';
import { TEST_BRAND, expectTexts, json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';
import { allowedActions, reasonLabel } from './OpportunityDetailsPage';

const NORDATA = { ...TEST_BRAND, slug: 'nordata', name: 'Nordata' };
const ID = '0b6f7c1e-1111-4222-8333-444455556666';
const OTHER = '0b6f7c1e-9999-4222-8333-444455556666';

function record(over: Partial<OpportunityRecord> = {}): OpportunityRecord {
  return {
    id: ID,
    brandId: 'nordata',
    status: 'analysis',
    name: 'Oportunidade Boa Compra',
    cnpj: '11222333000181',
    contact: 'Carla Nogueira',
    phone: '11987654321',
    email: 'compras@cliente.com.br',
    network: 'Não',
    fantasyName: 'Boa Compra',
    corporateName: 'Supermercados Boa Compra Ltda',
    street: 'Avenida Central, 100',
    state: 'SP',
    city: 'Campinas',
    cep: '01310100',
    country: 'Brasil',
    probabilityClosing: 50,
    seller: 'Vanessa Lima',
    sellerSalesforceId: 'u1',
    estimated: 58880,
    register: '',
    reason: '',
    acceptedTerm: true,
    approveDate: null,
    validUntil: '2026-08-01T12:00:00Z',
    renovationDate: null,
    requestRenovationAt: null,
    lastVisitDate: '',
    projectStillInScope: '',
    userId: 'u1',
    userName: 'Vanessa Lima',
    userEmail: 'vendedor1@nordata.demo',
    resaleId: 'r1',
    resale: 'Revenda Modelo Nordata Ltda',
    conflicts: [],
    createdAt: '2026-05-01T12:00:00Z',
    projects: [
      {
        aplication: 'Controle de estoque',
        specification: 'Leitura 2D',
        homologated: true,
        haveCollector: false,
        haveCollectorDescription: '',
        partner: true,
        partnerOwner: 'Software de Parceiros',
        partnerName: 'ERP Sul',
        opportunityType: 'public',
        opportunityTypeStatus: 'Em licitação',
        additionalInformation: '',
        conclusionDate: '2026-08-10',
        opportunityOrigin: 'Trade Show',
        justification: '',
      },
    ],
    products: [
      { partNumber: 'CT-40', description: 'Coletor', amount: 12, price: 4890, accessory: false, competition: false },
      { partNumber: 'BAT', description: 'Bateria', amount: 2, price: 100, accessory: true, competition: false },
      { partNumber: 'RIVAL', description: 'Concorrente X', amount: 1, price: 999, accessory: false, competition: true },
    ],
    ...over,
  };
}

const CONFLICT = {
  id: OTHER,
  kind: 'cnpj_root' as const,
  cnpj: '11222333000262',
  corporateName: 'Supermercados Boa Compra Filial Ltda',
  resale: 'Outra Revenda',
  status: 'approved',
  createdAt: '2026-04-20T12:00:00Z',
  approveDate: '2026-04-24T15:00:00Z',
  estimated: 3000,
  products: [{ partNumber: 'CT-40', description: 'Coletor', amount: 3 }],
};

function api(rec: OpportunityRecord, extra: (c: Call) => Response | undefined = () => undefined) {
  return mockFetch((call) => {
    const r = extra(call);
    if (r) return r;
    if (call.url === `/api/opportunity/id/${ID}`) return json(200, { data: [rec] });
    if (call.url === `/api/opportunity/id/${OTHER}`)
      return json(200, { data: [record({ id: OTHER, name: 'Registro anterior', status: 'approved', resale: 'Outra Revenda' })] });
    if (call.url.startsWith('/api/history/getByTypeId'))
      return json(200, {
        result: [
          {
            date: '2026-05-03T12:00:00Z',
            modifications: [
              { attribute: 'conflictOverridden', newValue: OTHER },
              { attribute: 'conflictOverrideReason', newValue: 'Cliente pediu esta revenda.' },
            ],
          },
        ],
        total: 1,
      });
    if (call.method === 'PATCH') return json(200, { message: 'ok', data: rec });
    return json(404, { message: 'Recurso não encontrado.' });
  });
}

const at = (query = '') => renderAt(`/Painel/Opportunities/${ID}${query}`, <AppRoutes />, NORDATA);

async function loaded() {
  await screen.findByTestId('detail-status');
  // the loading modal has finished closing
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
}

describe('rules', () => {
  it('labels the reason by status', () => {
    expect(reasonLabel('disapproved')).toBe('Motivo da reprovação');
    expect(reasonLabel('awaiting_renovation')).toBe('Motivo da solicitação de renovação');
    expect(reasonLabel('approved')).toBeNull();
  });

  it('gives each role its actions', () => {
    expect(allowedActions(['SUPPORT'], 'analysis')).toEqual({ edit: false, decide: false, decideRenewal: false, requestRenewal: false });
    expect(allowedActions(['SUPPORT'], 'renovation').requestRenewal).toBe(false);
    expect(allowedActions(['REPRESENTATIVE'], 'analysis')).toMatchObject({ edit: true, decide: true });
    expect(allowedActions(['REPRESENTATIVE'], 'awaiting_renovation')).toMatchObject({ edit: true, decide: false, decideRenewal: true });
    expect(allowedActions(['REPRESENTATIVE'], 'disapproved')).toMatchObject({ edit: false });
    expect(allowedActions(['SELLER'], 'renovation').requestRenewal).toBe(true);
    expect(allowedActions(['RESALE'], 'expired').requestRenewal).toBe(true);
    expect(allowedActions(['RESALE'], 'approved').requestRenewal).toBe(false);
  });
});

describe('OpportunityDetailsPage', { timeout: 30_000 }, () => {
  it('shows the read-only sections with the register, labels and values', async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    api(record({ register: 'LOCAL-ABC', status: 'approved', approveDate: '2026-05-02T12:00:00Z' }));
    at();
    await loaded();
    expectTexts({
      'page-title': 'Detalhes da oportunidade',
      'detail-status': 'Aprovado',
      'detail-register': 'LOCAL-ABC',
      'detail-cnpj': '11.222.333/0001-81',
      'detail-phone': '(11) 98765-4321',
      'detail-origin': 'Feira/Evento',
      'detail-probability': '50% - 70%',
      'detail-conclusionDate': /^10\/08\/2026$/, // dd/mm/aaaa, as every date shown (typed as dd/mm/aa, spec §3)
      'detail-estimated': 'R$ 58.880,00',
    });
    expect(within(screen.getByTestId('section-competitors')).getByText('RIVAL')).toBeInTheDocument();
    expect(within(screen.getByTestId('section-accessories')).getByText('BAT')).toBeInTheDocument();
    expect(screen.getByText('Nome do parceiro')).toBeInTheDocument();
    expect(screen.getByText('Em licitação')).toBeInTheDocument();
    // not a representative: no name, no registering user, no actions
    expect(screen.queryByLabelText('Nome da Oportunidade')).not.toBeInTheDocument();
    expect(screen.queryByTestId('detail-user-email')).not.toBeInTheDocument();
    expect(within(screen.getByTestId('detail-actions')).queryAllByRole('button')).toHaveLength(0);
  });

  it("says when the validity ends beside the status, in Brasília's days: 'expira em N dias', 'expirou há N dias'", async () => {
    const day = 24 * 3600 * 1000;
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    api(record({ status: 'approved', validUntil: new Date(Date.now() + 12 * day + 3600 * 1000).toISOString() }));
    const first = at();
    await loaded();
    expect(screen.getByTestId('validity-cue')).toHaveTextContent(/^expira em 1[23] dias$/);
    first.unmount();
    api(record({ status: 'expired', validUntil: new Date(Date.now() - 3 * day - 3600 * 1000).toISOString() }));
    at();
    await loaded();
    expect(screen.getByTestId('validity-cue')).toHaveTextContent(/^expirou há [34] dias$/);
    expect(screen.getByTestId('validity-cue')).toHaveAttribute('data-intent', 'danger');
  });

  it('shows the representative the registering user, the name and the conflicts side by side', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    api(record({ conflicts: [CONFLICT], hasConflicts: true }));
    at();
    await loaded();
    expectTexts({ 'detail-user-name': 'Vanessa Lima', 'detail-user-email': 'vendedor1@nordata.demo' });
    expect(screen.getByLabelText('Nome da Oportunidade')).toHaveValue('Oportunidade Boa Compra');
    const cards = within(screen.getByTestId('conflict-list')).getAllByTestId('conflict-card');
    expect(cards).toHaveLength(2);
    // Oldest first: the other registration came first.
    expect(within(cards[0]).getByRole('link', { name: 'Ver registro' })).toHaveAttribute('href', `/Painel/Opportunities/${OTHER}`);
    expect(cards[0]).toHaveTextContent('Primeiro registro');
    expect(cards[0]).toHaveTextContent('Mesma raiz de CNPJ');
    expect(cards[0]).toHaveTextContent('Outra Revenda');
    expect(cards[0]).toHaveTextContent('Aprovado');
    expect(cards[0]).toHaveTextContent('11.222.333/0002-62');
    expect(cards[0]).toHaveTextContent(/R\$\s?3\.000,00/);
    expect(cards[0]).toHaveTextContent('3 × CT-40');
    expect(cards[0]).toHaveTextContent(/Dias em análise\s*4/);
    expect(cards[1]).toHaveTextContent('Este registro');
    expect(cards[1]).not.toHaveTextContent('Primeiro registro');
    expect(await screen.findByTestId('conflict-override')).toHaveTextContent('Motivo: Cliente pediu esta revenda.');
  });

  it('tells a reseller only that another registration exists', async () => {
    storeSession({ roles: ['RESALE'], company: 'nordata' });
    api(record({ conflicts: [], hasConflicts: true }));
    at();
    await loaded();
    expect(screen.getByTestId('conflict-notice')).toHaveTextContent('Existe outro registro para este cliente.');
    expect(screen.queryByTestId('conflict-list')).not.toBeInTheDocument();
  });

  it('offers to override an approval an earlier registration holds back, with a reason', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const message = `Conflito: o registro ${OTHER}, anterior a este e do mesmo cliente (mesma raiz de CNPJ), está em análise.`;
    const bodies: unknown[] = [];
    api(record(), (call) => {
      if (call.method !== 'PATCH') return undefined;
      const body = call.body as { overrideReason?: string };
      bodies.push(body);
      if (!body.overrideReason) return json(409, { message, code: 'REGISTRATION_CONFLICT' });
      return json(200, { message: 'Oportunidade aprovada com sucesso', data: record({ status: 'approved' }) });
    });
    at();
    await loaded();
    await userEvent.click(screen.getByTestId('approve-button'));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByTestId('override-message')).toHaveTextContent(message);
    const confirm = screen.getByTestId('override-confirm');
    expect(confirm).toBeDisabled();
    // The confirmation has finished closing (it hands the focus back when it does): the reason field has it.
    await waitFor(() => expect(screen.getAllByRole('dialog')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('override-reason')).toHaveFocus());
    await userEvent.type(screen.getByTestId('override-reason'), '  Cliente escolheu esta revenda. ');
    await userEvent.click(confirm);
    expect(await screen.findByText('Oportunidade aprovada com sucesso')).toBeInTheDocument();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatchObject({ status: 'approved', overrideReason: 'Cliente escolheu esta revenda.' });
  });

  it('support sees no action buttons and no edit', async () => {
    storeSession({ roles: ['SUPPORT'], company: 'nordata' });
    api(record());
    at();
    await loaded();
    expect(within(screen.getByTestId('detail-actions')).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: 'Atualizar registro' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('detail-user-email')).not.toBeInTheDocument();
  });

  it('approves: the name is required, then a confirmation, then status, name and probability are sent', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record());
    at();
    await loaded();
    const name = screen.getByLabelText('Nome da Oportunidade');
    await userEvent.clear(name);
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    expect(screen.getByText('Por favor, digite um nome para a oportunidade!!')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.type(name, 'Projeto Boa Compra');
    await userEvent.selectOptions(screen.getByLabelText('Probabilidade de fechamento'), '75');
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Deseja aprovar a oportunidade "Projeto Boa Compra"?');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByText('Oportunidade aprovada com sucesso')).toBeInTheDocument();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch).toMatchObject({
      url: `/api/opportunity/${ID}`,
      body: { status: 'approved', name: 'Projeto Boa Compra', probabilityClosing: 75 },
    });
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities$/));
  });

  it.each([
    [422, { code: 'CUSTOMER_NOT_FOUND', message: 'x' }, 'Ops! Algo deu errado ao buscar os dados do cliente Salesforce. Por favor, confira o cadastro no Salesforce e tente novamente.'],
    [502, { code: 'CRM_COMMUNICATION_ERROR', message: 'x' }, 'Ops! Ocorreu um erro ao tentar se comunicar com o Salesforce. Por favor, tente novamente em instantes.'],
    [423, { message: 'Bloqueada no CRM.' }, 'Bloqueada no CRM.'],
    [409, { message: 'Ação não permitida' }, 'Houve um problema de conexão ao aprovar essa oportunidade. Por favor, tente novamente mais tarde!'],
  ])('shows the approval failure of a %i', async (status, body, text) => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    api(record(), (c) => (c.method === 'PATCH' ? json(status, body) : undefined));
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByText(text)).toBeInTheDocument();
  });

  it('refuses with a reason; the button stays disabled while the reason is empty', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record());
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Reprovar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Digite abaixo o motivo da reprovação');
    const confirm = within(dialog).getByRole('button', { name: 'Reprovar' });
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), '   ');
    expect(confirm).toBeDisabled();
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), 'Cliente já atendido');
    expect(confirm).toBeEnabled();
    await userEvent.click(confirm);
    expect(await screen.findByText('Oportunidade reprovada com sucesso')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ status: 'disapproved', reason: 'Cliente já atendido' });
  });

  it("shows the refusal failure text for a 4xx", async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    api(record(), (c) => (c.method === 'PATCH' ? json(409, { message: 'x' }) : undefined));
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Reprovar' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), 'Motivo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reprovar' }));
    expect(
      await screen.findByText('Houve um problema de conexão ao reprovar essa oportunidade. Por favor, tente novamente mais tarde!'),
    ).toBeInTheDocument();
  });

  it("updates the probability alone with PATCH /opportunity, the name with PATCH /opportunity/{id}", async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record({ status: 'approved' }));
    at();
    await loaded();
    const update = screen.getByRole('button', { name: 'Atualizar registro' });
    expect(update).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Probabilidade de fechamento'), '100');
    await userEvent.click(update);
    expect(await screen.findByText('Oportunidade atualizada com sucesso')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH').map((c) => [c.url, c.body])).toEqual([
      ['/api/opportunity', { id: ID, probabilityClosing: 100 }],
    ]);
  });

  it("keeps 'Atualizar registro' disabled for a stored probability outside the bands until something changes", async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record({ probabilityClosing: 30 }));
    at();
    await loaded();
    const update = screen.getByRole('button', { name: 'Atualizar registro' });
    expect(screen.getByLabelText('Probabilidade de fechamento')).toHaveValue('25');
    expect(update).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText('Probabilidade de fechamento'), '50');
    expect(update).toBeEnabled();
    await userEvent.selectOptions(screen.getByLabelText('Probabilidade de fechamento'), '25');
    expect(update).toBeDisabled();
    expect(calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it("shows 'Erro ao atualizar a oportunidade' when the update fails", async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record(), (c) => (c.method === 'PATCH' ? json(400, { message: 'x' }) : undefined));
    at();
    await loaded();
    await userEvent.type(screen.getByLabelText('Nome da Oportunidade'), ' 2');
    await userEvent.click(screen.getByRole('button', { name: 'Atualizar registro' }));
    expect(await screen.findByText('Erro ao atualizar a oportunidade')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: `/api/opportunity/${ID}`,
      body: { name: 'Oportunidade Boa Compra 2', probabilityClosing: 50 },
    });
  });

  it('opens the renewal dialog on load with ?renovation=true and checks its fields', async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    const calls = api(record({ status: 'renovation' }));
    at('?renovation=true');
    const dialog = await screen.findByRole('dialog', { name: 'Solicitar renovação' });
    // the Sim/Não groups are named by their visible label, which points at no element
    for (const name of ['A proposta foi enviada?', 'O produto foi homologado?', 'Projeto continua em pauta']) {
      const group = within(dialog).getByRole('radiogroup', { name });
      expect(document.getElementById(group.getAttribute('aria-labelledby') ?? '')).toHaveTextContent(name);
      expect(dialog.querySelector(`label[for="${group.id}"]`)).toBeNull();
    }
    await userEvent.click(within(dialog).getByRole('button', { name: 'Solicitar renovação' }));
    expect(within(dialog).getAllByText('*Campo Obrigatório')).toHaveLength(4);
    const tomorrow = new Date(Date.now() + 2 * 24 * 3600 * 1000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await userEvent.type(
      within(dialog).getByLabelText(/^Data da última visita/),
      `${pad(tomorrow.getDate())}${pad(tomorrow.getMonth() + 1)}${pad(tomorrow.getFullYear() % 100)}`,
    );
    expect(within(dialog).getByText('Data de visita deve ser uma data passada ou a atual!')).toBeInTheDocument();
    await userEvent.clear(within(dialog).getByLabelText(/^Data da última visita/));
    await userEvent.type(within(dialog).getByLabelText(/^Data da última visita/), '010126');
    expect(within(dialog).getByLabelText(/^Data da última visita/)).toHaveValue('01/01/26');
    await userEvent.click(within(within(dialog).getByRole('radiogroup', { name: 'A proposta foi enviada?' })).getByLabelText('Sim'));
    await userEvent.type(within(dialog).getByLabelText(/^Próximo passo/), 'Visita técnica');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Probabilidade de fechamento/), '75');
    await userEvent.click(within(within(dialog).getByRole('radiogroup', { name: 'Projeto continua em pauta' })).getByLabelText('Sim'));
    await userEvent.type(within(dialog).getByLabelText(/^Motivo da solicitação de renovação/), 'Cliente retomou o projeto');
    expect(within(dialog).queryByText('*Campo Obrigatório')).not.toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Solicitar renovação' }));
    expect(await screen.findByText('Renovação solicitada com sucesso')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: `/api/opportunity/renovation/${ID}/request`,
      body: {
        reason: 'Cliente retomou o projeto',
        probabilityClosing: 75,
        projectStillInScope: 'Sim',
        lastVisitDate: '01/01/26',
        proposalSent: 'Sim',
        nextStep: 'Visita técnica',
      },
    });
  });

  it("does not open the renewal dialog when the status does not allow it", async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    api(record({ status: 'approved' }));
    at('?renovation=true');
    await loaded();
    expect(screen.queryByRole('dialog', { name: 'Solicitar renovação' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Solicitar renovação' })).not.toBeInTheDocument();
  });

  it("reports 'Erro ao solicitar a renovação da oportunidade' on failure", async () => {
    storeSession({ roles: ['RESALE'], company: 'nordata' });
    api(record({ status: 'expired' }), (c) => (c.method === 'PATCH' ? json(409, { message: 'x' }) : undefined));
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Solicitar renovação' }));
    const dialog = await screen.findByRole('dialog', { name: 'Solicitar renovação' });
    await userEvent.type(within(dialog).getByLabelText(/^Data da última visita/), '010126');
    await userEvent.selectOptions(within(dialog).getByLabelText(/^Probabilidade de fechamento/), '25');
    await userEvent.click(within(within(dialog).getByRole('radiogroup', { name: 'Projeto continua em pauta' })).getByLabelText('Não'));
    await userEvent.type(within(dialog).getByLabelText(/^Motivo da solicitação de renovação/), 'Motivo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Solicitar renovação' }));
    expect(await screen.findByText('Erro ao solicitar a renovação da oportunidade')).toBeInTheDocument();
  });

  it('lets the representative approve or refuse a renewal, showing the request reason', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const rec = record({
      status: 'awaiting_renovation',
      reason: 'O cliente retomou o projeto.',
      lastVisitDate: '2026-05-01',
      projectStillInScope: 'Sim',
      proposalSent: 'Sim',
      productHomologated: 'Não',
      nextStep: 'Visita técnica na sexta',
    });
    const calls = api(rec);
    at();
    await loaded();
    // The request's answers, for the representative who decides it.
    const request = screen.getByTestId('section-renewal');
    for (const text of ['A proposta foi enviada?', 'O produto foi homologado?', 'Próximo passo', 'Visita técnica na sexta', 'Não']) {
      expect(request).toHaveTextContent(text);
    }
    const reason = screen.getByTestId('detail-reason');
    expect(reason).toHaveTextContent('Motivo da solicitação de renovação');
    expect(reason).toHaveTextContent('O cliente retomou o projeto.');
    expect(screen.queryByRole('button', { name: 'Aprovar' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Recusar Renovação' }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Recusar Renovação' })).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar Renovação' }));
    dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Aprovar Renovação' }));
    expect(await screen.findByText('Renovação aprovada com sucesso')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
      url: `/api/opportunity/renovation/${ID}`,
      body: { status: 'approved', name: rec.name, probabilityClosing: 50 },
    });
  });

  it('refuses a renewal with a reason', async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    const calls = api(record({ status: 'awaiting_renovation', reason: 'r' }));
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Recusar Renovação' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Digite abaixo o motivo da reprovação'), 'Sem orçamento');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Recusar Renovação' }));
    expect(await screen.findByText('Renovação reprovada com sucesso')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ status: 'disapproved', reason: 'Sem orçamento' });
  });

  it("shows the reason of a refusal as 'Motivo da reprovação'", async () => {
    storeSession({ roles: ['RESALE'], company: 'nordata' });
    api(record({ status: 'disapproved', reason: 'Cliente já atendido por outra revenda.' }));
    at();
    await loaded();
    expect(screen.getByTestId('detail-reason')).toHaveTextContent('Motivo da reprovação');
    expect(screen.getByTestId('detail-reason')).toHaveTextContent('Cliente já atendido por outra revenda.');
  });

  it("shows the server's message when the record cannot be read, then goes back to the list", async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    mockFetch(() => json(403, { message: 'Você não tem permissão para esta ação.' }));
    at();
    const dialog = await screen.findByRole('dialog', { name: /Ops!/ });
    expect(dialog).toHaveTextContent('Você não tem permissão para esta ação.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities$/));
  });

  it("says 'Houve um erro. Tente novamente mais tarde!' when the read fails on the server", async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    mockFetch(() => json(500, {}));
    at();
    const dialog = await screen.findByRole('dialog', { name: /Ops!/ });
    expect(dialog).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });

  it("falls back to 'Houve um erro. Tente novamente mais tarde!' when an approval fails without a message", async () => {
    storeSession({ roles: ['REPRESENTATIVE'], company: 'nordata' });
    api(record(), (c) => (c.method === 'PATCH' ? json(500, {}) : undefined));
    at();
    await loaded();
    await userEvent.click(screen.getByRole('button', { name: 'Aprovar' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Aprovar' }));
    expect(await screen.findByText('Houve um erro. Tente novamente mais tarde!')).toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { CNPJ_FOUND } from '@/test/fixtures';
import { TEST_BRAND, json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

const NORDATA = { ...TEST_BRAND, slug: 'nordata', name: 'Nordata' };
const SELLERS = [
  { name: 'Vanessa Lima', user_id: 'u1', company: 'Revenda Modelo' },
  { name: 'Victor Souza', user_id: 'u2', company: 'Revenda Modelo' },
];
type Handler = (call: Call) => Response | undefined;

/** The API as the registration screen sees it; `extra` answers first. */
function api(extra: Handler = () => undefined) {
  return mockFetch((call) => {
    const r = extra(call);
    if (r) return r;
    if (call.url.startsWith('/api/opportunity/getSellersOnSalesforce')) return json(200, SELLERS);
    if (call.url.startsWith('/api/cnpj/')) return json(200, CNPJ_FOUND);
    if (call.url === '/api/opportunity/create') return json(200, { message: 'Oportunidade cadastrada com sucesso', data: { id: 'n1' } });
    return json(404, { message: 'Recurso não encontrado.' });
  });
}

/** A Nordata user of these roles opens the registration screen; the API's calls. */
function openAs(roles: string[], extra?: Handler) {
  storeSession({ roles, company: 'nordata' });
  const calls = api(extra);
  renderAt('/Painel/Opportunities/registration', <AppRoutes />, NORDATA);
  return calls;
}

function futureDate(): string {
  const d = new Date(Date.now() + 40 * 24 * 3600 * 1000);
  return `${String(d.getDate()).padStart(2, '0')}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getFullYear() % 100).padStart(2, '0')}`;
}

async function choose(group: string, option: string) {
  await userEvent.click(within(screen.getByRole('radiogroup', { name: group })).getByLabelText(option));
}

/** Pastes text into a field, as a person pasting it: one input event, where typing is one a key. */
async function paste(field: HTMLElement, text: string) {
  await userEvent.click(field);
  await userEvent.paste(text);
}

/**
 * A valid form: the masked fields (CNPJ, phone, date, quantity, price) typed
 * key by key, as their own cases test them; the plain text ones pasted (a
 * key-by-key render of the whole form is most of these cases' time).
 */
async function fillValidForm() {
  const u = userEvent;
  await u.type(screen.getByLabelText(/^CNPJ/), '11222333000181');
  await waitFor(() => expect(screen.getByLabelText(/^Razão social/)).toHaveValue('Supermercados Boa Compra Ltda'));
  await paste(screen.getByLabelText(/^Nome do contato/), 'Carla Nogueira');
  await u.type(screen.getByLabelText(/^Telefone/), '11987654321');
  await paste(screen.getByLabelText(/^Email do cliente/), 'compras@cliente.com.br');
  await choose('Faz parte de um grupo/rede?', 'Não');
  await paste(screen.getByLabelText(/^Aplicação/), 'Controle de estoque');
  await paste(screen.getByLabelText(/^Especificação/), 'Leitura 2D');
  await choose('Produto homologado?', 'Sim');
  await choose('Possui equipamento similar?', 'Não');
  await choose('Possui parceiro de software?', 'Não sei / Não informado');
  await u.selectOptions(screen.getByLabelText(/^Tipo de órgão/), 'private');
  await u.type(screen.getByLabelText(/^Data de conclusão/), futureDate());
  await u.selectOptions(screen.getByLabelText(/^Origem da oportunidade/), 'Partner');
  await paste(screen.getByTestId('line-product-0-partNumber'), 'CT-40');
  await paste(screen.getByTestId('line-product-0-description'), 'Coletor de dados');
  await u.type(screen.getByTestId('line-product-0-amount'), '12');
  await u.type(screen.getByTestId('line-product-0-price'), '4890,5');
}

// A case that types the whole form key by key took up to 30 s on a slow 2-core machine beside the
// Go tests (make test): 90 s a case. One that fails still fails, only later.
describe('RegistrationOpportunityPage', { timeout: 90_000 }, () => {
  it("shows the title, the sections and the seller picker; default probability 25 ('0% - 49%')", async () => {
    openAs(['RESALE']);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Registro de Oportunidades');
    expect(screen.queryByLabelText(/^Nome da Oportunidade/)).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Probabilidade de fechamento/)).toHaveValue('25');
    expect((screen.getByLabelText(/^Probabilidade de fechamento/) as HTMLSelectElement).selectedOptions[0].textContent).toBe(
      '0% - 49%',
    );
    for (const t of ['Produto', 'Acessório', 'Concorrente']) expect(screen.getByRole('group', { name: t })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Vendedor' })).toBe(screen.getByTestId('section-seller'));
    const seller = screen.getByRole('combobox', { name: /^Vendedor/ });
    await waitFor(() => expect(within(seller).getAllByRole('option')).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Finalizar registro' })).toBeInTheDocument();
  });

  it('fills the company from the lookup at 18 characters; the company fields are read-only', async () => {
    const calls = openAs(['SELLER']);
    const cnpj = screen.getByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '1122233300018');
    expect(cnpj).toHaveValue('11.222.333/0001-8');
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/'))).toHaveLength(0);
    await userEvent.type(cnpj, '1');
    await waitFor(() => expect(screen.getByLabelText(/^Nome fantasia/)).toHaveValue('Boa Compra'));
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/')).map((c) => c.url)).toEqual(['/api/cnpj/11222333000181']);
    expect(screen.getByLabelText(/^CEP/)).toHaveValue('01310-100');
    for (const label of [/^Nome fantasia/, /^Razão social/, /^Endereço/, /^CEP/, /^Cidade/, /^Estado/]) {
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    }
    // erasing a character clears the company
    await userEvent.type(cnpj, '{backspace}');
    await waitFor(() => expect(screen.getByLabelText(/^Razão social/)).toHaveValue(''));
  });

  it('takes an alphanumeric CNPJ: letters upper-cased as typed, looked up and sent as 12ABC34501DE35', async () => {
    const calls = openAs(['SELLER']);
    const cnpj = await screen.findByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '12abc34501de35');
    expect(cnpj).toHaveValue('12.ABC.345/01DE-35');
    await waitFor(() => expect(screen.getByLabelText(/^Nome fantasia/)).toHaveValue('Boa Compra'));
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/')).map((c) => c.url)).toEqual(['/api/cnpj/12ABC34501DE35']);
    expect(cnpj).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the CNPJ modal for an unknown CNPJ (404) and for wrong check digits without a lookup', async () => {
    const calls = openAs(['SELLER'], (c) => (c.url.startsWith('/api/cnpj/') ? json(404, { message: 'CNPJ não encontrado' }) : undefined));
    await userEvent.type(screen.getByLabelText(/^CNPJ/), '99999999000191');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Ops!');
    expect(dialog).toHaveTextContent('CNPJ inválido! Por favor digite um CNPJ válido!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.clear(screen.getByLabelText(/^CNPJ/));
    const before = calls.filter((c) => c.url.startsWith('/api/cnpj/')).length;
    await userEvent.type(screen.getByLabelText(/^CNPJ/), '11222333000182');
    expect(await screen.findByRole('dialog')).toHaveTextContent('CNPJ inválido! Por favor digite um CNPJ válido!');
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/')).length).toBe(before);
  });

  it("says 'É permitido somente 3 consultas por minuto' after a 429", async () => {
    openAs(['SELLER'], (c) => (c.url.startsWith('/api/cnpj/') ? json(429, { message: 'É permitido somente 3 consultas por minuto' }) : undefined));
    await userEvent.type(screen.getByLabelText(/^CNPJ/), '11222333000181');
    expect(await screen.findByRole('dialog')).toHaveTextContent('É permitido somente 3 consultas por minuto');
  });

  it.each([
    ['a 429', json(429, { message: 'É permitido somente 3 consultas por minuto' })],
    ['a server failure', json(503, { message: 'indisponível' })],
  ])('retries the lookup when the CNPJ field is left after %s', async (_, failure) => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    let lookups = 0;
    const calls = api((c) => {
      if (!c.url.startsWith('/api/cnpj/')) return undefined;
      lookups += 1;
      return lookups === 1 ? failure.clone() : undefined;
    });
    const cnpjCalls = () => calls.filter((c) => c.url.startsWith('/api/cnpj/')).length;
    renderAt('/Painel/Opportunities/registration', <AppRoutes />, NORDATA);
    const cnpj = screen.getByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '11222333000181');
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // the modal taking the focus did not spend a lookup
    expect(cnpjCalls()).toBe(1);
    expect(screen.getByLabelText(/^Razão social/)).toHaveValue('');
    await userEvent.click(cnpj);
    await userEvent.tab();
    await waitFor(() => expect(screen.getByLabelText(/^Razão social/)).toHaveValue('Supermercados Boa Compra Ltda'));
    expect(cnpjCalls()).toBe(2);
    // once it succeeded, leaving the field again asks nothing
    await userEvent.click(cnpj);
    await userEvent.tab();
    expect(cnpjCalls()).toBe(2);
  });

  it('does not retry the lookup of a CNPJ the service called invalid', async () => {
    const calls = openAs(['SELLER'], (c) => (c.url.startsWith('/api/cnpj/') ? json(404, { message: 'CNPJ não encontrado' }) : undefined));
    const cnpj = screen.getByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '11222333000181');
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(cnpj);
    await userEvent.tab();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/'))).toHaveLength(1);
  });

  it('ties each radio group to its label (no label pointing at the group)', () => {
    openAs(['SELLER']);
    for (const name of ['Faz parte de um grupo/rede?', 'Produto homologado?', 'Possui equipamento similar?', 'Possui parceiro de software?']) {
      const group = screen.getByRole('radiogroup', { name });
      expect(group).not.toHaveAttribute('aria-label');
      const label = document.getElementById(group.getAttribute('aria-labelledby') ?? '');
      expect(label).toHaveTextContent(name);
      expect(document.querySelector(`label[for="${group.id}"]`)).toBeNull();
    }
  });

  it("lists the missing labels in 'Campos obrigatórios ausentes!' and marks the fields", async () => {
    const calls = openAs(['SELLER']);
    await userEvent.type(screen.getByLabelText(/^Nome do contato/), 'Carla');
    await userEvent.type(screen.getByLabelText(/^Telefone/), '0000000000');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Campos obrigatórios ausentes!');
    const labels = within(screen.getByTestId('missing-fields-list'))
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(labels).toContain('CNPJ');
    expect(labels).toContain('Telefone');
    expect(labels).toContain('Email do cliente');
    expect(labels).toContain('Part number do produto');
    expect(labels).toContain('Aceite dos termos');
    expect(labels).not.toContain('Nome do contato');
    // The read-only company fields wait for the lookup: not listed, not red.
    for (const label of ['Razão social', 'Endereço', 'CEP', 'Cidade', 'Estado']) expect(labels).not.toContain(label);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }));
    for (const label of [/^Razão social/, /^Endereço/, /^CEP/, /^Cidade/, /^Estado/]) {
      expect(screen.getByLabelText(label)).not.toHaveAttribute('aria-invalid', 'true');
      expect(screen.getByLabelText(label).closest('.bp6-form-group')).not.toHaveClass('bp6-intent-danger');
    }
    expect(screen.getByText('Numero inválido')).toBeInTheDocument();
    expect(screen.getAllByText('*Campo Obrigatório').length).toBeGreaterThan(5);
    // Each field in error says so to assistive technology, and points at its message.
    const application = screen.getByLabelText(/^Aplicação/);
    expect(application).toHaveAttribute('aria-invalid', 'true');
    expect(application).toHaveAttribute('aria-required', 'true');
    expect(application).toHaveAccessibleDescription('*Campo Obrigatório');
    expect(screen.getByLabelText(/^Telefone/)).toHaveAccessibleDescription('Numero inválido');
    expect(screen.getByRole('radiogroup', { name: /Produto homologado/ })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('accepted-term')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Nome do contato/)).not.toHaveAttribute('aria-invalid');
    expect(calls.some((c) => c.url === '/api/opportunity/create')).toBe(false);
  });

  it('keeps the estimated total live, without competitors', async () => {
    openAs(['SELLER']);
    const total = screen.getByTestId('estimated-total');
    expect(total).toHaveTextContent('R$ 0,00');
    await userEvent.type(screen.getByTestId('line-product-0-partNumber'), 'CT-40');
    await userEvent.type(screen.getByTestId('line-product-0-amount'), '2');
    await userEvent.type(screen.getByTestId('line-product-0-price'), '1000,50');
    expect(total).toHaveTextContent('R$ 2.001,00');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar acessório' }));
    await userEvent.type(screen.getByTestId('line-accessory-0-partNumber'), 'BAT');
    await userEvent.type(screen.getByTestId('line-accessory-0-amount'), '3');
    await userEvent.type(screen.getByTestId('line-accessory-0-price'), '10');
    expect(total).toHaveTextContent('R$ 2.031,00');
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar concorrente' }));
    await userEvent.type(screen.getByTestId('line-competitor-0-partNumber'), 'RIVAL');
    await userEvent.type(screen.getByTestId('line-competitor-0-amount'), '100');
    await userEvent.type(screen.getByTestId('line-competitor-0-price'), '999');
    expect(total).toHaveTextContent('R$ 2.031,00');
    // removing the accessory line takes it out of the total; the main line cannot be removed
    expect(screen.getByTestId('remove-product-0')).toBeDisabled();
    await userEvent.click(screen.getByTestId('remove-accessory-0'));
    expect(total).toHaveTextContent('R$ 2.001,00');
  });

  it.each([
    ['1.234,56', 'R$ 2.469,12'],
    ['1234,56', 'R$ 2.469,12'],
    ['1234.56', 'R$ 2.469,12'],
    ['1 234,56', 'R$ 2.469,12'],
  ])("reads the price typed as %s (never as 1,23), shows it as 1.234,56 right-aligned", async (typed, expected) => {
    openAs(['SELLER']);
    await userEvent.type(await screen.findByTestId('line-product-0-partNumber'), 'CT-40');
    await userEvent.type(screen.getByTestId('line-product-0-amount'), '2');
    const price = screen.getByTestId('line-product-0-price');
    await userEvent.type(price, typed);
    expect(price).toHaveValue(typed);
    expect(screen.getByTestId('estimated-total')).toHaveTextContent(expected);
    await userEvent.tab();
    expect(price).toHaveValue('1.234,56');
    expect(price.closest('.money-input')).not.toBeNull();
    expect(price).not.toHaveAttribute('aria-invalid');
  });

  it.each([
    ['1,234', 'Use no máximo duas casas decimais, como em 1.234,56.'],
    ['1.23,45', 'Separador de milhar fora do lugar. Digite o valor como 1.234,56.'],
    ['12a', 'Valor inválido. Digite o valor como 1.234,56.'],
  ])('refuses the price %s with a pt-BR message once the field is left, and keeps what was typed', async (typed, message) => {
    openAs(['SELLER']);
    await userEvent.type(await screen.findByTestId('line-product-0-amount'), '2');
    const price = screen.getByTestId('line-product-0-price');
    await userEvent.type(price, typed);
    await userEvent.tab();
    expect(price).toHaveValue(typed);
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(price).toHaveAttribute('aria-invalid', 'true');
    expect(price).toHaveAccessibleDescription(message);
    expect(screen.getByTestId('estimated-total')).toHaveTextContent('R$ 0,00');
  });

  it('shows the partner, agency and collector follow-up fields only when they apply', async () => {
    openAs(['SELLER']);
    expect(screen.queryByLabelText(/^Proprietário do software/)).not.toBeInTheDocument();
    await choose('Possui parceiro de software?', 'Sim');
    await userEvent.selectOptions(screen.getByLabelText(/^Proprietário do software/), 'Software de Parceiros');
    expect(screen.getByLabelText(/^Nome do parceiro/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Situação do órgão público/)).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText(/^Tipo de órgão/), 'public');
    expect(screen.getByLabelText(/^Situação do órgão público/)).toBeInTheDocument();
    await choose('Possui equipamento similar?', 'Sim');
    expect(screen.getByLabelText(/^Qual equipamento/)).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Data de conclusão/), '01012020');
    expect(screen.getByLabelText(/^Data de conclusão/)).toHaveValue('01/01/20');
    await userEvent.tab();
    expect(screen.getByText('Data de conclusão deve ser uma data futura')).toBeInTheDocument();
  });

  it('registers with an Idempotency-Key, reuses it for an identical retry, then goes to the list', async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    let attempt = 0;
    const calls = api((c) => {
      if (c.url !== '/api/opportunity/create') return undefined;
      attempt += 1;
      return attempt === 1 ? json(500, { message: 'Houve um erro. Tente mais tarde!' }) : undefined;
    });
    renderAt('/Painel/Opportunities/registration', <AppRoutes />, NORDATA);
    await fillValidForm();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Vendedor/ }), 'u2');
    await userEvent.click(screen.getByTestId('accepted-term'));
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Erro ao cadastrar a oportunidade');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Oportunidade cadastrada com sucesso');
    const creates = calls.filter((c) => c.url === '/api/opportunity/create');
    expect(creates).toHaveLength(2);
    const key = creates[0].headers['idempotency-key'];
    expect(key).toBeTruthy();
    expect(creates[1].headers['idempotency-key']).toBe(key);
    const body = creates[1].body as Record<string, unknown>;
    expect(body).toMatchObject({
      cnpj: '11222333000181',
      phone: 11987654321,
      corporateName: 'Supermercados Boa Compra Ltda',
      seller: 'Victor Souza',
      sellerSalesforceId: 'u2',
      acceptedTerm: 'true',
      country: 'Brasil',
      company: 'nordata',
      probabilityClosing: 25,
      opportunityOrigin: 'Partner',
      products: [{ partNumber: 'CT-40', description: 'Coletor de dados', amount: 12, price: 4890.5, accessory: false, competition: false }],
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Opportunities$/));
  });

  it('preselects the signed-in seller; a changed form gets a new key', async () => {
    const calls = openAs(['SELLER'], (c) => (c.url === '/api/opportunity/create' ? json(423, { message: 'x' }) : undefined)); // userid u1
    await fillValidForm();
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Vendedor/ })).toHaveValue('u1'));
    await userEvent.click(screen.getByTestId('accepted-term'));
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(
      'A oportunidade já existe no CRM, não pode ser alterada. Por favor, agurade a renovação da oportunidade para atualiza-la no CRM.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.type(screen.getByLabelText(/^Nome do contato/), ' Filho');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    await screen.findByRole('dialog');
    const creates = calls.filter((c) => c.url === '/api/opportunity/create');
    expect(creates).toHaveLength(2);
    expect(creates[0].headers['idempotency-key']).not.toBe(creates[1].headers['idempotency-key']);
    expect((creates[0].body as { seller: string }).seller).toBe('Vanessa Lima');
  });

  it("ends the session on a 401 that a refresh cannot cure: 'Sua sessão encerrou' and Login", async () => {
    storeSession({ roles: ['SELLER'], company: 'nordata' });
    api((c) =>
      c.url === '/api/opportunity/create' || c.url.includes('/auth/refresh_token') ? json(401, { message: 'x' }) : undefined,
    );
    renderAt('/Painel/Opportunities/registration', <AppRoutes />, NORDATA);
    await fillValidForm();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /^Vendedor/ }), 'u2');
    await userEvent.click(screen.getByTestId('accepted-term'));
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
    expect(await screen.findByText('Sua sessão encerrou')).toBeInTheDocument();
  });

  it("labels the picker 'Vendedor Prime' for yep and lets it empty", async () => {
    storeSession({ roles: ['RESALE'], company: 'yep' });
    const calls = api();
    renderAt('/Painel/Opportunities/registration', <AppRoutes />);
    expect(screen.getByRole('combobox', { name: /^Vendedor Prime/ })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Vendedor Prime' })).toBe(screen.getByTestId('section-seller'));
    await fillValidForm();
    await userEvent.click(screen.getByTestId('accepted-term'));
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar registro' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Oportunidade cadastrada com sucesso');
    const body = calls.find((c) => c.url === '/api/opportunity/create')?.body as Record<string, unknown>;
    expect(body.seller).toBe('');
    expect(body.company).toBe('yep');
  });

  it("reports a CRM seller list failure with 'Não foi possivel recuperar os vendedores no Salesforce'", async () => {
    openAs(['RESALE'], (c) => (c.url.startsWith('/api/opportunity/getSellersOnSalesforce') ? json(502, { message: 'x' }) : undefined));
    expect(await screen.findByTestId('sellers-error')).toHaveTextContent(
      'Não foi possivel recuperar os vendedores no Salesforce',
    );
  });

  it('opens the guidelines PDF of the brand', async () => {
    openAs(['RESALE']);
    await userEvent.click(screen.getByRole('button', { name: 'Ler as diretrizes' }));
    expect(screen.getByTestId('pdf-viewer-frame')).toHaveAttribute('src', '/brand-assets/nordata/guidelines.pdf');
  });

  it("shows the opportunity name only to a representative", async () => {
    openAs(['RESALE', 'REPRESENTATIVE']);
    expect(screen.getByLabelText(/^Nome da Oportunidade/)).toBeInTheDocument();
  });
});

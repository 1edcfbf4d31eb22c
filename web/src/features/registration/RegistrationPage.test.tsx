import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, type Call } from '@/test/helpers';

const COMPANY = {
  nome_fantasia: '',
  razao_social: 'Alfa Comércio de Coletores Ltda',
  rua: 'Rua das Flores, 100',
  cep: '30140071',
  cidade: 'Belo Horizonte',
  estado: 'MG',
};

/** Answers the lookup with COMPANY and the sign-up with `register` (one per call). */
function backend(register: Array<() => Response> = [() => json(201, { message: 'Revenda cadastrada com sucesso' })]) {
  let n = 0;
  return mockFetch((call: Call) => {
    if (call.url.startsWith('/api/cnpj/')) return json(200, COMPANY);
    if (call.url === '/api/register/resale') return register[Math.min(n++, register.length - 1)]();
    return json(200, {});
  });
}

const step1 = () => screen.getByTestId('registration-step-1');
const progress = () => screen.getByTestId('registration-progress');

async function fillStep1(user = userEvent.setup()) {
  await user.type(screen.getByLabelText(/^Nome do contato/), 'Ana Souza');
  await user.type(screen.getByLabelText(/^E-mail/), 'ana@alfa.com.br');
  await user.type(screen.getByLabelText(/^Telefone/), '31987654321');
}

async function toStep2(user = userEvent.setup()) {
  await fillStep1(user);
  await user.click(screen.getByRole('button', { name: 'Próximo' }));
  expect(screen.getByTestId('step-title')).toHaveTextContent('Sua revenda');
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RegistrationPage', () => {
  it("step 1 'Crie seu usuário' at 50%: Próximo waits for the three valid fields", async () => {
    backend();
    renderAt('/Registration', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Cadastre sua revenda');
    expect(within(step1()).getByTestId('step-title')).toHaveTextContent('Crie seu usuário');
    expect(progress()).toHaveAttribute('aria-valuenow', '50');
    const next = screen.getByRole('button', { name: 'Próximo' });
    expect(next).toBeDisabled();

    await userEvent.type(screen.getByLabelText(/^Nome do contato/), 'Ana Souza');
    await userEvent.type(screen.getByLabelText(/^E-mail/), 'ana@alfa');
    await userEvent.type(screen.getByLabelText(/^Telefone/), '3198765');
    await userEvent.tab();
    expect(screen.getByText('Verifique o email digitado')).toBeInTheDocument();
    expect(screen.getByText('Verifique o telefone digitado')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Telefone/)).toHaveValue('(31) 98765');
    expect(next).toBeDisabled();

    await userEvent.type(screen.getByLabelText(/^E-mail/), '.com.br');
    await userEvent.type(screen.getByLabelText(/^Telefone/), '43219');
    expect(screen.getByLabelText(/^Telefone/)).toHaveValue('(31) 98765-4321');
    expect(screen.queryByText('Verifique o email digitado')).not.toBeInTheDocument();
    expect(screen.queryByText('Verifique o telefone digitado')).not.toBeInTheDocument();
    expect(next).toBeEnabled();
    await userEvent.clear(screen.getByLabelText(/^Nome do contato/));
    await userEvent.tab();
    expect(screen.getByText('Verifique o nome digitado')).toBeInTheDocument();
    expect(next).toBeDisabled();
  });

  it("step 2 'Sua revenda' at 100%: the lookup runs at 18 characters and fills read-only fields", async () => {
    const calls = backend();
    renderAt('/Registration', <AppRoutes />);
    await toStep2();
    expect(progress()).toHaveAttribute('aria-valuenow', '100');
    const cnpj = screen.getByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '1122233300018');
    expect(cnpj).toHaveValue('11.222.333/0001-8');
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/'))).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
    await userEvent.type(cnpj, '1');
    await waitFor(() => expect(screen.getByLabelText('Razão social')).toHaveValue('Alfa Comércio de Coletores Ltda'));
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/')).map((c) => c.url)).toEqual(['/api/cnpj/11222333000181']);
    expect(screen.getByLabelText('Nome fantasia')).toHaveValue('N/C');
    expect(screen.getByLabelText('CEP')).toHaveValue('30140-071');
    expect(screen.getByLabelText('Cidade')).toHaveValue('Belo Horizonte');
    expect(screen.getByLabelText('Estado')).toHaveValue('MG');
    expect(screen.getByLabelText('Endereço')).toHaveValue('Rua das Flores, 100');
    for (const label of ['Razão social', 'Nome fantasia', 'CEP', 'Cidade', 'Estado', 'Endereço']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    }
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeEnabled();

    // Back and forth keeps what was typed and found.
    await userEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    expect(screen.getByLabelText(/^Nome do contato/)).toHaveValue('Ana Souza');
    await userEvent.click(screen.getByRole('button', { name: 'Próximo' }));
    expect(screen.getByLabelText(/^CNPJ/)).toHaveValue('11.222.333/0001-81');
    expect(screen.getByLabelText('Razão social')).toHaveValue('Alfa Comércio de Coletores Ltda');
  });

  it('step 2 takes an alphanumeric CNPJ, upper-cased, and sends it as 12ABC34501DE35', async () => {
    const calls = backend();
    renderAt('/Registration', <AppRoutes />);
    await toStep2();
    const cnpj = screen.getByLabelText(/^CNPJ/);
    await userEvent.type(cnpj, '12abc34501de35');
    expect(cnpj).toHaveValue('12.ABC.345/01DE-35');
    await waitFor(() => expect(screen.getByLabelText('Razão social')).toHaveValue('Alfa Comércio de Coletores Ltda'));
    expect(screen.queryByText('Verifique o cnpj digitado')).not.toBeInTheDocument();
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/')).map((c) => c.url)).toEqual(['/api/cnpj/12ABC34501DE35']);
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    await screen.findByRole('dialog');
    expect(calls.find((c) => c.url === '/api/register/resale')?.body).toMatchObject({ cnpj: '12ABC34501DE35' });
  });

  it("wrong check digits show 'Verifique o cnpj digitado' without a lookup", async () => {
    const calls = backend();
    renderAt('/Registration', <AppRoutes />);
    await toStep2();
    await userEvent.type(screen.getByLabelText(/^CNPJ/), '11222333000182');
    expect(screen.getByTestId('registration-cnpj-error')).toHaveTextContent('Verifique o cnpj digitado');
    expect(calls.filter((c) => c.url.startsWith('/api/cnpj/'))).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
  });

  it.each([
    [404, 'CNPJ inválido! Por favor digite um CNPJ válido!'],
    [429, 'É permitido somente 3 consultas por minuto'],
  ])('a lookup answered %s shows its message', async (status, message) => {
    // No message of the server's: the spec's text (a 429 with one shows it, lib/cnpjApi.test.ts).
    mockFetch((call) => (call.url.startsWith('/api/cnpj/') ? json(status, {}) : json(200, {})));
    renderAt('/Registration', <AppRoutes />);
    await toStep2();
    await userEvent.type(screen.getByLabelText(/^CNPJ/), '11222333000181');
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Ops!');
    expect(dialog).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
  });

  async function lookedUp(user = userEvent.setup()) {
    await toStep2(user);
    await user.type(screen.getByLabelText(/^CNPJ/), '11222333000181');
    await waitFor(() => expect(screen.getByLabelText('Razão social')).toHaveValue('Alfa Comércio de Coletores Ltda'));
  }

  it("201: 'Revenda cadastrada com sucesso', then Login; the payload is the spec's", async () => {
    const calls = backend();
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Feito!');
    expect(dialog).toHaveTextContent('Revenda cadastrada com sucesso');
    expect(calls.find((c) => c.url === '/api/register/resale')?.body).toEqual({
      role: [],
      brand: 'yep',
      country: 'Brasil',
      email: 'ana@alfa.com.br',
      phone: '31987654321',
      contactName: 'Ana Souza',
      cnpj: '11222333000181',
      fantasyName: 'N/C',
      corporateName: 'Alfa Comércio de Coletores Ltda',
      street: 'Rua das Flores, 100',
      state: 'MG',
      cep: '30140071',
      city: 'Belo Horizonte',
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("a duplicate goes back to step 1 with 'Já existe uma revenda registrada nesse email'", async () => {
    backend([() => json(400, { message: 'Email ou Doc já existente' })]);
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Já existe uma revenda registrada nesse email');
    expect(within(step1()).getByTestId('step-title')).toHaveTextContent('Crie seu usuário');
    expect(progress()).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByLabelText(/^E-mail/)).toHaveValue('ana@alfa.com.br');
  });

  it('a CNPJ already registered names the CNPJ and stays on step 2', async () => {
    backend([
      () => json(400, { message: 'Já existe uma revenda registrada com este CNPJ.', code: 'CNPJ_TAKEN', field: 'cnpj' }),
    ]);
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Já existe uma revenda registrada com este CNPJ.');
    expect(dialog).not.toHaveTextContent('email');
    expect(screen.getByTestId('step-title')).toHaveTextContent('Sua revenda');
    expect(progress()).toHaveAttribute('aria-valuenow', '100');
  });

  it("another failure shows 'Houve um erro. Tente mais tarde!' and stays; sent again, the sign-up keeps its Idempotency-Key", async () => {
    const calls = backend([() => json(500, {}), () => json(201, { message: 'Revenda cadastrada com sucesso' })]);
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Houve um erro. Tente mais tarde!');
    expect(screen.getByTestId('step-title')).toHaveTextContent('Sua revenda');
    // The first call may have been stored (its answer lost): the second,
    // with the same key, is answered as the first, not as "CNPJ taken".
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByTestId('success-modal-message')).toHaveTextContent('Revenda cadastrada com sucesso');
    const keys = calls.filter((c) => c.url === '/api/register/resale').map((c) => c.headers['idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a 429 shows the loading screen for 60 s, then retries once', async () => {
    const calls = backend([() => json(429, { message: 'Muitas solicitações' }), () => json(201, {})]);
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByTestId('loading-modal-message')).toHaveTextContent('Aguarde, estamos reunindo suas informações');
    await act(() => vi.advanceTimersByTimeAsync(59_000));
    expect(calls.filter((c) => c.url === '/api/register/resale')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(calls.filter((c) => c.url === '/api/register/resale')).toHaveLength(2));
    const [first, retry] = calls.filter((c) => c.url === '/api/register/resale');
    expect(first.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(retry.headers['idempotency-key']).toBe(first.headers['idempotency-key']);
    expect(await screen.findByTestId('success-modal-message')).toHaveTextContent('Revenda cadastrada com sucesso');
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    await waitFor(() => expect(screen.queryByTestId('loading-modal-message')).not.toBeInTheDocument());
  });

  it('a second 429 gives up with the generic error', async () => {
    const calls = backend([() => json(429, {})]);
    renderAt('/Registration', <AppRoutes />);
    await lookedUp();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Finalizar' }));
    await screen.findByTestId('loading-modal-message');
    await act(() => vi.advanceTimersByTimeAsync(60_500));
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente mais tarde!');
    expect(calls.filter((c) => c.url === '/api/register/resale')).toHaveLength(2);
  });

  it('links back to login', () => {
    backend();
    renderAt('/Registration', <AppRoutes />);
    expect(screen.getByRole('link', { name: 'Voltar ao login' })).toHaveAttribute('href', '/');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';

async function fill(name: string, email: string, phone: string) {
  if (name) await userEvent.type(screen.getByLabelText(/^Nome/), name);
  if (email) await userEvent.type(screen.getByLabelText(/^E-mail corporativo/), email);
  if (phone) await userEvent.type(screen.getByLabelText(/^Telefone corporativo/), phone);
}

describe('SellerRegistrationPage', () => {
  it("shows the spec's messages and keeps 'Finalizar' disabled until valid", async () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Users/registration', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Cadastre seu vendedor');
    const finish = screen.getByRole('button', { name: 'Finalizar' });
    expect(finish).toBeDisabled();
    await fill('', 'bruno@alfa', '1198765432');
    await userEvent.click(screen.getByLabelText(/^Nome/));
    await userEvent.tab();
    expect(screen.getByText('Verifique o nome digitado')).toBeInTheDocument();
    expect(screen.getByText('Verifique o email digitado')).toBeInTheDocument();
    expect(screen.getByText('Verifique o telefone digitado')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Telefone corporativo/)).toHaveValue('(11) 98765-432');
    expect(finish).toBeDisabled();
    await fill('Bruno Dias', '.com.br', '1');
    expect(screen.getByLabelText(/^Telefone corporativo/)).toHaveValue('(11) 98765-4321');
    expect(screen.queryByText(/^Verifique/)).not.toBeInTheDocument();
    expect(finish).toBeEnabled();
  });

  it("creates the seller (digits only, host) then returns to Users with 'Vendedor cadastrado com sucesso'", async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = mockFetch((c) => (c.url === '/api/seller' ? json(201, { message: 'Vendedor cadastrado com sucesso' }) : json(200, {})));
    renderAt('/Painel/Users/registration', <AppRoutes />);
    await fill('Bruno Dias', 'bruno@alfa.com.br', '11987654321');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Vendedor cadastrado com sucesso');
    expect(calls.find((c) => c.url === '/api/seller')?.body).toEqual({
      name: 'Bruno Dias',
      email: 'bruno@alfa.com.br',
      phone: '11987654321',
      host: window.location.host,
    });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Users$/));
  });

  it.each([
    [409, {}, 'O email fornecido já foi utilizado por outro usuário! Por favor, digite outro email!'],
    [400, { message: 'Dados do usuário inválidos', errors: ['Verifique o telefone digitado'] }, 'Verifique o telefone digitado'],
    [400, {}, 'Dados do usuário inválidos'],
    [500, {}, 'Erro ao cadastrar o vendedor'],
  ])('%s shows its message and stays', async (status, body, message) => {
    storeSession({ roles: ['RESALE'] });
    mockFetch((c) => (c.url === '/api/seller' ? json(status, body) : json(200, {})));
    renderAt('/Painel/Users/registration', <AppRoutes />);
    await fill('Bruno Dias', 'bruno@alfa.com.br', '11987654321');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent(message);
    expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Users/registration');
  });
});

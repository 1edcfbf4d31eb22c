import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, storeSession } from '@/test/helpers';

async function fill(password: string, confirmation: string) {
  await userEvent.type(screen.getByLabelText('Senha'), password);
  await userEvent.type(screen.getByLabelText('Confirmação de senha'), confirmation);
}

describe('SettingsPage', () => {
  it('updates the password and goes back to Opportunities', async () => {
    storeSession({ roles: ['SELLER'], token: 'tk' });
    const calls = mockFetch(() => json(200, { message: 'Senha atualizada com sucesso' }));
    renderAt('/Painel/Settings', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Configurações');
    expect(screen.getByText('Atualizar a sua senha')).toBeInTheDocument();
    await fill('Oportuna@2027', 'Oportuna@2027');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const call = calls.find((c) => c.url === '/authenticator/auth/update_password');
    expect(call?.body).toEqual({ password: 'Oportuna@2027', confirmation: 'Oportuna@2027' });
    expect(call?.headers.authorization).toBe('Bearer tk');
    expect(call?.headers.company).toBe('yep');
    expect(await screen.findByRole('dialog')).toHaveTextContent('Senha atualizada com sucesso');
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities'));
  });

  it('keeps Finalizar disabled while the rule or the confirmation fails', async () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(200, {}));
    renderAt('/Painel/Settings', <AppRoutes />);
    await fill('semregra', 'semregra');
    expect(screen.getByRole('button', { name: 'Finalizar' })).toBeDisabled();
    expect(
      screen.getByText(
        'A senha deve conter no mínimo 8 caracteres, incluindo ao menos uma letra maiúscula, um caracter especial e um número.',
      ),
    ).toBeInTheDocument();
  });

  it("shows the server message, else 'Erro ao atualizar a senha', then goes to Opportunities", async () => {
    storeSession({ roles: ['RESALE'] });
    mockFetch(() => json(400, {}));
    renderAt('/Painel/Settings', <AppRoutes />);
    await fill('Oportuna@2027', 'Oportuna@2027');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Erro ao atualizar a senha');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/Painel/Opportunities'));
  });
});

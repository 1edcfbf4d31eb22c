import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../App';
import { json, mockFetch, renderAt } from '../../../test/helpers';

describe('ResetPasswordPage', () => {
  it('sets the new password with the link token, then goes to login', async () => {
    const calls = mockFetch((call) =>
      call.url === '/authenticator/auth/update_password' ? json(200, { message: 'Senha atualizada com sucesso' }) : json(200, {}),
    );
    renderAt('/reset-password?token=abc', <AppRoutes />);
    const finish = screen.getByRole('button', { name: 'Finalizar' });
    await userEvent.type(screen.getByLabelText('Nova senha'), 'fraca');
    expect(screen.getByText(/A senha deve conter no mínimo 8 caracteres/)).toBeInTheDocument();
    expect(finish).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Nova senha'));
    await userEvent.type(screen.getByLabelText('Nova senha'), 'Nova@Senha1');
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'Nova@Senha2');
    expect(screen.getByText('As senhas não conferem!')).toBeInTheDocument();
    expect(finish).toBeDisabled();
    await userEvent.clear(screen.getByLabelText('Confirme a nova senha'));
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'Nova@Senha1');
    await userEvent.click(finish);
    const call = calls.find((c) => c.url === '/authenticator/auth/update_password');
    expect(call?.body).toEqual({ token: 'abc', password: 'Nova@Senha1', confirmation: 'Nova@Senha1' });
    expect(call?.headers.authorization).toBeUndefined();
    expect(await screen.findByRole('dialog')).toHaveTextContent('Senha atualizada com sucesso');
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("shows the server's message on failure", async () => {
    mockFetch((call) =>
      call.url === '/authenticator/auth/update_password'
        ? json(400, { message: 'Link de redefinição inválido ou expirado.' })
        : json(200, {}),
    );
    renderAt('/reset-password?token=old', <AppRoutes />);
    await userEvent.type(screen.getByLabelText('Nova senha'), 'Nova@Senha1');
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'Nova@Senha1');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Link de redefinição inválido ou expirado.');
  });

  it('says the link is invalid without a token', () => {
    mockFetch(() => json(200, {}));
    renderAt('/reset-password', <AppRoutes />);
    expect(screen.getByRole('alert')).toHaveTextContent('Link de redefinição inválido ou expirado.');
  });
});

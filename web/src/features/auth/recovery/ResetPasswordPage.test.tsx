import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt } from '@/test/helpers';

// Typing two passwords through the whole app takes a few seconds on a shared machine.
vi.setConfig({ testTimeout: 20_000 });

describe('ResetPasswordPage', () => {
  it('sets the new password with the link token, then goes to login', async () => {
    const calls = mockFetch((call) =>
      call.url === '/authenticator/auth/update_password' ? json(200, { message: 'Senha atualizada com sucesso' }) : json(200, {}),
    );
    renderAt('/reset-password?token=abc', <AppRoutes />);
    const finish = await screen.findByRole('button', { name: 'Finalizar' });
    expect(calls.find((c) => c.url === '/authenticator/auth/reset_password/check')?.body).toEqual({ token: 'abc' });
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
    await userEvent.type(await screen.findByLabelText('Nova senha'), 'Nova@Senha1');
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'Nova@Senha1');
    await userEvent.click(screen.getByRole('button', { name: 'Finalizar' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Link de redefinição inválido ou expirado.');
  });

  it('checks the link first: a used or expired link says so at once, with no form to fill', async () => {
    const calls = mockFetch((call) =>
      call.url === '/authenticator/auth/reset_password/check'
        ? json(410, { message: 'Link de redefinição inválido ou expirado.' })
        : json(200, {}),
    );
    renderAt('/reset-password?token=used', <AppRoutes />);
    expect(await screen.findByTestId('reset-link-invalid')).toHaveTextContent('Link de redefinição inválido ou expirado.');
    expect(screen.queryByLabelText('Nova senha')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Pedir um novo link' })).toHaveAttribute('href', '/recovery-password');
    expect(calls.some((c) => c.url === '/authenticator/auth/update_password')).toBe(false);
  });

  it('shows the form when the server cannot tell (no check route: 404)', async () => {
    mockFetch((call) => (call.url === '/authenticator/auth/reset_password/check' ? json(404, { message: 'Not Found' }) : json(200, {})));
    renderAt('/reset-password?token=abc', <AppRoutes />);
    expect(await screen.findByLabelText('Nova senha')).toBeInTheDocument();
  });

  it('says the link is invalid without a token', () => {
    mockFetch(() => json(200, {}));
    renderAt('/reset-password', <AppRoutes />);
    expect(screen.getByRole('alert')).toHaveTextContent('Link de redefinição inválido ou expirado.');
  });
});

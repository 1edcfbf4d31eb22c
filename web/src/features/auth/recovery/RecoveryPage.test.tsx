import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { json, mockFetch, renderAt, type Call } from '@/test/helpers';

function backend(answer: (call: Call) => Response) {
  return mockFetch((call) => {
    if (call.url === '/authenticator/auth/reset_password') return answer(call);
    if (call.url === '/api/version') return json(200, { version: '0.1.0' });
    return json(200, { data: [] });
  });
}

async function ask(email: string) {
  await userEvent.type(screen.getByLabelText('E-mail'), email);
  await userEvent.click(screen.getByRole('button', { name: 'Recuperar senha' }));
}

describe('RecoveryPage', () => {
  it('asks for the reset e-mail and returns to login after a 204', async () => {
    const calls = backend(() => new Response(null, { status: 204 }));
    renderAt('/recovery-password', <AppRoutes />);
    expect(screen.getByRole('button', { name: 'Recuperar senha' })).toBeDisabled();
    await ask(' ana@yep.demo ');
    const reset = calls.find((c) => c.url === '/authenticator/auth/reset_password');
    expect(reset?.body).toEqual({
      company: 'yep',
      redirect_url: `${window.location.origin}/reset-password`,
      email: 'ana@yep.demo',
    });
    expect(await screen.findByRole('dialog')).toHaveTextContent('Você receberá um email para redefinção.');
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it("tells when no user has the e-mail ('Not Found Exception')", async () => {
    backend(() => json(404, { message: 'Not Found Exception' }));
    renderAt('/recovery-password', <AppRoutes />);
    await ask('ninguem@yep.demo');
    expect(await screen.findByRole('dialog')).toHaveTextContent('Não foi encontrado um usuário com o email solicitado!');
  });

  it("shows 'Houve um erro. Tente mais tarde!' otherwise", async () => {
    backend(() => json(400, { message: 'bad' }));
    renderAt('/recovery-password', <AppRoutes />);
    await ask('x@yep.demo');
    expect(await screen.findByRole('dialog')).toHaveTextContent('Houve um erro. Tente mais tarde!');
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import { expectTexts, json, mockFetch, renderAt, storeSession, type Call } from '@/test/helpers';

const SELLER = {
  id: 's1',
  name: 'Vanessa Lima',
  email: 'vanessa@alfa.com.br',
  phone: '11987650004',
  doc: null,
  active: true,
  roles: [{ name: 'SELLER', data: { brand: 'yep' } }],
};

function backend(
  user: object | null,
  inactivate: (c: Call) => Response = () => json(200, { message: 'Usuário deletado com sucesso' }),
  restore: (c: Call) => Response = () => json(200, { message: 'Exclusão desfeita: o usuário voltou a ter acesso.' }),
) {
  return mockFetch((c) => {
    if (c.url === '/authenticator/user/s1') return user ? json(200, { data: user }) : json(404, { message: 'Falha ao recuperar o usuário' });
    if (c.url.startsWith('/api/seller/inative/')) return inactivate(c);
    if (c.url.startsWith('/api/seller/restore/')) return restore(c);
    return json(200, {});
  });
}


describe('UserDetailsPage', () => {
  it("a reseller sees 'Detalhes do vendedor', the values and 'Excluir usuário'", async () => {
    storeSession({ roles: ['RESALE'] });
    backend(SELLER);
    renderAt('/Painel/Users/s1', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Detalhes do vendedor');
    expect(await screen.findByTestId('detail-name')).toHaveTextContent('Vanessa Lima');
    expectTexts({ 'detail-email': 'vanessa@alfa.com.br', 'detail-phone': '(11) 98765-0004', 'detail-roles': 'Vendedor' });
    expect(screen.getByRole('button', { name: 'Excluir usuário' })).toBeInTheDocument();
    expect(screen.queryByTestId('user-inactive')).not.toBeInTheDocument();
    expect(screen.getByTestId('user-history')).toHaveAttribute('href', '/Painel/History/s1?type=Users');
  });

  it("a deactivated seller is tagged 'Inativo' and offers no 'Excluir usuário'", async () => {
    storeSession({ roles: ['RESALE'] });
    backend({ ...SELLER, active: false });
    renderAt('/Painel/Users/s1', <AppRoutes />);
    expect(await screen.findByTestId('detail-name')).toHaveTextContent('Vanessa Lima');
    expect(screen.getByTestId('user-inactive')).toHaveTextContent('Inativo');
    expect(screen.queryByRole('button', { name: 'Excluir usuário' })).not.toBeInTheDocument();
  });

  it("a representative sees 'Detalhes do usuário', 'Sem Telefone' and no delete button", async () => {
    storeSession({ roles: ['REPRESENTATIVE'] });
    backend({ ...SELLER, phone: null });
    renderAt('/Painel/Users/s1', <AppRoutes />);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Detalhes do usuário');
    expect(await screen.findByTestId('detail-phone')).toHaveTextContent('Sem Telefone');
    expect(screen.queryByRole('button', { name: 'Excluir usuário' })).not.toBeInTheDocument();
  });

  it("deletes after the confirmation: 'Usuário deletado com sucesso', then Users", async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = backend(SELLER);
    renderAt('/Painel/Users/s1', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir usuário' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Vanessa Lima');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByTestId('success-modal-message')).toHaveTextContent('Usuário deletado com sucesso');
    expect(calls.find((c) => c.url === '/api/seller/inative/s1')?.method).toBe('PATCH');
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Users$/));
  });

  it("after 'Feito!', Users shows a toast whose 'Desfazer' restores the seller", async () => {
    storeSession({ roles: ['RESALE'] });
    const calls = backend(SELLER);
    renderAt('/Painel/Users/s1', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir usuário' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    // The deletion is done before any toast: a tab closed now leaves the seller deleted.
    expect(calls.some((c) => c.url === '/api/seller/inative/s1')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Desfazer' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/Painel\/Users$/));
    expect(await screen.findByText('Usuário excluído: Vanessa Lima.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Desfazer' }));
    expect(await screen.findByText('Exclusão desfeita: o usuário voltou a ter acesso.')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/api/seller/restore/s1')?.method).toBe('PATCH');
  });

  it("a 'Desfazer' the server refuses (too late) says why", async () => {
    storeSession({ roles: ['RESALE'] });
    backend(SELLER, undefined, () => json(409, { message: 'Não é mais possível desfazer esta exclusão.' }));
    renderAt('/Painel/Users/s1', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir usuário' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Voltar ao início' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Desfazer' }));
    expect(await screen.findByText('Não é mais possível desfazer esta exclusão.')).toBeInTheDocument();
  });

  it('a failed delete or read shows the spec message', async () => {
    storeSession({ roles: ['RESALE'] });
    backend(SELLER, () => json(403, { message: 'x' }));
    const { unmount } = renderAt('/Painel/Users/s1', <AppRoutes />);
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir usuário' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
    unmount();
    backend(null);
    renderAt('/Painel/Users/s1', <AppRoutes />);
    expect(await screen.findByTestId('error-modal-message')).toHaveTextContent('Houve um erro. Tente novamente mais tarde!');
  });
});

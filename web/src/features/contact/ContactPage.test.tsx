import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/App';
import type { Brand } from '@/lib/brand';
import { TEST_BRAND, json, mockFetch, renderAt } from '@/test/helpers';

const BRAND: Brand = {
  ...TEST_BRAND,
  contact: { phones: ['(11) 4000-1000', '0800 000 1000'], address: 'Av. Paulista, 1000 - São Paulo/SP', email: 'x@y.com' },
};

async function fill() {
  await userEvent.type(screen.getByLabelText(/^Nome completo/), 'Ana Souza');
  await userEvent.type(screen.getByLabelText(/^E-mail/), 'ana@alfa.com.br');
  await userEvent.type(screen.getByLabelText(/^Assunto/), 'Parceria');
  await userEvent.type(screen.getByLabelText(/^Mensagem/), 'Quero ser revenda.');
}

describe('ContactPage', () => {
  it('shows the service hours and the brand phones and address', () => {
    mockFetch(() => json(200, {}));
    renderAt('/Contact', <AppRoutes />, BRAND);
    expect(screen.getByTestId('page-title')).toHaveTextContent('Contato');
    const info = screen.getByRole('region', { name: 'Atendimento' });
    expect(info).toHaveTextContent('Segunda a quinta-feira: 08:00 às 18:00');
    expect(info).toHaveTextContent('Sexta-feira: 08:00 às 17:00');
    expect(within(info).getByRole('link', { name: '(11) 4000-1000' })).toHaveAttribute('href', 'tel:1140001000');
    expect(info).toHaveTextContent('0800 000 1000');
    expect(info).toHaveTextContent('Av. Paulista, 1000 - São Paulo/SP');
    expect(screen.getByRole('link', { name: 'Voltar ao login' })).toHaveAttribute('href', '/');
  });

  it('flags the empty fields and sends nothing', async () => {
    const calls = mockFetch(() => json(200, {}));
    renderAt('/Contact', <AppRoutes />, BRAND);
    await userEvent.type(screen.getByLabelText(/^Nome completo/), 'Ana');
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(screen.getAllByText('*Campo Obrigatório')).toHaveLength(3);
    expect(screen.getByLabelText(/^Nome completo/)).toHaveAttribute('aria-invalid', 'false');
    expect(screen.getByLabelText(/^E-mail/)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText(/^Mensagem/)).toHaveAttribute('aria-invalid', 'true');
    expect(calls.filter((c) => c.url === '/api/contact')).toHaveLength(0);
  });

  it("sends the four fields: 'Feito!' 'Email enviado com sucesso!' then Login", async () => {
    const calls = mockFetch(() => json(200, { message: 'Email enviado com sucesso!' }));
    renderAt('/Contact', <AppRoutes />, BRAND);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Feito!');
    expect(dialog).toHaveTextContent('Email enviado com sucesso!');
    const call = calls.find((c) => c.url === '/api/contact');
    expect(call?.body).toEqual({ fullName: 'Ana Souza', email: 'ana@alfa.com.br', title: 'Parceria', description: 'Quero ser revenda.' });
    expect(call?.headers.company).toBe('yep');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar ao início' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/$/));
  });

  it('a failure shows the spec message and keeps the form', async () => {
    mockFetch(() => json(400, { message: 'x' }));
    renderAt('/Contact', <AppRoutes />, BRAND);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }));
    expect(await screen.findByRole('dialog')).toHaveTextContent(
      'Erro ao solicitar contato, por favor tente novamente mais tarde!',
    );
    expect(screen.getByLabelText(/^Assunto/)).toHaveValue('Parceria');
  });
});

import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmationModal } from './ConfirmationModal';

describe('ConfirmationModal', () => {
  it('shows title and message and reports confirm or cancel', async () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmationModal
        isOpen
        title="Excluir usuário"
        message="Deseja realmente excluir este usuário?"
        confirmText="Excluir"
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    expect(screen.getByRole('dialog')).toHaveTextContent('Excluir usuário');
    expect(screen.getByText('Deseja realmente excluir este usuário?')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('closes on Esc, but not while the action is on its way', async () => {
    const onCancel = vi.fn();
    const { rerender } = render(
      <ConfirmationModal isOpen title="Aprovar oportunidade" message="M" loading onConfirm={() => {}} onCancel={onCancel} />,
    );
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(onCancel).not.toHaveBeenCalled();
    rerender(<ConfirmationModal isOpen title="Aprovar oportunidade" message="M" onConfirm={() => {}} onCancel={onCancel} />);
    await userEvent.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it("defaults to 'Confirmar' and 'Cancelar'", () => {
    render(<ConfirmationModal isOpen title="T" message="M" onConfirm={() => {}} onCancel={() => {}} />);
    expect(screen.getByRole('button', { name: 'Confirmar' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancelar' })).toBeInTheDocument();
  });
});

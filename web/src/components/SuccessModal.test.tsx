import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { SuccessModal } from './SuccessModal';

describe('SuccessModal', () => {
  it("shows 'Feito!', the message and closes with 'Voltar ao início'", async () => {
    const onClose = vi.fn();
    render(<SuccessModal isOpen message="Senha atualizada com sucesso" onClose={onClose} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Feito!');
    expect(screen.getByText('Senha atualizada com sucesso')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar ao início' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

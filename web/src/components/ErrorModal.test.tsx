import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ErrorModal } from './ErrorModal';

describe('ErrorModal', () => {
  it("shows 'Ops!', the message and closes with 'Voltar'", async () => {
    const onClose = vi.fn();
    render(<ErrorModal isOpen message="Houve um erro. Tente mais tarde!" onClose={onClose} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Ops!');
    expect(screen.getByText('Houve um erro. Tente mais tarde!')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('renders nothing when closed', () => {
    render(<ErrorModal isOpen={false} message="x" onClose={() => {}} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});

import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MissingFieldsModal } from './MissingFieldsModal';

describe('MissingFieldsModal', () => {
  it("lists the missing labels under 'Campos obrigatórios ausentes!' and closes with 'Fechar'", async () => {
    const onClose = vi.fn();
    render(<MissingFieldsModal isOpen fields={['CNPJ', 'Email do cliente', 'Produto']} onClose={onClose} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Campos obrigatórios ausentes!');
    const items = within(screen.getByTestId('missing-fields-list')).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['CNPJ', 'Email do cliente', 'Produto']);
    await userEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

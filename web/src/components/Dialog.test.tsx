import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CLOSE_LABEL, Dialog } from './Dialog';

describe('Dialog', () => {
  it("names itself by its title and closes with a button called 'Fechar janela'", async () => {
    const onClose = vi.fn();
    render(
      <Dialog isOpen title="Reprovar registro" onClose={onClose}>
        <p>corpo</p>
      </Dialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Reprovar registro' });
    expect(dialog).toHaveTextContent('corpo');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: CLOSE_LABEL }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('has no close button when told so, and no header without a title', () => {
    const { rerender } = render(<Dialog isOpen title="Aguarde" isCloseButtonShown={false} />);
    expect(screen.getByRole('dialog', { name: 'Aguarde' })).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    rerender(<Dialog isOpen />);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.queryByRole('heading')).not.toBeInTheDocument();
  });

  it("is the only Dialog the screens use (Blueprint's own says 'Close')", () => {
    const sources = import.meta.glob(['../**/*.tsx', '!../**/*.test.tsx', '!./Dialog.tsx'], {
      query: '?raw',
      import: 'default',
      eager: true,
    }) as Record<string, string>;
    expect(Object.keys(sources).length).toBeGreaterThan(20);
    const offenders = Object.entries(sources)
      .filter(([, text]) => /import\s*\{[^}]*\bDialog\b[^}]*\}\s*from\s*'@blueprintjs\/core'/.test(text))
      .map(([path]) => path);
    expect(offenders).toEqual([]);
  });
});

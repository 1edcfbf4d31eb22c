import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_MESSAGES, LoadingModal } from './LoadingModal';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

function message() {
  return screen.getByTestId('loading-modal-message').textContent;
}

describe('LoadingModal', () => {
  it('names its progress bar with the text shown (a screen reader reads what it waits for)', () => {
    render(<LoadingModal isOpen />);
    expect(screen.getByRole('progressbar', { name: LOADING_MESSAGES[0] })).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(screen.getByRole('progressbar', { name: LOADING_MESSAGES[1] })).toBeInTheDocument();
  });

  it('changes its text after 10, 20 and 30 seconds', () => {
    render(<LoadingModal isOpen />);
    expect(message()).toBe('Aguarde, estamos reunindo suas informações');
    act(() => {
      vi.advanceTimersByTime(9_999);
    });
    expect(message()).toBe(LOADING_MESSAGES[0]);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(message()).toBe('Só mais um instante, estamos quase lá…');
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(message()).toBe('Está demorando um pouco mais do que o normal, obrigado pela paciência.');
    act(() => {
      vi.advanceTimersByTime(10_000);
    });
    expect(message()).toBe('Ainda estamos trabalhando nisso. Por favor, não feche esta página.');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(message()).toBe(LOADING_MESSAGES[3]);
  });

  it('starts over when opened again', () => {
    const { rerender } = render(<LoadingModal isOpen />);
    act(() => {
      vi.advanceTimersByTime(25_000);
    });
    expect(message()).toBe(LOADING_MESSAGES[2]);
    rerender(<LoadingModal isOpen={false} />);
    act(() => {
      vi.advanceTimersByTime(1_000);
    });
    rerender(<LoadingModal isOpen />);
    expect(message()).toBe(LOADING_MESSAGES[0]);
  });

  it('cannot be closed by the user', () => {
    render(<LoadingModal isOpen />);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});

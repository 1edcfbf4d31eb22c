import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Cookies from 'js-cookie';
import { describe, expect, it } from 'vitest';
import { LGPD_PDF_URL, LGPD_SPACE_VAR, LgpdBanner } from './LgpdBanner';

describe('LgpdBanner', () => {
  it('opens the policy PDF in a viewer', async () => {
    render(<LgpdBanner />);
    await userEvent.click(screen.getByRole('button', { name: 'Ler a Política de Privacidade' }));
    expect(screen.getByTestId('pdf-viewer-frame')).toHaveAttribute('src', LGPD_PDF_URL);
  });

  it('remembers the acceptance in a cookie and stays hidden afterwards', async () => {
    const { unmount } = render(<LgpdBanner />);
    await userEvent.click(screen.getByRole('button', { name: 'Aceitar' }));
    expect(screen.queryByTestId('lgpd-banner')).not.toBeInTheDocument();
    expect(Cookies.get('lgpd_accepted')).toBe('true');
    unmount();
    render(<LgpdBanner />);
    expect(screen.queryByTestId('lgpd-banner')).not.toBeInTheDocument();
  });

  it('keeps room for itself at the bottom of the page while it shows, and gives it back once accepted', async () => {
    const space = () => document.documentElement.style.getPropertyValue(LGPD_SPACE_VAR);
    render(<LgpdBanner />);
    expect(space()).toMatch(/^\d+px$/);
    await userEvent.click(screen.getByRole('button', { name: 'Aceitar' }));
    expect(space()).toBe('');
  });
});

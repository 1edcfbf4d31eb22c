import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockFetch, renderAt } from '../../../test/helpers';
import userEvent from '@testing-library/user-event';
import { CAROUSEL_INTERVAL_MS, Carousel } from './Carousel';

afterEach(() => {
  vi.useRealTimers();
});

describe('Carousel', () => {
  it("loads the brand's images and rotates every 6 seconds", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = mockFetch(() =>
      json(200, {
        data: [
          { url: '/brand-assets/yep/carousel-1.svg', alt: 'Um' },
          { url: '/brand-assets/yep/carousel-2.svg', alt: 'Dois' },
          { url: '/brand-assets/yep/carousel-3.svg', alt: 'Três' },
        ],
      }),
    );
    renderAt('/', <Carousel />);
    expect(await screen.findByTestId('carousel-active')).toHaveAttribute('alt', 'Um');
    expect(calls[0].url).toBe('/api/image?brand=yep');
    await act(async () => {}); // let the rotation effect start
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('alt', 'Dois');
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 2);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('alt', 'Um');
    expect(CAROUSEL_INTERVAL_MS).toBe(6000);
  });

  it('can be paused and resumed (WCAG 2.2.2)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch(() =>
      json(200, {
        data: [
          { url: '/brand-assets/yep/carousel-1.svg', alt: 'Um' },
          { url: '/brand-assets/yep/carousel-2.svg', alt: 'Dois' },
        ],
      }),
    );
    renderAt('/', <Carousel />);
    expect(await screen.findByTestId('carousel-active')).toHaveAttribute('alt', 'Um');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Pausar carrossel' }));
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 3);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('alt', 'Um');
    const play = screen.getByRole('button', { name: 'Retomar carrossel' });
    expect(play).toHaveAttribute('aria-pressed', 'true');
    await user.click(play);
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('alt', 'Dois');
  });
});

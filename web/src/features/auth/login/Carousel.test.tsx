import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import userEvent from '@testing-library/user-event';
import { json, mockFetch, renderAt } from '@/test/helpers';
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
          { url: '/brand-assets/yep/carousel-1.svg', alt: 'Um', title: 'Um', text: 'Primeiro slide.' },
          { url: '/brand-assets/yep/carousel-2.svg', alt: 'Dois' },
          { url: '/brand-assets/yep/carousel-3.svg', alt: 'Três' },
        ],
      }),
    );
    renderAt('/', <Carousel />);
    expect(await screen.findByTestId('carousel-active')).toHaveAttribute('data-title', 'Um');
    expect(calls[0].url).toBe('/api/image?brand=yep');
    await act(async () => {}); // let the rotation effect start
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('data-title', 'Dois');
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 2);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('data-title', 'Um');
    expect(CAROUSEL_INTERVAL_MS).toBe(6000);
  });

  it('can be paused and resumed (WCAG 2.2.2)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    mockFetch(() =>
      json(200, {
        data: [
          { url: '/brand-assets/yep/carousel-1.svg', alt: 'Um', title: 'Um', text: 'Primeiro slide.' },
          { url: '/brand-assets/yep/carousel-2.svg', alt: 'Dois' },
        ],
      }),
    );
    renderAt('/', <Carousel />);
    expect(await screen.findByTestId('carousel-active')).toHaveAttribute('data-title', 'Um');
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'Pausar carrossel' }));
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS * 3);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('data-title', 'Um');
    const play = screen.getByRole('button', { name: 'Retomar carrossel' });
    expect(play).toHaveAttribute('aria-pressed', 'true');
    await user.click(play);
    act(() => {
      vi.advanceTimersByTime(CAROUSEL_INTERVAL_MS);
    });
    expect(screen.getByTestId('carousel-active')).toHaveAttribute('data-title', 'Dois');
  });

  it("shows the headline as the page's text over a decorative image, a dot per slide", async () => {
    mockFetch(() =>
      json(200, {
        data: [
          { url: '/brand-assets/yep/carousel-1.abcdef0123.svg', alt: 'Um', title: 'Um', text: 'Primeiro slide.' },
          { url: '/brand-assets/yep/carousel-2.abcdef0123.svg', alt: 'Dois', title: 'Dois', text: 'Segundo slide.' },
        ],
      }),
    );
    renderAt('/', <Carousel />);
    expect(await screen.findByTestId('carousel-active')).toHaveAttribute('alt', '');
    expect(screen.getByTestId('carousel-caption')).toHaveTextContent('UmPrimeiro slide.');
    await userEvent.click(screen.getByRole('button', { name: 'Imagem 2 de 2: Dois' }));
    expect(screen.getByTestId('carousel-caption')).toHaveTextContent('DoisSegundo slide.');
    expect(screen.getAllByTestId('carousel-dot')).toHaveLength(2);
  });
});

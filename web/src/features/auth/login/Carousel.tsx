import { Button } from '@blueprintjs/core';
import { PauseIcon, PlayIcon } from '@blueprintjs/icons';
import { useEffect, useState } from 'react';
import { useBrand } from '@/lib/brand';
import * as portalApi from '../api/portal';

/** Interval between slides (spec §9). */
export const CAROUSEL_INTERVAL_MS = 6000;

export const PAUSE_LABEL = 'Pausar carrossel';
export const PLAY_LABEL = 'Retomar carrossel';

/** Whether the user asked the system for less motion: the carousel then starts paused. */
function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Brand slides beside the login form (GET /api/image?brand=), rotating every
 * 6 seconds. The image is the backdrop; the headline and its line are the
 * page's text over it (they reflow at any width, and are never cropped with
 * the picture). Below them, on their own dark strip, a button pauses and
 * resumes the rotation (WCAG 2.2.2) and one dot per slide picks it, each a
 * 24 px target (WCAG 2.5.8); it starts paused when the system asks for
 * reduced motion.
 */
export function Carousel() {
  const brand = useBrand();
  const [images, setImages] = useState<portalApi.CarouselImage[]>([]);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(prefersReducedMotion);

  useEffect(() => {
    let active = true;
    void portalApi.carouselImages(brand.slug).then((res) => {
      if (active && res.ok && Array.isArray(res.data?.data)) setImages(res.data.data.filter((i) => !!i?.url));
    });
    return () => {
      active = false;
    };
  }, [brand.slug]);

  useEffect(() => {
    if (images.length < 2 || paused) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % images.length), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [images.length, index, paused]);

  if (images.length === 0) {
    return (
      <div className="carousel carousel-empty" data-testid="login-carousel">
        <p className="carousel-tagline">{brand.tagline ?? brand.name}</p>
      </div>
    );
  }
  const current = images[Math.min(index, images.length - 1)];
  return (
    <div className="carousel" data-testid="login-carousel" aria-roledescription="carrossel">
      {images.map((image, i) => (
        <img
          key={image.url}
          src={image.url}
          alt=""
          width={800}
          height={600}
          className={i === index ? 'carousel-slide is-active' : 'carousel-slide'}
          data-testid={i === index ? 'carousel-active' : undefined}
          data-title={image.title ?? image.alt}
        />
      ))}
      <div className="carousel-panel">
        <div className="carousel-caption" aria-live={paused ? 'polite' : 'off'} data-testid="carousel-caption">
          <p className="carousel-title">{current.title ?? current.alt}</p>
          {current.text && <p className="carousel-text">{current.text}</p>}
        </div>
        {images.length > 1 && (
          <div className="carousel-controls" data-testid="carousel-controls">
            <Button
              variant="minimal"
              className="carousel-pause"
              icon={paused ? <PlayIcon /> : <PauseIcon />}
              aria-label={paused ? PLAY_LABEL : PAUSE_LABEL}
              aria-pressed={paused}
              onClick={() => setPaused((p) => !p)}
              data-testid="carousel-pause"
            />
            {images.map((image, i) => (
              <Button
                key={image.url}
                variant="minimal"
                className={i === index ? 'carousel-dot is-active' : 'carousel-dot'}
                aria-label={`Imagem ${i + 1} de ${images.length}: ${image.title ?? image.alt}`}
                aria-current={i === index}
                onClick={() => setIndex(i)}
                data-testid="carousel-dot"
              />
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

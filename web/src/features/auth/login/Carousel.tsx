import { Button } from '@blueprintjs/core';
import { PauseIcon, PlayIcon } from '@blueprintjs/icons';
import { useEffect, useState } from 'react';
import { useBrand } from '../../../lib/brand';
import * as portalApi from '../../../lib/portalApi';

/** Interval between slides (spec §9). */
export const CAROUSEL_INTERVAL_MS = 6000;

export const PAUSE_LABEL = 'Pausar carrossel';
export const PLAY_LABEL = 'Retomar carrossel';

/** Whether the user asked the system for less motion: the carousel then starts paused. */
function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * Brand images beside the login form (GET /api/image?brand=), rotating every 6
 * seconds. A button pauses and resumes the rotation (WCAG 2.2.2); it starts
 * paused when the system asks for reduced motion.
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
  return (
    <div className="carousel" data-testid="login-carousel" aria-roledescription="carrossel">
      {images.map((image, i) => (
        <img
          key={image.url}
          src={image.url}
          alt={image.alt}
          className={i === index ? 'carousel-slide is-active' : 'carousel-slide'}
          aria-hidden={i !== index}
          data-testid={i === index ? 'carousel-active' : undefined}
        />
      ))}
      {images.length > 1 && (
        <div className="carousel-dots">
          <Button
            variant="minimal"
            size="small"
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
              size="small"
              className={i === index ? 'carousel-dot is-active' : 'carousel-dot'}
              aria-label={`Imagem ${i + 1} de ${images.length}`}
              aria-current={i === index}
              onClick={() => setIndex(i)}
            />
          ))}
        </div>
      )}
    </div>
  );
}

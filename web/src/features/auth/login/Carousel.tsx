import { Button } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import { useBrand } from '../../../lib/brand';
import * as portalApi from '../../../lib/portalApi';

/** Interval between slides (spec §9). */
export const CAROUSEL_INTERVAL_MS = 6000;

/** Brand images beside the login form (GET /api/image?brand=), rotating every 6 seconds. */
export function Carousel() {
  const brand = useBrand();
  const [images, setImages] = useState<portalApi.CarouselImage[]>([]);
  const [index, setIndex] = useState(0);

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
    if (images.length < 2) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % images.length), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [images.length, index]);

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

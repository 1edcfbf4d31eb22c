import { getCompany, request } from '@/lib/http';

/** Typed calls of the main API used by the public screens (docs/api.md). */

export interface CarouselImage {
  url: string;
  alt: string;
  /** The slide's headline and line of text, laid over the image as the page's text. */
  title?: string;
  text?: string;
}

/** GET /api/version → {"version"}. */
export function version() {
  return request<{ version: string }>('api', '/version', { auth: { kind: 'none' } });
}

/** GET /api/image?brand= → {"data":[{url,alt}]}. */
export function carouselImages(brand = getCompany()) {
  return request<{ data: CarouselImage[] }>('api', '/image', { query: { brand }, auth: { kind: 'none' } });
}

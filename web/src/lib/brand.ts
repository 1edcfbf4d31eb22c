import { createContext, useContext } from 'react';
import { themeVariables } from './brandTheme';

/** Brand JSON as served by the backend (docs/api.md "Brand and static assets"). */
export interface Brand {
  slug: string;
  name: string;
  title: string;
  tagline?: string;
  colors: { primary: string; secondary: string; primaryText: string };
  logo: string;
  favicon: string;
  distributor?: string;
  admin?: { name: string; email: string; phone: string };
  contact?: { phones: string[]; address: string; email: string };
}

/** Every brand's logo is drawn on a 220 × 48 viewBox: the <img> is sized so the page does not shift. */
export const LOGO_WIDTH = 220;
export const LOGO_HEIGHT = 48;

/** The first brand of the list is the fallback (spec §1). */
export const FALLBACK_BRAND: Brand = {
  slug: 'nordata',
  name: 'Nordata',
  title: 'Nordata | Portal de Oportunidades',
  colors: { primary: '#0b5cab', secondary: '#f2a900', primaryText: '#ffffff' },
  logo: '/brand-assets/nordata/logo.svg',
  favicon: '/brand-assets/nordata/favicon.svg',
};

function isBrand(value: unknown): value is Brand {
  if (!value || typeof value !== 'object') return false;
  const b = value as Partial<Brand>;
  return typeof b.slug === 'string' && b.slug !== '' && typeof b.name === 'string' && !!b.colors;
}

/** Id of the JSON data block the server writes into the page (api/securityheaders.go). */
export const BRAND_SCRIPT_ID = 'oportuna-brand';

/**
 * The brand the server wrote into the page as a data block,
 * `<script type="application/json" id="oportuna-brand">`: never run, so the
 * page's Content-Security-Policy needs no inline script (docs/security-browser.md).
 */
export function injectedBrand(doc: Document = document): Brand | undefined {
  const el = doc.getElementById(BRAND_SCRIPT_ID);
  if (!(el instanceof HTMLScriptElement) || el.type !== 'application/json') return undefined;
  try {
    const value: unknown = JSON.parse(el.textContent ?? '');
    return isBrand(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The brand injected by the server (the data block), or, when absent (Vite dev
 * server), the one answered by GET /api/brand for this host.
 */
export async function loadBrand(fetchImpl: typeof fetch = fetch): Promise<Brand> {
  const injected = injectedBrand();
  if (injected) return injected;
  try {
    const res = await fetchImpl('/api/brand', { headers: { Accept: 'application/json' } });
    if (res.ok) {
      const body: unknown = await res.json();
      if (isBrand(body)) return body;
    }
  } catch {
    // fall through to the fallback brand
  }
  return FALLBACK_BRAND;
}

/** Applies title, favicon and the brand colours (CSS variables on :root). */
export function applyBrand(brand: Brand, doc: Document = document): void {
  doc.title = brand.title;
  const links = doc.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]');
  if (links.length === 0) {
    const link = doc.createElement('link');
    link.rel = 'icon';
    link.type = 'image/svg+xml';
    link.href = brand.favicon;
    doc.head.appendChild(link);
  } else {
    links.forEach((link) => {
      link.type = 'image/svg+xml';
      link.href = brand.favicon;
    });
  }
  const root = doc.documentElement.style;
  for (const [name, value] of Object.entries(themeVariables(brand.colors))) root.setProperty(name, value);
}

export const BrandContext = createContext<Brand>(FALLBACK_BRAND);

export function useBrand(): Brand {
  return useContext(BrandContext);
}

import { afterEach, describe, expect, it, vi } from 'vitest';
import { TEST_BRAND, json } from '@/test/helpers';
import { BRAND_SCRIPT_ID, FALLBACK_BRAND, applyBrand, loadBrand } from './brand';

function inject(text: string, type = 'application/json'): void {
  const el = document.createElement('script');
  el.type = type;
  el.id = BRAND_SCRIPT_ID;
  el.textContent = text;
  document.head.appendChild(el);
}

afterEach(() => {
  document.getElementById(BRAND_SCRIPT_ID)?.remove();
});

describe('loadBrand', () => {
  it('uses the brand injected by the server as a JSON data block', async () => {
    inject(JSON.stringify(TEST_BRAND));
    const fetchImpl = vi.fn();
    expect(await loadBrand(fetchImpl)).toEqual(TEST_BRAND);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('reads values the server escaped against </script> (\\u003c)', async () => {
    const tricky = { ...TEST_BRAND, name: '</script><script>alert(1)</script>' };
    inject(JSON.stringify(tricky).replace(/</g, '\\u003c').replace(/>/g, '\\u003e'));
    expect((await loadBrand(vi.fn())).name).toBe(tricky.name);
  });

  it('ignores a block that is not JSON, or not of the JSON type, and asks the server', async () => {
    inject('{not json');
    const fetchImpl = vi.fn(async () => json(200, TEST_BRAND));
    expect(await loadBrand(fetchImpl)).toEqual(TEST_BRAND);
    document.getElementById(BRAND_SCRIPT_ID)?.remove();
    inject(JSON.stringify({ ...TEST_BRAND, slug: 'evil' }), 'text/plain');
    expect(await loadBrand(fetchImpl)).toEqual(TEST_BRAND);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('asks GET /api/brand when nothing was injected', async () => {
    const fetchImpl = vi.fn(async () => json(200, TEST_BRAND));
    expect(await loadBrand(fetchImpl)).toEqual(TEST_BRAND);
    expect(fetchImpl).toHaveBeenCalledWith('/api/brand', expect.anything());
  });

  it('falls back to the first brand when the call fails', async () => {
    expect(await loadBrand(vi.fn(async () => json(500, {})))).toEqual(FALLBACK_BRAND);
    expect(await loadBrand(vi.fn(async () => Promise.reject(new Error('offline'))))).toEqual(FALLBACK_BRAND);
  });
});

describe('applyBrand', () => {
  it('sets the title, the favicon and the colour variables', () => {
    document.head.innerHTML = '<link rel="icon" href="data:,">';
    applyBrand(TEST_BRAND);
    expect(document.title).toBe('Yep | Portal de Oportunidades');
    expect(document.querySelector('link[rel=icon]')?.getAttribute('href')).toBe('/brand-assets/yep/favicon.svg');
    const style = document.documentElement.style;
    expect(style.getPropertyValue('--brand-primary')).toBe('#123456');
    expect(style.getPropertyValue('--brand-secondary')).toBe('#abcdef');
    expect(style.getPropertyValue('--brand-primary-text')).toBe('#ffffff');
  });

  it('adds a favicon link when the page has none', () => {
    document.head.innerHTML = '';
    applyBrand(TEST_BRAND);
    expect(document.querySelectorAll('link[rel=icon]')).toHaveLength(1);
  });
});

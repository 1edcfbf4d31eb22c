import { describe, expect, it } from 'vitest';
import brands from '../../../brand/brands.json';
import {
  DANGER,
  PAGE_BACKGROUND,
  brandTheme,
  contrast,
  hueDistance,
  hueSat,
  readsAsError,
  themeVariables,
} from './brandTheme';

const ALL = brands as { slug: string; colors: { primary: string; secondary: string; primaryText: string } }[];

describe('brand theme: every accent from the brand, WCAG AA, errors unlike the brand', () => {
  it('covers the 11 brands', () => {
    expect(ALL).toHaveLength(11);
  });

  it.each(ALL.map((b) => [b.slug, b.colors] as const))('%s: text pairs meet AA (4.5:1), the focus ring 3:1', (_, colors) => {
    const t = brandTheme(colors);
    expect(contrast(t.accentText, t.accent)).toBeGreaterThanOrEqual(4.5); // primary buttons, selected tags
    expect(contrast(t.accent, '#ffffff')).toBeGreaterThanOrEqual(4.5); // links, tabs, outlined buttons on cards
    expect(contrast(t.accent, PAGE_BACKGROUND)).toBeGreaterThanOrEqual(4.5); // links on the page
    expect(contrast(t.primaryText, colors.primary)).toBeGreaterThanOrEqual(4.5); // the shell
    expect(contrast(t.secondaryText, colors.secondary)).toBeGreaterThanOrEqual(4.5); // the user's initials
    expect(contrast(t.accentText, t.accentHover)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.focus, '#ffffff')).toBeGreaterThanOrEqual(3);
    expect(contrast(DANGER, '#ffffff')).toBeGreaterThanOrEqual(3);
  });

  it.each(ALL.map((b) => [b.slug, b.colors] as const))('%s: the accent and the focus ring never read as an error', (_, colors) => {
    const t = brandTheme(colors);
    expect(readsAsError(t.accent)).toBe(false);
    expect(readsAsError(t.focus)).toBe(false);
    const accent = hueSat(t.accent);
    // Either a clearly different hue from the danger red, or a near-grey.
    expect(accent.sat < 0.35 || hueDistance(accent.hue, hueSat(DANGER).hue) > 40).toBe(true);
  });

  it('red brands (Etiquetron, Tagora) read as red, so their accent is their secondary colour', () => {
    for (const slug of ['etiquetron', 'tagora']) {
      const b = ALL.find((x) => x.slug === slug)!;
      expect(readsAsError(b.colors.primary)).toBe(true);
      expect(brandTheme(b.colors).accent).toBe(b.colors.secondary);
    }
    const nordata = ALL.find((x) => x.slug === 'nordata')!;
    expect(brandTheme(nordata.colors).accent).toBe(nordata.colors.primary);
  });

  it('darkens a primary colour too light for links (Scanbrisa on the page background)', () => {
    const s = ALL.find((x) => x.slug === 'scanbrisa')!;
    expect(contrast(s.colors.primary, PAGE_BACKGROUND)).toBeLessThan(4.5);
    expect(contrast(brandTheme(s.colors).accent, PAGE_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
  });

  it('exposes the theme as CSS variables', () => {
    const vars = themeVariables(ALL[2].colors);
    expect(vars['--brand-accent']).toBe(ALL[2].colors.secondary);
    expect(vars['--brand-focus']).toBe(vars['--brand-accent']);
    expect(vars['--portal-danger']).toBe(DANGER);
  });
});

import { describe, expect, it } from 'vitest';
import brands from '../../../brand/brands.json';
import { STATUS_PALETTE } from './status';
import {
  DANGER,
  PAGE_BACKGROUND,
  brandTheme,
  contrast,
  focusSurfaces,
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

  // WCAG 2.2 SC 1.4.11 (non-text contrast) and 2.4.13 (focus appearance): the
  // ring differs from the surface it is drawn on by at least 3:1.
  it.each(ALL.map((b) => [b.slug, b.colors] as const))('%s: the focus ring is ≥ 3:1 on every surface', (_, colors) => {
    const surfaces = focusSurfaces(colors);
    expect(surfaces.length).toBeGreaterThanOrEqual(9);
    for (const { surface, background, ring } of surfaces) {
      expect(contrast(ring, background), `${surface}: ring ${ring} on ${background}`).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(ALL.map((b) => [b.slug, b.colors] as const))('%s: the chrome never reads as an alert and carries its text', (_, colors) => {
    const t = brandTheme(colors);
    expect(readsAsError(t.chrome), `chrome ${t.chrome}`).toBe(false);
    expect(contrast(t.chromeText, t.chrome)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.chromeText, t.chromeActive)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.chromeHighlight, t.chrome)).toBeGreaterThanOrEqual(3);
    expect(contrast(t.initialsText, t.initials)).toBeGreaterThanOrEqual(4.5);
    // Not the error banners' family either: far from the danger red in hue, or a near-grey.
    const c = hueSat(t.chrome);
    expect(c.sat < 0.35 || hueDistance(c.hue, hueSat(DANGER).hue) > 40).toBe(true);
  });

  it('a red brand gets a neutral chrome with its colour as the stripe (Etiquetron, Tagora); the others keep their colour', () => {
    for (const slug of ['etiquetron', 'tagora']) {
      const b = ALL.find((x) => x.slug === slug)!;
      const t = brandTheme(b.colors);
      expect(t.chrome).not.toBe(b.colors.primary);
      expect(t.chromeStripe).toBe(b.colors.primary);
    }
    const nordata = ALL.find((x) => x.slug === 'nordata')!;
    expect(brandTheme(nordata.colors).chrome).toBe(nordata.colors.primary);
    expect(brandTheme(nordata.colors).chromeStripe).toBe(nordata.colors.secondary);
  });

  it.each(ALL.map((b) => [b.slug, b.colors] as const))('%s: links look like links (a colour, AA, not the error red)', (_, colors) => {
    const t = brandTheme(colors);
    expect(hueSat(t.link).sat).toBeGreaterThanOrEqual(0.35);
    expect(readsAsError(t.link)).toBe(false);
    expect(contrast(t.link, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrast(t.link, PAGE_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
  });

  it('one status palette for every brand, each pair AA', () => {
    const statusOf = (v: Record<string, string>) => Object.fromEntries(Object.entries(v).filter(([k]) => k.startsWith('--status-')));
    const first = statusOf(themeVariables(ALL[0].colors));
    expect(Object.keys(first)).toHaveLength(15);
    for (const b of ALL) expect(statusOf(themeVariables(b.colors)), b.slug).toEqual(first);
    for (const [tone, p] of Object.entries(STATUS_PALETTE)) {
      expect(contrast('#ffffff', p.solid), `${tone} solid`).toBeGreaterThanOrEqual(4.5);
      expect(contrast(p.fg, p.tint), `${tone} minimal`).toBeGreaterThanOrEqual(4.5);
    }
  });
});

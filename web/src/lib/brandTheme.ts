/**
 * The colours every screen derives from a brand (brand/brands.json: primary,
 * secondary, primaryText), so that tabs, tags, links, primary buttons and the
 * focus ring follow the brand instead of Blueprint's blue, every pair of text
 * and background meets WCAG AA (4.5:1 for text, 3:1 for the focus ring), and an
 * error never looks like the brand:
 *
 * - the accent is the brand's primary colour; when that colour is a red (or a
 *   crimson/magenta close to it, as Etiquetron's and Tagora's), red would read
 *   as an error on a control, so the accent is the brand's secondary colour
 *   instead (or a neutral slate when the secondary is too light for text);
 * - the accent is darkened, when needed, until it reads as text on white and
 *   on the page's background (links) and carries its text colour (buttons);
 * - the focus ring is the accent: never red, always ≥ 3:1 on white;
 * - errors keep Blueprint's danger red.
 */

export interface BrandColors {
  primary: string;
  secondary: string;
  primaryText: string;
}

export interface BrandTheme {
  /** Tabs, primary tags and buttons, links, checked controls. */
  accent: string;
  /** Text on the accent. */
  accentText: string;
  /** Hover and pressed shades of the accent. */
  accentHover: string;
  accentActive: string;
  /** Text on the brand's primary colour (the shell: side menu, header). */
  primaryText: string;
  /** Text on the brand's secondary colour (the user's initials, highlights). */
  secondaryText: string;
  /** The focus ring. */
  focus: string;
  /** Errors (invalid fields, failure messages): Blueprint's danger red. */
  danger: string;
}

export const PAGE_BACKGROUND = '#f4f6f8';
export const DANGER = '#cd4246';
export const DARK_TEXT = '#1c2127';
const SLATE = '#394b59';

type RGB = [number, number, number];

function rgb(hex: string): RGB {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as RGB;
}

function hex([r, g, b]: RGB): string {
  return `#${[r, g, b].map((v) => Math.round(Math.min(255, Math.max(0, v))).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG relative luminance. */
export function luminance(color: string): number {
  const [r, g, b] = rgb(color).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Hue (0–360) and saturation (0–1, HSL) of a colour. */
export function hueSat(color: string): { hue: number; sat: number } {
  const [r, g, b] = rgb(color).map((v) => v / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const d = max - min;
  if (d === 0) return { hue: 0, sat: 0 };
  const l = (max + min) / 2;
  const sat = d / (1 - Math.abs(2 * l - 1));
  let hue: number;
  if (max === r) hue = ((g - b) / d) % 6;
  else if (max === g) hue = (b - r) / d + 2;
  else hue = (r - g) / d + 4;
  return { hue: (hue * 60 + 360) % 360, sat };
}

/** Degrees between two hues (0–180). */
export function hueDistance(a: number, b: number): number {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
}

/** Whether a colour reads as red, i.e. as an error: a saturated hue within 40° of the danger red. */
export function readsAsError(color: string): boolean {
  const { hue, sat } = hueSat(color);
  return sat >= 0.35 && hueDistance(hue, hueSat(DANGER).hue) <= 40;
}

/** Mixes a colour with black (amount 0–1). */
function darken(color: string, amount: number): string {
  return hex(rgb(color).map((v) => v * (1 - amount)) as RGB);
}

/** The colour, darkened in small steps until it reaches `ratio` against every background given. */
function darkenUntil(color: string, ratio: number, backgrounds: string[]): string {
  let c = color;
  for (let i = 0; i < 40 && backgrounds.some((bg) => contrast(c, bg) < ratio); i++) c = darken(c, 0.05);
  return c;
}

/** White or dark text, whichever reads better on a background. */
function textOn(background: string): string {
  return contrast('#ffffff', background) >= contrast(DARK_TEXT, background) ? '#ffffff' : DARK_TEXT;
}

export function brandTheme(colors: BrandColors): BrandTheme {
  let base = colors.primary;
  if (readsAsError(base)) {
    base = !readsAsError(colors.secondary) && contrast(colors.secondary, '#ffffff') >= 4.5 ? colors.secondary : SLATE;
  }
  const accent = darkenUntil(base, 4.5, ['#ffffff', PAGE_BACKGROUND]);
  const primaryText =
    contrast(colors.primaryText, colors.primary) >= 4.5 ? colors.primaryText : textOn(colors.primary);
  return {
    accent,
    accentText: textOn(accent),
    accentHover: darken(accent, 0.12),
    accentActive: darken(accent, 0.24),
    primaryText,
    secondaryText: textOn(colors.secondary),
    focus: accent,
    danger: DANGER,
  };
}

/** The theme as CSS custom properties (set on :root by lib/brand.ts#applyBrand). */
export function themeVariables(colors: BrandColors): Record<string, string> {
  const t = brandTheme(colors);
  return {
    '--brand-primary': colors.primary,
    '--brand-secondary': colors.secondary,
    '--brand-primary-text': t.primaryText,
    '--brand-secondary-text': t.secondaryText,
    '--brand-accent': t.accent,
    '--brand-accent-text': t.accentText,
    '--brand-accent-hover': t.accentHover,
    '--brand-accent-active': t.accentActive,
    '--brand-focus': t.focus,
    '--portal-danger': t.danger,
  };
}

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
 * - errors keep Blueprint's danger red;
 * - the chrome (side menu, top bar) is the brand's primary colour, unless that
 *   reads as an error: then the same neutral as the accent (Etiquetron's
 *   slate), with the brand's colour as its stripe;
 * - the focus ring is visible on every surface (≥ 3:1, WCAG 2.2 SC 1.4.11 and
 *   2.4.13): the accent on light surfaces, the chrome's text colour on the
 *   chrome, white on dark surfaces (focusSurfaces lists them; a test checks
 *   every brand);
 * - links read as links: the accent when it is a colour, a link blue when the
 *   accent is a near-grey (it would read as body text), and underlined;
 * - statuses have one palette for every brand (lib/status.ts STATUS_PALETTE).
 */

import { statusVariables } from './status';

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
  /** The chrome: side menu and top bar. */
  chrome: string;
  /** Text and icons on the chrome. */
  chromeText: string;
  /** Hovered and current entries of the side menu, the role tags on it. */
  chromeActive: string;
  /** The stripe under the top bar and beside the current entry of the menu. */
  chromeStripe: string;
  /** The bell's highlight on the chrome (≥ 3:1 against it). */
  chromeHighlight: string;
  /** The focus ring on the chrome. */
  chromeFocus: string;
  /** Links in text. */
  link: string;
  /** The user's initials: background and text. */
  initials: string;
  initialsText: string;
}

export const PAGE_BACKGROUND = '#f4f6f8';
export const DANGER = '#cd4246';
export const DARK_TEXT = '#1c2127';
const SLATE = '#394b59';
/** Links when the accent is a near-grey: a link blue, AA on white and on the page. */
const LINK_BLUE = '#1f5fa8';
/** The focus ring on dark surfaces (the LGPD banner, the carousel's controls). */
export const FOCUS_ON_DARK = '#ffffff';
/** The LGPD banner's background. */
export const BANNER_BACKGROUND = '#1c2127';
/** The carousel's controls sit on this (70 % opaque), over any slide. */
export const CAROUSEL_CONTROLS = '#1c2127';
export const CAROUSEL_CONTROLS_OPACITY = 0.7;
/** A hovered minimal button or row on a light surface (Blueprint: 15 % of #8f99a8 on white). */
export const HOVER_ON_LIGHT = '#edeff2';

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

/** Mixes a colour with white (amount 0–1). */
function lighten(color: string, amount: number): string {
  return hex(rgb(color).map((v) => v + (255 - v) * amount) as RGB);
}

/** `top` at `opacity` over `bottom`: the colour seen. */
export function over(top: string, opacity: number, bottom: string): string {
  const t = rgb(top);
  const b = rgb(bottom);
  return hex(t.map((v, i) => v * opacity + b[i] * (1 - opacity)) as RGB);
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
  const red = readsAsError(colors.primary);
  let base = colors.primary;
  if (red) {
    base = !readsAsError(colors.secondary) && contrast(colors.secondary, '#ffffff') >= 4.5 ? colors.secondary : SLATE;
  }
  const accent = darkenUntil(base, 4.5, ['#ffffff', PAGE_BACKGROUND]);
  const primaryText =
    contrast(colors.primaryText, colors.primary) >= 4.5 ? colors.primaryText : textOn(colors.primary);

  // The chrome: the primary colour, or the neutral base of a red brand.
  const chrome = red ? base : colors.primary;
  const chromeText = contrast(colors.primaryText, chrome) >= 4.5 ? colors.primaryText : textOn(chrome);
  const chromeActive = chromeText === DARK_TEXT ? lighten(chrome, 0.3) : darken(chrome, 0.22);
  // The stripe: the secondary colour when it stands out of the chrome, else the brand's own colour.
  const chromeStripe = contrast(colors.secondary, chrome) >= 1.5 ? colors.secondary : colors.primary;
  const chromeHighlight = contrast(chromeStripe, chrome) >= 3 ? chromeStripe : chromeText;

  const { sat } = hueSat(accent);
  const link = sat >= 0.35 ? accent : darkenUntil(LINK_BLUE, 4.5, ['#ffffff', PAGE_BACKGROUND]);
  // Initials on the chrome: the secondary colour, unless it melts into the chrome.
  const initials = contrast(colors.secondary, chrome) >= 1.5 ? colors.secondary : '#ffffff';

  return {
    accent,
    accentText: textOn(accent),
    accentHover: darken(accent, 0.12),
    accentActive: darken(accent, 0.24),
    primaryText,
    secondaryText: textOn(colors.secondary),
    focus: accent,
    danger: DANGER,
    chrome,
    chromeText,
    chromeActive,
    chromeStripe,
    chromeHighlight,
    chromeFocus: chromeText,
    link,
    initials,
    initialsText: textOn(initials),
  };
}

/** One surface something focusable sits on, and the focus ring drawn there. */
export interface FocusSurface {
  surface: string;
  background: string;
  ring: string;
}

/**
 * Every surface of the portal a focusable control sits on, with the ring the
 * CSS draws there (styles/brand.css: --brand-focus on light surfaces,
 * --chrome-focus in .side-menu and .panel-navbar, --focus-on-dark on the LGPD
 * banner and the carousel's controls).
 */
export function focusSurfaces(colors: BrandColors): FocusSurface[] {
  const t = brandTheme(colors);
  const tint = (c: string, amount: number) => over(c, amount, '#ffffff');
  return [
    { surface: 'card (white)', background: '#ffffff', ring: t.focus },
    { surface: 'page', background: PAGE_BACKGROUND, ring: t.focus },
    { surface: 'hovered row or button', background: HOVER_ON_LIGHT, ring: t.focus },
    { surface: 'selected tag or tab (accent tint)', background: tint(t.accent, 0.12), ring: t.focus },
    { surface: 'side menu and top bar', background: t.chrome, ring: t.chromeFocus },
    { surface: 'current entry of the side menu', background: t.chromeActive, ring: t.chromeFocus },
    { surface: 'LGPD banner', background: BANNER_BACKGROUND, ring: FOCUS_ON_DARK },
    {
      surface: 'carousel controls over a white slide',
      background: over(CAROUSEL_CONTROLS, CAROUSEL_CONTROLS_OPACITY, '#ffffff'),
      ring: FOCUS_ON_DARK,
    },
    {
      surface: 'carousel controls over the brand colour',
      background: over(CAROUSEL_CONTROLS, CAROUSEL_CONTROLS_OPACITY, colors.primary),
      ring: FOCUS_ON_DARK,
    },
  ];
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
    '--chrome': t.chrome,
    '--chrome-text': t.chromeText,
    '--chrome-active': t.chromeActive,
    '--chrome-stripe': t.chromeStripe,
    '--chrome-highlight': t.chromeHighlight,
    '--chrome-focus': t.chromeFocus,
    '--brand-link': t.link,
    '--brand-initials': t.initials,
    '--brand-initials-text': t.initialsText,
    ...statusVariables(),
  };
}

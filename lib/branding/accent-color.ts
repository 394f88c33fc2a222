import { z } from "zod";

/** An accent colour as staff type it: `#rgb` or `#rrggbb`, any case; stored as `#rrggbb` lower case. */
export const accentColorSchema = z
  .string({ error: "Enter a colour like #1a7f5a" })
  .trim()
  .regex(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: "Enter a colour as a hex code like #1a7f5a" })
  .transform(normalizeHex);

function normalizeHex(value: string): string {
  const hex = value.replace(/^#/, "").toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex}`;
}

type Rgb = [number, number, number];

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const hexOf = (rgb: Rgb): string => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, "0")).join("")}`;

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function relativeLuminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2 contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** WCAG AA for normal text. */
export const minimumTextContrast = 4.5;

/**
 * The colours the hosted pages draw from one accent (CSS custom properties of app/globals.css):
 * - `accent`: button backgrounds, borders, as chosen;
 * - `accentFg`: text on the accent, white or black, whichever contrasts more (every colour reaches
 *   AA, at least 4.58:1, against one of them);
 * - `accentInk`: the accent used as text or a thin line on the pages' light backgrounds (links,
 *   outlined buttons, badges): the accent itself when it reaches AA on all of them, else the accent
 *   darkened until it does;
 * - `accentHover`: a hover shade of the button, towards the text colour so it keeps its contrast.
 */
export type AccentPalette = { accent: string; accentFg: string; accentInk: string; accentHover: string };

const white = "#ffffff";
/**
 * The light backgrounds the hosted pages put accent-coloured text on (app/globals.css): the card,
 * the page, the sandbox test-card box and the warning banner.
 */
export const inkBackgrounds = ["#ffffff", "#f6f7f9", "#fffbeb", "#fff6d6"] as const;
const black = "#000000";

function mix(hex: string, toward: string, amount: number): string {
  const a = rgbOf(hex);
  const b = rgbOf(toward);
  return hexOf(a.map((c, i) => c + (b[i]! - c) * amount) as Rgb);
}

export function accentPalette(accent: string): AccentPalette {
  const accentFg = contrastRatio(accent, white) >= contrastRatio(accent, black) ? white : black;
  let accentInk = accent;
  const readable = (ink: string) => inkBackgrounds.every((bg) => contrastRatio(ink, bg) >= minimumTextContrast);
  for (let step = 1; !readable(accentInk) && step <= 20; step++) accentInk = mix(accent, black, step * 0.05);
  // Hover moves away from the text colour, never towards it: darker under white text, lighter under black.
  const candidate = mix(accent, accentFg === white ? black : white, 0.12);
  const accentHover = contrastRatio(candidate, accentFg) >= contrastRatio(accent, accentFg) ? candidate : accent;
  return { accent, accentFg, accentInk, accentHover };
}

/** The CSS that applies a palette to the hosted pages (values are validated hex, nothing else). */
export function accentCss(palette: AccentPalette): string {
  return `:root{--accent:${palette.accent};--accent-fg:${palette.accentFg};--accent-ink:${palette.accentInk};--accent-hover:${palette.accentHover};--focus:${palette.accentInk}}`;
}

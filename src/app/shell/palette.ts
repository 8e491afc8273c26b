/**
 * Shard colors: a palette that keeps shards that are neighbours in key order
 * clearly apart, also for the common color-vision deficiencies.
 *
 * Color i is fixed (it does not depend on the number of shards), so a shard
 * keeps its color when a file adds shards after it. The guarantees (key-order
 * neighbours far apart under normal vision and simulated protanopia,
 * deuteranopia and tritanopia; no two colors alike) are checked in
 * palette.test.ts for up to 36 shards, and more strictly for the first FIRST_DISTINCT.
 */

/** An sRGB color with channels in [0, 1]. */
export type RGB = [number, number, number];

/** OKLab coordinates (L in [0, 1]). */
export type Lab = [number, number, number];

/** The number of leading colors chosen as a set, all clearly distinct from one another (see PALETTE). */
export const FIRST_DISTINCT = 16;

/** The largest number of shards the palette's guarantees are tested for; color i+36 repeats color i. */
export const PALETTE_TESTED_SHARDS = 36;

/**
 * The 36 colors in key order. Chosen by palette.design.ts from in-gamut OKLCH colors (lightness
 * 0.56 to 0.91): the first 16 as a set, so that no two of them look alike (OKLab ΔE ≥ 0.13 under
 * normal vision) and key-order neighbours are far apart under all four kinds of vision (ΔE ≥ 0.14) (a file of
 * up to 16 shards, such as the bundled one with 15, never shows two similar shards); the rest
 * greedily, each far from the three before it and from every color already chosen.
 */
export const PALETTE: readonly string[] = Object.freeze([
  '#fdc495', '#29a125', '#934cc9', '#eabdfe', '#f3680f', '#09f5b3', '#c88afd', '#8e710f', '#0a8393', '#cfa508', '#17c0d6', '#a1f0ff',
  '#447ff7', '#d4dc08', '#c93060', '#fe77a6', '#6e5bdd', '#caf194', '#ab517c', '#fe8df6', '#75a956', '#98ec62', '#c252bb', '#647f3e',
  '#56c850', '#7affca', '#ca78b4', '#f5e717', '#74d1c8', '#e14660', '#9084fe', '#fda66f', '#b666a1', '#7de7d3', '#9964e5', '#e59284',
]);

/** shardColor returns the sRGB color of the shard at key-order index i (a non-negative integer). */
export function shardColor(i: number): RGB {
  return fromHex(PALETTE[i % PALETTE.length]);
}

/** shardPalette returns the colors of n shards in key order. */
export function shardPalette(n: number): RGB[] {
  return Array.from({ length: n }, (_, i) => shardColor(i));
}

/** fromHex reads #rrggbb into sRGB channels in [0, 1]; throws RangeError naming the value otherwise. */
export function fromHex(hex: string): RGB {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) throw new RangeError(`colour ${JSON.stringify(hex)} is not #rrggbb`);
  return [1, 2, 3].map((k) => parseInt(m[k], 16) / 255) as RGB;
}

/** toHex writes an sRGB color as #rrggbb. */
export function toHex(c: RGB): string {
  return '#' + c.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255).toString(16).padStart(2, '0')).join('');
}

/** relativeLuminance returns WCAG 2's relative luminance of an sRGB color, in [0, 1]. */
export function relativeLuminance(c: RGB): number {
  const [r, g, b] = c.map(toLinear);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** contrastRatio returns WCAG 2's contrast ratio of two sRGB colors, in [1, 21] (4.5 is AA for small text). */
export function contrastRatio(x: RGB, y: RGB): number {
  const a = relativeLuminance(x);
  const b = relativeLuminance(y);
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * labelColor returns the color of text written on a shard color: black or white, whichever
 * contrasts more. One of the two always reaches √21 ≈ 4.58:1 (WCAG AA for small text is 4.5),
 * so every shard's name is legible on its own color, mid-tones included.
 */
export function labelColor(background: RGB): '#000000' | '#ffffff' {
  return contrastRatio(background, [0, 0, 0]) >= contrastRatio(background, [1, 1, 1]) ? '#000000' : '#ffffff';
}

/** toBytes returns an sRGB color as 0–255 integers, as the canvas stores it. */
export function toBytes(c: RGB): [number, number, number] {
  return c.map((v) => Math.round(Math.min(1, Math.max(0, v)) * 255)) as [number, number, number];
}

/** shade moves a color's OKLab lightness by dL (negative darkens), keeping hue. */
export function shade(c: RGB, dL: number): RGB {
  const [L, a, b] = srgbToOklab(c);
  return oklabToSrgb([Math.min(1, Math.max(0, L + dL)), a, b]).map((v) => Math.min(1, Math.max(0, v))) as RGB;
}

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toGamma = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * Math.sign(v) * Math.abs(v) ** (1 / 2.4) - 0.055);

/** srgbToOklab converts sRGB in [0, 1] to OKLab (Björn Ottosson's matrices). */
export function srgbToOklab(c: RGB): Lab {
  return linearToOklab(c.map(toLinear) as RGB);
}

function linearToOklab([r, g, b]: RGB): Lab {
  const l = Math.cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b);
  const m = Math.cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b);
  const s = Math.cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b);
  return [0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s, 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s, 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s];
}

/** oklabToSrgb converts OKLab to sRGB (channels may fall outside [0, 1] for colors out of gamut). */
export function oklabToSrgb([L, a, b]: Lab): RGB {
  const l = (L + 0.3963377774 * a + 0.2158037573 * b) ** 3;
  const m = (L - 0.1055613458 * a - 0.0638541728 * b) ** 3;
  const s = (L - 0.0894841775 * a - 1.291485548 * b) ** 3;
  const lin = [4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s, -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s, -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s];
  return lin.map(toGamma) as RGB;
}

/** The kinds of color vision the palette is checked for. */
export type Vision = 'normal' | 'protanopia' | 'deuteranopia' | 'tritanopia';

// Machado, Oliveira & Fernandes (2009), severity 1.0, applied to linear RGB.
const CVD: Record<Exclude<Vision, 'normal'>, number[]> = {
  protanopia: [0.152286, 1.052583, -0.204868, 0.114503, 0.786281, 0.099216, -0.003882, -0.048116, 1.051998],
  deuteranopia: [0.367322, 0.860646, -0.227968, 0.280085, 0.672501, 0.047413, -0.01182, 0.04294, 0.968881],
  tritanopia: [1.255528, -0.076749, -0.178779, -0.078411, 0.930809, 0.147602, 0.004733, 0.691367, 0.3039],
};

/** simulate returns how a color looks with a color-vision deficiency (sRGB in, sRGB out). */
export function simulate(c: RGB, vision: Vision): RGB {
  if (vision === 'normal') return c;
  const m = CVD[vision];
  const [r, g, b] = c.map(toLinear);
  const out = [m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b];
  return out.map((v) => toGamma(Math.min(1, Math.max(0, v)))) as RGB;
}

/** deltaE returns the OKLab distance between two sRGB colors (about 0.02 is just noticeable). */
export function deltaE(x: RGB, y: RGB): number {
  const p = srgbToOklab(x);
  const q = srgbToOklab(y);
  return Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

/**
 * The fan-out map's colours: a search here asks 1, 2, 3 or 4+ shards. One
 * shard is left clear (the shards show through); more shards go from pale
 * yellow to deep red, darkening steadily, so the order reads without colour
 * vision. sRGB 0..1 and CSS; alpha is the overlay's opacity.
 */
export const FANOUT_COLORS: readonly { rgb: [number, number, number]; alpha: number; css: string }[] = [
  { rgb: [1, 1, 1], alpha: 0, css: 'transparent' },
  { rgb: [0.996, 0.878, 0.545], alpha: 0.7, css: '#fee08b' },
  { rgb: [0.957, 0.427, 0.263], alpha: 0.78, css: '#f46d43' },
  { rgb: [0.647, 0.0, 0.149], alpha: 0.85, css: '#a50026' },
];

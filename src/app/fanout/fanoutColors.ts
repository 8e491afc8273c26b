/**
 * The fan-out map's colors: a search here asks 1, 2, 3 or 4+ shards. One
 * shard is left clear (the shards show through); more shards are dark,
 * low-chroma plum shades, darker for more shards, so the order reads without
 * color vision. The shard palette (shell/palette.ts) keeps to OKLab
 * lightness 0.56–0.91 at every hue; these sit at 0.40, 0.30 and 0.19, so no
 * fan-out level looks like a shard, alone or laid over one (checked in
 * fanoutColors.test.ts). sRGB 0..1 and CSS; alpha is the overlay's opacity.
 */
export const FANOUT_COLORS: readonly { rgb: [number, number, number]; alpha: number; css: string }[] = [
  { rgb: [1, 1, 1], alpha: 0, css: 'transparent' },
  { rgb: [0x39 / 255, 0x26 / 255, 0x37 / 255], alpha: 0.88, css: '#392637' },
  { rgb: [0x22 / 255, 0x11 / 255, 0x21 / 255], alpha: 0.92, css: '#221121' },
  { rgb: [0x0d / 255, 0x02 / 255, 0x0c / 255], alpha: 0.96, css: '#0d020c' },
];

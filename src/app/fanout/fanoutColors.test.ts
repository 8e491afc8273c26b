import { describe, it, expect } from 'vitest';
import { FANOUT_COLORS } from './fanoutColors';
import { PALETTE, fromHex, deltaE, simulate, srgbToOklab, type RGB, type Vision } from '../shell/palette';

const visions: Vision[] = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
const shards = PALETTE.map(fromHex);
const levels = FANOUT_COLORS.slice(1);
const see = (c: RGB, v: Vision) => (v === 'normal' ? c : simulate(c, v));

describe('fan-out colors', () => {
  it('stay far (OKLab ΔE ≥ 0.15) from every shard color, under normal vision and three color-vision deficiencies', () => {
    for (const v of visions) {
      for (const f of levels) {
        const nearest = Math.min(...shards.map((s) => deltaE(see(f.rgb, v), see(s, v))));
        expect(nearest, `${f.css} (${v})`).toBeGreaterThanOrEqual(0.15);
      }
    }
  });

  it('laid over any shard at the overlay opacity, still look like no shard (ΔE ≥ 0.08 from every shard color)', () => {
    for (const f of levels) {
      for (const under of shards) {
        // Normal alpha blending, as WebGL draws the overlay over the shards.
        const blend = f.rgb.map((x, k) => f.alpha * x + (1 - f.alpha) * under[k]) as RGB;
        for (const v of visions) {
          const nearest = Math.min(...shards.map((s) => deltaE(see(blend, v), see(s, v))));
          expect(nearest, `${f.css} over ${under.join(',')} (${v})`).toBeGreaterThanOrEqual(0.08);
        }
      }
    }
  });

  it('darken steadily from 2 to 4+ shards, so the order reads by lightness alone', () => {
    for (const v of visions) {
      const L = levels.map((f) => srgbToOklab(see(f.rgb, v))[0]);
      for (let i = 1; i < L.length; i++) expect(L[i - 1] - L[i], `${v}: level ${i + 1} vs ${i + 2}`).toBeGreaterThanOrEqual(0.08);
    }
  });

  it('agree between the sRGB channels and the CSS the legend shows', () => {
    for (const f of levels) fromHex(f.css).forEach((x, k) => expect(x).toBeCloseTo(f.rgb[k], 6));
    expect(FANOUT_COLORS[0].alpha).toBe(0);
  });
});

import { describe, it, expect } from 'vitest';
import { PALETTE, PALETTE_TESTED_SHARDS, FIRST_DISTINCT, shardPalette, shardColor, simulate, deltaE, toHex, fromHex, shade, srgbToOklab, contrastRatio, labelColor, type Vision } from './palette';

const visions: Vision[] = ['normal', 'protanopia', 'deuteranopia', 'tritanopia'];
const palette = shardPalette(PALETTE_TESTED_SHARDS);
const dist = (i: number, j: number, v: Vision) => deltaE(simulate(palette[i], v), simulate(palette[j], v));

describe('palette', () => {
  it('keeps key-order neighbours far apart (OKLab ΔE ≥ 0.12) under normal vision and three color-vision deficiencies', () => {
    for (const v of visions) for (let i = 1; i < PALETTE_TESTED_SHARDS; i++) expect(dist(i - 1, i, v), `${v}: shards ${i - 1} and ${i}`).toBeGreaterThanOrEqual(0.12);
  });

  it('keeps shards two apart in key order distinct (ΔE ≥ 0.08) for every kind of vision', () => {
    for (const v of visions) for (let i = 2; i < PALETTE_TESTED_SHARDS; i++) expect(dist(i - 2, i, v), `${v}: shards ${i - 2} and ${i}`).toBeGreaterThanOrEqual(0.08);
  });

  it('gives no two of 36 shards the same-looking color (ΔE ≥ 0.04 normal, ≥ 0.02 with a deficiency)', () => {
    for (let i = 0; i < PALETTE_TESTED_SHARDS; i++) {
      for (let j = i + 1; j < PALETTE_TESTED_SHARDS; j++) {
        expect(dist(i, j, 'normal'), `shards ${i} and ${j}`).toBeGreaterThanOrEqual(0.04);
        for (const v of visions.slice(1)) expect(dist(i, j, v), `${v}: shards ${i} and ${j}`).toBeGreaterThanOrEqual(0.02);
      }
    }
  });

  it('gives a shard the same color whatever the number of shards, and repeats after 36', () => {
    expect(shardPalette(5)).toEqual(shardPalette(30).slice(0, 5));
    expect(shardColor(36)).toEqual(shardColor(0));
  });

  it('round-trips hex colors and rejects malformed ones', () => {
    for (const hex of PALETTE) expect(toHex(fromHex(hex))).toBe(hex);
    expect(() => fromHex('red')).toThrow(/"red" is not #rrggbb/);
  });

  it('simulates dichromacy so that red and green collapse for a deuteranope but not for normal vision', () => {
    const red = fromHex('#d62728');
    const green = fromHex('#2ca02c');
    expect(deltaE(red, green)).toBeGreaterThan(0.25);
    expect(deltaE(simulate(red, 'deuteranopia'), simulate(green, 'deuteranopia'))).toBeLessThan(deltaE(red, green) / 2);
  });

  it('darkens a color by the asked lightness', () => {
    const c = fromHex(PALETTE[4]);
    expect(srgbToOklab(shade(c, -0.2))[0]).toBeCloseTo(srgbToOklab(c)[0] - 0.2, 2);
  });
});

describe('palette: the first shards as a set', () => {
  // The bundled file has 15 shards; files of up to FIRST_DISTINCT shards get these guarantees.
  // Thresholds in OKLab ΔE (about 0.02 is just noticeable; 0.1 reads as another color at a glance).
  it(`gives no two of the first ${FIRST_DISTINCT} shards alike colors (ΔE ≥ 0.13 normal, ≥ 0.045 under every color-vision deficiency)`, () => {
    for (let i = 0; i < FIRST_DISTINCT; i++) {
      for (let j = i + 1; j < FIRST_DISTINCT; j++) {
        expect(dist(i, j, 'normal'), `shards ${i} and ${j}`).toBeGreaterThanOrEqual(0.13);
        for (const v of visions.slice(1)) expect(dist(i, j, v), `${v}: shards ${i} and ${j}`).toBeGreaterThanOrEqual(0.045);
      }
    }
  });

  it(`keeps neighbours along the curve among the first ${FIRST_DISTINCT} shards far apart (ΔE ≥ 0.14 for every kind of vision)`, () => {
    for (const v of visions) for (let i = 1; i < FIRST_DISTINCT; i++) expect(dist(i - 1, i, v), `${v}: shards ${i - 1} and ${i}`).toBeGreaterThanOrEqual(0.14);
  });

  it('computes WCAG contrast as axe-core 4.14 does (its reports on the explorer\'s shard bar, and the extremes)', () => {
    // Golden values from axe-core's color-contrast reports on the shard bar (echo and oscar labels, #f4f7fc text),
    // which axe gives to two decimals (its 4.32 is 4.3275 here).
    expect(contrastRatio(fromHex('#f4f7fc'), fromHex('#8e710f'))).toBeCloseTo(4.32, 1);
    expect(contrastRatio(fromHex('#f4f7fc'), fromHex('#0a8393'))).toBeCloseTo(4.17, 1);
    expect(contrastRatio([0, 0, 0], [1, 1, 1])).toBeCloseTo(21, 10);
    expect(contrastRatio(fromHex('#777777'), fromHex('#777777'))).toBe(1);
  });

  it('writes every shard\'s name in black or white at WCAG AA contrast (≥ 4.5:1) on its color', () => {
    for (let i = 0; i < PALETTE_TESTED_SHARDS; i++) {
      const c = shardColor(i);
      expect(contrastRatio(fromHex(labelColor(c)), c), `shard ${i} ${PALETTE[i]}`).toBeGreaterThanOrEqual(4.5);
    }
    // The two that were under 4.5 with the old light text.
    expect(labelColor(fromHex('#8e710f'))).toBe('#ffffff');
    expect(labelColor(fromHex('#0a8393'))).toBe('#000000');
  });
});

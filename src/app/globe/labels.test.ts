import { describe, it, expect } from 'vitest';
import { placeLabels, DOT_SPACING, KEEP_SPACING, type Box } from './labelsDraw';

/** A seeded generator (mulberry32), so the random layouts repeat. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const overlaps = (a: Box, b: Box) => a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1];

function layout(seed: number, n: number, w: number, h: number) {
  const r = rng(seed);
  const points = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) points.set([r() * w, r() * h, r() < 0.9 ? 1 : 0], 3 * i);
  const widths = Array.from({ length: n }, () => 25 + r() * 60);
  return { points, widths };
}

describe('city label placement', () => {
  it('never puts a label over another label, another drawn dot, a panel or the canvas edge, over seeded random crowded layouts', () => {
    const panels: Box[] = [[0, 0, 120, 90], [260, 200, 400, 300]];
    const faults: string[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const { points, widths } = layout(seed, 80, 400, 300);
      const { dots, labels } = placeLabels(points, widths, panels, 400, 300, new Map());
      if (labels.length <= 3) faults.push(`seed ${seed}: only ${labels.length} labels`);
      for (const l of labels) {
        if (!dots.includes(l.index)) faults.push(`seed ${seed}: label ${l.index} without its dot`);
        if (!(l.box[0] >= 0 && l.box[1] >= 0 && l.box[2] <= 400 && l.box[3] <= 300)) faults.push(`seed ${seed}: label ${l.index} off the canvas`);
        for (const p of panels) if (overlaps(l.box, p)) faults.push(`seed ${seed}: label ${l.index} under a panel`);
        for (const m of labels) if (m !== l && overlaps(l.box, m.box)) faults.push(`seed ${seed}: labels ${l.index} and ${m.index} overlap`);
        for (const j of dots) {
          const [x, y] = [points[3 * j], points[3 * j + 1]];
          if (j !== l.index && x >= l.box[0] - 3 && x <= l.box[2] + 3 && y >= l.box[1] - 3 && y <= l.box[3] + 3) faults.push(`seed ${seed}: dot ${j} on label ${l.index}`);
        }
        // Beside its own dot: the dot is within 8 px of the text box.
        const [x, y] = [points[3 * l.index], points[3 * l.index + 1]];
        if (Math.hypot(Math.max(l.box[0] - x, 0, x - l.box[2]), Math.max(l.box[1] - y, 0, y - l.box[3])) > 8) faults.push(`seed ${seed}: label ${l.index} away from its dot`);
      }
    }
    expect(faults).toEqual([]);
  });

  it('draws no dot for a hidden city, one under a panel, or one crowding a larger city\'s dot', () => {
    const points = new Float32Array([50, 50, 1, 50 + DOT_SPACING / 2, 50, 1, 200, 50, 0, 20, 20, 1, 50 + DOT_SPACING + 1, 50, 1]);
    const { dots } = placeLabels(points, [30, 30, 30, 30, 30], [[0, 0, 30, 30]], 300, 200, new Map());
    expect(dots).toEqual([0, 4]);
  });

  it('keeps a label shown in the last frame, on the same side, ahead of a larger city that now wants its place', () => {
    // City 0 (larger) and city 1 sit 40 px apart on a line; each label is 60 px wide, so the
    // space between them can hold one of them only.
    const points = new Float32Array([100, 100, 1, 180, 100, 1]);
    const widths = [60, 60];
    const fresh = placeLabels(points, widths, [], 300, 200, new Map());
    expect(fresh.labels.find((l) => l.index === 0)!.anchor).toBe(0); // right of its dot, by preference
    // Last frame city 1 was labelled on its left (anchor 1): it keeps that side, and city 0 moves.
    const kept = placeLabels(points, widths, [], 300, 200, new Map([[1, 1]]));
    expect(kept.labels.find((l) => l.index === 1)!.anchor).toBe(1);
    expect(kept.labels.find((l) => l.index === 0)!.anchor).not.toBe(0);
  });
});

describe('city dots while the view moves', () => {
  it('keeps a dot drawn last frame down to KEEP_SPACING from a larger city, where a new dot would need DOT_SPACING', () => {
    const d = (DOT_SPACING + KEEP_SPACING) / 2;
    const points = new Float32Array([100, 100, 1, 100 + d, 100, 1]);
    expect(placeLabels(points, [30, 30], [], 300, 200, new Map()).dots).toEqual([0]);
    expect(placeLabels(points, [30, 30], [], 300, 200, new Map(), new Set([0, 1])).dots).toEqual([0, 1]);
  });
});

/**
 * The Requests layer's pure part (issue 15): the color scale of request
 * rates, the rate buckets the legend lists and the scene draws, and the cells
 * of the hot ranges. No DOM, no three, no React: unit-tested in
 * requests.test.ts. The rates themselves are the core's requestRates,
 * computed in the review worker (review/reviewWorker.ts); the shapes that
 * cross from it (WorkloadAnswer, HotspotsAnswer, WorkloadClient) are the
 * host's (shell/workload.ts), so neither feature imports the other.
 *
 * Request rate of a level-10 cell = Σ weight of the workload's searches whose
 * circle's covering holds the cell: searches per workload, not per second.
 */
import { oklabToSrgb, type RGB } from '../shell/palette';
import type { Hotspot } from '../../core/requestLoad';

export type { WorkloadAnswer, HotspotsAnswer, WorkloadClient } from '../shell/workload';

/** The load / mean shard load at which a range is hot (the CLI's `geoshard hotspots` default). */
export const HOT_FACTOR = 2;

/** Most rate buckets the legend lists. */
export const MAX_BUCKETS = 7;

/**
 * requestColor returns the color of position t in [0, 1] on the request
 * scale (t clamped): OKLab lightness from 0.22 (dark) to 0.98 (near white) at
 * low chroma (≤ 0.045, a violet grey). The shard palette is saturated and
 * lies between lightness 0.56 and 0.91, so with normal vision no request
 * color reads like a shard color (OKLab ΔE ≥ 0.08, checked in
 * requests.test.ts); the order reads by lightness alone, so a dichromat
 * (for whom a grey may match a shard's color) still reads the scale, and
 * cells with requests are drawn opaque, over the shards.
 */
export function requestColor(t: number): RGB {
  const u = Math.min(1, Math.max(0, t));
  const chroma = 0.045 * (1 - 0.75 * u);
  const hue = (300 * Math.PI) / 180;
  return oklabToSrgb([0.22 + 0.76 * u, chroma * Math.cos(hue), chroma * Math.sin(hue)]).map((v) => Math.min(1, Math.max(0, v))) as RGB;
}

/** The color of the hot ranges' outlines (sRGB): a saturated orange-red, apart from the grey request scale. */
export const HOT_RGB: RGB = [1, 0.27, 0.07];

/** Rate buckets: bucket b holds rates in [edges[b], edges[b + 1]). */
export interface RateScale {
  /** Ascending bucket edges, buckets + 1 of them: edges[0] ≤ the smallest rate < … < the largest rate < edges[last]. */
  edges: number[];
  /** Cells per bucket. */
  counts: number[];
  /** Color per bucket (requestColor spread over the buckets, darkest first). */
  colors: RGB[];
}

/** The 1-2-5, 1-3 and 1 series of round numbers, in the order rateScale tries them. */
const SERIES = [[1, 2, 5], [1, 3], [1]];

function roundEdges(lo: number, hi: number, steps: readonly number[]): number[] {
  const n = steps.length;
  // at(k): the k-th round number of the series; toPrecision drops float noise (0.30000000000000004).
  const at = (k: number) => Number((steps[((k % n) + n) % n] * 10 ** Math.floor(k / n)).toPrecision(12));
  // From the largest round number ≤ lo to the smallest > hi.
  let k = Math.floor(Math.log10(lo)) * n;
  while (at(k) > lo) k--;
  while (at(k + 1) <= lo) k++;
  const edges = [at(k)];
  while (edges[edges.length - 1] <= hi) edges.push(at(++k));
  return edges;
}

/**
 * rateScale buckets positive rates by round numbers: the 1-2-5 series
 * (1, 2, 5, 10, 20, …) when it needs at most MAX_BUCKETS buckets, else the
 * 1-3 series (1, 3, 10, 30, …), else powers of ten (a few decades apart when
 * the rates span more than MAX_BUCKETS decades). Throws RangeError when
 * there are no rates or one is not finite and positive.
 */
export function rateScale(rates: ArrayLike<number>): RateScale {
  if (rates.length === 0) throw new RangeError('rates is empty: a workload covers at least one cell');
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < rates.length; i++) {
    const r = rates[i];
    if (!(Number.isFinite(r) && r > 0)) throw new RangeError(`rates[${i}] = ${r} is invalid: expected a finite rate greater than 0`);
    lo = Math.min(lo, r);
    hi = Math.max(hi, r);
  }
  let edges: number[] = [];
  for (const steps of SERIES) {
    edges = roundEdges(lo, hi, steps);
    if (edges.length - 1 <= MAX_BUCKETS) break;
  }
  if (edges.length - 1 > MAX_BUCKETS) {
    // Powers of ten a few decades apart.
    const e0 = Math.floor(Math.log10(lo));
    const stride = Math.ceil((Math.floor(Math.log10(hi)) + 1 - e0) / MAX_BUCKETS);
    edges = [Number((10 ** e0).toPrecision(12))];
    while (edges[edges.length - 1] <= hi) edges.push(Number((10 ** (e0 + stride * edges.length)).toPrecision(12)));
  }
  const n = edges.length - 1;
  const counts = new Array<number>(n).fill(0);
  for (let i = 0; i < rates.length; i++) counts[bucketOf(edges, rates[i])]++;
  const colors = counts.map((_, b) => requestColor(n === 1 ? 1 : b / (n - 1)));
  return { edges, counts, colors };
}

/** bucketOf returns the bucket holding a rate: the last b with edges[b] ≤ rate (clamped to the buckets). */
export function bucketOf(edges: readonly number[], rate: number): number {
  let lo = 0;
  let hi = edges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (edges[mid] <= rate) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Some of the rated cells: their ordinals and corners (8 floats per cell), as the scene's cell layer draws them. */
export interface RequestCells {
  ordinals: Int32Array;
  corners: Float32Array;
}

/** rateColor returns the color of a rate: its bucket's on the scale. */
export function rateColor(scale: RateScale, rate: number): RGB {
  return scale.colors[bucketOf(scale.edges, rate)];
}

/**
 * hotCells returns the rated cells that lie in a hot range: those whose
 * key-order shard index (shardOf, e.g. Router.indexOfOrdinal) is one of
 * `hot`, with their corners.
 */
export function hotCells(ordinals: Int32Array, corners: Float32Array, shardOf: (ordinal: number) => number, hot: ReadonlySet<number>): RequestCells {
  const keep: number[] = [];
  for (let k = 0; k < ordinals.length; k++) if (hot.has(shardOf(ordinals[k]))) keep.push(k);
  const out = { ordinals: new Int32Array(keep.length), corners: new Float32Array(8 * keep.length) };
  keep.forEach((k, j) => {
    out.ordinals[j] = ordinals[k];
    out.corners.set(corners.subarray(8 * k, 8 * k + 8), 8 * j);
  });
  return out;
}

/** formatRate writes a rate or an edge compactly: 3, 0.5, 1.2k, 20k. */
export function formatRate(x: number): string {
  if (x >= 1e6) return `${Number((x / 1e6).toPrecision(3))}M`;
  if (x >= 1e3) return `${Number((x / 1e3).toPrecision(3))}k`;
  return String(Number(x.toPrecision(3)));
}

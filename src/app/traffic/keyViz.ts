/**
 * The key visualizer's pure part (issue 39): time across, the Hilbert key space down, each
 * range a band, each cell of the picture a range's rate in a time bucket. No DOM, no React:
 * unit-tested in keyViz.test.ts against counts computed there by hand.
 *
 * - Rates are per second: a bucket's count of the metric over the bucket's seconds, as the core
 *   defines them (core/traffic.ts); a brushed window's rate is Σ counts / Σ seconds over its
 *   buckets (core sumBuckets), the mean rate over the seconds recorded.
 * - Bands: a range's height is proportional to its weight (documents, from the cells file),
 *   never below MIN_BAND of the height, so a range with no document still shows as a band.
 * - Colour: heatColor, dark to bright on a square-root scale of rate / the window's highest
 *   rate, so a hot band stands out and a quiet one is still told from none.
 */
import { sumBuckets, type TrafficBucket, type TrafficMetric, type TrafficWindow } from '../../core/traffic';
import { cellCenter, parseToken } from '../../core/cells';
import { distanceKm } from '../../core/earth';
import { oklabToSrgb, type RGB } from '../shell/palette';

/** The smallest band, as a share of the picture's height. */
export const MIN_BAND = 0.006;

/** What each metric counts and its unit per second, as the view labels them. */
export const METRIC_LABELS: Readonly<Record<TrafficMetric, { label: string; unit: string; about: string }>> = Object.freeze({
  searches: { label: 'searches', unit: 'searches/s', about: "shard searches per second (a search that asks k shards counts on each: the engine's query_total)" },
  writes: { label: 'writes', unit: 'writes/s', about: 'documents indexed or deleted per second, on the primary' },
  searchMs: { label: 'search time', unit: 'ms/s', about: 'milliseconds of query time per second, summed over the copies (1,000 ms/s: one search thread busy)' },
});

/** The count of `metric` in a bucket's range i, per second of the bucket (0 for a bucket of no seconds). */
export function rateOf(b: Pick<TrafficBucket, 'ranges' | 'seconds'>, i: number, metric: TrafficMetric): number {
  return b.seconds > 0 ? b.ranges[i][metric] / b.seconds : 0;
}

/** The picture's rates: rates[t * ranges + i] is range i's rate in bucket t; max over all, 0 when empty. */
export function rateGrid(w: Pick<TrafficWindow, 'ranges' | 'buckets'>, metric: TrafficMetric): { rates: Float64Array; max: number } {
  const n = w.ranges.length;
  const rates = new Float64Array(w.buckets.length * n);
  let max = 0;
  w.buckets.forEach((b, t) => {
    for (let i = 0; i < n; i++) {
      const r = rateOf(b, i, metric);
      rates[t * n + i] = r;
      if (r > max) max = r;
    }
  });
  return { rates, max };
}

/** A brushed stretch of buckets, first and last included (0 ≤ from ≤ to < buckets). */
export interface Brush {
  from: number;
  to: number;
}

/** Each range's mean rate over buckets [from, to] (Σ counts / Σ seconds); null when the window has no bucket there. */
export function windowRates(w: Pick<TrafficWindow, 'buckets'>, brush: Brush | null, metric: TrafficMetric): { rates: number[]; seconds: number; start: string; end: string } | null {
  if (w.buckets.length === 0) return null;
  const from = brush ? Math.max(0, Math.min(brush.from, brush.to)) : 0;
  const to = brush ? Math.min(w.buckets.length - 1, Math.max(brush.from, brush.to)) : w.buckets.length - 1;
  if (from > to) return null;
  const sum = sumBuckets(w.buckets.slice(from, to + 1));
  return { rates: sum.ranges.map((_, i) => rateOf(sum, i, metric)), seconds: sum.seconds, start: sum.start, end: sum.end };
}

/** Band edges as shares of the height, in key order: band i is [y0[i], y1[i]). Weights ≥ 0; all 0 (or none known): equal bands. */
export function bandsOf(weights: readonly number[] | null, n: number): { y0: number[]; y1: number[] } {
  const w = Array.from({ length: n }, (_, i) => Math.max(0, weights?.[i] ?? 0));
  const total = w.reduce((a, b) => a + b, 0);
  const share = w.map((x) => (total > 0 ? x / total : 1 / n));
  // Raise every band below MIN_BAND to it, taking the room from the others in proportion.
  const small = share.filter((s) => s < MIN_BAND).length;
  const bigTotal = share.filter((s) => s >= MIN_BAND).reduce((a, b) => a + b, 0);
  const room = 1 - small * MIN_BAND;
  const h = share.map((s) => (s < MIN_BAND || bigTotal === 0 ? (bigTotal === 0 ? 1 / n : MIN_BAND) : (s / bigTotal) * room));
  const y0: number[] = [];
  const y1: number[] = [];
  let y = 0;
  for (const x of h) {
    y0.push(y);
    y += x;
    y1.push(y);
  }
  y1[n - 1] = 1;
  return { y0, y1 };
}

/** The band at a height share y in [0, 1), or -1 outside. */
export function bandAt(bands: { y0: number[]; y1: number[] }, y: number): number {
  for (let i = 0; i < bands.y0.length; i++) if (y >= bands.y0[i] && y < bands.y1[i]) return i;
  return -1;
}

/** Position t in [0, 1] of a rate on the scale of a window whose highest rate is max (square root; 0 when max is 0). */
export function heatT(rate: number, max: number): number {
  return max > 0 ? Math.sqrt(Math.min(1, Math.max(0, rate / max))) : 0;
}

/**
 * heatColor: the colour at t in [0, 1] (clamped), from a dark blue (no traffic, still told from
 * the panel's background) through violet and orange to a pale yellow: OKLab lightness rises
 * with t (0.25 → 0.95), so the order reads by lightness alone, for every colour vision.
 */
export function heatColor(t: number): RGB {
  const u = Math.min(1, Math.max(0, t));
  const hue = ((265 - 170 * u) * Math.PI) / 180;
  const chroma = 0.06 + 0.1 * Math.sin(Math.PI * Math.min(1, u * 1.15));
  return oklabToSrgb([0.25 + 0.7 * u, chroma * Math.cos(hue), chroma * Math.sin(hue)]).map((v) => Math.min(1, Math.max(0, v))) as RGB;
}

/** A rate as the view prints it: 3 significant digits, thousands grouped ("0", "0.42", "17.3", "1,250"). */
export function formatRate(r: number): string {
  if (r === 0) return '0';
  if (r >= 100) return Math.round(r).toLocaleString('en-US');
  return r.toPrecision(3).replace(/\.?0+$/, '');
}

/** The bucket under x, a share of the width in [0, 1), for `buckets` buckets of equal width; -1 outside. */
export function bucketAt(x: number, buckets: number): number {
  if (!(x >= 0 && x < 1) || buckets <= 0) return -1;
  return Math.min(buckets - 1, Math.floor(x * buckets));
}

/** A time of day as the view prints it, in UTC ("14:05:30"), from an ISO-8601 string. */
export function clockOf(iso: string): string {
  return iso.slice(11, 19);
}

/** A busy cell of a hovered bucket: its token, its count of the metric per second, and the nearest known place (null: none within NEAR_PLACE_KM). */
export interface BusyCell {
  cell: string;
  perSecond: number;
  place: string | null;
}

/** How far a place may be from a cell's centre to name it, km (a level-10 cell is about 9 km across). */
export const NEAR_PLACE_KM = 60;

/**
 * busiestCells lists the `n` cells of a bucket's per-cell counts (source `cells`) with the most
 * of `metric` per second among those `inRange` accepts (searchMs has no per-cell count: searches
 * stand for it), largest first, each named by the nearest of `places` within NEAR_PLACE_KM.
 * Empty when the bucket has no per-cell counts.
 */
export function busiestCells(
  b: Pick<TrafficBucket, 'cells' | 'seconds'>,
  inRange: (token: string) => boolean,
  metric: TrafficMetric,
  places: readonly { name: string; lat: number; lng: number }[],
  n = 3,
): BusyCell[] {
  if (!b.cells || !(b.seconds > 0)) return [];
  const kind = metric === 'writes' ? 'writes' : 'searches';
  return b.cells
    .filter((c) => c[kind] > 0 && inRange(c.cell))
    .sort((x, y) => y[kind] - x[kind] || (x.cell < y.cell ? -1 : 1))
    .slice(0, n)
    .map((c) => {
      const at = cellCenter(parseToken(c.cell, 'cell'));
      let place: string | null = null;
      let best = NEAR_PLACE_KM;
      for (const p of places) {
        const d = distanceKm(at.lat, at.lng, p.lat, p.lng);
        if (d <= best) (best = d), (place = p.name);
      }
      return { cell: c.cell, perSecond: c[kind] / b.seconds, place };
    });
}

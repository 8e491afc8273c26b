/**
 * Hot spots in recorded traffic (traffic.ts): which ranges were hot, and for how long.
 *
 * - A range is hot in a bucket when its count / the mean range's count ≥ factor: the criterion
 *   of `geoshard hotspots` (requestLoad.ts findHotspots), applied to the range's measured count
 *   as its load. findHotspots itself decides, over one stand-in cell per range.
 * - A sustained hot spot is a run of consecutive buckets (no gap between them) in each of which
 *   the range is hot, lasting sustainSeconds or more. A bucket below the factor ends the run.
 *
 * Which metric: searches (shard queries) by default; writes or searchMs (query time) on request.
 */
import { findHotspots } from './requestLoad.ts';
import type { Router } from './router.ts';
import type { CellWeight } from './build.ts';
import { metricOf, sumBuckets, type TrafficBucket, type TrafficMetric, type TrafficRange, type TrafficWindow } from './traffic.ts';

/** A range that stayed hot for a sustained run of buckets. */
export interface TrafficHotspot extends TrafficRange {
  metric: TrafficMetric;
  /** The run: start of its first bucket, end of its last (ISO-8601), its seconds and buckets. */
  from: string;
  to: string;
  seconds: number;
  buckets: number;
  /** The range's count over the run, and per second. */
  count: number;
  perSecond: number;
  /** The range's count / the mean range's count over the run, and the highest of its buckets' ratios. */
  overMean: number;
  peakOverMean: number;
  /** The range's share of all ranges' count over the run, in [0, 1]. */
  share: number;
}

/** Options of sustainedHotspots. */
export interface SustainOptions {
  /** count / mean range count at which a range is hot in a bucket, > 0 (default 2, the hotspots command's). */
  factor?: number;
  /** How long a range must stay hot, in seconds, > 0. */
  sustainSeconds: number;
  /** What is counted (default searches). */
  metric?: TrafficMetric;
}

function assertSameRanges(router: Router, w: Pick<TrafficWindow, 'hash' | 'ranges' | 'index'>): void {
  if (w.hash !== router.file.hash || w.ranges.length !== router.numberOfShards) {
    throw new RangeError(`the traffic of ${w.index} was counted in the ranges of boundary file ${w.hash.slice(0, 12)} (${w.ranges.length} ranges), not in this file's (${router.file.hash.slice(0, 12)}, ${router.numberOfShards}): read the window with this file's hash`);
  }
}

/**
 * hotRanges returns the ranges hot in one bucket (count / mean range count ≥ factor) by their
 * key-order index, each with its count / mean. The bucket's ranges are the router's, in key order.
 */
export function hotRanges(router: Router, bucket: Pick<TrafficBucket, 'ranges'>, factor: number, metric: TrafficMetric = 'searches'): Map<number, number> {
  // One stand-in cell per range, at its first cell, holding the range's whole count.
  const cells: CellWeight[] = router.shards.map((_, i) => ({ token: '', ordinal: router.starts[i], restaurants: 0, dishes: 0 }));
  const loads = bucket.ranges.map((r) => metricOf(r, metric));
  return new Map(findHotspots(router, cells, loads, factor).map((h) => [h.index, h.overMean]));
}

/**
 * sustainedHotspots lists every run of buckets over which a range stayed hot for at least
 * sustainSeconds (see the file comment), ordered by start, then hottest first. The window must
 * be counted in the router's ranges (its hash); throws RangeError otherwise, or when factor or
 * sustainSeconds is not a number > 0.
 */
export function sustainedHotspots(router: Router, w: TrafficWindow, opts: SustainOptions): TrafficHotspot[] {
  const factor = opts.factor ?? 2;
  const metric = opts.metric ?? 'searches';
  if (!(Number.isFinite(factor) && factor > 0)) throw new RangeError(`factor ${factor} is invalid: expected a number greater than 0 (count / mean range count)`);
  if (!(Number.isFinite(opts.sustainSeconds) && opts.sustainSeconds > 0)) throw new RangeError(`sustainSeconds ${opts.sustainSeconds} is invalid: expected a number of seconds greater than 0`);
  assertSameRanges(router, w);
  const hot = w.buckets.map((b) => hotRanges(router, b, factor, metric));
  const out: TrafficHotspot[] = [];
  for (let i = 0; i < router.numberOfShards; i++) {
    let first = -1;
    const close = (last: number) => {
      if (first < 0) return;
      const run = w.buckets.slice(first, last + 1);
      const sum = sumBuckets(run);
      if (sum.seconds >= opts.sustainSeconds) {
        const count = metricOf(sum.ranges[i], metric);
        const total = sum.ranges.reduce((a, r) => a + metricOf(r, metric), 0);
        let peak = 0;
        for (let k = first; k <= last; k++) peak = Math.max(peak, hot[k].get(i)!);
        out.push({ ...w.ranges[i], metric, from: sum.start, to: sum.end, seconds: sum.seconds, buckets: run.length, count, perSecond: count / sum.seconds, overMean: count / (total / router.numberOfShards), peakOverMean: peak, share: count / total });
      }
      first = -1;
    };
    for (let k = 0; k < w.buckets.length; k++) {
      const contiguous = k > 0 && w.buckets[k - 1].end === w.buckets[k].start;
      if (first >= 0 && !contiguous) close(k - 1);
      if (hot[k].has(i)) {
        if (first < 0) first = k;
      } else close(k - 1);
    }
    close(w.buckets.length - 1);
  }
  return out.sort((a, b) => Date.parse(a.from) - Date.parse(b.from) || b.overMean - a.overMean || a.index - b.index);
}

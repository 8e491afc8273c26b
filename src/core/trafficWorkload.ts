/**
 * A workload (workload.ts) made from recorded traffic (traffic.ts), so that every figure computed
 * over a workload (balance --workload's load, hotspots' splits, diff, the check gate) can be
 * computed over what the cluster served. Not a second format: the result is WorkloadSearch[],
 * written with formatWorkload and read back with parseWorkload like any workload file.
 *
 * - A bucket with per-cell counts of searches (source `cells`, traffic.ts cellsCount) puts each
 *   cell's searches on that cell.
 * - A bucket without them knows each range's count only: that count is spread over the range's
 *   cells in proportion to their documents (the cells file), the prior the built-in mix uses for
 *   search centres (searchWorkload.ts: searches come from where the documents are). A range
 *   whose cells hold no document has nowhere to put its searches: they are left out and counted.
 * - Every cell that received searches becomes one line: a circle of TRAFFIC_SEARCH_RADIUS at the
 *   cell's centre, whose level-10 covering is that one cell; weight = its searches over the
 *   window; no timestamp.
 *
 * The counts are shard queries: a search that asked k shards counts once on each, so it stands
 * here as k one-cell searches. Load per cell and per shard over such a workload is what the
 * cluster served; fan-out over it is 1 by construction (it says nothing of fan-out).
 */
import { cellCenter, cellFromOrdinal, cellOrdinal, parseToken } from './cells.ts';
import type { Radius } from './cover.ts';
import type { CellWeight } from './build.ts';
import type { WorkloadSearch } from './workload.ts';
import { cellsCount, type TrafficWindow } from './traffic.ts';

/** The radius of every line of a traffic workload: 1 km, well inside any level-10 cell around its centre (about 9 km across). */
export const TRAFFIC_SEARCH_RADIUS: Readonly<Radius> = Object.freeze({ value: 1, unit: 'km', km: 1 });

/** A workload made from a traffic window. */
export interface TrafficWorkload {
  /** One line per cell that received searches, in key order. */
  searches: WorkloadSearch[];
  /** Σ weight: the searches placed. */
  weight: number;
  /** Searches of ranges whose cells hold no document in the cells file (left out), and those ranges' names. */
  unplaced: { searches: number; ranges: string[] };
}

/** Options of trafficWorkload. */
export interface TrafficWorkloadOptions {
  /** Key-order indices of the ranges whose searches to place (default: every range). */
  ranges?: readonly number[];
}

/**
 * trafficWorkload turns a window's searches into workload lines (see the file comment). `cells`
 * is a cells list (its documents: restaurants + dishes) in any order; cells outside the selected
 * ranges are ignored.
 */
export function trafficWorkload(w: Pick<TrafficWindow, 'ranges' | 'buckets'>, cells: readonly CellWeight[], opts: TrafficWorkloadOptions = {}): TrafficWorkload {
  const n = w.ranges.length;
  const starts = w.ranges.map((r) => cellOrdinal(parseToken(r.start)));
  const rangeOf = (ordinal: number) => {
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const selected = new Uint8Array(n).fill(opts.ranges ? 0 : 1);
  for (const i of opts.ranges ?? []) {
    if (!Number.isInteger(i) || i < 0 || i >= n) throw new RangeError(`ranges holds ${i}: expected key-order indices in [0, ${n})`);
    selected[i] = 1;
  }
  // Range counts of the buckets without per-cell counts, summed first: spread once.
  const spread = new Float64Array(n);
  const weights = new Map<number, number>();
  const add = (ordinal: number, x: number) => weights.set(ordinal, (weights.get(ordinal) ?? 0) + x);
  for (const b of w.buckets) {
    if (cellsCount(b, 'searches')) {
      for (const c of b.cells!) {
        const o = cellOrdinal(parseToken(c.cell, 'cells[].cell'));
        if (c.searches > 0 && selected[rangeOf(o)]) add(o, c.searches);
      }
    } else b.ranges.forEach((r, i) => (spread[i] += r.searches));
  }
  const members: { ordinal: number; docs: number }[][] = Array.from({ length: n }, () => []);
  const docsOf = new Float64Array(n);
  for (const c of cells) {
    const docs = c.restaurants + c.dishes;
    if (!(docs > 0)) continue;
    const i = rangeOf(c.ordinal);
    members[i].push({ ordinal: c.ordinal, docs });
    docsOf[i] += docs;
  }
  const unplaced = { searches: 0, ranges: [] as string[] };
  for (let i = 0; i < n; i++) {
    if (!selected[i] || !(spread[i] > 0)) continue;
    if (!(docsOf[i] > 0)) {
      unplaced.searches += spread[i];
      unplaced.ranges.push(w.ranges[i].name);
      continue;
    }
    for (const m of members[i]) add(m.ordinal, (spread[i] * m.docs) / docsOf[i]);
  }
  const searches: WorkloadSearch[] = [];
  let weight = 0;
  for (const o of [...weights.keys()].sort((a, b) => a - b)) {
    const x = weights.get(o)!;
    if (!(x > 0)) continue;
    const { lat, lng } = cellCenter(cellFromOrdinal(o));
    searches.push({ lat, lng, radius: { ...TRAFFIC_SEARCH_RADIUS }, weight: x, time: null });
    weight += x;
  }
  return { searches, weight, unplaced };
}

/**
 * Load before/after: what a boundary change does to each shard's load over a
 * workload (requestLoad.ts), with both files' fan-out over the same searches.
 * One computation for `geoshard diff --workload` and the explorer's Review
 * panel.
 */
import { requestRates, cellLoads, shardTotals, workloadFanout, type WorkloadFanout } from './requestLoad.ts';
import { workloadWeight, type WorkloadSearch } from './workload.ts';
import { evenness, type Evenness } from './diff.ts';
import type { Router } from './router.ts';
import type { CellWeight } from './build.ts';

/** Load of one shard name in each file (null where the file has no shard of that name); share = load / all load, in [0, 1]. */
export interface ShardLoad {
  name: string;
  before: { load: number; share: number } | null;
  after: { load: number; share: number } | null;
}

/** One of a file's hottest shards: its load (weighted document scans) and its multiple of the file's mean shard load. */
export interface HotShard {
  name: string;
  load: number;
  overMean: number;
}

/** Load and fan-out of a current and a candidate boundary file over one workload. */
export interface LoadDiff {
  /** Searches (lines) of the workload and their total weight. */
  searches: number;
  weight: number;
  fanout: { current: WorkloadFanout; candidate: WorkloadFanout };
  /** Every shard name: the current file's in key order, then names only the candidate has. */
  shards: ShardLoad[];
  /** Evenness of the per-shard loads (diff.ts's evenness). */
  evenness: { before: Evenness; after: Evenness };
  /** The HOTTEST_SHARDS hottest shards of each file, hottest first (ties: key order). */
  hottest: { before: HotShard[]; after: HotShard[] };
}

/** How many hottest shards loadDiff lists per file. */
export const HOTTEST_SHARDS = 3;

/**
 * loadDiff measures both files over one workload. w.coverings =
 * coverWorkload(w.searches) (walked once for both files); loads =
 * cellLoads(cells, requestRates(...)) may be passed when already known
 * (it is computed otherwise). cells ascend by ordinal (parseCellsCsv).
 * Throws RangeError when the coverings or loads do not match.
 */
export function loadDiff(w: { searches: readonly WorkloadSearch[]; coverings: readonly Int32Array[] }, current: Router, candidate: Router, cells: readonly CellWeight[], loads: ArrayLike<number> = cellLoads(cells, requestRates(w.searches, w.coverings))): LoadDiff {
  let total = 0;
  for (let i = 0; i < loads.length; i++) total += loads[i];
  const la = shardTotals(current, cells, loads);
  const lb = shardTotals(candidate, cells, loads);
  const share = (x: number) => ({ load: x, share: total > 0 ? x / total : 0 });
  const byNameB = new Map(candidate.shards.map((s) => [s.name, lb[s.index]]));
  const shards: ShardLoad[] = current.shards.map((s) => ({ name: s.name, before: share(la[s.index]), after: byNameB.has(s.name) ? share(byNameB.get(s.name)!) : null }));
  const known = new Set(current.shards.map((s) => s.name));
  for (const s of candidate.shards) if (!known.has(s.name)) shards.push({ name: s.name, before: null, after: share(lb[s.index]) });
  const hottest = (r: Router, l: Float64Array): HotShard[] => {
    const mean = total / r.numberOfShards;
    return r.shards
      .map((s) => ({ name: s.name, load: l[s.index], overMean: mean > 0 ? l[s.index] / mean : 0, index: s.index }))
      .sort((a, b) => b.load - a.load || a.index - b.index)
      .slice(0, HOTTEST_SHARDS)
      .map(({ name, load, overMean }) => ({ name, load, overMean }));
  };
  return {
    searches: w.searches.length,
    weight: workloadWeight(w.searches),
    fanout: { current: workloadFanout(current, w.searches, w.coverings), candidate: workloadFanout(candidate, w.searches, w.coverings) },
    shards,
    evenness: { before: evenness(la), after: evenness(lb) },
    hottest: { before: hottest(current, la), after: hottest(candidate, lb) },
  };
}

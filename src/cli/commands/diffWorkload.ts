/** The workload part of `geoshard diff --workload`: load per shard before/after, hottest shards, fan-out over the workload. */
import { workloadFanout, requestRates, cellLoads, shardTotals, evenness, type Router, type CellWeight, type WorkloadFanout, type Evenness } from '../../core/index.ts';
import type { LoadedWorkload } from './workload.ts';

/** Load of one shard name in each file (null where the file has no shard of that name); share = load / all load. */
export interface ShardLoad {
  name: string;
  before: { load: number; share: number } | null;
  after: { load: number; share: number } | null;
}

/** What diff --workload reports. */
export interface WorkloadLoadFigures {
  path: string;
  searches: number;
  weight: number;
  fanout: { current: WorkloadFanout; candidate: WorkloadFanout };
  /** Every shard name: the current file's in key order, then names only the candidate has. */
  shards: ShardLoad[];
  evenness: { before: Evenness; after: Evenness };
  /** The three hottest shards of each file, hottest first. */
  hottest: { before: { name: string; load: number; overMean: number }[]; after: { name: string; load: number; overMean: number }[] };
}

/** workloadLoadFigures measures both files over one workload (its coverings walked once). */
export function workloadLoadFigures(w: LoadedWorkload, current: Router, candidate: Router, cells: readonly CellWeight[]): WorkloadLoadFigures {
  const loads = cellLoads(cells, requestRates(w.searches, w.coverings));
  const total = loads.reduce((a, b) => a + b, 0);
  const la = shardTotals(current, cells, loads);
  const lb = shardTotals(candidate, cells, loads);
  const share = (x: number) => ({ load: x, share: total > 0 ? x / total : 0 });
  const byNameB = new Map(candidate.shards.map((s) => [s.name, lb[s.index]]));
  const shards: ShardLoad[] = current.shards.map((s) => ({ name: s.name, before: share(la[s.index]), after: byNameB.has(s.name) ? share(byNameB.get(s.name)!) : null }));
  const known = new Set(current.shards.map((s) => s.name));
  for (const s of candidate.shards) if (!known.has(s.name)) shards.push({ name: s.name, before: null, after: share(lb[s.index]) });
  const hottest = (r: Router, l: Float64Array) => {
    const mean = total / r.numberOfShards;
    return r.shards.map((s) => ({ name: s.name, load: l[s.index], overMean: mean > 0 ? l[s.index] / mean : 0 })).sort((a, b) => b.load - a.load).slice(0, 3);
  };
  return {
    path: w.path,
    searches: w.searches.length,
    weight: w.weight,
    fanout: { current: workloadFanout(current, w.searches, w.coverings), candidate: workloadFanout(candidate, w.searches, w.coverings) },
    shards,
    evenness: { before: evenness(la), after: evenness(lb) },
    hottest: { before: hottest(current, la), after: hottest(candidate, lb) },
  };
}

const pct = (x: number, digits = 1) => `${(100 * x).toFixed(digits)}%`;

/** workloadLoadTable renders the figures as text. */
export function workloadLoadTable(f: WorkloadLoadFigures): string {
  const w = Math.max(5, ...f.shards.map((s) => s.name.length));
  let out = `over the workload ${f.path} (${f.searches.toLocaleString('en-US')} searches, weight ${f.weight.toLocaleString('en-US')})\n`;
  out += `  ${''.padEnd(24)} ${'mean shards'.padStart(11)}  ${'one shard'.padStart(9)}  ${'heaviest load / mean'.padStart(20)}\n`;
  out += `  ${'current'.padEnd(24)} ${f.fanout.current.meanShards.toFixed(3).padStart(11)}  ${pct(f.fanout.current.oneShardShare).padStart(9)}  ${f.evenness.before.heaviestOverMean.toFixed(3).padStart(20)}\n`;
  out += `  ${'candidate'.padEnd(24)} ${f.fanout.candidate.meanShards.toFixed(3).padStart(11)}  ${pct(f.fanout.candidate.oneShardShare).padStart(9)}  ${f.evenness.after.heaviestOverMean.toFixed(3).padStart(20)}\n`;
  out += `  hottest: current ${f.hottest.before.map((h) => `${h.name} ${h.overMean.toFixed(2)}×`).join(', ')}; candidate ${f.hottest.after.map((h) => `${h.name} ${h.overMean.toFixed(2)}×`).join(', ')}\n`;
  out += `load per shard (share of all document scans)\n  ${'shard'.padEnd(w)}  ${'current'.padStart(8)}  ${'candidate'.padStart(9)}\n`;
  for (const s of f.shards) out += `  ${s.name.padEnd(w)}  ${(s.before ? pct(s.before.share) : '—').padStart(8)}  ${(s.after ? pct(s.after.share) : '—').padStart(9)}\n`;
  return out;
}

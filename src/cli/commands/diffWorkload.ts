/** The workload part of `geoshard diff --workload`: load per shard before/after, hottest shards, fan-out over the workload (the core's loadDiff). */
import type { Router, CellWeight } from '../../core/index.ts';
import { loadDiff, type LoadDiff } from '../../core/loadDiff.ts';
import type { LoadedWorkload } from './workload.ts';

/** What diff --workload reports: the core's LoadDiff and the workload's path. */
export interface WorkloadLoadFigures extends LoadDiff {
  path: string;
}

/** workloadLoadFigures measures both files over one workload (its coverings walked once). */
export function workloadLoadFigures(w: LoadedWorkload, current: Router, candidate: Router, cells: readonly CellWeight[]): WorkloadLoadFigures {
  return { path: w.path, ...loadDiff(w, current, candidate, cells) };
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

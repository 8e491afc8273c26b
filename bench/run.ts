/**
 * `npm run bench`: the routing core's benchmarks. Each compares a candidate with a baseline
 * measured in the same run and prints the ratio. Everything measured goes to
 * test-results/bench.json (not committed); the shard-set figures the docs quote go, with the
 * machine, the load average during the run and the date, to the committed results file
 * (bench/results.json, run "shardset", through bench/harness.ts recordRun). `--quick` records
 * nothing there: its shorter timing is for a look, not for the docs.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runShardSetBench, printShardSetRows, type ShardSetRow } from './shardset.bench.ts';
import { fmt, loadSampler, machine, recordRun, utcMinute } from './harness.ts';
import type { ResultRun } from '../src/docs/facts.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const results: Record<string, unknown> = { machine: { node: process.version }, at: new Date().toISOString() };

const load = loadSampler();
const startedAt = new Date();
const rows = runShardSetBench(join(root, 'data/boundaries.json'), join(root, 'data/cities.json'), quick ? 300 : 1500);
load.sample();
printShardSetRows(rows);
results.shardSet = rows;
if (!quick) recordRun('shardset', shardSetRun(rows, startedAt, load.range()));
const at200 = rows.find((r) => r.radiusMi === 200)!;
console.log(`\ntarget: >= 10x at 200 mi: ${at200.ratio.toFixed(1)}x ${at200.ratio >= 10 ? 'met' : 'NOT met'}`);

// Benchmarks added by other parts of the project register here.
for (const extra of ['./fanout.bench.ts', './workload.bench.ts', './cli.bench.ts']) {
  try {
    const mod = (await import(extra)) as { runBench?: (opts: { root: string; quick: boolean }) => Promise<unknown> | unknown };
    if (mod.runBench) results[extra.replace(/^\.\/|\.bench\.ts$/g, '')] = await mod.runBench({ root, quick });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw e;
  }
}

mkdirSync(join(root, 'test-results'), { recursive: true });
writeFileSync(join(root, 'test-results', 'bench.json'), JSON.stringify(results, null, 2) + '\n');

/** shardSetRun is the results file's run of the shard-set bench: per radius the speed-up, the fast path's time and the mean shards asked. */
function shardSetRun(rs: ShardSetRow[], at: Date, loadSeen: string): ResultRun {
  const figures: Record<string, string> = {};
  for (const r of rs) {
    const mi = `${r.radiusMi}mi`;
    figures[`speedup${mi}`] = `${r.ratio >= 100 ? r.ratio.toFixed(0) : r.ratio.toFixed(1)}×`;
    figures[`fast${mi}`] = fmt(r.fastMs);
    figures[`baseline${mi}`] = fmt(r.baselineMs);
    figures[`meanShards${mi}`] = r.meanShards.toFixed(2);
    figures[`meanCells${mi}`] = Math.round(r.meanCells).toLocaleString('en-US');
    figures[`centres${mi}`] = String(r.centres);
  }
  return {
    what: "The shard set of a search circle: the core's fast path (Router.shardsAsked, a walk stopped where a range of cells lies in one shard) against the whole level-10 covering (Router.cover, the cells S2's RegionCoverer gives) plus a shard lookup per cell, same centres (the US sample cities; the first 20 at 50 mi, the first 8 at 200 mi), answers checked identical first",
    command: 'npm run bench',
    date: utcMinute(at),
    machine: machine(),
    load: loadSeen,
    figures,
  };
}

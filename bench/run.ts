/**
 * `npm run bench`: the routing core's benchmarks. Each compares a candidate with a baseline
 * measured in the same run and prints the ratio; results are also written to
 * bench/results.json (not committed) for the README's performance table.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runShardSetBench, printShardSetRows } from './shardset.bench.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const quick = process.argv.includes('--quick');
const results: Record<string, unknown> = { machine: { node: process.version }, at: new Date().toISOString() };

const rows = runShardSetBench(join(root, 'data/boundaries.json'), join(root, 'data/cities.json'), quick ? 300 : 1500);
printShardSetRows(rows);
results.shardSet = rows;
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

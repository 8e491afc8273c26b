/**
 * Workload figures at scale: how long a generated workload of 100,000 searches takes to
 * cover (one walk per distinct circle), to turn into per-cell request rates and loads, to
 * judge a boundary file's fan-out, and to replay through the per-cell cache; with the
 * baseline Router.cover per search (which also resolves shards) timed on a sample in the
 * same run.
 *
 * Run alone: npx tsx bench/workload.bench.ts [--quick] (10,000 searches with --quick).
 */
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Router, parseCellsCsv } from '../src/core/index.ts';
import { syntheticWorkload } from '../src/core/workloadGen.ts';
import type { City } from '../src/core/place.ts';
import { coverWorkload, requestRates, cellLoads, shardTotals, workloadFanout } from '../src/core/requestLoad.ts';
import { simulateCellCache } from '../src/core/cellCache.ts';
import { loadUsPlaces } from '../src/data/places.ts';
import { measure, fmt } from './harness.ts';

export interface WorkloadBench {
  searches: number;
  coveredCells: number;
  ms: Record<string, number>;
  perSearchMs: { coverWorkload: number; routerCover: number };
}

const time = <T>(fn: () => T): [T, number] => {
  const t0 = performance.now();
  const v = fn();
  return [v, performance.now() - t0];
};

export function runBench({ root, quick }: { root: string; quick: boolean }): WorkloadBench {
  const n = quick ? 10_000 : 100_000;
  const router = new Router(JSON.parse(readFileSync(join(root, 'data', 'boundaries.json'), 'utf8')));
  const cells = parseCellsCsv(readFileSync(join(root, 'data', 'cells.csv'), 'utf8'));
  const hot = (JSON.parse(readFileSync(join(root, 'data', 'cities.json'), 'utf8')) as City[])
    .filter((c) => c.country === 'US')
    .sort((a, b) => b.population - a.population)
    .slice(0, 8);
  const searches = syntheticWorkload(loadUsPlaces(), hot, { searches: n, seed: 1 });
  // Per search, on a sample: the workload's walk vs Router.cover, interleaved.
  const sample = searches.slice(0, 300);
  const per = measure({ coverWorkload: (s) => coverWorkload([s]), routerCover: (s) => router.cover(s.lat, s.lng, s.radius.km) }, sample, 1500, 1);
  const ms: Record<string, number> = {};
  const [coverings, tCover] = time(() => coverWorkload(searches));
  ms.coverWorkload = tCover;
  const [rates, tRates] = time(() => requestRates(searches, coverings));
  ms.requestRates = tRates;
  const [loads, tLoads] = time(() => cellLoads(cells, rates));
  ms.cellLoads = tLoads;
  ms.shardTotals = time(() => shardTotals(router, cells, loads))[1];
  ms.workloadFanout = time(() => workloadFanout(router, searches, coverings))[1];
  ms.cache3Sizes = time(() => simulateCellCache(searches, coverings, [100, 1000, 10000]))[1];
  let covered = 0;
  for (const c of coverings) covered += c.length;
  return { searches: n, coveredCells: covered, ms, perSearchMs: { coverWorkload: per.coverWorkload.msPerOp, routerCover: per.routerCover.msPerOp } };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const r = runBench({ root, quick: process.argv.includes('--quick') });
  console.log(`${r.searches.toLocaleString('en-US')} searches, ${r.coveredCells.toLocaleString('en-US')} covering cells in all`);
  console.log(`per search (300-search sample): coverWorkload ${fmt(r.perSearchMs.coverWorkload)}, Router.cover ${fmt(r.perSearchMs.routerCover)}`);
  for (const [k, v] of Object.entries(r.ms)) console.log(`  ${k.padEnd(16)} ${fmt(v)}`);
}

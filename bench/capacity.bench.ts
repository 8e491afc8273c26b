/**
 * `npm run bench:capacity`: the highest rate of searches each plan sustains
 * with p99 <= a bound (default 100 ms), routed vs all shards, same run: the
 * figure a team would size a cluster by.
 *
 * A concurrency sweep (closed loop): at each level L of `--levels` (default
 * 1,2,3,4,6,8,12,16,24,32), L clients each send the live API's search (runSearch:
 * the API's body, request cache off) one after another for BLOCK_MS, over
 * circles of `--radius` miles (default 15; `--radius 15,50` for both) around
 * the 64 bundled US cities in turn; routed and all-shards blocks alternate
 * (`--blocks` of each per level, default 2, which first alternates too),
 * after a warm-up of `--warmup-ms` (default 20,000) per radius whose
 * searches are discarded: a JVM fresh from start spends whole cores on JIT
 * compiling through its first minute, which made a cold 1-in-flight block cost
 * 27 ms CPU per search against 3 ms warm.
 * Per level and plan: searches/s, p50 / p99 wall time as the client sees it,
 * OpenSearch CPU per search (bench/cpu.ts). A plan stops climbing once its
 * p99 is over the bound and its rate has not passed its best so far at two
 * levels in a row; the sweep
 * ends when both have stopped. The capacity of a plan is its highest rate at
 * a level whose p99 is within the bound.
 *
 * Runs on the cluster of OPENSEARCH_URL (e.g. node 1 of `npm run
 * cluster:start -- --nodes 3`), on the index `--index` (default
 * geoshard-bench-large: the bundled boundaries under that name, as `npm run
 * bench:live -- --restaurants R` seeds it there, or `--seed R` here). Checks first that routed and
 * all-shards answers agree on every circle. Writes
 * test-results/bench-capacity.json.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { Router } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { seedIndex } from '../src/ops/seed/seeder.ts';
import { DEFAULT_DISHES_PER_RESTAURANT } from '../src/data/sample.ts';
import { ROOT, derivedFile } from '../src/testing/testkit.ts';
import { percentile } from '../src/server/measureStats.ts';
import { jobsFor as jobsOf, type Job } from './searchJobs.ts';
import { cpuReader } from './cpu.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { runSearch } from '../src/server/search/searchRun.ts';
import { compareParts } from '../src/server/search/compare.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}
function intList(name: string, dflt: number[]): number[] {
  const raw = option(name);
  if (raw === undefined) return dflt;
  const xs = raw.split(',');
  if (!xs.every((x) => /^\d+$/.test(x) && Number(x) >= 1)) {
    console.error(`bench:capacity: --${name} ${JSON.stringify(raw)} is invalid: expected integers >= 1 separated by commas, e.g. 1,2,4`);
    process.exit(2);
  }
  return xs.map(Number);
}
const LEVELS = intList('levels', [1, 2, 3, 4, 6, 8, 12, 16, 24, 32]);
const RADII = intList('radius', [15]);
const [P99_MS] = intList('p99-ms', [100]);
const [BLOCKS] = intList('blocks', [2]);
const [BLOCK_MS] = intList('block-ms', [4000]);
/** Searches run before each radius's sweep and discarded: a JVM fresh from start spends whole cores compiling (JIT) for its first minute of searches. */
const [WARMUP_MS] = intList('warmup-ms', [20000]);
const INDEX = option('index') ?? 'geoshard-bench-large';
/** `--seed R`: (re)seed the index with R restaurants first unless it holds exactly that sample (R = 200,000: 2,192,974 documents). */
const SEED = option('seed') === undefined ? undefined : intList('seed', [])[0];

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 30_000 });
const file = derivedFile(INDEX);
const router = new Router(file);
const jobsFor = (radiusMi: number): Job[] => jobsOf(router, radiusMi);

/** The nearest-rank percentile of ascending `sorted` (src/server/measureStats.ts), NaN when empty. */
const pct = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p) : NaN);

/** One plan's figures at one level. */
interface Point {
  level: number;
  searches: number;
  perS: number;
  p50: number;
  p99: number;
  cpuMs: number;
}

async function main() {
  const info = await client.get<{ version: { number: string } }>('/');
  const health = await client.get<{ number_of_nodes: number }>('/_cluster/health');
  let meta = await fetchIndexMeta(client, INDEX);
  if (SEED !== undefined && !(meta?.hash === file.hash && meta.sample?.complete && meta.sample.restaurants === SEED && meta.sample.dishesPerRestaurant === DEFAULT_DISHES_PER_RESTAURANT)) {
    console.log(`seeding "${INDEX}": ${SEED.toLocaleString('en-US')} restaurants, at most ${DEFAULT_DISHES_PER_RESTAURANT} dishes each (--seed)...`);
    const slow = new OpenSearchClient({ ...client.config, timeoutMs: 120_000 });
    const r = await seedIndex({ client: slow, router, restaurants: SEED, dishesPerRestaurant: DEFAULT_DISHES_PER_RESTAURANT, recreate: true });
    await slow.close();
    console.log(`seeded ${r.indexDocs.toLocaleString('en-US')} documents in ${(r.ms / 1000).toFixed(0)} s`);
    meta = await fetchIndexMeta(client, INDEX);
  }
  if (!meta?.sample?.complete) throw new Error(`index "${INDEX}" holds no complete sample: seed it with "npm run bench:live -- --restaurants 200000 --quick" on this cluster first`);
  if (meta.hash !== file.hash) throw new Error(`index "${INDEX}" was made for boundary file ${meta.hash}, not ${file.hash} (the bundled boundaries under its name)`);
  const count = (await client.get<{ count: number }>(`/${INDEX}/_count`)).count;
  const shardNodes = new Set((await client.get<{ node: string | null }[]>(`/_cat/shards/${INDEX}`, { query: { format: 'json', h: 'node' } })).map((r) => r.node)).size;
  const cpu = await cpuReader(client);
  console.log(
    `capacity bench: OpenSearch ${info.version.number} at ${client.url}, ${health.number_of_nodes} node(s), index "${INDEX}" (${file.numberOfShards} shards on ${shardNodes} node(s), ${count.toLocaleString('en-US')} documents); ` +
      `levels ${LEVELS.join(',')}; ${BLOCKS} × ${BLOCK_MS} ms per plan and level; p99 bound ${P99_MS} ms; CPU from ${cpu.source}; ${os.cpus().length} cores; load ${os.loadavg()[0].toFixed(1)}`,
  );
  const located = true;
  const out: { radiusMi: number; meanShardsRouted: number; routed: Point[]; all: Point[]; capacity: { routed: Point | null; all: Point | null }; loads: number[] }[] = [];
  for (const radiusMi of RADII) {
    const jobs = jobsFor(radiusMi);
    // Check and warm up: every circle both ways, the answers must agree.
    for (const j of jobs) {
      const a = await runSearch(client, router, j.params, j.routed, { located });
      const b = await runSearch(client, router, j.params, j.all, { located });
      const cmp = compareParts(a, b);
      if (!cmp.identical) throw new Error(`${j.label}: routed and all-shards answers differ: ${cmp.differences.join('; ')}`);
    }
    // Warm-up, discarded: both plans at 4 in flight, alternating every second.
    const warm0 = performance.now();
    let warmed = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (performance.now() - warm0 < WARMUP_MS) {
          const j = jobs[warmed++ % jobs.length];
          const plan = Math.floor((performance.now() - warm0) / 1000) % 2 === 0 ? j.routed : j.all;
          await runSearch(client, router, j.params, plan, { located, query: { request_cache: 'false' } });
        }
      }),
    );
    console.log(`  ${radiusMi} mi: warm-up of ${(WARMUP_MS / 1000).toFixed(0)} s, ${warmed} searches on both plans, discarded (load ${os.loadavg()[0].toFixed(1)})`);
    const points = { routed: [] as Point[], all: [] as Point[] };
    const stopped = { routed: false, all: false };
    const flat = { routed: 0, all: 0 };
    const loads = [os.loadavg()[0]];
    let next = 0;
    for (const level of LEVELS) {
      if (stopped.routed && stopped.all) break;
      const acc = { routed: { lat: [] as number[], ms: 0, cpu: 0 }, all: { lat: [] as number[], ms: 0, cpu: 0 } };
      for (let b = 0; b < 2 * BLOCKS; b++) {
        const which = (b + level) % 2 === 0 ? 'routed' : 'all';
        if (stopped[which]) continue;
        const a = acc[which];
        const c0 = await cpu.read();
        const t0 = performance.now();
        const end = t0 + BLOCK_MS;
        await Promise.all(
          Array.from({ length: level }, async () => {
            while (performance.now() < end) {
              const j = jobs[next++ % jobs.length];
              const r = await runSearch(client, router, j.params, which === 'routed' ? j.routed : j.all, { located, query: { request_cache: 'false' } });
              if (r.status !== 'complete') throw new Error(`${j.label} ${which}: search was ${r.status}`);
              a.lat.push(r.wallMs);
            }
          }),
        );
        a.ms += performance.now() - t0;
        a.cpu += (await cpu.read()) - c0;
      }
      for (const which of ['routed', 'all'] as const) {
        if (stopped[which]) continue;
        const a = acc[which];
        const s = [...a.lat].sort((x, y) => x - y);
        const p: Point = { level, searches: s.length, perS: s.length / (a.ms / 1000), p50: pct(s, 50), p99: pct(s, 99), cpuMs: a.cpu / s.length };
        const prev = points[which].at(-1);
        points[which].push(p);
        console.log(`  ${radiusMi} mi, ${level} in flight, ${which}: ${p.perS.toFixed(1)} searches/s, p50 ${p.p50.toFixed(0)} ms, p99 ${p.p99.toFixed(0)} ms, CPU ${p.cpuMs.toFixed(1)} ms/search (load ${os.loadavg()[0].toFixed(1)})`);
        // Saturated: over the bound and no faster than its best so far, twice in a row (one level alone is noise on a busy machine).
        const bestSoFar = Math.max(...points[which].slice(0, -1).map((x) => x.perS));
        flat[which] = p.p99 > P99_MS && prev !== undefined && p.perS <= bestSoFar * 1.05 ? flat[which] + 1 : 0;
        if (flat[which] >= 2) stopped[which] = true;
      }
      loads.push(os.loadavg()[0]);
    }
    const best = (ps: Point[]) => ps.filter((p) => p.p99 <= P99_MS).reduce<Point | null>((b, p) => (!b || p.perS > b.perS ? p : b), null);
    out.push({ radiusMi, meanShardsRouted: jobs.reduce((s, j) => s + j.routed.shards.length, 0) / jobs.length, ...points, capacity: { routed: best(points.routed), all: best(points.all) }, loads });
  }
  const f = (x: number) => x.toFixed(1);
  console.log(`\n| radius | in flight | routed: searches/s, p50 / p99, CPU/search | all shards: searches/s, p50 / p99, CPU/search |`);
  console.log('|---|---|---|---|');
  for (const r of out) {
    for (const level of LEVELS) {
      const a = r.routed.find((p) => p.level === level);
      const b = r.all.find((p) => p.level === level);
      if (!a && !b) continue;
      const cell = (p: Point | undefined) => (p ? `${f(p.perS)}/s, ${p.p50.toFixed(0)} / ${p.p99.toFixed(0)} ms, ${f(p.cpuMs)} ms` : '(stopped)');
      console.log(`| ${r.radiusMi} mi | ${level} | ${cell(a)} | ${cell(b)} |`);
    }
  }
  console.log(`\nCapacity (highest rate with p99 <= ${P99_MS} ms):`);
  console.log('| radius | shards asked (routed, mean) | routed | all shards | routed / all | load (1 min) during the sweep |');
  console.log('|---|---|---|---|---|---|');
  for (const r of out) {
    const c = (p: Point | null) => (p ? `${f(p.perS)} searches/s (${p.level} in flight, p99 ${p.p99.toFixed(0)} ms)` : `none (p99 > ${P99_MS} ms even at 1 in flight)`);
    const ratio = r.capacity.routed && r.capacity.all ? `${(r.capacity.routed.perS / r.capacity.all.perS).toFixed(2)}x` : '-';
    console.log(`| ${r.radiusMi} mi | ${r.meanShardsRouted.toFixed(2)} of ${file.numberOfShards} | ${c(r.capacity.routed)} | ${c(r.capacity.all)} | ${ratio} | ${Math.min(...r.loads).toFixed(1)}-${Math.max(...r.loads).toFixed(1)} |`);
  }
  // The same sweep read at looser bounds: on a machine too busy for the bound, what each plan sustains at p99 <= 250 ms, 500 ms, 1 s.
  const bounds = [...new Set([P99_MS, 250, 500, 1000])].sort((x, y) => x - y);
  console.log(`\nThe same sweep at other p99 bounds (searches/s, routed / all shards, ratio):`);
  console.log(`| radius | ${bounds.map((b) => `p99 <= ${b} ms`).join(' | ')} |`);
  console.log(`|---|${bounds.map(() => '---').join('|')}|`);
  for (const r of out) {
    const at = (ps: Point[], b: number) => ps.filter((p) => p.p99 <= b).reduce<Point | null>((x, p) => (!x || p.perS > x.perS ? p : x), null);
    const cells = bounds.map((b) => {
      const [x, y] = [at(r.routed, b), at(r.all, b)];
      return `${x ? f(x.perS) : '-'} / ${y ? f(y.perS) : '-'}${x && y ? ` (${(x.perS / y.perS).toFixed(2)}x)` : ''}`;
    });
    console.log(`| ${r.radiusMi} mi | ${cells.join(' | ')} |`);
  }
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'test-results', 'bench-capacity.json'),
    JSON.stringify({ at: new Date().toISOString(), opensearch: info.version.number, nodes: health.number_of_nodes, index: INDEX, documents: count, cores: os.cpus().length, p99BoundMs: P99_MS, blocks: BLOCKS, blockMs: BLOCK_MS, cpuSource: cpu.source, results: out }, null, 2) + '\n',
  );
  await client.close();
}

main().catch((e) => {
  console.error(`bench:capacity: ${(e as Error).message}`);
  process.exit(1);
});

/**
 * `npm run bench:live`: routed vs all-shards dish searches on a real OpenSearch
 * node, same run, interleaved. For 15-mile and 50-mile circles around the
 * bundled US sample cities, the same search body (the live API's: has_parent +
 * geo_distance, top 20 dishes nearest first with their restaurant, exact total,
 * three facets) is sent with `routing=<names>` and without routing.
 *
 *   1. latency: one request at a time, routed and unrouted alternating
 *      request by request (which goes first alternates too): p50/p99 wall
 *      time as this client sees it, and OpenSearch's `took`.
 *   2. throughput: CONCURRENCY requests in flight, in blocks of BLOCK_MS
 *      alternating routed / unrouted: completed searches per second.
 *
 * Uses the index of data/boundaries.json as `npx geoshard seed` made it (any
 * complete seeded sample; the default one is seeded first when there is none)
 * and the request cache off. Needs a node: `npm run cluster:start` or
 * OPENSEARCH_URL. `--quick` shortens every phase. Results also go to
 * test-results/bench-live.json.
 *
 * `npm run bench:live -- --restaurants R` (without --nodes): the same on a
 * large sample in its own index (`geoshard-bench-large`, the bundled
 * boundaries under another name), seeded once and reused while its `_meta`
 * names this boundary file's hash and exactly this sample, complete, and its
 * document count matches what the seed wrote; otherwise it is recreated.
 * R = 200,000 gives 2,192,974 documents. Prints, per radius, the ideal ratio
 * (N / mean shards asked) beside the measured throughput ratio.
 *
 * `--query located|located-join|join` picks the search's shape (default
 * located, the live API's on an index whose dishes carry
 * `restaurant_location`: filtered and scored on it; located-join: filtered on
 * it, scored by has_parent, the API's query before; join: has_parent alone, as
 * before that). Each radius also reports OpenSearch's own CPU time per
 * search over the throughput blocks (bench/cpu.ts), routed and all
 * shards: what a search costs the node, steadier than throughput when other
 * work shares the machine.
 *
 * `--profile` adds, before timing, a breakdown of where a search's time goes,
 * from OpenSearch's profile API on a sample of the circles (each search alone,
 * its shards one at a time): per side, the shards' query-phase work (query,
 * rewrite, collector and aggregations), on the shards the routed plan asks and
 * on the others, and the rest of `took` (coordination, the fetch round).
 *
 * `npm run bench:live -- --nodes N`: the same benchmark on a cluster of at
 * least N nodes (OPENSEARCH_URL, or node 1 at OPENSEARCH_PORT, as started by
 * `npm run cluster:start -- --nodes N`) and beside it on a single node
 * (`--single-url URL`, default http://127.0.0.1:9200), with the same
 * documents: the same sample (`--restaurants R`, default 2,000, at most
 * DEFAULT_DISHES_PER_RESTAURANT dishes each) seeded into a dedicated index
 * (`geoshard-bench-nodes`, the bundled boundaries under another name) on
 * both, which is deleted afterwards unless `--keep`. Prints both tables and
 * the cluster / single-node ratios. With `--quick` and the default sample it
 * took 5 minutes on 2 busy cores (seeding included), most of it the warm-up
 * and timed phases (2 radii × 2 targets × 64 cities).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { Router, parseBoundaryFile } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { seedIndex } from '../src/ops/seed/seeder.ts';
import { DEFAULT_SAMPLE_RESTAURANTS, DEFAULT_DISHES_PER_RESTAURANT } from '../src/data/sample.ts';
import { parseSearchParams, type SearchParams } from '../src/server/wire.ts';
import { ROOT, derivedFile } from '../src/testing/testkit.ts';
import { readingAfter, cpuBetween, type TimedReading } from '../src/server/measure.ts';
import { percentile } from '../src/server/measureStats.ts';
import type { BoundaryFile } from '../src/core/index.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { runSearch, planRouted, planAll, type Plan } from '../src/server/search/searchRun.ts';
import { compareParts } from '../src/server/search/compare.ts';
import { buildSearchBody } from '../src/server/search/searchBody.ts';
import { DOC_SHAPE, docShapeOf } from '../src/opensearch/sampleIndex.ts';
import type { SampleMeta } from '../src/opensearch/meta.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const argv = process.argv.slice(2);
/** The value of `--name V` or `--name=V`, or undefined. */
function option(name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}
function intOption(name: string, min: number): number | undefined {
  const raw = option(name);
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    console.error(`bench:live: --${name} ${JSON.stringify(raw)} is invalid: expected an integer >= ${min}`);
    process.exit(2);
  }
  return Number(raw);
}
const quick = argv.includes('--quick');
const NODES = intOption('nodes', 2);
const BENCH_RESTAURANTS = intOption('restaurants', 1) ?? 2000;
const NODES_INDEX = 'geoshard-bench-nodes';
/** The index of the large run (`--restaurants R` without --nodes). */
const LARGE_INDEX = 'geoshard-bench-large';
const LARGE = NODES === undefined && option('restaurants') !== undefined;
const PROFILE = argv.includes('--profile');
/**
 * The query shape (`--query located|located-join|join`): `located` (the live
 * API's on an index whose dishes carry `restaurant_location`) filters and
 * scores the dishes by it; `located-join` filters by it and scores by
 * has_parent; `join` decides the dishes by has_parent alone, as the API did
 * before (every shard asked walks all of its dishes). Default: located.
 */
const QUERY = option('query') ?? 'located';
if (QUERY !== 'located' && QUERY !== 'located-join' && QUERY !== 'join') {
  console.error(`bench:live: --query ${JSON.stringify(QUERY)} is invalid: expected "located", "located-join" or "join"`);
  process.exit(2);
}
const LOCATED = QUERY !== 'join';
/** `located-join`: the located query with has_parent still scoring the dishes (the API's query before they were scored on their own location). */
const JOIN = QUERY === 'located-join';
const LATENCY_ROUNDS = quick ? 2 : 6;
const CONCURRENCY = 4;
const BLOCK_MS = quick ? 1000 : 2500;
const BLOCKS = quick ? 2 : 4;
const RADII_MI = [15, 50];

/** Where one benchmark runs: a cluster, the index's boundary file and its router. */
interface Target {
  client: OpenSearchClient;
  file: BoundaryFile;
  router: Router;
}
const bundled = parseBoundaryFile(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8'), 'data/boundaries.json');
let target: Target = { client: new OpenSearchClient(configFromEnv()), file: bundled, router: new Router(bundled) };
const cities = (JSON.parse(readFileSync(join(ROOT, 'data', 'cities.json'), 'utf8')) as { name: string; state: string; country: string; lat: number; lng: number }[]).filter((c) => c.country === 'US');

/** One search to time: its params and both plans. */
interface Job {
  label: string;
  params: SearchParams;
  routed: Plan;
  all: Plan;
}

/** The nearest-rank percentile of ascending samples (src/server/measureStats.ts), NaN when there are none. */
const pct = (sorted: number[], p: number): number => (sorted.length === 0 ? NaN : percentile(sorted, p));
const sortNum = (xs: number[]) => [...xs].sort((a, b) => a - b);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function time(job: Job, plan: Plan): Promise<{ wall: number; took: number }> {
  const { client, router } = target;
  const r = await runSearch(client, router, job.params, plan, { query: { request_cache: 'false' }, located: LOCATED, join: JOIN });
  if (r.status !== 'complete') throw new Error(`${job.label}: search was ${r.status}: ${JSON.stringify(r.shards)}`);
  return { wall: r.wallMs, took: r.took };
}

interface Row {
  radiusMi: number;
  searches: number;
  meanShardsRouted: number;
  shards: number;
  latency: { routed: { p50: number; p99: number; tookP50: number }; all: { p50: number; p99: number; tookP50: number }; p50Ratio: number; p99Ratio: number };
  throughput: { routedPerS: number; allPerS: number; ratio: number; routedP50: number; routedP99: number; allP50: number; allP99: number };
  /** OpenSearch's own CPU time per search during the throughput blocks (ms; every node's process, `_nodes/stats/process`), and all / routed. */
  cpu: { routedMs: number; allMs: number; ratio: number };
}

function jobsFor(radiusMi: number): Job[] {
  const { router } = target;
  return cities.map((c) => {
    const params = parseSearchParams(new URLSearchParams(`lat=${c.lat}&lng=${c.lng}&radius=${radiusMi}mi&size=20`));
    return { label: `${c.name}, ${c.state} ${radiusMi} mi`, params, routed: planRouted(router, params), all: planAll(router) };
  });
}

/** checkAndWarm runs every search both ways once: the answers must agree (or timing them means nothing), and caches warm up. */
async function checkAndWarm(jobs: Job[]): Promise<void> {
  const { client, router } = target;
  for (const j of jobs) {
    const [a, b] = [await runSearch(client, router, j.params, j.routed, { located: LOCATED, join: JOIN }), await runSearch(client, router, j.params, j.all, { located: LOCATED, join: JOIN })];
    const cmp = compareParts(a, b);
    if (!cmp.identical) throw new Error(`${j.label}: routed and all-shards answers differ: ${cmp.differences.join('; ')}`);
  }
}

async function benchRadius(radiusMi: number): Promise<Row> {
  const jobs = jobsFor(radiusMi);
  // 1. Latency, one at a time, interleaved request by request.
  const lat = { routed: [] as number[], all: [] as number[], routedTook: [] as number[], allTook: [] as number[] };
  for (let round = 0; round < LATENCY_ROUNDS; round++) {
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i];
      const order: ('routed' | 'all')[] = (round + i) % 2 === 0 ? ['routed', 'all'] : ['all', 'routed'];
      for (const which of order) {
        const t = await time(j, which === 'routed' ? j.routed : j.all);
        if (which === 'routed') lat.routed.push(t.wall), lat.routedTook.push(t.took);
        else lat.all.push(t.wall), lat.allTook.push(t.took);
      }
    }
  }
  // 2. Throughput: CONCURRENCY in flight, alternating blocks.
  const tp = { routed: { n: 0, ms: 0, cpu: 0, lat: [] as number[] }, all: { n: 0, ms: 0, cpu: 0, lat: [] as number[] } };
  let next = 0;
  let mark: TimedReading | null = null;
  for (let b = 0; b < 2 * BLOCKS; b++) {
    const which = b % 2 === 0 ? 'routed' : 'all';
    const acc = tp[which];
    // A reading the node computed after the previous block ended (its process stats are cached for 1 s).
    const cpu0 = (mark = await readingAfter(target.client, mark));
    const t0 = performance.now();
    const end = t0 + BLOCK_MS;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          const j = jobs[next++ % jobs.length];
          const t = await time(j, which === 'routed' ? j.routed : j.all);
          acc.n++;
          acc.lat.push(t.wall);
        }
      }),
    );
    acc.ms += performance.now() - t0;
    mark = await readingAfter(target.client, mark);
    acc.cpu += cpuBetween(cpu0.reading, mark.reading);
  }
  const r = sortNum(lat.routed);
  const a = sortNum(lat.all);
  const routedPerS = tp.routed.n / (tp.routed.ms / 1000);
  const allPerS = tp.all.n / (tp.all.ms / 1000);
  const tr = sortNum(tp.routed.lat);
  const ta = sortNum(tp.all.lat);
  return {
    radiusMi,
    searches: jobs.length,
    meanShardsRouted: mean(jobs.map((j) => j.routed.shards.length)),
    shards: target.file.numberOfShards,
    latency: {
      routed: { p50: pct(r, 50), p99: pct(r, 99), tookP50: pct(sortNum(lat.routedTook), 50) },
      all: { p50: pct(a, 50), p99: pct(a, 99), tookP50: pct(sortNum(lat.allTook), 50) },
      p50Ratio: pct(a, 50) / pct(r, 50),
      p99Ratio: pct(a, 99) / pct(r, 99),
    },
    throughput: { routedPerS, allPerS, ratio: routedPerS / allPerS, routedP50: pct(tr, 50), routedP99: pct(tr, 99), allP50: pct(ta, 50), allP99: pct(ta, 99) },
    cpu: { routedMs: tp.routed.cpu / tp.routed.n, allMs: tp.all.cpu / tp.all.n, ratio: tp.all.cpu / tp.all.n / (tp.routed.cpu / tp.routed.n) },
  };
}

/** One shard's part of a profiled search (ms), from the profile API. */
interface ShardProfile {
  shard: number;
  /** Top-level query time: building weights and scorers, iterating and scoring the matching dishes. */
  queryMs: number;
  /** Rewrite time: for has_parent, the restaurant (parent) search and the join's global ordinals. */
  rewriteMs: number;
  /** Collector time: keeping the top hits and feeding the facet aggregations (aggsMs is part of it). */
  collectorMs: number;
  aggsMs: number;
}

/** Mean figures of one side (routed or all-shards) over the profiled searches, in ms. */
interface SideSummary {
  took: number;
  shardsAnswered: number;
  /** Sum over the shards of query + rewrite + collector time: the work done in the shards' query phases. */
  shardWork: number;
  /** The same, only on the shards the routed plan asks (where the circle's restaurants are). */
  workOnRoutedShards: number;
  /** The same, on the other shards (the ones routing skips), and per such shard. */
  workOnOtherShards: number;
  perOtherShard: number;
  rewrite: number;
  query: number;
  collector: number;
  aggs: number;
}

/**
 * Per-shard cost from `took` alone (no profiler overhead), each search alone, in
 * ms: what a search costs on the shards routing asks and on one it skips.
 */
interface ShardCost {
  /** Mean took of the routed search, of the same search routed to one shard the circle does not touch, of the all-shards search. */
  routedTook: number;
  untouchedTook: number;
  allTook: number;
  /** Mean took of a search that does nothing (size 0, match_none) on one shard: the fixed cost of a request. */
  fixedTook: number;
  /** Per asked shard (routed took − fixed) / shards asked, and per untouched shard (untouched took − fixed). */
  perRoutedShard: number;
  perUntouchedShard: number;
  /**
   * The throughput ratio these costs predict when the node is busy (work adds
   * up): (fixed + k·perRouted + (N − k)·perUntouched) / (fixed + k·perRouted).
   */
  modelRatio: number;
}

/** --profile's figures for one radius. */
interface ProfileRow {
  radiusMi: number;
  searches: number;
  routed: SideSummary;
  all: SideSummary;
  cost: ShardCost;
}

const ns = (x: number | undefined) => (x ?? 0) / 1e6;
const sumOf = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

/** shardProfiles reads a `profile: true` response's per-shard figures (the shard number is the last [..] of its id). */
function shardProfiles(body: { profile?: { shards?: { id: string; searches?: { query?: { time_in_nanos: number }[]; rewrite_time?: number; collector?: { time_in_nanos: number }[] }[]; aggregations?: { time_in_nanos: number }[] }[] } }): ShardProfile[] {
  return (body.profile?.shards ?? []).map((sh) => {
    const m = /\[(\d+)\]$/.exec(sh.id);
    const searches = sh.searches ?? [];
    return {
      shard: m ? Number(m[1]) : -1,
      queryMs: sumOf(searches.flatMap((x) => (x.query ?? []).map((q) => ns(q.time_in_nanos)))),
      rewriteMs: sumOf(searches.map((x) => ns(x.rewrite_time))),
      collectorMs: sumOf(searches.flatMap((x) => (x.collector ?? []).map((c) => ns(c.time_in_nanos)))),
      aggsMs: sumOf((sh.aggregations ?? []).map((a) => ns(a.time_in_nanos))),
    };
  });
}

/**
 * profileRadius runs a sample of the radius's searches once each way with the
 * profile API (request cache off, as timed) and returns the mean breakdown.
 */
async function profileRadius(radiusMi: number): Promise<ProfileRow> {
  const { client, router } = target;
  const jobs = jobsFor(radiusMi).filter((_, i) => i % 4 === 0);
  const acc = { routed: [] as SideSummary[], all: [] as SideSummary[] };
  for (const j of jobs) {
    const routedShards = new Set(j.routed.shards.map((x) => x.shard));
    for (const which of ['routed', 'all'] as const) {
      const plan = which === 'routed' ? j.routed : j.all;
      const { body } = await client.request<{ took: number; _shards: { successful: number }; profile?: never }>('POST', `/${encodeURIComponent(router.file.index)}/_search`, {
        // One shard at a time, so a shard's timers count its own work, not the wait for a core behind the request's other shards.
        query: { routing: plan.routing ?? undefined, request_cache: 'false', max_concurrent_shard_requests: '1' },
        body: { ...buildSearchBody(j.params, undefined, [], LOCATED, JOIN), profile: true },
        timeoutMs: 30_000,
      });
      const shards = shardProfiles(body as Parameters<typeof shardProfiles>[0]);
      const work = (x: ShardProfile) => x.queryMs + x.rewriteMs + x.collectorMs;
      const other = shards.filter((x) => !routedShards.has(x.shard));
      acc[which].push({
        took: body.took,
        shardsAnswered: body._shards.successful,
        shardWork: sumOf(shards.map(work)),
        workOnRoutedShards: sumOf(shards.filter((x) => routedShards.has(x.shard)).map(work)),
        workOnOtherShards: sumOf(other.map(work)),
        perOtherShard: other.length ? sumOf(other.map(work)) / other.length : 0,
        rewrite: sumOf(shards.map((x) => x.rewriteMs)),
        query: sumOf(shards.map((x) => x.queryMs)),
        collector: sumOf(shards.map((x) => x.collectorMs)),
        aggs: sumOf(shards.map((x) => x.aggsMs)),
      });
    }
  }
  // Shard costs from took: the same searches without the profiler, three rounds.
  const took = async (body: unknown, routing: string | null) =>
    (await client.request<{ took: number }>('POST', `/${encodeURIComponent(router.file.index)}/_search`, { query: { routing: routing ?? undefined, request_cache: 'false' }, body, timeoutMs: 30_000 })).body.took;
  const t = { routed: [] as number[], untouched: [] as number[], all: [] as number[], fixed: [] as number[], k: [] as number[] };
  for (let round = 0; round < 3; round++) {
    for (const j of jobs) {
      const asked = new Set(j.routed.shards.map((x) => x.name));
      const untouched = router.shards.find((x) => !asked.has(x.name))!.name;
      const body = buildSearchBody(j.params, undefined, [], LOCATED, JOIN);
      t.routed.push(await took(body, j.routed.routing));
      t.untouched.push(await took(body, untouched));
      t.all.push(await took(body, null));
      t.fixed.push(await took({ size: 0, query: { match_none: {} } }, untouched));
      t.k.push(j.routed.shards.length);
    }
  }
  const k = mean(t.k);
  const fixedTook = mean(t.fixed);
  const perRoutedShard = (mean(t.routed) - fixedTook) / k;
  const perUntouchedShard = mean(t.untouched) - fixedTook;
  const n = router.numberOfShards;
  const cost: ShardCost = {
    routedTook: mean(t.routed),
    untouchedTook: mean(t.untouched),
    allTook: mean(t.all),
    fixedTook,
    perRoutedShard,
    perUntouchedShard,
    modelRatio: (fixedTook + k * perRoutedShard + (n - k) * perUntouchedShard) / (fixedTook + k * perRoutedShard),
  };
  const meanSide = (xs: SideSummary[]): SideSummary => Object.fromEntries(Object.keys(xs[0]).map((k) => [k, mean(xs.map((x) => x[k as keyof SideSummary]))])) as unknown as SideSummary;
  return { radiusMi, searches: jobs.length, routed: meanSide(acc.routed), all: meanSide(acc.all), cost };
}

function printProfiles(rows: ProfileRow[]): void {
  console.log(`\nWhere a search's time goes (profile API, one search at a time and its shards one at a time, mean over a sample of the circles; ms; shard work = query + rewrite + collector of every shard's query phase; the profiler times every document a query visits, so its figures are inflated, most where a query visits many documents, and can exceed took):`);
  console.log('| radius | side | took | shards | shard work | on the routed shards | on the other shards (per shard) | took − shard work | rewrite (has_parent: parent search) | query | collector (aggs) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    for (const [side, x] of [['routed', r.routed], ['all shards', r.all]] as const) {
      console.log(
        `| ${r.radiusMi} mi (${r.searches}) | ${side} | ${f(x.took)} | ${x.shardsAnswered.toFixed(2)} | ${f(x.shardWork)} | ${f(x.workOnRoutedShards)} | ${f(x.workOnOtherShards)} (${x.perOtherShard.toFixed(2)}) | ${f(x.took - x.shardWork)} | ${f(x.rewrite)} | ${f(x.query)} | ${f(x.collector)} (${f(x.aggs)}) |`,
      );
    }
  }
  console.log(`\nPer-shard cost from took (no profiler; each search alone, mean of 3 rounds over the same circles; ms). The ideal N / shards asked assumes every shard costs the same:`);
  console.log('| radius | took routed / one untouched shard / all | fixed (match_none, 1 shard) | per asked shard | per untouched shard | asked / untouched | ratio these predict (busy node) | ideal |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const c = r.cost;
    const ideal = target.file.numberOfShards / r.routed.shardsAnswered;
    console.log(
      `| ${r.radiusMi} mi | ${f(c.routedTook)} / ${f(c.untouchedTook)} / ${f(c.allTook)} | ${f(c.fixedTook)} | ${f(c.perRoutedShard)} | ${f(c.perUntouchedShard)} | ${(c.perRoutedShard / c.perUntouchedShard).toFixed(2)} | ${c.modelRatio.toFixed(1)}x | ${ideal.toFixed(1)}x |`,
    );
  }
}

/** The timed part on the current target: warm-up and check (and --profile's breakdown), then each radius. */
async function timedRows(): Promise<{ rows: Row[]; load: [number, number]; profiles: ProfileRow[] }> {
  // Warm-up and correctness check of every search of every radius before any timing.
  for (const radiusMi of RADII_MI) await checkAndWarm(jobsFor(radiusMi));
  const profiles: ProfileRow[] = [];
  if (PROFILE) {
    for (const radiusMi of RADII_MI) profiles.push(await profileRadius(radiusMi));
    printProfiles(profiles);
  }
  const load0 = os.loadavg()[0];
  const rows: Row[] = [];
  for (const radiusMi of RADII_MI) rows.push(await benchRadius(radiusMi));
  return { rows, load: [load0, os.loadavg()[0]], profiles };
}

const f = (x: number) => x.toFixed(1);

function printTable(rows: Row[], load: [number, number]): void {
  console.log(`(1-minute load average ${load[0].toFixed(1)} before, ${load[1].toFixed(1)} after the timed part, on ${os.cpus().length} cores: other work on the machine slows both modes alike, as they are interleaved)`);
  console.log(`\n| radius | shards asked (routed, mean) | latency p50 routed / all | p99 routed / all | took p50 routed / all | throughput routed / all (${CONCURRENCY} in flight) | p50 ratio | throughput ratio | ideal (N / mean shards asked) | of ideal |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const L = r.latency;
    const T = r.throughput;
    const ideal = r.shards / r.meanShardsRouted;
    console.log(
      `| ${r.radiusMi} mi | ${r.meanShardsRouted.toFixed(2)} of ${r.shards} | ${f(L.routed.p50)} / ${f(L.all.p50)} ms | ${f(L.routed.p99)} / ${f(L.all.p99)} ms | ${L.routed.tookP50} / ${L.all.tookP50} ms | ${f(T.routedPerS)} / ${f(T.allPerS)} searches/s | ${L.p50Ratio.toFixed(2)}x | ${T.ratio.toFixed(2)}x | ${ideal.toFixed(1)}x | ${((100 * T.ratio) / ideal).toFixed(0)}% |`,
    );
  }
  console.log(`\nOpenSearch CPU per search in the throughput blocks (_nodes/stats/process; what a search costs the node whatever else runs on the machine):`);
  console.log('| radius | CPU per search routed / all | all / routed | ideal |');
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.radiusMi} mi | ${f(r.cpu.routedMs)} / ${f(r.cpu.allMs)} ms | ${r.cpu.ratio.toFixed(2)}x | ${(r.shards / r.meanShardsRouted).toFixed(1)}x |`);
  for (const r of rows) {
    console.log(`  ${r.radiusMi} mi under load (${CONCURRENCY} in flight): p50 ${f(r.throughput.routedP50)} / ${f(r.throughput.allP50)} ms, p99 ${f(r.throughput.routedP99)} / ${f(r.throughput.allP99)} ms (routed / all)`);
  }
}

function writeResults(result: unknown): void {
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(join(ROOT, 'test-results', 'bench-live.json'), JSON.stringify(result, null, 2) + '\n');
}

/**
 * ensureLarge makes sure the large index holds the wanted sample, complete, for
 * its boundary file, with as many documents as the seed wrote; seeds it
 * (recreating it) otherwise. Returns the index's sample and how long seeding
 * took (null when it was reused).
 */
async function ensureLarge(client: OpenSearchClient, file: BoundaryFile, restaurants: number): Promise<{ sample: SampleMeta; seededMs: number | null }> {
  const meta = await fetchIndexMeta(client, LARGE_INDEX);
  const s = meta?.sample;
  const count = meta ? (await client.get<{ count: number }>(`/${LARGE_INDEX}/_count`)).count : 0;
  const why =
    meta === undefined
      ? 'it does not exist'
      : meta?.hash !== file.hash
        ? `it was made for boundary file ${meta?.hash ?? '(none)'}, not ${file.hash}`
        : !s?.complete
          ? 'its sample is incomplete'
          : docShapeOf(s) !== DOC_SHAPE
            ? `its documents are of shape ${docShapeOf(s)}, not ${DOC_SHAPE}`
          : s.restaurants !== restaurants || s.dishesPerRestaurant !== DEFAULT_DISHES_PER_RESTAURANT
            ? `it holds ${s.restaurants} restaurants with at most ${s.dishesPerRestaurant} dishes each`
            : count !== (s.restaurantDocs ?? 0) + (s.dishDocs ?? 0)
              ? `it counts ${count} documents where the seed wrote ${(s.restaurantDocs ?? 0) + (s.dishDocs ?? 0)}`
              : null;
  if (why === null) return { sample: s!, seededMs: null };
  console.log(`index "${LARGE_INDEX}" is seeded again (${why}): ${restaurants.toLocaleString('en-US')} restaurants, at most ${DEFAULT_DISHES_PER_RESTAURANT} dishes each...`);
  const slow = new OpenSearchClient({ ...client.config, timeoutMs: 120_000 });
  let shown = 0;
  const r = await seedIndex({
    client: slow,
    router: new Router(file),
    restaurants,
    dishesPerRestaurant: DEFAULT_DISHES_PER_RESTAURANT,
    recreate: true,
    onProgress: (done, total) => {
      if (done - shown >= total / 10 || done === total) console.log(`  ${done.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} documents`), (shown = done);
    },
  });
  await slow.close();
  console.log(`seeded ${r.indexDocs.toLocaleString('en-US')} documents in ${(r.ms / 1000).toFixed(0)} s`);
  return { sample: (await fetchIndexMeta(client, LARGE_INDEX))!.sample!, seededMs: r.ms };
}

async function main() {
  const { client } = target;
  const info = await client.get<{ version: { number: string } }>('/');
  let s: SampleMeta;
  let seededMs: number | null = null;
  if (LARGE) {
    const file = derivedFile(LARGE_INDEX);
    target = { client, file, router: new Router(file) };
    ({ sample: s, seededMs } = await ensureLarge(client, file, BENCH_RESTAURANTS));
  } else {
    const { file, router } = target;
    let meta = await fetchIndexMeta(client, file.index);
    if (meta?.hash !== file.hash || !meta.sample?.complete || docShapeOf(meta.sample) !== DOC_SHAPE) {
      console.log(`index "${file.index}" holds no complete sample of the current document shape for data/boundaries.json: seeding the default sample first (npx geoshard seed --recreate)...`);
      await seedIndex({ client, router, restaurants: DEFAULT_SAMPLE_RESTAURANTS, dishesPerRestaurant: DEFAULT_DISHES_PER_RESTAURANT, recreate: true });
      meta = await fetchIndexMeta(client, file.index);
    }
    s = meta!.sample!;
  }
  const { file } = target;
  const docs = (s.restaurantDocs ?? 0) + (s.dishDocs ?? 0);
  console.log(
    `live bench: OpenSearch ${info.version.number} at ${client.url}, index "${file.index}": ${file.numberOfShards} shards, ` +
      `${s.restaurantDocs?.toLocaleString('en-US')} restaurants + ${s.dishDocs?.toLocaleString('en-US')} dishes (at most ${s.dishesPerRestaurant} per restaurant) = ${docs.toLocaleString('en-US')} documents; ` +
      `${cities.length} US cities per radius; ${os.cpus().length} cores; request cache off; query ${QUERY}${quick ? '; --quick' : ''}`,
  );
  const { rows, load, profiles } = await timedRows();
  printTable(rows, load);
  writeResults({ at: new Date().toISOString(), query: QUERY, loadavg: load, opensearch: info.version.number, index: file.index, shards: file.numberOfShards, sample: s, seededMs, cores: os.cpus().length, concurrency: CONCURRENCY, quick, rows, profiles });
}

/** One side of the --nodes comparison. */
interface Side {
  label: string;
  url: string;
  version: string;
  nodes: number;
  rows: Row[];
  load: [number, number];
}

/**
 * mainNodes runs the benchmark on the cluster and on the single node, the
 * same sample seeded into the same dedicated index on both.
 */
async function mainNodes(n: number) {
  const clusterClient = target.client;
  const singleUrl = option('single-url') ?? 'http://127.0.0.1:9200';
  const singleClient = new OpenSearchClient(configFromEnv({ OPENSEARCH_URL: singleUrl, OPENSEARCH_TIMEOUT_MS: '60000' }));
  if (singleClient.url === clusterClient.url) {
    throw new Error(`the cluster and the single node are the same URL (${singleUrl}): point OPENSEARCH_URL (or OPENSEARCH_PORT) at node 1 of the ${n}-node cluster, or --single-url at another node`);
  }
  const file = derivedFile(NODES_INDEX);
  const router = new Router(file);
  const sides: Side[] = [];
  const keep = argv.includes('--keep');
  for (const [label, client] of [[`${n}-node cluster`, clusterClient], ['single node', singleClient]] as const) {
    const info = await client.get<{ version: { number: string } }>('/');
    const health = await client.get<{ number_of_nodes: number }>('/_cluster/health');
    if (label !== 'single node' && health.number_of_nodes < n) {
      throw new Error(`the cluster at ${client.url} has ${health.number_of_nodes} node(s), fewer than --nodes ${n}: start it with "npm run cluster:start -- --nodes ${n}" (and OPENSEARCH_PORT)`);
    }
    const meta = await fetchIndexMeta(client, NODES_INDEX);
    const want = { restaurants: BENCH_RESTAURANTS, dishesPerRestaurant: DEFAULT_DISHES_PER_RESTAURANT };
    const sm = meta?.sample;
    if (!(meta?.hash === file.hash && sm?.complete && docShapeOf(sm) === DOC_SHAPE && sm.restaurants === want.restaurants && sm.dishesPerRestaurant === want.dishesPerRestaurant)) {
      console.log(`${label} (${client.url}): seeding ${want.restaurants} restaurants into "${NODES_INDEX}"...`);
      const slow = new OpenSearchClient({ ...client.config, timeoutMs: 60_000 });
      await seedIndex({ client: slow, router, ...want, recreate: true });
      await slow.request('GET', `/_cluster/health/${NODES_INDEX}`, { query: { wait_for_status: 'green', timeout: '60s' }, timeoutMs: 70_000, okStatuses: [408] });
      await slow.close();
    }
    const shardNodes = new Set((await client.get<{ node: string | null }[]>(`/_cat/shards/${NODES_INDEX}`, { query: { format: 'json', h: 'node' } })).map((r) => r.node));
    target = { client, file, router };
    const docs = (await client.get<{ count: number }>(`/${NODES_INDEX}/_count`)).count;
    console.log(`\n## ${label}: OpenSearch ${info.version.number} at ${client.url}, ${health.number_of_nodes} node(s), the ${file.numberOfShards} shards on ${shardNodes.size} node(s), ${docs.toLocaleString('en-US')} documents`);
    const { rows, load } = await timedRows();
    printTable(rows, load);
    sides.push({ label, url: client.url, version: info.version.number, nodes: health.number_of_nodes, rows, load });
    if (!keep) await client.request('DELETE', `/${NODES_INDEX}`, { okStatuses: [404] });
  }
  const [c, one] = sides;
  console.log(`\n## ${c.label} / single node (same documents; > 1: the cluster is slower or does more)`);
  console.log('| radius | routed p50 | all-shards p50 | routed throughput | all-shards throughput | routed-over-all p50 gain: cluster / single |');
  console.log('|---|---|---|---|---|---|');
  c.rows.forEach((r, i) => {
    const o = one.rows[i];
    console.log(
      `| ${r.radiusMi} mi | ${(r.latency.routed.p50 / o.latency.routed.p50).toFixed(2)}x | ${(r.latency.all.p50 / o.latency.all.p50).toFixed(2)}x | ${(r.throughput.routedPerS / o.throughput.routedPerS).toFixed(2)}x | ${(r.throughput.allPerS / o.throughput.allPerS).toFixed(2)}x | ${r.latency.p50Ratio.toFixed(2)}x / ${o.latency.p50Ratio.toFixed(2)}x |`,
    );
  });
  writeResults({ at: new Date().toISOString(), mode: 'nodes', nodes: n, index: NODES_INDEX, restaurants: BENCH_RESTAURANTS, cores: os.cpus().length, concurrency: CONCURRENCY, quick, sides });
  await singleClient.close();
}

(NODES !== undefined ? mainNodes(NODES) : main()).catch((e) => {
  console.error(`bench:live: ${(e as Error).message}`);
  process.exit(1);
});

/**
 * `npm run bench:settings`: what each engine setting and query shape does to
 * OpenSearch's CPU per search, routed vs all shards, on the large bench index
 * (`geoshard-bench-large`, seeded by `npm run bench:live -- --restaurants R`;
 * R = 200,000 gives 2,192,974 documents).
 *
 * The searches: the live API's body (src/server/search/searchBody.ts) for 15 and 50 mile
 * circles around the 64 bundled US cities, top 20 dishes, exact total, three
 * facets, request cache off. Each variant changes one thing against the API's
 * query (`api`), and `join` is the API's query before dishes were scored on
 * their own location (has_parent).
 *
 * 1. Check (and warm-up): every variant that must keep the answer runs every
 *    search routed and on all shards; total, hit ids in order and facet
 *    counts must equal `join` on all shards (the old query, unrouted: an
 *    independent answer), or the variant is reported as changing answers.
 * 2. Timing: REPS rounds; in each, for each radius, every variant (in an
 *    order that rotates round by round) runs its 64 searches routed, then on
 *    all shards (which first alternates too), IN_FLIGHT at a time; the figure
 *    is OpenSearch's CPU time per search over each block (bench/cpu.ts:
 *    /proc of the node's JVM when local, else node stats) and the ratio
 *    all / routed of the same round. A variant that is a cluster setting is
 *    set (transient) for its blocks only and reset after.
 *
 * Options: `--variants a,b,...` (default: all), `--reps N` (default 3),
 * `--in-flight N` (default 2), `--index NAME` (default geoshard-bench-large),
 * `--sorted-index NAME` (the `sorted` variant's index, default
 * geoshard-bench-sorted), `--check-all` (check every search of every variant; default: every search
 * of `api` and `join`, every 4th city of the others). Prints a markdown table
 * (median over rounds, min-max of the ratio) and writes
 * test-results/bench-settings.json.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { Router } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { ROOT, derivedFile } from '../src/testing/testkit.ts';
import { jobsFor as jobsOf, type Job } from './searchJobs.ts';
import { cpuReader, type CpuReader } from './cpu.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { buildSearchBody } from '../src/server/search/searchBody.ts';
import type { Plan } from '../src/server/search/searchRun.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const i = argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}
function intOption(name: string, min: number, dflt: number): number {
  const raw = option(name);
  if (raw === undefined) return dflt;
  if (!/^\d+$/.test(raw) || Number(raw) < min) {
    console.error(`bench:settings: --${name} ${JSON.stringify(raw)} is invalid: expected an integer >= ${min}`);
    process.exit(2);
  }
  return Number(raw);
}
const REPS = intOption('reps', 1, 3);
const IN_FLIGHT = intOption('in-flight', 1, 2);
const INDEX = option('index') ?? 'geoshard-bench-large';
const CHECK_ALL = argv.includes('--check-all');
const SORTED = option('sorted-index') ?? 'geoshard-bench-sorted';
const RADII_MI = [15, 50];

type Body = Record<string, unknown>;
/** One thing tried: a query shape, request parameters or a cluster setting, against the API's query. */
interface Variant {
  name: string;
  what: string;
  /** The answer must stay the same (total, hit ids in order, facets); false: it drops something on purpose. */
  keepsAnswers: boolean;
  /** Build the body with has_parent (the API's query before this change). */
  join?: boolean;
  /** Extra `_search` query-string parameters. */
  params?: Record<string, string>;
  /** Changes the body. */
  body?: (b: Body) => Body;
  /** Transient cluster settings set for this variant's blocks only (reset to null after). */
  cluster?: Record<string, unknown>;
  /** Another index to search: the same documents on the same shards, made differently (bench/sortedIndex.ts). */
  index?: string;
}

const VARIANTS: Variant[] = [
  { name: 'api', what: "the API's query: dishes filtered and scored on their own copy of the restaurant location (no has_parent)", keepsAnswers: true },
  { name: 'join', what: 'has_parent scores the dishes (the API query before: parent search + join on every shard asked), dishes also filtered by their location', keepsAnswers: true, join: true },
  { name: 'mcsr-1', what: 'max_concurrent_shard_requests=1 (default 5 per node)', keepsAnswers: true, params: { max_concurrent_shard_requests: '1' } },
  { name: 'mcsr-15', what: 'max_concurrent_shard_requests=15 (every shard at once)', keepsAnswers: true, params: { max_concurrent_shard_requests: '15' } },
  { name: 'prefilter-1', what: 'pre_filter_shard_size=1 (can_match round before the query on every search)', keepsAnswers: true, params: { pre_filter_shard_size: '1' } },
  { name: 'no-task-tracking', what: 'cluster setting task_resource_tracking.enabled=false (OpenSearch #17407)', keepsAnswers: true, cluster: { 'task_resource_tracking.enabled': false } },
  { name: 'concurrent-segments', what: 'cluster setting search.concurrent_segment_search.mode=auto (2.19: none by default; 3.x: auto by default)', keepsAnswers: true, cluster: { 'search.concurrent_segment_search.mode': 'auto' } },
  {
    name: 'no-join-term',
    what: 'without the `join: dish` term filter (only dishes carry restaurant_location, so the circle alone keeps dishes only)',
    keepsAnswers: true,
    body: (b) => {
      const q = b.query as { bool: { filter: unknown[] } };
      return { ...b, query: { ...q, bool: { ...q.bool, filter: q.bool.filter.filter((x) => !JSON.stringify(x).startsWith('{"term":{"join"')) } } };
    },
  },
  {
    name: 'facets-map',
    what: 'facets with execution_hint=map (per-request hash of the values instead of global ordinals)',
    keepsAnswers: true,
    body: (b) => ({ ...b, aggs: Object.fromEntries(Object.entries(b.aggs as Record<string, { terms: Record<string, unknown> }>).map(([k, a]) => [k, { terms: { ...a.terms, execution_hint: 'map' } }])) }),
  },
  { name: 'no-timeout', what: 'no `timeout` in the body (no time checks while collecting)', keepsAnswers: true, body: ({ timeout: _t, ...b }) => b },
  { name: 'no-total', what: 'track_total_hits=false (the total is dropped: answer changes)', keepsAnswers: false, body: (b) => ({ ...b, track_total_hits: false }) },
  { name: 'no-facets', what: 'no aggregations (the facets are dropped: answer changes); what the facets cost', keepsAnswers: false, body: ({ aggs: _a, ...b }) => b },
  { name: 'no-source', what: '_source=false (hits without their fields: answer changes); what the fetch of 20 sources costs', keepsAnswers: false, body: (b) => ({ ...b, _source: false }) },
  { name: 'sorted', what: `the same documents on the same shards in an index sorted by the Hilbert position (\`index.sort.field: cell\`, "${SORTED}", made by bench/sortedIndex.ts)`, keepsAnswers: true, index: SORTED },
  { name: 'request-cache', what: 'request_cache=true (the API leaves it to the index default, off for size > 0)', keepsAnswers: true, params: { request_cache: 'true' } },
];
const wanted = option('variants')?.split(',') ?? VARIANTS.map((v) => v.name);
for (const w of wanted) {
  if (!VARIANTS.some((v) => v.name === w)) {
    console.error(`bench:settings: --variants: ${JSON.stringify(w)} is not a variant: expected some of ${VARIANTS.map((v) => v.name).join(', ')}`);
    process.exit(2);
  }
}
let variants = VARIANTS.filter((v) => wanted.includes(v.name));

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 60_000 });
const file = derivedFile(INDEX);
const router = new Router(file);
const jobsFor = (radiusMi: number): Job[] => jobsOf(router, radiusMi);

interface Raw {
  _shards: { total: number; successful: number; failed: number };
  timed_out: boolean;
  hits: { total?: { value: number } | number; hits: { _id: string }[] };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number }[] }>;
}

/** search runs one search of a variant and returns the raw answer. */
async function search(v: Variant, j: Job, plan: Plan): Promise<Raw> {
  let body = buildSearchBody(j.params, undefined, plan.exclusions, true, v.join ?? false);
  if (v.body) body = v.body(body);
  const { body: r } = await client.request<Raw>('POST', `/${v.index ?? INDEX}/_search`, {
    query: { ...(plan.routing ? { routing: plan.routing } : {}), request_cache: 'false', ...v.params },
    body,
    timeoutMs: 60_000,
  });
  if (r._shards.failed > 0 || r._shards.successful < r._shards.total || r.timed_out) throw new Error(`${v.name} ${j.label} ${plan.scope}: partial answer ${JSON.stringify(r._shards)}`);
  return r;
}

/** The answer of a search as compared: total, ids in order, facet buckets. */
const answerOf = (r: Raw) =>
  JSON.stringify({
    total: typeof r.hits.total === 'number' ? r.hits.total : r.hits.total?.value,
    ids: r.hits.hits.map((h) => h._id),
    // Facets by name (engines may list the aggregations in another order), buckets by value.
    facets: Object.entries(r.aggregations ?? {})
      .sort(([x], [y]) => (x < y ? -1 : 1))
      .map(([k, a]) => [k, [...a.buckets].sort((x, y) => (x.key < y.key ? -1 : 1))]),
  });

async function setCluster(settings: Record<string, unknown> | undefined, reset: boolean): Promise<void> {
  if (!settings) return;
  const transient = Object.fromEntries(Object.keys(settings).map((k) => [k, reset ? null : settings[k]]));
  await client.request('PUT', '/_cluster/settings', { body: { transient } });
}

/** block runs every job once on one plan, IN_FLIGHT at a time, and returns CPU ms per search and wall ms. */
async function block(cpu: CpuReader, v: Variant, jobs: Job[], scope: 'routed' | 'all'): Promise<{ cpuMs: number; wallMs: number }> {
  let next = 0;
  const c0 = await cpu.read();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < jobs.length) {
        const j = jobs[next++];
        await search(v, j, scope === 'routed' ? j.routed : j.all);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  return { cpuMs: ((await cpu.read()) - c0) / jobs.length, wallMs: wallMs / jobs.length };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

async function main() {
  const info = await client.get<{ version: { number: string } }>('/');
  const meta = await fetchIndexMeta(client, INDEX);
  if (!meta?.sample?.complete) throw new Error(`index "${INDEX}" holds no complete sample: seed it with "npm run bench:live -- --restaurants 200000 --quick" first`);
  if (meta.hash !== file.hash) throw new Error(`index "${INDEX}" was made for boundary file ${meta.hash}, not ${file.hash} (the bundled boundaries under its name)`);
  const count = (await client.get<{ count: number }>(`/${INDEX}/_count`)).count;
  const segs = await client.get<{ indices: Record<string, { primaries: { segments: { count: number } } }> }>(`/${INDEX}/_stats/segments`);
  const segments = segs.indices[INDEX].primaries.segments.count;
  const settings = await client.get<Record<string, { settings: { index: Record<string, unknown> } }>>(`/${INDEX}/_settings`);
  const sort = settings[INDEX].settings.index.sort ?? null;
  for (const v of variants.filter((x) => x.index)) {
    const other = await client.request<{ count: number }>('GET', `/${v.index}/_count`, { okStatuses: [404] });
    if (other.status === 404 || other.body.count !== count) {
      const why = other.status === 404 ? 'does not exist' : `holds ${other.body.count} documents, not ${count}`;
      if (option('variants')) throw new Error(`variant ${v.name}: index "${v.index}" ${why}: make it with "npx tsx bench/sortedIndex.ts --from ${INDEX} --to ${v.index}"`);
      console.log(`(variant ${v.name} left out: index "${v.index}" ${why}; make it with "npx tsx bench/sortedIndex.ts --from ${INDEX} --to ${v.index}")`);
      variants = variants.filter((x) => x !== v);
    }
  }
  const cpu = await cpuReader(client);
  console.log(
    `settings bench: OpenSearch ${info.version.number} at ${client.url}, index "${INDEX}" (${file.numberOfShards} shards, ${count.toLocaleString('en-US')} documents, ${segments} segments, index sort ${JSON.stringify(sort)}); ` +
      `${jobsFor(RADII_MI[0]).length} US cities × ${RADII_MI.join(' and ')} mi; ${REPS} rounds, ${IN_FLIGHT} in flight; CPU from ${cpu.source}; ${os.cpus().length} cores; load ${os.loadavg()[0].toFixed(1)}`,
  );
  const byRadius = Object.fromEntries(RADII_MI.map((r) => [r, jobsFor(r)])) as Record<number, Job[]>;
  const join_ = VARIANTS.find((v) => v.name === 'join')!;
  // 1. Check and warm-up.
  const differs: Record<string, number> = Object.fromEntries(variants.map((v) => [v.name, 0]));
  const checked: Record<string, number> = Object.fromEntries(variants.map((v) => [v.name, 0]));
  for (const r of RADII_MI) {
    for (const [i, j] of byRadius[r].entries()) {
      const expected = answerOf(await search(join_, j, j.all));
      for (const v of variants) {
        if (!CHECK_ALL && v.name !== 'api' && v.name !== 'join' && i % 4 !== 0) continue;
        await setCluster(v.cluster, false);
        try {
          for (const plan of [j.routed, j.all]) {
            checked[v.name]++;
            if (answerOf(await search(v, j, plan)) !== expected) differs[v.name]++;
          }
        } finally {
          await setCluster(v.cluster, true);
        }
      }
    }
  }
  for (const v of variants) {
    if (v.keepsAnswers && differs[v.name] > 0) console.log(`!! ${v.name}: ${differs[v.name]} of ${checked[v.name]} answers differ from the old query on all shards`);
  }
  // 2. Timing.
  type Cell = { routed: number[]; all: number[]; ratio: number[]; routedWall: number[]; allWall: number[] };
  const res: Record<string, Record<number, Cell>> = Object.fromEntries(variants.map((v) => [v.name, Object.fromEntries(RADII_MI.map((r) => [r, { routed: [], all: [], ratio: [], routedWall: [], allWall: [] }]))]));
  const loads: number[] = [os.loadavg()[0]];
  for (let rep = 0; rep < REPS; rep++) {
    for (const r of RADII_MI) {
      for (let k = 0; k < variants.length; k++) {
        const v = variants[(k + rep) % variants.length];
        await setCluster(v.cluster, false);
        try {
          const first = (rep + k) % 2 === 0 ? 'routed' : 'all';
          const second = first === 'routed' ? 'all' : 'routed';
          const a = await block(cpu, v, byRadius[r], first);
          const b = await block(cpu, v, byRadius[r], second);
          const routed = first === 'routed' ? a : b;
          const all = first === 'routed' ? b : a;
          const c = res[v.name][r];
          c.routed.push(routed.cpuMs), c.all.push(all.cpuMs), c.ratio.push(all.cpuMs / routed.cpuMs), c.routedWall.push(routed.wallMs), c.allWall.push(all.wallMs);
        } finally {
          await setCluster(v.cluster, true);
        }
      }
    }
    loads.push(os.loadavg()[0]);
    console.log(`round ${rep + 1} of ${REPS} done (load ${os.loadavg()[0].toFixed(1)})`);
  }
  const f = (x: number) => x.toFixed(1);
  const base = res.api ?? null;
  console.log(`\n1-minute load average over the run: ${loads.map((l) => l.toFixed(1)).join(', ')} (${os.cpus().length} cores)`);
  console.log(`\n| variant | answers | 15 mi CPU/search routed / all | 15 mi all / routed (min-max) | 50 mi CPU/search routed / all | 50 mi all / routed (min-max) |${base ? ' routed CPU vs api (15 / 50 mi) |' : ''}`);
  console.log(`|---|---|---|---|---|---|${base ? '---|' : ''}`);
  for (const v of variants) {
    const cells = RADII_MI.map((r) => res[v.name][r]);
    const ans = !v.keepsAnswers ? 'changed (on purpose)' : differs[v.name] === 0 ? `same (${checked[v.name]} checked)` : `**${differs[v.name]} of ${checked[v.name]} differ**`;
    const parts = cells.map((c) => `${f(median(c.routed))} / ${f(median(c.all))} ms | **${median(c.ratio).toFixed(2)}x** (${Math.min(...c.ratio).toFixed(2)}-${Math.max(...c.ratio).toFixed(2)})`);
    const vsBase = base ? ` ${RADII_MI.map((r) => `${((100 * median(res[v.name][r].routed)) / median(base[r].routed) - 100).toFixed(0)}%`).join(' / ')} |` : '';
    console.log(`| ${v.name}: ${v.what} | ${ans} | ${parts.join(' | ')} |${vsBase}`);
  }
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'test-results', 'bench-settings.json'),
    JSON.stringify({ at: new Date().toISOString(), opensearch: info.version.number, index: INDEX, documents: count, segments, sort, cores: os.cpus().length, loads, reps: REPS, inFlight: IN_FLIGHT, cpuSource: cpu.source, differs, checked, results: res }, null, 2) + '\n',
  );
  await client.close();
}

main().catch((e) => {
  console.error(`bench:settings: ${(e as Error).message}`);
  process.exit(1);
});

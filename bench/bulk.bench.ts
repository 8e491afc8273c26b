/**
 * `npm run bench:bulk -- [--restaurants R] [--dishes K] [--rounds N] [--paths seed,bulk,pipeline[,spread]] [--replicas X] [--index NAME]`:
 * how fast geoshard loads documents against the engine's own bulk rate, same documents, same run.
 *
 *   seed:     `seedIndex` (what `geoshard seed --recreate` runs): the index created, every
 *             document generated and routed by the package's writer (GeoIndexer.bulk), the
 *             final refresh, count, `_meta` and the routing pipeline. Wall time of the call.
 *   bulk:     the engine's own rate: the same documents (docsOf, the seed's sample with the
 *             core's routing), serialised before the clock starts, sent as plain `_bulk`
 *             requests with the same settings as seed (same mappings and shard count, refresh
 *             off, async translog, 2,000 documents a request, 2 in flight, explicit routing,
 *             `pipeline=_none`). Timed from `PUT /<index>` to the end of the final refresh.
 *   pipeline: as bulk, but every document sent with no routing (restaurants without their
 *             `cell` and `shard` fields) and the index's routing pipeline (src/ops/routing/pipelineInstall.ts
 *             installPipeline, installed after the index is created, inside the clock) routes
 *             each: what the pipeline costs against client-side routing.
 *   spread:   (only when named in --paths) as bulk, the restaurants in stride order (0, 64,
 *             128, ..., 1, 65, ...) so every request spans every shard instead of one or two
 *             (seed and bulk write in curve order): whether the order limits the engine, e.g. on
 *             the 3-node cluster with replicas, where a request for one shard keeps one primary
 *             and one replica busy.
 *
 * The documents are R restaurants (default 20,000) with their first K dishes (default 10):
 * 219,214 documents by default. Each round loads every path into a fresh index (the bundled
 * boundaries under the name `gs-bulk-bench` or `--index NAME`, deleted first), the paths in rotating order, after
 * a warm-up round on a tenth of the sample; N rounds (default 2). Prints documents/s of every
 * round and the median of each path, the ratios seed / bulk and pipeline / bulk, the client's
 * and the node's CPU per 1,000 documents, and the machine's load; results also go to
 * test-results/bench-bulk.json. Needs a node (OPENSEARCH_URL, default http://127.0.0.1:9200;
 * the pipeline path needs the script processor). Deletes its index and pipeline at the end.
 *
 * On the 3-node cluster (`npm run cluster:start`, then OPENSEARCH_URL of its first node):
 * `npm run bench:bulk -- --replicas 1`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import os from 'node:os';
import { Router } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { docsOf, sampleOf } from '../src/data/sample.ts';
import { seedIndex } from '../src/ops/seed/seeder.ts';
import { installPipeline } from '../src/ops/routing/pipelineInstall.ts';
import { pipelineId } from '../src/opensearch/routingPipeline.ts';
import { derivedFile, ROOT } from '../src/testing/testkit.ts';
import { readNodeStats } from '../src/server/measure.ts';
import { bulkErrors, type BulkResponse } from '../src/opensearch/bulk.ts';
import { indexBody } from '../src/opensearch/sampleIndex.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const argv = process.argv.slice(2);
const num = (name: string, dflt: number, min: number) => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = Number(argv[i + 1]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} ${argv[i + 1]} is invalid: expected an integer >= ${min}`);
  return v;
};
const PATHS = ['seed', 'bulk', 'pipeline', 'spread'] as const;
type Path = (typeof PATHS)[number];
const pathsArg = argv.includes('--paths') ? argv[argv.indexOf('--paths') + 1].split(',') : ['seed', 'bulk', 'pipeline'];
for (const p of pathsArg) if (!(PATHS as readonly string[]).includes(p)) throw new Error(`--paths ${pathsArg.join(',')} is invalid: "${p}" is not one of ${PATHS.join(', ')}`);
const paths = pathsArg as Path[];
const RESTAURANTS = num('restaurants', 20_000, 10);
const DISHES = num('dishes', 10, 0);
const ROUNDS = num('rounds', 2, 1);
const REPLICAS = num('replicas', 0, 0);
/** The bench's index (`--index NAME`, default gs-bulk-bench): recreated every round, deleted at the end, with its pipeline. */
const INDEX = argv.includes('--index') ? argv[argv.indexOf('--index') + 1] : 'gs-bulk-bench';
if (!/^[a-z0-9][a-z0-9_-]*$/.test(INDEX ?? '')) throw new Error(`--index ${JSON.stringify(INDEX)} is invalid: expected a lower-case index name such as gs-bulk-bench`);
const BATCH = 2000;
const CONCURRENCY = 2;

// The CLI's client: the default request deadline (OPENSEARCH_TIMEOUT_MS, 10 s); the plain bulk gives its requests 120 s, as GeoIndexer does.
const client = new OpenSearchClient(configFromEnv());
const file = derivedFile(INDEX);
const router = new Router(file);

/** bodies returns the NDJSON bodies of the first `restaurants` restaurants: routed (bulk) or not (pipeline). */
function bodies(restaurants: number, routed: boolean, spread = false): { bulks: string[]; docs: number } {
  const rs = sampleOf(restaurants);
  const docs = (spread ? interleaved(rs) : rs).flatMap((r) => docsOf(r, router, DISHES));
  const bulks: string[] = [];
  for (let i = 0; i < docs.length; i += BATCH) {
    let b = '';
    for (const d of docs.slice(i, i + BATCH)) {
      if (routed) b += JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: d.routing } }) + '\n' + JSON.stringify(d.source) + '\n';
      else {
        const { cell: _c, shard: _s, ...plain } = d.source;
        b += JSON.stringify({ index: { _index: INDEX, _id: d.id } }) + '\n' + JSON.stringify(plain) + '\n';
      }
    }
    bulks.push(b);
  }
  return { bulks, docs: docs.length };
}

/** interleaved returns xs in stride order (0, k, 2k, ..., 1, k+1, ...): every batch spans the whole curve, so every shard. */
function interleaved<T>(xs: readonly T[], k = 64): T[] {
  const out: T[] = [];
  for (let off = 0; off < k; off++) for (let i = off; i < xs.length; i += k) out.push(xs[i]);
  return out;
}

/** The node's process CPU time so far (ms, summed over nodes; src/server/measure.ts readNodeStats). */
async function nodeCpuMs(): Promise<number> {
  return (await readNodeStats(client)).cpuMs;
}

const clientCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** plainLoad creates the index as seed does and sends the prebuilt bodies; returns when the final refresh is done. */
async function plainLoad(bulks: string[], pipeline: boolean): Promise<void> {
  const body = indexBody(file, undefined, REPLICAS) as { settings: { index: Record<string, unknown> } };
  body.settings.index = { ...body.settings.index, refresh_interval: '-1', 'translog.durability': 'async' };
  await client.request('PUT', `/${INDEX}`, { body, timeoutMs: 120_000 });
  if (pipeline) await installPipeline(client, INDEX, file, null);
  let next = 0;
  const worker = async () => {
    for (let k = next++; k < bulks.length; k = next++) {
      const res = await client.request<BulkResponse>('POST', '/_bulk', { body: bulks[k], query: pipeline ? {} : { pipeline: '_none' }, timeoutMs: 120_000 });
      const errs = bulkErrors(res.body);
      if (errs.length > 0) throw new Error(`${pipeline ? 'pipeline' : 'bulk'}: ${errs.length} documents refused, e.g. ${JSON.stringify(errs[0])}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await client.request('POST', `/${INDEX}/_refresh`, { timeoutMs: 120_000 });
}

interface Run {
  path: Path;
  docs: number;
  ms: number;
  rate: number;
  clientCpuMsPer1000: number;
  nodeCpuMsPer1000: number;
  load1: [number, number];
}

type Prebuilt = Record<'bulk' | 'pipeline' | 'spread', { bulks: string[]; docs: number }>;

async function run(path: Path, restaurants: number, prebuilt: Prebuilt): Promise<Run> {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404], timeoutMs: 60_000 });
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`, { okStatuses: [404] });
  const load0 = os.loadavg()[0];
  const node0 = await nodeCpuMs();
  const cpu0 = clientCpuMs();
  const t0 = performance.now();
  let docs: number;
  if (path === 'seed') {
    const r = await seedIndex({ client, router, restaurants, dishesPerRestaurant: DISHES, replicas: REPLICAS, recreate: true });
    docs = r.restaurantDocs + r.dishDocs;
  } else {
    await plainLoad(prebuilt[path].bulks, path === 'pipeline');
    docs = prebuilt[path].docs;
  }
  const ms = performance.now() - t0;
  const cpu = clientCpuMs() - cpu0;
  const node = (await nodeCpuMs()) - node0;
  const count = (await client.get<{ count: number }>(`/${INDEX}/_count`)).count;
  if (count !== docs) throw new Error(`${path}: the index holds ${count} documents, ${docs} were written`);
  return { path, docs, ms, rate: (docs * 1000) / ms, clientCpuMsPer1000: (cpu * 1000) / docs, nodeCpuMsPer1000: (node * 1000) / docs, load1: [load0, os.loadavg()[0]] };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f = (x: number) => Math.round(x).toLocaleString('en-US');

async function main() {
  const root = await client.get<{ version: { number: string; distribution?: string }; cluster_name: string }>('/');
  const nodes = (await client.get<{ number_of_nodes: number }>('/_cluster/health')).number_of_nodes;
  const warm = Math.max(10, Math.round(RESTAURANTS / 10));
  const none = { bulks: [], docs: 0 };
  const build = (n: number): Prebuilt => ({
    bulk: paths.includes('bulk') ? bodies(n, true) : none,
    pipeline: paths.includes('pipeline') ? bodies(n, false) : none,
    spread: paths.includes('spread') ? bodies(n, true, true) : none,
  });
  const prebuiltWarm = build(warm);
  const prebuilt = build(RESTAURANTS);
  console.log(
    `${root.version.distribution ?? 'elasticsearch'} ${root.version.number}, ${nodes} node(s) at ${client.url}: ${RESTAURANTS.toLocaleString('en-US')} restaurants × ≤ ${DISHES} dishes, ` +
      `${file.numberOfShards} shards, ${REPLICAS} replica(s), bulk ${BATCH}, ${CONCURRENCY} in flight; ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  );
  for (const p of paths) await run(p, warm, prebuiltWarm);
  const runs: Run[] = [];
  for (let k = 0; k < ROUNDS; k++) {
    const order = paths.map((_, i) => paths[(i + k) % paths.length]);
    for (const p of order) {
      const r = await run(p, RESTAURANTS, prebuilt);
      runs.push(r);
      console.log(
        `  round ${k + 1} ${p.padEnd(8)} ${f(r.docs)} docs in ${(r.ms / 1000).toFixed(1).padStart(5)} s: ${f(r.rate).padStart(7)} docs/s; CPU per 1,000 docs: client ${r.clientCpuMsPer1000.toFixed(0).padStart(3)} ms, node ${r.nodeCpuMsPer1000.toFixed(0).padStart(4)} ms (load ${r.load1[0].toFixed(1)} → ${r.load1[1].toFixed(1)})`,
      );
    }
  }
  const med = Object.fromEntries(paths.map((p) => [p, median(runs.filter((r) => r.path === p).map((r) => r.rate))])) as Partial<Record<Path, number>>;
  const ratio = (a: Path, b: Path) => (med[a] !== undefined && med[b] !== undefined ? med[a]! / med[b]! : null);
  const ratios = { seedToBulk: ratio('seed', 'bulk'), pipelineToBulk: ratio('pipeline', 'bulk') };
  console.log(
    `median docs/s: ${paths.map((p) => `${p} ${f(med[p]!)}`).join(', ')}` +
      (ratios.seedToBulk !== null ? `; seed / bulk = ${(ratios.seedToBulk * 100).toFixed(0)}%` : '') +
      (ratios.pipelineToBulk !== null ? `; pipeline (no routing) / bulk (client-side routing) = ${(ratios.pipelineToBulk * 100).toFixed(0)}%` : '') +
      ` (load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`,
  );
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'test-results', 'bench-bulk.json'),
    JSON.stringify(
      { at: new Date().toISOString(), engine: root.version, nodes, cores: os.cpus().length, restaurants: RESTAURANTS, dishesPerRestaurant: DISHES, shards: file.numberOfShards, replicas: REPLICAS, batch: BATCH, concurrency: CONCURRENCY, runs, median: med, ratios, loadAverage: os.loadavg() },
      null,
      2,
    ) + '\n',
  );
}

try {
  await main();
} finally {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404], timeoutMs: 60_000 }).catch(() => {});
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`, { okStatuses: [404] }).catch(() => {});
  await client.close();
}

/**
 * `npx tsx bench/placement.bench.ts [--points N] [--rounds K]`: placing writes that carry no
 * routing, in the cluster, two ways, against a raw `_bulk` that carries the routing, on the same
 * points in the same run:
 *
 *   plugin:   the geoshard plugin's `geo_routing` ingest processor (plugin/, docs/plugin.md) as the
 *             index's default pipeline; documents sent with NO routing;
 *   painless: the Painless routing pipeline (src/opensearch/routingPipeline.ts, `geoshard pipeline
 *             --install`) as the index's default pipeline; documents sent with NO routing;
 *   raw:      documents sent with the routing the core computes (Router.readShard) and
 *             `pipeline=_none`: the baseline, what a writer that routes itself pays.
 *
 * The points (default 100,000): a quarter exactly on cell corners, a quarter a hair either side of
 * them (1e-12, 1e-9 and 5e-8 degrees), half uniform on the sphere. Each round recreates the index
 * of each mode (15 shards, 0 replicas, refresh off, `_routing.required`) and writes every point in
 * bulk requests of 2,000, 2 in flight, then refreshes; the order of the modes rotates round by
 * round, after a warm-up round. Afterwards every document's `_routing` is read back from each
 * mode's index: the plugin and the Painless pipeline must have put every point where the core does
 * (the same routing name, so the same shard), or the bench fails.
 *
 * Prints machine, load (/proc/loadavg), date, the median seconds and documents/s of each mode,
 * the ratios to raw, and the cluster's CPU per 1,000 documents (bench/cpu.ts: the nodes' /proc
 * CPU time on a local cluster, else `_nodes/stats` process CPU);
 * results also go to test-results/bench-placement.json. Needs a cluster started with the plugin
 * (`node scripts/cluster.mjs start --plugin`; OPENSEARCH_URL). Deletes its indexes and pipelines.
 */
import os from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router } from '../src/core/index.ts';
import { CELL_COUNT, cellFromOrdinal, cellVertices } from '../src/core/cells.ts';
import { mulberry32 } from '../src/core/prng.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';
import { indexMeta } from '../src/opensearch/indexSpec.ts';
import { routingPipeline, type PipelineFields } from '../src/opensearch/routingPipeline.ts';
import { derivedFile, ROOT } from '../src/testing/testkit.ts';
import { cpuReader } from './cpu.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const POINTS = arg('points', 100_000);
const ROUNDS = arg('rounds', 3);
const BATCH = 2000;
const CONCURRENCY = 2;
const MODES = ['plugin', 'painless', 'raw'] as const;
type Mode = (typeof MODES)[number];
const PREFIX = 'gs-place-bench';
const indexOf = (m: Mode) => `${PREFIX}-${m}`;
const PIPELINE: Record<Exclude<Mode, 'raw'>, string> = { plugin: `${PREFIX}-geo`, painless: `${PREFIX}-painless` };
const FIELDS: PipelineFields = { location: 'pos', childLocation: null, stamp: false };

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 300_000 });
const file = derivedFile(PREFIX);
const router = new Router(file);
const RAD = Math.PI / 180;

/** The points: corners, a hair beside corners, uniform. */
function points(): { lat: number; lng: number }[] {
  const rand = mulberry32(38);
  const out: { lat: number; lng: number }[] = [];
  const hair = [1e-12, -1e-12, 1e-9, -1e-9, 5e-8, -5e-8];
  for (let i = 0; i < POINTS; i++) {
    if (i % 2 === 0) {
      out.push({ lat: Math.asin(2 * rand() - 1) / RAD, lng: rand() * 360 - 180 });
      continue;
    }
    const v = cellVertices(cellFromOrdinal(Math.floor(rand() * CELL_COUNT)))[i % 4 === 1 ? 0 : 2];
    const d = i % 4 === 1 ? 0 : hair[Math.floor(rand() * hair.length)];
    const e = i % 4 === 1 ? 0 : hair[Math.floor(rand() * hair.length)];
    out.push({ lat: Math.max(-90, Math.min(90, v.lat + d)), lng: Math.max(-180, Math.min(180, v.lng + e)) });
  }
  return out;
}
const pts = points();
const coreRouting = pts.map((p) => router.readShard(p.lat, p.lng).name);

/** The bulk bodies of a mode, built before timing. */
function bodies(m: Mode): string[] {
  const out: string[] = [];
  for (let i = 0; i < pts.length; i += BATCH) {
    let b = '';
    for (let k = i; k < Math.min(pts.length, i + BATCH); k++) {
      const meta = m === 'raw' ? { index: { _id: `p${k}`, routing: coreRouting[k] } } : { index: { _id: `p${k}` } };
      b += JSON.stringify(meta) + '\n' + JSON.stringify({ pos: { lat: pts[k].lat, lon: pts[k].lng } }) + '\n';
    }
    out.push(b);
  }
  return out;
}

/** The cluster's CPU time so far (bench/cpu.ts: /proc for a local cluster, else `_nodes/stats` process CPU). */
let nodeCpuMs: () => Promise<number> = async () => 0;
let cpuSource = '';

async function recreate(m: Mode): Promise<void> {
  const index = indexOf(m);
  await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.admin('PUT', `/${index}`, {
    body: {
      settings: { index: { number_of_shards: file.numberOfShards, number_of_replicas: 0, refresh_interval: '-1', 'translog.durability': 'async', ...(m === 'raw' ? {} : { default_pipeline: PIPELINE[m] }) } },
      mappings: { _routing: { required: true }, dynamic: 'strict', properties: { pos: { type: 'geo_point' } }, _meta: { ...indexMeta(file), fields: FIELDS } },
    },
  });
}

/** Writes every point into the mode's index; returns wall ms and the cluster's CPU ms. */
async function run(m: Mode, pre: string[]): Promise<{ ms: number; cpuMs: number }> {
  await recreate(m);
  const path = `/${indexOf(m)}/_bulk`;
  const query = m === 'raw' ? { pipeline: '_none' } : undefined;
  const cpu0 = await nodeCpuMs();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < pre.length) {
      const b = pre[next++];
      const { body } = await client.request<{ errors: boolean; items: Record<string, { error?: unknown }>[] }>('POST', path, { body: b, query, timeoutMs: 300_000 });
      if (body.errors) throw new Error(`${m}: bulk errors: ${JSON.stringify(body.items.find((it) => Object.values(it)[0].error)).slice(0, 400)}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await client.request('POST', `/${indexOf(m)}/_refresh`, { timeoutMs: 300_000 });
  const ms = performance.now() - t0;
  return { ms, cpuMs: (await nodeCpuMs()) - cpu0 };
}

/** Every document's _routing in a mode's index, by point number. */
async function routings(m: Mode): Promise<string[]> {
  const out: string[] = new Array(pts.length);
  const pit = (await client.request<{ pit_id: string }>('POST', `/${indexOf(m)}/_search/point_in_time`, { query: { keep_alive: '2m' } })).body.pit_id;
  let after: unknown[] | undefined;
  for (;;) {
    const { body } = await client.request<{ hits: { hits: { _id: string; _routing: string; sort: unknown[] }[] } }>('POST', '/_search', {
      body: { size: 10_000, _source: false, pit: { id: pit, keep_alive: '2m' }, sort: [{ _doc: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
      query: { search_pipeline: '_none' },
      timeoutMs: 300_000,
    });
    for (const h of body.hits.hits) out[Number(h._id.slice(1))] = h._routing;
    if (body.hits.hits.length < 10_000) break;
    after = body.hits.hits[body.hits.hits.length - 1].sort;
  }
  await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit] }, okStatuses: [404] });
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const root = (await client.get<{ version: { number: string } }>('/')).version.number;
  const nodes = Object.keys((await client.get<{ nodes: Record<string, unknown> }>('/_nodes/process')).nodes).length;
  const plugins = await client.request<{ component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
  if (!plugins.body.some((p) => p.component === 'geoshard')) throw new Error(`the cluster runs without the geoshard plugin: start it with "node scripts/cluster.mjs start --plugin"`);
  const reader = await cpuReader(client);
  nodeCpuMs = reader.read;
  cpuSource = reader.source;
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model?.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`;
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').trim();
  const at = new Date().toISOString();
  console.log(`placement bench: ${at}; ${machine}; /proc/loadavg ${loadBefore}; OpenSearch ${root}, ${nodes} node(s); ${pts.length.toLocaleString('en-US')} points (${Math.ceil(pts.length / 4).toLocaleString('en-US')} on cell corners, as many a hair beside them); bulk ${BATCH}, ${CONCURRENCY} in flight; ${ROUNDS} round(s) after a warm-up; CPU from ${cpuSource}`);
  await client.request('PUT', `/_ingest/pipeline/${PIPELINE.plugin}`, { body: { description: 'geoshard plugin placement (bench)', processors: [{ geo_routing: { hash: file.hash } }] } });
  await client.request('PUT', `/_ingest/pipeline/${PIPELINE.painless}`, { body: routingPipeline(file, null, indexOf('painless'), FIELDS) });
  const pre = Object.fromEntries(MODES.map((m) => [m, bodies(m)])) as Record<Mode, string[]>;
  const runs: Record<Mode, { ms: number; cpuMs: number }[]> = { plugin: [], painless: [], raw: [] };
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      const order = MODES.map((_, k) => MODES[(k + round) % MODES.length]);
      const line: string[] = [];
      for (const m of order) {
        const r = await run(m, pre[m]);
        if (round > 0) runs[m].push(r);
        line.push(`${m} ${(r.ms / 1000).toFixed(1)} s`);
      }
      console.log(`${round === 0 ? 'warm-up' : `round ${round}`}: ${line.join(', ')} (load ${os.loadavg()[0].toFixed(1)})`);
    }
    // Where each point went: the same routing name from all three, the core's.
    const got = Object.fromEntries(await Promise.all(MODES.map(async (m) => [m, await routings(m)] as const))) as Record<Mode, string[]>;
    for (const m of MODES) {
      const wrong = got[m].flatMap((r, k) => (r === coreRouting[k] ? [] : [`p${k} (${pts[k].lat}, ${pts[k].lng}): ${r ?? 'missing'}, core ${coreRouting[k]}`]));
      if (wrong.length > 0) throw new Error(`${m}: ${wrong.length} points not where the core puts them: ${wrong.slice(0, 5).join('; ')}`);
    }
    const med = Object.fromEntries(MODES.map((m) => [m, { s: median(runs[m].map((r) => r.ms)) / 1000, cpuMsPer1000: median(runs[m].map((r) => (r.cpuMs * 1000) / pts.length)) }])) as Record<Mode, { s: number; cpuMsPer1000: number }>;
    console.log(`\nevery one of ${pts.length.toLocaleString('en-US')} points on the same routing (shard) from geo_routing, the Painless pipeline and the core`);
    for (const m of MODES) {
      const rate = pts.length / med[m].s;
      console.log(`  ${m.padEnd(8)} ${med[m].s.toFixed(2)} s, ${Math.round(rate).toLocaleString('en-US')} documents/s, ${(med[m].s / med.raw.s).toFixed(2)}x raw time; cluster CPU ${med[m].cpuMsPer1000.toFixed(0)} ms per 1,000 documents (${(med[m].cpuMsPer1000 / med.raw.cpuMsPer1000).toFixed(2)}x raw)`);
    }
    const loadAfter = readFileSync('/proc/loadavg', 'utf8').trim();
    console.log(`/proc/loadavg after: ${loadAfter}`);
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'bench-placement.json'), JSON.stringify({ at, machine, loadBefore, loadAfter, cpuSource, engine: root, nodes, points: pts.length, batch: BATCH, concurrency: CONCURRENCY, rounds: ROUNDS, runs, median: med }, null, 2) + '\n');
  } finally {
    for (const m of MODES) await client.request('DELETE', `/${indexOf(m)}`, { okStatuses: [404] });
    for (const p of Object.values(PIPELINE)) await client.request('DELETE', `/_ingest/pipeline/${p}`, { okStatuses: [404] });
    await client.close();
  }
}

main().catch((e) => {
  console.error(`placement bench: ${(e as Error).message}`);
  process.exit(1);
});

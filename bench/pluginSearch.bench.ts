/**
 * `npx tsx bench/pluginSearch.bench.ts [--copies K] [--searches S] [--rounds R] [--block-ms MS] [--concurrency C]`:
 * what routing a search costs and saves when the cluster does it (the geoshard plugin's
 * geo_routing_search as the index's `index.search.default_pipeline`) and when the client does it,
 * against asking every shard, on the same searches, interleaved:
 *
 *   cluster:      no routing; the default pipeline narrows the search (docs/plugin.md);
 *   client:       routedSearch (geoshard/opensearch: reads the index's _meta, then the core's
 *                 covering) with the official JS client, `search_pipeline=_none`;
 *   client-cache: routedRequest with a Router kept between searches (what a service that caches
 *                 the _meta does: routedSearch without its _meta read), `search_pipeline=_none`;
 *   all:          `search_pipeline=_none`, no routing: every shard.
 *
 * The index: `gs-plugin-search`, made here when missing: K copies (default 2) of every gazetteer
 * place jittered up to ~1 km, flat documents ({pos, n}) routed by the bundled boundary file's
 * owners (15 shards, 0 replicas), force-merged. The searches: S (default 300) seeded circles of
 * 2 to 50 km (log-uniform) centred on gazetteer places, `geo_distance` filter, 10 hits sorted by
 * `n`, total counted. Each search is first sent once in every mode: the four must give the same
 * hits and total, or the bench fails. Then R rounds (default 5), each running every mode in a
 * block of at least MS ms (default 8,000) with C searches in flight (default 4), the order of the
 * modes rotating round by round. Per mode: searches per second, and the cluster's CPU per search
 * (`_nodes/stats` process.cpu.total_in_millis summed over the nodes, read after each block with
 * src/server/measure.ts readingAfter, so the node's 1 s stats cache does not cut the block short;
 * and, on a local cluster, /proc's CPU time of the nodes as a check), medians over rounds. The
 * processor's own time per search: ext.geoshard.micros of the cluster mode's answers, p50 and p99.
 * Prints machine, /proc/loadavg and date; results also go to test-results/bench-plugin-search.json.
 * Needs a cluster started with the plugin (`node scripts/cluster.mjs start --nodes 3 --plugin`).
 */
import os from 'node:os';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { Router } from '../src/core/index.ts';
import { mulberry32 } from '../src/core/prng.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';
import { readingAfter, cpuBetween } from '../src/server/measure.ts';
import { loadGazetteer } from '../src/data/places.ts';
import { indexMeta } from '../src/opensearch/indexSpec.ts';
import { routedRequest, routedSearch, type Circle } from '../src/opensearch/routedSearch.ts';
import { derivedFile, ROOT } from '../src/testing/testkit.ts';
import { cpuReader } from './cpu.ts';

const argv = process.argv.slice(2);
const option = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const COPIES = option('copies', 2);
const SEARCHES = option('searches', 300);
const ROUNDS = option('rounds', 5);
const BLOCK_MS = option('block-ms', 8000);
const CONCURRENCY = option('concurrency', 4);
const INDEX = 'gs-plugin-search';
const PIPELINE = 'gs-plugin-search-route';
const MODES = ['cluster', 'client', 'client-cache', 'all'] as const;
type Mode = (typeof MODES)[number];

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 300_000 });
const js = new Client({ node: configFromEnv().url });
const file = derivedFile(INDEX);
const router = new Router(file);
const config = { index: INDEX, location: 'pos', weight: 'docs' as const, name: null, join: null, facets: [] };
const FIELDS = { location: 'pos', childLocation: null, stamp: false };

async function ensureIndex(): Promise<number> {
  const places = loadGazetteer();
  const want = places.length * COPIES;
  const has = await client.request<{ count: number }>('GET', `/${INDEX}/_count`, { okStatuses: [404] });
  if (has.status !== 200 || has.body.count !== want) {
    await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
    await client.admin('PUT', `/${INDEX}`, {
      body: {
        settings: { index: { number_of_shards: file.numberOfShards, number_of_replicas: 0, refresh_interval: '-1' } },
        mappings: { _routing: { required: true }, dynamic: 'strict', properties: { pos: { type: 'geo_point' }, n: { type: 'integer' } }, _meta: { ...indexMeta(file), fields: FIELDS } },
      },
    });
    const rand = mulberry32(78);
    let lines: string[] = [];
    const flush = async () => {
      if (lines.length === 0) return;
      const { body } = await client.request<{ errors: boolean }>('POST', `/${INDEX}/_bulk`, { body: lines.join('\n') + '\n', query: { pipeline: '_none' }, timeoutMs: 300_000 });
      if (body.errors) throw new Error(`bulk into ${INDEX} failed`);
      lines = [];
    };
    let n = 0;
    for (let k = 0; k < COPIES; k++) {
      for (const c of places) {
        const lat = Math.max(-89.99, Math.min(89.99, c.loc.coordinates[1] + (rand() - 0.5) * 0.02));
        const lng = Math.max(-180, Math.min(180, c.loc.coordinates[0] + (rand() - 0.5) * 0.02));
        lines.push(JSON.stringify({ index: { _id: `p${n}`, routing: router.readShard(lat, lng).name } }), JSON.stringify({ pos: { lat, lon: lng }, n: n++ }));
        if (lines.length >= 10_000) await flush();
      }
    }
    await flush();
    await client.request('PUT', `/${INDEX}/_settings`, { body: { 'index.refresh_interval': '1s' } });
    await client.request('POST', `/${INDEX}/_refresh`, { timeoutMs: 300_000 });
    await client.request('POST', `/${INDEX}/_forcemerge`, { query: { max_num_segments: '1' }, timeoutMs: 900_000 });
  }
  await client.request('PUT', `/_search/pipeline/${PIPELINE}`, { body: { request_processors: [{ geo_routing_search: { hash: file.hash } }], response_processors: [{ geo_routing_report: {} }] } });
  await client.request('PUT', `/${INDEX}/_settings`, { body: { 'index.search.default_pipeline': PIPELINE } });
  return want;
}

/** The seeded searches. */
function circles(): Circle[] {
  const places = loadGazetteer();
  const rand = mulberry32(2026);
  return Array.from({ length: SEARCHES }, () => {
    const p = places[Math.floor(rand() * places.length)];
    return { lat: p.loc.coordinates[1], lng: p.loc.coordinates[0], radiusKm: Math.exp(Math.log(2) + rand() * (Math.log(50) - Math.log(2))) };
  });
}

type Answer = { took: number; _shards: { total: number }; hits: { total: { value: number }; hits: { _id: string }[] }; ext?: { geoshard?: { routed: boolean; micros: number; shards: number } } };
const BODY: Record<string, unknown> = { size: 10, sort: [{ n: 'asc' }], track_total_hits: true };
const filter = (c: Circle) => ({ bool: { filter: [{ geo_distance: { distance: `${c.radiusKm * 1000}m`, pos: { lat: c.lat, lon: c.lng } } }] } });

/** One search in a mode. */
async function searchIn(mode: Mode, c: Circle): Promise<Answer> {
  if (mode === 'cluster') return (await js.search({ index: INDEX, body: { ...BODY, query: filter(c) } } as never)).body as unknown as Answer;
  if (mode === 'all') return (await js.search({ index: INDEX, body: { ...BODY, query: filter(c) }, search_pipeline: '_none' } as never)).body as unknown as Answer;
  const r = mode === 'client' ? await routedSearch(js, file, config, c, undefined, BODY) : routedRequest(router, config, c, undefined, BODY);
  return (await js.search({ index: r.index, routing: r.routing, body: r.body, search_pipeline: '_none' } as never)).body as unknown as Answer;
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs: number[]) => quantile(xs, 0.5);

async function main() {
  const version = (await client.get<{ version: { number: string } }>('/')).version.number;
  const plugins = await client.request<{ component: string }[]>('GET', '/_cat/plugins', { query: { format: 'json' } });
  if (!plugins.body.some((p) => p.component === 'geoshard')) throw new Error('the cluster runs without the geoshard plugin: start it with "node scripts/cluster.mjs start --nodes 3 --plugin"');
  const docs = await ensureIndex();
  const nodes = Object.keys((await client.get<{ nodes: Record<string, unknown> }>('/_nodes/process')).nodes).length;
  const proc = await cpuReader(client);
  const cs = circles();
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model?.trim()}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`;
  const loadBefore = readFileSync('/proc/loadavg', 'utf8').trim();
  const at = new Date().toISOString();
  console.log(`plugin search bench: ${at}; ${machine}; /proc/loadavg ${loadBefore}; OpenSearch ${version}, ${nodes} node(s); ${INDEX}: ${docs.toLocaleString('en-US')} documents, ${file.numberOfShards} shards; ${cs.length} circles of 2-50 km; ${ROUNDS} rounds of ${BLOCK_MS} ms blocks per mode, ${CONCURRENCY} in flight`);

  // Once in every mode: the same hits and total; and the processor's time and the shards asked.
  const micros: number[] = [];
  const shards: Record<Mode, number[]> = { cluster: [], client: [], 'client-cache': [], all: [] };
  for (const [k, c] of cs.entries()) {
    const a = await Promise.all(MODES.map((m) => searchIn(m, c)));
    const key = (x: Answer) => `${x.hits.total.value}:${x.hits.hits.map((h) => h._id).join(',')}`;
    for (let i = 1; i < a.length; i++) if (key(a[i]) !== key(a[0])) throw new Error(`circle ${k} (${c.lat}, ${c.lng}, ${c.radiusKm} km): ${MODES[i]} answers ${key(a[i]).slice(0, 120)}, ${MODES[0]} ${key(a[0]).slice(0, 120)}`);
    if (!a[0].ext?.geoshard?.routed) throw new Error(`circle ${k}: the plugin did not narrow it: ${JSON.stringify(a[0].ext?.geoshard)}`);
    MODES.forEach((m, i) => shards[m].push(a[i]._shards.total));
  }
  const hits = cs.length;
  console.log(`every mode answered each of the ${hits} searches alike (hits, order, total); shards asked per search: ${MODES.map((m) => `${m} ${(shards[m].reduce((s, x) => s + x, 0) / hits).toFixed(2)}`).join(', ')}`);

  type Block = { searches: number; ms: number; cpuMs: number; procMs: number; clientCpuMs: number };
  const blocks: Record<Mode, Block[]> = { cluster: [], client: [], 'client-cache': [], all: [] };
  const runBlock = async (mode: Mode): Promise<Block> => {
    const before = await readingAfter(client, null);
    const p0 = await proc.read();
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (performance.now() - t0 < BLOCK_MS) {
        const a = await searchIn(mode, cs[next++ % cs.length]);
        if (mode === 'cluster' && a.ext?.geoshard) micros.push(a.ext.geoshard.micros);
        done++;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const ms = performance.now() - t0;
    const c1 = process.cpuUsage(c0);
    const p1 = await proc.read();
    const after = await readingAfter(client, before);
    return { searches: done, ms, cpuMs: cpuBetween(before.reading, after.reading), procMs: p1 - p0, clientCpuMs: (c1.user + c1.system) / 1000 };
  };
  // A warm-up block of each, discarded.
  for (const m of MODES) await runBlock(m);
  micros.length = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const order = MODES.map((_, k) => MODES[(k + round) % MODES.length]);
    const line: string[] = [];
    for (const m of order) {
      const b = await runBlock(m);
      blocks[m].push(b);
      line.push(`${m} ${((b.searches * 1000) / b.ms).toFixed(0)}/s ${(b.cpuMs / b.searches).toFixed(2)} ms CPU`);
    }
    console.log(`round ${round + 1}: ${line.join(', ')} (load ${os.loadavg()[0].toFixed(1)})`);
  }
  const rows = MODES.map((m) => ({
    mode: m,
    perSecond: median(blocks[m].map((b) => (b.searches * 1000) / b.ms)),
    cpuMsPerSearch: median(blocks[m].map((b) => b.cpuMs / b.searches)),
    procCpuMsPerSearch: proc.source === 'proc' ? median(blocks[m].map((b) => b.procMs / b.searches)) : null,
    clientCpuMsPerSearch: median(blocks[m].map((b) => b.clientCpuMs / b.searches)),
    shardsPerSearch: shards[m].reduce((s, x) => s + x, 0) / hits,
  }));
  const all = rows.find((r) => r.mode === 'all')!;
  console.log(`\nmedians of ${ROUNDS} rounds (cluster CPU from _nodes/stats process.cpu.total_in_millis${proc.source === 'proc' ? '; /proc of the nodes as a check' : ''}):`);
  for (const r of rows) {
    console.log(
      `  ${r.mode.padEnd(12)} ${r.perSecond.toFixed(0).padStart(5)} searches/s (${(r.perSecond / all.perSecond).toFixed(2)}x all), cluster CPU ${r.cpuMsPerSearch.toFixed(2)} ms/search (${(r.cpuMsPerSearch / all.cpuMsPerSearch).toFixed(2)}x all)` +
        `${r.procCpuMsPerSearch !== null ? ` [/proc ${r.procCpuMsPerSearch.toFixed(2)}]` : ''}, client CPU ${r.clientCpuMsPerSearch.toFixed(2)} ms/search, ${r.shardsPerSearch.toFixed(2)} shards/search`,
    );
  }
  console.log(`geo_routing_search's own time (ext.geoshard.micros, ${micros.length} searches): p50 ${quantile(micros, 0.5)} µs, p99 ${quantile(micros, 0.99)} µs, mean ${(micros.reduce((s, x) => s + x, 0) / micros.length).toFixed(0)} µs`);
  const loadAfter = readFileSync('/proc/loadavg', 'utf8').trim();
  console.log(`/proc/loadavg after: ${loadAfter}`);
  const dir = join(ROOT, 'test-results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'bench-plugin-search.json'),
    JSON.stringify({ at, machine, loadBefore, loadAfter, engine: version, nodes, documents: docs, searches: cs.length, rounds: ROUNDS, blockMs: BLOCK_MS, concurrency: CONCURRENCY, rows, micros: { p50: quantile(micros, 0.5), p99: quantile(micros, 0.99), n: micros.length }, blocks }, null, 2) + '\n',
  );
  await client.close();
  await js.close();
}

main().catch((e) => {
  console.error(`plugin search bench: ${(e as Error).message}`);
  process.exit(1);
});

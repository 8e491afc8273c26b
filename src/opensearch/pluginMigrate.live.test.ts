/**
 * The plugin through a real `geoshard migrate` with a writer running: the sample index (800
 * restaurants, 8 dishes each, parents and children located by `location` / `restaurant_location`)
 * with the plugin's search pipeline as its `index.search.default_pipeline`; the CLI moves two
 * boundaries (src/testing/migrationFixture.ts movedCandidate), stopped at each of its pause points
 * (GEOSHARD_MIGRATE_PAUSE: copying, cutover, verified, deleting of each range: the CLI says it
 * paused, the test checks, kills it, and runs it again to the next point, as migration.live does),
 * while a writer (src/testing/writeLoad.ts: creates, updates and deletes through the package's
 * writer and through a plain client and the routing pipeline) writes.
 *
 * At every step, searches of circles (half over the moving ranges) are sent WITHOUT routing by
 * Python's opensearch-py (plugin/test-python/search.py) through the default pipeline, and must
 * give the same hits, in the same order, and the same total as:
 *   - routedSearch + the official JS client (the client's routing and exclusions, no pipeline);
 *   - every shard with routedSearch's exclusions (`search_pipeline=_none`, no routing);
 * and, against every shard without exclusions (where a moving range answers from both owners),
 * the same documents, none twice. A search without a location is left as it is by the plugin
 * (every copy), and counts the sample once with routedSearch's exclusions. The migration itself
 * runs through the plugin's pipeline (its reads are point-in-time searches, left as they are) and
 * ends; the writer's acknowledged writes are then each in the index once, on their new owner.
 *
 * The searches keep to the sample's documents (an `id` regexp: the writer's ids start with w),
 * which no writer changes, so answers taken one after another during a pause are comparable.
 * Expected values come from the cluster itself (every shard) and the core's routing. Skips,
 * saying why, on a cluster without the plugin.
 */
import { describe, it, expect, beforeAll, afterAll, onTestFinished } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { Router, formatBoundaryFile, ordinalAt, cellOrdinal, parseToken, type BoundaryFile } from '../core/index.ts';
import { mulberry32 } from '../core/prng.ts';
import { derivedFile, liveClient, ROOT } from '../testing/testkit.ts';
import { movedCandidate } from '../testing/migrationFixture.ts';
import { WriteLoad } from '../testing/writeLoad.ts';
import { seedIndex } from '../ops/seed/seeder.ts';
import { auditIndex } from '../ops/audit/audit.ts';
import { LOCK_INDEX } from '../ops/migrate/migrationLock.ts';
import { sampleOf } from '../data/sample.ts';
import type { Restaurant } from '../data/generator.ts';
import { fetchIndexMeta } from './indexMeta.ts';
import { SAMPLE_CONFIG } from './indexConfig.ts';
import { routedSearch, type Circle } from './routedSearch.ts';

const URL_ = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const INDEX = 'gs-plugin-migrate';
const PIPELINE = 'gs-plugin-migrate-route';
const SAMPLE = { restaurants: 800, dishesPerRestaurant: 8 };
/** The sample's documents, counted on every shard once it is seeded (restaurants with fewer dishes than 8 have fewer). */
let sampleDocs = 0;
const client = liveClient();
const js = new Client({ node: URL_ });
const base = derivedFile(INDEX);
const candidate = movedCandidate(base, SAMPLE.restaurants, [3, 12], 6);
const config = { ...SAMPLE_CONFIG, index: INDEX };
const dir = mkdtempSync(join(tmpdir(), 'geoshard-plugin-migrate-'));
const CANDIDATE_PATH = join(dir, 'candidate.json');
const GRACE_MS = '300';
/** The sample's own documents (restaurants r<n>, dishes r<n>-d<k>): no writer touches them. */
const SAMPLE_ONLY = { regexp: { id: 'r[0-9]+(-d[0-9]+)?' } };
let skip = '';
let circles: Circle[] = [];
let hot: Restaurant[] = [];
let anyPlaces: Restaurant[] = [];

type Body = Record<string, any>;
async function req(method: string, path: string, body?: unknown, querystring?: Record<string, string>): Promise<{ statusCode: number; body: any }> {
  const r = await js.transport.request({ method, path, body: body as Body, querystring }, { ignore: [400, 404] });
  return { statusCode: r.statusCode ?? 0, body: r.body };
}

async function putPipeline(hash: string): Promise<void> {
  const r = await req('PUT', `/_search/pipeline/${PIPELINE}`, { request_processors: [{ geo_routing_search: { hash } }], response_processors: [{ geo_routing_report: {} }] });
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
}

/** The Python interpreter of the venv with opensearch-py (made under GEOSHARD_CACHE, as plugin.live does). */
function python(): string {
  const venv = join(process.env.GEOSHARD_CACHE ?? '/var/cache/geoshard', 'py');
  const py = join(venv, 'bin', 'python');
  if (!existsSync(py)) {
    const mk = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
    if (mk.status !== 0) throw new Error(`python3 -m venv ${venv} failed: ${mk.stderr}`);
  }
  const pip = spawnSync(py, ['-m', 'pip', 'install', '-q', 'opensearch-py==3.2.0'], { encoding: 'utf8', timeout: 240_000 });
  if (pip.status !== 0) throw new Error(`pip install opensearch-py failed: ${pip.stderr}`);
  return py;
}
let py = '';

interface PyAnswer {
  geoshard: { routed: boolean; routing: string | null; shards: number; excluded: number; reason: string | null };
  shards: number;
  failed: number;
  total: number;
  ids: string[];
}
function pySearch(bodies: Body[]): PyAnswer[] {
  const r = spawnSync(py, [join(ROOT, 'plugin', 'test-python', 'search.py')], { input: JSON.stringify({ url: URL_, index: INDEX, queries: bodies }), encoding: 'utf8', timeout: 120_000 });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as PyAnswer[];
}

/** A running `geoshard migrate` (as migration.live.test.ts runs it): its output and a wait for a line. */
function migrate(pause?: string): { child: ChildProcess; err: () => string; waitFor: (re: RegExp) => Promise<void>; exit: Promise<number | null> } {
  const env = { ...process.env, OPENSEARCH_URL: URL_, GEOSHARD_MIGRATE_PAUSE: pause ?? '' };
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src', 'cli', 'bin.ts'), 'migrate', '--candidate', CANDIDATE_PATH, '--grace-ms', GRACE_MS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  child.stderr!.on('data', (b) => {
    err += b;
    for (const w of [...waiters]) if (w.re.test(err)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  });
  child.stdout!.on('data', (b) => (err += b));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    err: () => err,
    exit,
    waitFor: (re) =>
      new Promise<void>((res, rej) => {
        if (re.test(err)) return res();
        waiters.push({ re, resolve: res });
        void exit.then((code) => (re.test(err) ? res() : rej(new Error(`geoshard migrate exited ${code} before printing ${re}:\n${err}`))));
      }),
  };
}

beforeAll(async () => {
  const plugins = await req('GET', '/_cat/plugins', undefined, { format: 'json' });
  const nodes = new Set((plugins.body as { name: string; component: string }[]).filter((p) => p.component === 'geoshard').map((p) => p.name));
  const all = await req('GET', '/_cat/nodes', undefined, { format: 'json', h: 'name' });
  if (nodes.size === 0 || nodes.size < (all.body as unknown[]).length) {
    skip = `the cluster at ${URL_} does not run the geoshard plugin on every node (start it with "node scripts/cluster.mjs start --plugin")`;
    return;
  }
  py = python();
  writeFileSync(CANDIDATE_PATH, formatBoundaryFile(candidate));
  await client.request('DELETE', `/${LOCK_INDEX}/_doc/${INDEX}`, { okStatuses: [404] });
  // A fresh sample (seed installs the routing pipeline as the index's default ingest pipeline).
  await seedIndex({ client, router: new Router(base), ...SAMPLE, recreate: true });
  await putPipeline(base.hash);
  sampleDocs = (await req('POST', `/${INDEX}/_count`, { query: SAMPLE_ONLY })).body.count;
  expect(sampleDocs).toBeGreaterThan(SAMPLE.restaurants * SAMPLE.dishesPerRestaurant);
  const s = await req('PUT', `/${INDEX}/_settings`, { 'index.search.default_pipeline': PIPELINE });
  expect(s.statusCode, JSON.stringify(s.body)).toBe(200);
  const sample = sampleOf(SAMPLE.restaurants);
  const moving = (lat: number, lng: number) => {
    const o = ordinalAt(lat, lng);
    return [3, 12].some((i) => o >= cellOrdinal(parseToken(candidate.boundaries[i])) && o < cellOrdinal(parseToken(base.boundaries[i])));
  };
  hot = sample.filter((r) => moving(r.lat, r.lng));
  anyPlaces = sample;
  expect(hot.length).toBeGreaterThanOrEqual(12);
  const rand = mulberry32(61);
  circles = [];
  for (let k = 0; k < 8; k++) {
    const r = hot[Math.floor(rand() * hot.length)];
    circles.push({ lat: r.lat, lng: r.lng, radiusKm: 2 + Math.round(rand() * 60) });
  }
  for (let k = 0; k < 4; k++) {
    const r = sample[Math.floor(rand() * sample.length)];
    circles.push({ lat: r.lat, lng: r.lng, radiusKm: 5 + Math.round(rand() * 150) });
  }
}, 300_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (!skip && process.env.GEOSHARD_KEEP !== '1') {
    await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
    await req('DELETE', `/_search/pipeline/${PIPELINE}`);
  }
  await client.close();
  await js.close();
});

const without = (q: Body) => {
  const { must_not: _drop, ...bool } = q.bool;
  return { bool };
};

/**
 * The checks of one step (see the top of this file); returns how many hits answered from both
 * owners on every shard without exclusions (the copies the exclusions leave out).
 */
async function checkStep(step: string, settled = false): Promise<{ hits: number; twice: number }> {
  const meta = await fetchIndexMeta(client, INDEX);
  const active = ((meta?.migration as { moves?: { step: string }[] } | undefined)?.moves ?? []).filter((m: { step: string }) => m.step !== 'pending').length;
  const requests = await Promise.all(circles.map((c) => routedSearch(js, settled ? candidate : base, config, c, SAMPLE_ONLY, { size: 2000, sort: [{ id: 'asc' }], track_total_hits: true })));
  const python = pySearch(requests.map((r) => ({ ...r.body, query: without(r.body.query as Body) })));
  let hits = 0;
  let twice = 0;
  for (const [k, r] of requests.entries()) {
    const label = `${step}, circle ${k} (${circles[k].lat}, ${circles[k].lng}, ${circles[k].radiusKm} km)`;
    const byClient = (await js.search({ index: r.index, routing: r.routing, body: r.body, search_pipeline: '_none' } as never)).body as Body;
    const everyShard = (await js.search({ index: r.index, body: r.body, search_pipeline: '_none' } as never)).body as Body;
    const raw = (await js.search({ index: r.index, body: { ...r.body, query: without(r.body.query as Body) }, search_pipeline: '_none' } as never)).body as Body;
    const ids = (b: Body) => b.hits.hits.map((h: { _id: string }) => h._id) as string[];
    const p = python[k];
    expect(p.failed, label).toBe(0);
    expect(p.geoshard?.routed, `${label}: ${p.geoshard?.reason}`).toBe(true);
    expect(p.geoshard.routing, label).toBe(r.routing);
    expect(p.shards, label).toBe(r.routing.split(',').length);
    expect(p.geoshard.excluded, label).toBe(active);
    expect(p.ids, `${label}: Python (plugin) vs routedSearch`).toEqual(ids(byClient));
    expect(p.total, label).toBe(byClient.hits.total.value);
    expect(p.ids, `${label}: Python (plugin) vs every shard with the exclusions`).toEqual(ids(everyShard));
    expect(p.total, label).toBe(everyShard.hits.total.value);
    // Against every shard without exclusions: the same documents, each once in the plugin's answer.
    expect(new Set(p.ids).size, `${label}: a document twice`).toBe(p.ids.length);
    expect(p.ids, `${label}: every shard, duplicates removed`).toEqual([...new Set(ids(raw))]);
    expect(p.total).toBeLessThan(2000);
    hits += p.total;
    twice += raw.hits.total.value - p.total;
  }
  // No location: left as it is by the plugin (every shard, every copy: what a search for every copy of a
  // document needs), and with routedSearch's exclusions each sample document once.
  const [count] = pySearch([{ query: SAMPLE_ONLY, size: 0, track_total_hits: true }]);
  expect(count.geoshard, step).toMatchObject({ routed: false, excluded: 0 });
  const copies = (await js.search({ index: INDEX, body: { query: SAMPLE_ONLY, size: 0, track_total_hits: true }, search_pipeline: '_none' } as never)).body as Body;
  expect(count.total, `${step}: every copy`).toBe(copies.hits.total.value);
  const exclusions = (requests[0].body.query as Body).bool.must_not ?? [];
  const once = (await js.search({ index: INDEX, body: { query: { bool: { filter: [SAMPLE_ONLY], must_not: exclusions } }, size: 0, track_total_hits: true }, search_pipeline: '_none' } as never)).body as Body;
  expect(once.hits.total.value, `${step}: the sample, counted once`).toBe(sampleDocs);
  return { hits, twice };
}

describe('the plugin through geoshard migrate with a writer', () => {
  it('answers Python without routing as routedSearch and every shard do, at every pause point of the move, each document once', async (ctx) => {
    if (skip) return ctx.skip(skip);
    const writer = new WriteLoad({ client, base, hot, any: anyPlaces, prefix: `wpl${Date.now().toString(36)}-`, seed: 5, paths: ['routed', 'plain'], pipeline: true, metaTtlMs: 100 });
    const running = writer.run();
    onTestFinished(async () => {
      writer.stop();
      await running.catch(() => {});
      await writer.cleanup();
    });
    const before = await checkStep('before the move');
    const seen: string[] = [`before: ${before.hits} hits`];
    let twice = 0;
    for (const point of ['copying:1', 'cutover:1', 'verified:1', 'deleting:1', 'copying:2', 'cutover:2', 'verified:2', 'deleting:2']) {
      const [name, range] = point.split(':');
      const cli = migrate(point);
      await cli.waitFor(new RegExp(`paused at ${name} of range ${range}`));
      const meta = await fetchIndexMeta(client, INDEX);
      const steps = ((meta?.migration as { moves?: { step: string }[] } | undefined)?.moves ?? []).map((m: { step: string }) => m.step).join(',');
      const r = await checkStep(`${point} (${steps})`);
      seen.push(`${point} [${steps}]: ${r.hits} hits, ${r.twice} twice on every shard`);
      twice += r.twice;
      cli.child.kill('SIGKILL');
      await cli.exit;
    }
    const last = migrate();
    expect(await last.exit, last.err()).toBe(0);
    writer.stop();
    await running;
    // Settled on the candidate: the pipeline installed for the old file no longer narrows, and says why...
    const [drift] = pySearch([{ query: { bool: { filter: [{ geo_distance: { distance: '10km', location: { lat: circles[0].lat, lon: circles[0].lng } } }] } }, size: 0 }]);
    expect(drift.geoshard.routed).toBe(false);
    expect(drift.geoshard.reason).toContain(candidate.hash);
    // ...and once put again for the candidate's file, it routes as routedSearch does.
    await putPipeline(candidate.hash);
    const after = await checkStep('settled on the candidate', true);
    seen.push(`after: ${after.hits} hits`);
    // The pause points saw both owners answer on every shard: the exclusions had work to do.
    expect(twice).toBeGreaterThan(0);
    // The writer's acknowledged writes: each once, on its new owner, with its last content.
    const check = await writer.check(new Router(candidate));
    expect({ lost: check.lost, duplicated: check.duplicated, orphaned: check.orphaned, misplaced: check.misplaced, stale: check.stale }, JSON.stringify(writer.stats)).toEqual({ lost: [], duplicated: [], orphaned: [], misplaced: [], stale: [] });
    expect(writer.stats.hot).toBeGreaterThan(0);
    const audit = await auditIndex(client, INDEX);
    expect(audit.clean, JSON.stringify(audit.tally).slice(0, 1000)).toBe(true);
    console.log(`plugin through migrate: ${seen.join('; ')}; ${twice} copies left out in all; writer ${JSON.stringify(writer.stats)}`);
  }, 600_000);
});

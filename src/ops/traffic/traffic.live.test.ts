/**
 * Recorded traffic against the real cluster (issue 39, part 1), without the plugin:
 *
 * - the live API's recorder samples `_stats` of a geosharded index (15 shards, one replica) every
 *   INTERVAL_S into a history index of this test's own;
 * - a separate client (the plain official client, not geoshard's) sends a known pattern: a hot
 *   spot in San Francisco for PHASE_S, which then moves to Chicago for PHASE_S, over a background
 *   of searches around other US cities, each routed to the shards the core's covering names, and
 *   a few writes at the hot spot; it counts what each shard was asked;
 * - then: per range, the recorded counts equal the engine's own `_stats` deltas (read by the test
 *   before and after) and the pattern's counts, exactly, and each bucket's count lies between the
 *   searches surely and possibly inside it; GET /api/traffic, `geoshard traffic` and `geoshard
 *   hotspots --from-cluster` name the hot range of each phase for the time it was hot; the
 *   workload exported for each phase, balanced (`geoshard balance --workload`), narrows the range
 *   of that phase's hot city, as the same balance over a file of the pattern's searches does; a
 *   second recorder writes nothing twice.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { Router, formatBoundaryFile, ordinalAt, parseCellsCsv, parseBoundaryFile, type BoundaryFile } from '../../core/index.ts';
import { formatWorkload, type WorkloadSearch } from '../../core/workload.ts';
import { KM_PER_MILE } from '../../core/cover.ts';
import { mulberry32 } from '../../core/prng.ts';
import { restaurantSource } from '../../opensearch/sampleDocuments.ts';
import { geoDistanceFilter } from '../../opensearch/routedSearch.ts';
import { SAMPLE_CONFIG } from '../../opensearch/indexConfig.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, ROOT, type RunningApi } from '../../testing/testkit.ts';
import { main } from '../../cli/main.ts';
import { readShardCounters, type ShardCounters } from './shardStats.ts';
import type { TrafficAnswer } from '../../server/wire.ts';
import type { TrafficWindow } from '../../core/traffic.ts';

const INDEX = 'gs-traffic-live';
const HISTORY = 'gs-traffic-history-live';
const INTERVAL_S = 4;
const PHASE_S = 36;
/** Searches a second, all workers together, and the share of them at the hot spot. */
const RATE = 12;
const HOT_SHARE = 0.75;
const WORKERS = 2;
const WRITES_PER_PHASE = 12;

const SF = { name: 'San Francisco', lat: 37.7749, lng: -122.4194 };
const CHICAGO = { name: 'Chicago', lat: 41.8781, lng: -87.6298 };

const client = liveClient();
const dir = mkdtempSync(join(tmpdir(), 'geoshard-traffic-live-'));
const filePath = join(dir, 'boundaries.json');
const cellsPath = join(ROOT, 'data', 'cells.csv');
let file: BoundaryFile;
let router: Router;
let api: RunningApi;

/** One search or write the pattern sent: when, which shards it asked (OpenSearch shard numbers). */
interface Sent {
  phase: 0 | 1;
  kind: 'search' | 'write';
  sentAt: number;
  doneAt: number;
  shards: number[];
  search?: WorkloadSearch;
}
const sent: Sent[] = [];
const failures: string[] = [];
const phases: { from: number; to: number }[] = [];
let before: ShardCounters;
let after: ShardCounters;
let firstSampleAt = 0;
let lastSampleAt = 0;

async function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** waitForSample waits until the recorder has written a sample taken after `afterMs`, and returns its time. */
async function waitForSample(afterMs: number): Promise<number> {
  for (let t = 0; t < 60; t++) {
    await client.request('POST', `/${HISTORY}/_refresh`, { okStatuses: [404] });
    const r = await client.request<{ hits?: { hits: { _source: { sampledAt: number } }[] } }>('POST', `/${HISTORY}/_search`, { body: { size: 1, sort: [{ sampledAt: 'desc' }], query: { term: { index: INDEX } } }, okStatuses: [404] });
    const at = r.body.hits?.hits[0]?._source.sampledAt ?? 0;
    if (at > afterMs) return at;
    await sleep(500);
  }
  throw new Error(`no sample after ${new Date(afterMs).toISOString()} in ${HISTORY}`);
}

/** The pattern of one phase: WORKERS loops sending routed searches at RATE, HOT_SHARE of them at `hot`, and writes at the hot spot. */
async function runPhase(phase: 0 | 1, hot: { lat: number; lng: number }, background: { lat: number; lng: number }[], os: Client) {
  const rand = mulberry32(39 + phase);
  const from = Date.now();
  const until = from + PHASE_S * 1000;
  const perWorkerMs = (1000 * WORKERS) / RATE;
  let writes = 0;
  const worker = async (w: number) => {
    for (let k = 0; Date.now() < until; k++) {
      const due = from + k * perWorkerMs + (w * perWorkerMs) / WORKERS;
      if (due > Date.now()) await sleep(due - Date.now());
      if (Date.now() >= until) break;
      if (w === 0 && k % Math.floor((PHASE_S * 1000) / perWorkerMs / WRITES_PER_PHASE) === 1 && writes < WRITES_PER_PHASE) {
        // A restaurant at the hot spot, written with the routing the file gives its cell.
        const lat = hot.lat + (rand() - 0.5) * 0.02;
        const lng = hot.lng + (rand() - 0.5) * 0.02;
        const shard = router.route(lat, lng);
        const id = `traffic-live-${phase}-${writes++}`;
        const sentAt = Date.now();
        try {
          await os.index({ index: INDEX, id, routing: shard.name, body: restaurantSource({ id, name: `Traffic ${id}`, lat, lng }, shard.name) });
          sent.push({ phase, kind: 'write', sentAt, doneAt: Date.now(), shards: [shard.shard] });
        } catch (e) {
          failures.push(`write ${id}: ${(e as Error).message}`);
        }
        continue;
      }
      const isHot = rand() < HOT_SHARE;
      const c = isHot ? { lat: hot.lat + (rand() - 0.5) * 0.04, lng: hot.lng + (rand() - 0.5) * 0.04 } : background[Math.floor(rand() * background.length)];
      const mi = isHot ? 2 : 5 + Math.floor(rand() * 21);
      const km = mi * KM_PER_MILE;
      const route = router.cover(c.lat, c.lng, km);
      const sentAt = Date.now();
      try {
        const r = await os.search({ index: INDEX, routing: route.routing, body: { size: 0, query: { bool: { filter: [geoDistanceFilter(SAMPLE_CONFIG, { lat: c.lat, lng: c.lng, radiusKm: km })] } } } });
        const shards = (r.body as { _shards: { total: number; successful: number; failed: number } })._shards;
        if (shards.total !== route.shards.length || shards.failed > 0) failures.push(`search at ${c.lat},${c.lng}: asked ${shards.total} shards, ${shards.failed} failed; expected ${route.shards.length}`);
        sent.push({ phase, kind: 'search', sentAt, doneAt: Date.now(), shards: route.shards.map((s) => s.shard), search: { lat: c.lat, lng: c.lng, radius: { value: mi, unit: 'mi', km }, weight: 1, time: null } });
      } catch (e) {
        failures.push(`search at ${c.lat},${c.lng}: ${(e as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  phases[phase] = { from, to: Date.now() };
}

/** Per shard number: what the pattern asked of it (searches) or wrote on it, in [fromMs, toMs] by completion (all: every one). */
function patternCounts(kind: 'search' | 'write', pick: (s: Sent) => boolean = () => true): Map<number, number> {
  const m = new Map<number, number>();
  for (const s of sent) if (s.kind === kind && pick(s)) for (const k of s.shards) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

/** Per shard number: the delta of two _stats reads (searches summed over copies, writes on the primary). */
function statsDelta(a: ShardCounters, b: ShardCounters, kind: 'search' | 'write'): Map<number, number> {
  const key = (c: { shard: number; node: string }) => `${c.shard}/${c.node}`;
  const prev = new Map(a.copies.map((c) => [key(c), c]));
  const m = new Map<number, number>();
  for (const c of b.copies) {
    const p = prev.get(key(c));
    const d = kind === 'search' ? c.queries - (p?.queries ?? 0) : c.primary ? c.indexed + c.deleted - (p ? p.indexed + p.deleted : 0) : 0;
    if (d !== 0) m.set(c.shard, (m.get(c.shard) ?? 0) + d);
  }
  return m;
}

const byShard = (w: TrafficWindow, metric: 'searches' | 'writes') => {
  const m = new Map<number, number>();
  w.ranges.forEach((r, i) => {
    const x = w.buckets.reduce((a, b) => a + b.ranges[i][metric], 0);
    if (x !== 0) m.set(r.shard, x);
  });
  return m;
};
const sorted = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]);

beforeAll(async () => {
  file = derivedFile(INDEX);
  router = new Router(file);
  writeFileSync(filePath, formatBoundaryFile(file));
  await ensureSeeded(client, file, 300, 2);
  // One replica: a shard's searches are served by either copy, and summed over both.
  await client.request('PUT', `/${INDEX}/_settings`, { body: { index: { number_of_replicas: 1 } } });
  await client.request('GET', `/_cluster/health/${INDEX}`, { query: { wait_for_status: 'green', timeout: '120s' }, timeoutMs: 130_000 });
  await client.request('DELETE', `/${HISTORY}`, { okStatuses: [404] });
  process.env.GEOSHARD_TRAFFIC_INDEX = HISTORY;

  api = await startApi({ file, client, traffic: { intervalSeconds: INTERVAL_S, historyIndex: HISTORY, retentionDays: 1 } });
  const quiet = { log: () => {}, warn: (l: string) => failures.push(l) };
  api.api.traffic.startRecorder(quiet);
  firstSampleAt = await waitForSample(0);
  // Nothing searches the index between the recorder's sample and this read, nor between the
  // last read below and the sample after it: the recorded buckets span exactly these deltas.
  before = await readShardCounters(client, INDEX);

  const cities = (JSON.parse(readFileSync(join(ROOT, 'data', 'cities.json'), 'utf8')) as { name: string; country?: string; lat: number; lng: number }[]).filter((c) => (c.country ?? 'US') === 'US' && c.name !== SF.name && c.name !== CHICAGO.name);
  const os = new Client({ node: client.config.url, ...(client.config.auth ? { auth: client.config.auth } : {}) });
  try {
    await runPhase(0, SF, cities, os);
    await runPhase(1, CHICAGO, cities, os);
  } finally {
    await os.close();
  }
  after = await readShardCounters(client, INDEX);
  lastSampleAt = await waitForSample(Date.now());
  await client.request('POST', `/${HISTORY}/_refresh`);
}, 300_000);

afterAll(async () => {
  await api?.api.traffic.stopRecorder();
  await api?.close();
  delete process.env.GEOSHARD_TRAFFIC_INDEX;
  rmSync(dir, { recursive: true, force: true });
});

async function windowOfApi(qs: string): Promise<TrafficAnswer> {
  const r = await getJson(`${api.url}/api/traffic?${qs}`);
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
  return r.body as TrafficAnswer;
}
const wholeRun = () => `window=${Math.ceil((Date.now() - firstSampleAt) / 1000) + 5}s`;

describe('traffic recorded from the engine counters', () => {
  it('sent the pattern without a failure', () => {
    expect(failures).toEqual([]);
    expect(sent.filter((s) => s.kind === 'search').length).toBeGreaterThan(RATE * PHASE_S);
    expect(sent.filter((s) => s.kind === 'write').length).toBe(2 * WRITES_PER_PHASE);
  });

  it('per range equals the _stats deltas and the pattern, exactly', async () => {
    const a = await windowOfApi(wholeRun());
    const w = a.window;
    expect(a.recorder).toMatchObject({ running: true, intervalSeconds: INTERVAL_S, historyIndex: HISTORY, problem: null });
    expect(w.hash).toBe(file.hash);
    expect(w.gaps).toEqual([]);
    expect(w.buckets.length).toBeGreaterThanOrEqual((2 * PHASE_S) / INTERVAL_S);
    expect(sorted(byShard(w, 'searches'))).toEqual(sorted(statsDelta(before, after, 'search')));
    expect(sorted(byShard(w, 'searches'))).toEqual(sorted(patternCounts('search')));
    expect(sorted(byShard(w, 'writes'))).toEqual(sorted(statsDelta(before, after, 'write')));
    expect(sorted(byShard(w, 'writes'))).toEqual(sorted(patternCounts('write')));
    // Every copy served some of the shards' searches: the replicas are counted too.
    expect(after.copies.filter((c) => !c.primary).length).toBe(router.numberOfShards);
  });

  it('puts each search in the bucket it ran in', async () => {
    const w = (await windowOfApi(wholeRun())).window;
    const slack = 1000;
    for (const b of w.buckets) {
      const s = Date.parse(b.start);
      const e = Date.parse(b.end);
      const surely = patternCounts('search', (x) => x.sentAt >= s + slack && x.doneAt <= e - slack);
      const possibly = patternCounts('search', (x) => x.doneAt >= s - slack && x.sentAt <= e + slack);
      w.ranges.forEach((r, i) => {
        const got = b.ranges[i].searches;
        expect(got, `${r.name} in ${b.start}–${b.end}`).toBeGreaterThanOrEqual(surely.get(r.shard) ?? 0);
        expect(got, `${r.name} in ${b.start}–${b.end}`).toBeLessThanOrEqual(possibly.get(r.shard) ?? 0);
        expect(b.ranges[i].searchesPerSecond).toBeCloseTo(got / b.seconds, 9);
      });
    }
  });

  it('lists the hot range of each phase for the time it was hot (the API and hotspots --from-cluster)', async () => {
    const sfRange = router.shards[router.indexOfOrdinal(ordinalAt(SF.lat, SF.lng))];
    const chRange = router.shards[router.indexOfOrdinal(ordinalAt(CHICAGO.lat, CHICAGO.lng))];
    expect(sfRange.name).not.toBe(chRange.name);
    const check = (hot: { name: string; from: string; to: string }[]) => {
      const sf = hot.filter((h) => h.name === sfRange.name);
      const ch = hot.filter((h) => h.name === chRange.name);
      expect(sf.length, JSON.stringify(hot)).toBeGreaterThanOrEqual(1);
      expect(ch.length, JSON.stringify(hot)).toBeGreaterThanOrEqual(1);
      // Hot within its phase (give or take a bucket at either end), and for most of it.
      const within = (h: { from: string; to: string }, p: { from: number; to: number }) => Date.parse(h.from) >= p.from - INTERVAL_S * 1000 && Date.parse(h.to) <= p.to + INTERVAL_S * 1000;
      for (const h of sf) expect(within(h, phases[0]), `${h.from}–${h.to}`).toBe(true);
      for (const h of ch) expect(within(h, phases[1]), `${h.from}–${h.to}`).toBe(true);
      const longest = (hs: { from: string; to: string }[]) => Math.max(...hs.map((h) => Date.parse(h.to) - Date.parse(h.from)));
      expect(longest(sf)).toBeGreaterThan(PHASE_S * 500);
      expect(longest(ch)).toBeGreaterThan(PHASE_S * 500);
      expect(hot.every((h) => h.name === sfRange.name || h.name === chRange.name)).toBe(true);
    };
    const a = await windowOfApi(`${wholeRun()}&sustain=${3 * INTERVAL_S}s&factor=2`);
    check(a.hotspots);
    const since = `${Math.ceil((Date.now() - firstSampleAt) / 1000) + 5}s`;
    const r = await cli('hotspots', '--from-cluster', '--boundaries', filePath, '--since', since, '--sustain', `${3 * INTERVAL_S}s`, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { hotspots: (TrafficAnswer['hotspots'][number] & { split: { token: string } | null })[] };
    check(j.hotspots);
    expect(j.hotspots.map((h) => [h.name, h.from, h.to])).toEqual(a.hotspots.map((h) => [h.name, h.from, h.to]));
    const text = await cli('hotspots', '--from-cluster', '--boundaries', filePath, '--since', since, '--sustain', `${3 * INTERVAL_S}s`);
    expect(text.out).toContain(`${sfRange.name.padEnd(10)} shard`);
    // geoshard traffic reads the same window.
    const t = await cli('traffic', '--boundaries', filePath, '--since', since, '--json');
    expect(t.code, t.err).toBe(0);
    const tw = (JSON.parse(t.out) as { window: TrafficWindow }).window;
    expect(sorted(byShard(tw, 'searches'))).toEqual(sorted(patternCounts('search')));
  });

  it('exports each phase as a workload that, balanced, narrows that phase’s hot range as the pattern’s own file does', async () => {
    const cells = parseCellsCsv(readFileSync(cellsPath, 'utf8'));
    const span = (path: string, p: { lat: number; lng: number }) => {
      const r = new Router(parseBoundaryFile(readFileSync(path, 'utf8')));
      const i = r.indexOfOrdinal(ordinalAt(p.lat, p.lng));
      return cells.filter((c) => r.indexOfOrdinal(c.ordinal) === i).length;
    };
    const balanced: Record<string, string> = {};
    for (const phase of [0, 1] as const) {
      const p = phases[phase];
      const to = new Date(Math.ceil(p.to / 1000) * 1000 + 2000).toISOString().replace(/\.\d{3}Z$/, 'Z');
      const since = `${Math.ceil((Date.parse(to) - p.from) / 1000)}s`;
      const out = join(dir, `recorded-${phase}.csv`);
      const w = await cli('workload', '--from-cluster', '--boundaries', filePath, '--since', since, '--to', to, '--out', out, '--json');
      expect(w.code, w.err).toBe(0);
      expect(readFileSync(out, 'utf8')).toMatch(/^# geoshard workload --from-cluster/);
      // The pattern's own searches of the phase, as a workload file.
      const own = join(dir, `pattern-${phase}.csv`);
      writeFileSync(own, formatWorkload(sent.filter((s) => s.phase === phase && s.search).map((s) => s.search!)));
      for (const [kind, wl] of [['recorded', out], ['pattern', own]] as const) {
        const b = join(dir, `${kind}-${phase}.json`);
        const r = await cli('balance', '--workload', wl, '--weight', 'requests', '--min', '15', '--max', '15', '--targets', '200', '--index', INDEX, '--created-at', '2026-12-04T00:00:00.000Z', '--out', b);
        expect(r.code, r.err).toBe(0);
        balanced[`${kind}-${phase}`] = b;
      }
    }
    for (const kind of ['recorded', 'pattern']) {
      // The hot city's range covers fewer cells when balanced over its own phase than over the other's.
      expect(span(balanced[`${kind}-0`], SF), `${kind}: San Francisco`).toBeLessThan(span(balanced[`${kind}-1`], SF));
      expect(span(balanced[`${kind}-1`], CHICAGO), `${kind}: Chicago`).toBeLessThan(span(balanced[`${kind}-0`], CHICAGO));
    }
  });

  it('writes each bucket once when a second recorder samples it too', async () => {
    const r = await cli('traffic', '--record', '--once', '--boundaries', filePath, '--interval', `${INTERVAL_S}s`, '--json');
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out) as { recorded: number; exists: number };
    // The server's recorder wrote this bucket at its start, unless the command came first.
    expect(j.recorded + j.exists).toBe(1);
    await client.request('POST', `/${HISTORY}/_refresh`);
    const ids = await client.request<{ hits: { hits: { _id: string }[] } }>('POST', `/${HISTORY}/_search`, { body: { size: 1000, _source: false, query: { term: { index: INDEX } } } });
    const list = ids.body.hits.hits.map((h) => h._id);
    expect(new Set(list).size).toBe(list.length);
    // Engine samples, and per-cell records where the cluster runs the geoshard plugin.
    expect(list.filter((id) => !id.startsWith(`shards|${INDEX}|`) && !id.startsWith(`cells|${INDEX}|`))).toEqual([]);
    expect(list.some((id) => id.startsWith(`shards|${INDEX}|`))).toBe(true);
    expect(lastSampleAt).toBeGreaterThan(firstSampleAt);
  });
});

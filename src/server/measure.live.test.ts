/**
 * POST /api/measure and `geoshard bench` against a real node, on an index of
 * their own (`ms-dishes`: the bundled boundaries under that name, 2,000
 * restaurants seeded as `geoshard seed` does). Expected values come from the
 * routing core (the shards and routing string a circle asks) and from the
 * node itself (its per-index query counter, its process CPU and the machine's
 * load read around the call), never from the code under test.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { Router, KM_PER_MILE, formatBoundaryFile } from '../core/index.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, type RunningApi } from '../testing/testkit.ts';
import { main } from '../cli/main.ts';
import type { MeasureAnswer } from './wire.ts';

const client = liveClient();
const INDEX = 'ms-dishes';
const file = derivedFile(INDEX);
const router = new Router(file);
const SF = { lat: 37.7749, lng: -122.4194 };
const sfCover = router.cover(SF.lat, SF.lng, 15 * KM_PER_MILE);
const dir = mkdtempSync(join(os.tmpdir(), 'geoshard-measure-live-'));
const boundaries = join(dir, 'ms-dishes.json');
let server: RunningApi;

/** Shard-level queries the node has run on the index so far (`_stats/search`, primaries: the index has no replicas). */
async function queryTotal(): Promise<number> {
  const s = await client.get<{ _all: { primaries: { search: { query_total: number } } } }>(`/${INDEX}/_stats/search`);
  return s._all.primaries.search.query_total;
}
/** The node's process CPU so far (ms), read here without the code under test. */
async function nodeCpu(): Promise<number> {
  const s = await client.get<{ nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }>('/_nodes/stats/process');
  return Object.values(s.nodes).reduce((a, n) => a + n.process.cpu.total_in_millis, 0);
}

async function post(body: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}/api/measure`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

beforeAll(async () => {
  await ensureSeeded(client, file, 2000, 10);
  writeFileSync(boundaries, formatBoundaryFile(file));
  server = await startApi({ file, client });
}, 300_000);
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
  await client.close();
});

describe('POST /api/measure on a real node', () => {
  it('runs each plan runs times one at a time and at least runs times in flight on the shards the core names, discards the warm-up and reports CPU the node spent', async () => {
    const runs = 10;
    const q0 = await queryTotal();
    const cpu0 = await nodeCpu();
    const r = await post({ ...SF, radius: '15mi', runs, concurrency: 3 });
    const cpu1 = await nodeCpu();
    const q1 = await queryTotal();
    expect(r.status).toBe(200);
    const a = r.body as MeasureAnswer;
    expect(a.status).toBe('complete');
    expect(a.identical).toBe(true);
    expect(a.index).toBe(INDEX);
    // The plans are the core's: the circle's shards and routing string, and every shard.
    expect(a.routing).toBe(sfCover.routing);
    expect(a.routed.shardsAsked).toBe(sfCover.shards.length);
    expect(a.all.shardsAsked).toBe(file.numberOfShards);
    expect(sfCover.shards.length).toBeLessThan(file.numberOfShards);
    // The node's own counter: each plan ran `runs` searches one at a time and at least `runs` with
    // several in flight (a block lasts at least 1 s), one query per asked shard each (the index is
    // only searched here).
    expect(a.routed.underLoad.n).toBeGreaterThanOrEqual(runs);
    expect(a.all.underLoad.n).toBeGreaterThanOrEqual(runs);
    expect(q1 - q0).toBe((runs + a.routed.underLoad.n) * sfCover.shards.length + (runs + a.all.underLoad.n) * file.numberOfShards);
    // A tenth of the runs (1 of 10) is warm-up, discarded and said.
    expect(a.warmup.runs).toBe(1);
    expect(a.warmup.note).toContain('first 1 of the 10');
    expect(a.routed.latency.n).toBe(runs - 1);
    expect(a.all.latency.n).toBe(runs - 1);
    for (const s of [a.routed, a.all]) {
      expect(s.latency.p50Ms).toBeGreaterThan(0);
      expect(s.latency.p99Ms).toBeGreaterThanOrEqual(s.latency.p50Ms);
      expect(s.searchesPerS).toBeGreaterThan(0);
      expect(s.cpuMsPerSearch).not.toBeNull();
      expect(s.cpuMsPerSearch!).toBeGreaterThanOrEqual(0);
    }
    // The CPU it reports is part of what the node spent during the call, and the all-shards plan's is not 0.
    const reported = a.routed.underLoad.n * a.routed.cpuMsPerSearch! + a.all.underLoad.n * a.all.cpuMsPerSearch!;
    expect(a.all.cpuMsPerSearch!).toBeGreaterThan(0);
    expect(reported).toBeLessThanOrEqual(cpu1 - cpu0);
    // The load is the machine's: the node runs here, so the test's own reading agrees (it moves slowly).
    expect(a.load.after).not.toBeNull();
    const mine = os.loadavg()[0];
    expect(Math.abs(a.load.after!['1m'] - mine)).toBeLessThanOrEqual(1 + 0.25 * mine);
    expect(a.load.processors).toBeGreaterThan(0);
  }, 180_000);

  it('runs one measurement at a time: a second one meanwhile is a 429', async () => {
    const [x, y] = await Promise.all([post({ ...SF, radius: '15mi', runs: 4, concurrency: 1 }), post({ ...SF, radius: '15mi', runs: 4, concurrency: 1 })]);
    expect([x.status, y.status].sort()).toEqual([200, 429]);
    const busy = x.status === 429 ? x.body : y.body;
    expect(busy).toMatchObject({ status: 'busy' });
    expect(busy.error.message).toContain('already running');
  }, 120_000);

  it('refuses to measure an index written with another boundary file (409 drift), before any search', async () => {
    const other = await startApi({ file: derivedFile(INDEX, 2), client });
    try {
      const q0 = await queryTotal();
      const res = await fetch(`${other.url}/api/measure`, { method: 'POST', body: JSON.stringify({ ...SF, radius: '15mi' }) });
      expect(res.status).toBe(409);
      expect(await res.json()).toMatchObject({ status: 'drift', drift: { status: 'mismatch', indexHash: file.hash } });
      expect(await queryTotal()).toBe(q0);
    } finally {
      await other.close();
    }
  });
});

describe('geoshard bench on a real node', () => {
  it('prints the figures beside their baseline, the gains, the warm-up note and the load, and exits 0', async () => {
    const r = await cli('bench', '--lat', String(SF.lat), '--lng', String(SF.lng), '--radius', '15mi', '--runs', '6', '--concurrency', '2', '--boundaries', boundaries);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`routed asks ${sfCover.shards.length} of ${file.numberOfShards} shards (routing ${sfCover.routing})`);
    expect(r.out).toContain('The first 1 of the 6 one-at-a-time runs of each plan were warm-up');
    expect(r.out).toMatch(/wall p50 \(one at a time\) +[\d.,]+ ms +[\d.,]+ ms +[\d.]+×/);
    expect(r.out).toMatch(/OpenSearch CPU per search +[\d.,]+ ms +[\d.,]+ ms/);
    expect(r.out).toMatch(/searches\/s \(2 in flight\) +[\d.]+ +[\d.]+ +[\d.]+×/);
    expect(r.out).toMatch(/load average \(1 \/ 5 \/ 15 min, node stats\): [\d.]+ \/ [\d.]+ \/ [\d.]+ before/);
    expect(r.out).toContain('identical on every pair ✓');
  }, 120_000);

  it('--json prints the API\'s answer, the core\'s plans in it', async () => {
    const r = await cli('bench', '--lat', String(SF.lat), '--lng', String(SF.lng), '--radius', '50mi', '--runs', '4', '--concurrency', '1', '--boundaries', boundaries, '--json');
    expect(r.code).toBe(0);
    const a = JSON.parse(r.out) as MeasureAnswer;
    const cover50 = router.cover(SF.lat, SF.lng, 50 * KM_PER_MILE);
    expect([a.routing, a.routed.shardsAsked, a.all.shardsAsked, a.runs, a.concurrency]).toEqual([cover50.routing, cover50.shards.length, file.numberOfShards, 4, 1]);
  }, 120_000);

  it('names the option, the value and the range of bad input, and exits non-zero', async () => {
    const runs = await cli('bench', '--lat', '37.77', '--lng', '-122.42', '--radius', '15mi', '--runs', '3', '--boundaries', boundaries);
    expect(runs.code).toBe(2);
    expect(runs.err).toContain('geoshard bench: --runs "3" is invalid: expected an integer in [4, 200]');
    const lat = await cli('bench', '--lat', '91', '--lng', '-122.42', '--radius', '15mi', '--boundaries', boundaries);
    expect(lat.code).toBe(1);
    expect(lat.err).toContain('geoshard bench: --lat "91" is invalid: expected a decimal number of degrees in [-90, 90]');
    const radius = await cli('bench', '--lat', '37.77', '--lng', '-122.42', '--radius', '2000km', '--boundaries', boundaries);
    expect(radius.code).toBe(1);
    expect(radius.err).toMatch(/geoshard bench: --radius .*1000 km/);
    const missing = await cli('bench', '--lat', '37.77', '--lng', '-122.42');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('--radius is required');
    expect(runs.out + lat.out + radius.out + missing.out).toBe('');
  });
});

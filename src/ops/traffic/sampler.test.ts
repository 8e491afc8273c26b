import { describe, it, expect } from 'vitest';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { TrafficSampler, PRUNE_EVERY_MS, type SampleOutcome } from './sampler.ts';
import { historyMapping, recordId, HISTORY_FORMAT } from './history.ts';
import { trafficSettings } from './settings.ts';
import type { TrafficRange } from '../../core/traffic.ts';

const RANGES: TrafficRange[] = [{ index: 0, shard: 0, name: 'alpha', start: '0c', end: null }];

/** A cluster in memory: the history index's documents, one index's counters, the requests made. */
class FakeCluster {
  docs = new Map<string, unknown>();
  historyExists = false;
  queries = 0;
  calls: string[] = [];
  refuse: string | null = null;
  readonly transport = {
    // GET <history>/_mapping: geoshard's mapping while the history exists, else 404.
    request: async () => (this.historyExists ? { statusCode: 200, body: { 'gs-history': { mappings: { _meta: { format: HISTORY_FORMAT } } } } } : { statusCode: 404, body: {} }),
  };
  async admin(method: string, path: string) {
    this.calls.push(`${method} ${path}`);
    if (this.historyExists) return { status: 400, body: { error: { type: 'resource_already_exists_exception' } } };
    this.historyExists = true;
    return { status: 200, body: {} };
  }
  async get(path: string) {
    this.calls.push(`GET ${path}`);
    if (this.refuse) throw new OpenSearchError(this.refuse, 'http', 'GET', path, 403);
    return { _shards: { failed: 0 }, indices: { places: { uuid: 'u1', shards: { '0': [{ routing: { node: 'n1', primary: true }, search: { query_total: this.queries } }] } } } };
  }
  async request(method: string, path: string, opts: { body?: unknown } = {}) {
    this.calls.push(`${method} ${decodeURIComponent(path)}`);
    const create = /^\/gs-history\/_create\/(.+)$/.exec(path);
    if (create) {
      const id = decodeURIComponent(create[1]);
      if (this.docs.has(id)) return { status: 409, body: {} };
      this.docs.set(id, opts.body);
      return { status: 201, body: {} };
    }
    if (path.endsWith('/_delete_by_query')) return { status: 200, body: { deleted: 3 } };
    throw new Error(`unexpected ${method} ${path}`);
  }
}

const T0 = Date.UTC(2026, 11, 4, 18, 0, 0);

function sampler(cluster: FakeCluster, clock: { t: number }, target = async () => ({ index: 'places', hash: 'h1', ranges: RANGES }) as const) {
  const seen: SampleOutcome[] = [];
  const s = new TrafficSampler({ client: cluster as unknown as OpenSearchClient, historyIndex: 'gs-history', intervalSeconds: 60, retentionDays: 7, target, onSample: (o) => seen.push(o), now: () => clock.t });
  return { s, seen };
}

describe('the traffic recorder', () => {
  it('makes the history again, with its mapping, when it was deleted while recording', async () => {
    const cluster = new FakeCluster();
    const clock = { t: T0 + 5_000 };
    const { s } = sampler(cluster, clock);
    expect((await s.sampleOnce()).status).toBe('recorded');
    cluster.historyExists = false; // DELETE gs-history, by a person or a test
    clock.t += 60_000;
    expect((await s.sampleOnce()).status).toBe('recorded');
    expect(cluster.calls.filter((c) => c === 'PUT /gs-history')).toHaveLength(2);
    // Still there: not made again.
    clock.t += 60_000;
    await s.sampleOnce();
    expect(cluster.calls.filter((c) => c === 'PUT /gs-history')).toHaveLength(2);
  });

  it('writes the first sample of each bucket under its bucket id, creating the strict history index once', async () => {
    const cluster = new FakeCluster();
    const clock = { t: T0 + 5_000 };
    const { s } = sampler(cluster, clock);
    cluster.queries = 7;
    const first = await s.sampleOnce();
    expect(first.status).toBe('recorded');
    expect(cluster.calls.filter((c) => c === 'PUT /gs-history')).toHaveLength(1);
    const doc = cluster.docs.get(recordId('shards', 'places', T0)) as Record<string, unknown>;
    expect(doc).toMatchObject({ source: 'shards', index: 'places', concrete: 'places', uuid: 'u1', start: T0, intervalSeconds: 60, hash: 'h1', ranges: RANGES, failedShards: 0 });
    expect(doc.copies).toEqual([{ shard: 0, node: 'n1', primary: true, queries: 7, queryMs: 0, indexed: 0, deleted: 0 }]);
    // Later in the same bucket: nothing is read or written again.
    clock.t += 30_000;
    const calls = cluster.calls.length;
    expect(await s.sampleOnce()).toEqual({ status: 'exists', start: T0 });
    expect(cluster.calls.length).toBe(calls);
    clock.t += 30_000;
    expect((await s.sampleOnce()).status).toBe('recorded');
    expect([...cluster.docs.keys()]).toEqual([recordId('shards', 'places', T0), recordId('shards', 'places', T0 + 60_000)]);
    expect(s.status()).toMatchObject({ recorded: 2, last: 'recorded', problem: null, intervalSeconds: 60, historyIndex: 'gs-history' });
  });

  it('leaves a bucket another recorder wrote first as it is', async () => {
    const cluster = new FakeCluster();
    const clock = { t: T0 + 1_000 };
    const a = sampler(cluster, clock);
    const b = sampler(cluster, clock);
    cluster.queries = 1;
    expect((await a.s.sampleOnce()).status).toBe('recorded');
    cluster.queries = 2;
    expect(await b.s.sampleOnce()).toEqual({ status: 'exists', start: T0 });
    expect((cluster.docs.get(recordId('shards', 'places', T0)) as { copies: { queries: number }[] }).copies[0].queries).toBe(1);
  });

  it('prunes what is older than the retention with the first sample, then once an hour', async () => {
    const cluster = new FakeCluster();
    const clock = { t: T0 };
    const { s, seen } = sampler(cluster, clock);
    await s.sampleOnce();
    expect(seen[0]).toMatchObject({ status: 'recorded', pruned: 3 });
    for (let k = 1; k * 60_000 < PRUNE_EVERY_MS; k++) {
      clock.t = T0 + k * 60_000;
      await s.sampleOnce();
    }
    expect(cluster.calls.filter((c) => c.endsWith('_delete_by_query'))).toHaveLength(1);
    clock.t = T0 + PRUNE_EVERY_MS;
    await s.sampleOnce();
    expect(cluster.calls.filter((c) => c.endsWith('_delete_by_query'))).toHaveLength(2);
  });

  it('skips a sample the target refuses, and names the role when the cluster refuses the privilege', async () => {
    const cluster = new FakeCluster();
    const clock = { t: T0 };
    const skipping = sampler(cluster, clock, async () => ({ skip: 'boundary drift: index "places" was written with another file' }) as never);
    expect(await skipping.s.sampleOnce()).toEqual({ status: 'skipped', reason: 'boundary drift: index "places" was written with another file' });
    expect(cluster.docs.size).toBe(0);
    cluster.refuse = 'OpenSearch refused GET /places/_stats: user "viewer" lacks the privilege [indices:monitor/stats]';
    const { s } = sampler(cluster, clock);
    const o = await s.sampleOnce();
    expect(o.status).toBe('failed');
    expect((o as { message: string }).message).toMatch(/lacks the privilege \[indices:monitor\/stats\].*the traffic recorder: geoshard traffic needs the role "geoshard_traffic"/);
    expect(s.status()).toMatchObject({ last: 'failed', recorded: 0 });
    // Granted meanwhile: the next sample is written.
    cluster.refuse = null;
    clock.t += 60_000;
    expect((await s.sampleOnce()).status).toBe('recorded');
  });

  it('samples just after each boundary once started, and stops', async () => {
    const cluster = new FakeCluster();
    const seen: SampleOutcome[] = [];
    // A real clock with a 1 s interval: two or three boundaries in 2.5 s.
    const real = new TrafficSampler({ client: cluster as unknown as OpenSearchClient, historyIndex: 'gs-history', intervalSeconds: 1, retentionDays: 7, target: async () => ({ index: 'places', hash: 'h1', ranges: RANGES }), onSample: (o) => seen.push(o) });
    real.start();
    await new Promise((r) => setTimeout(r, 2500));
    await real.stop();
    const n = seen.length;
    expect(n).toBeGreaterThanOrEqual(2);
    expect(seen.every((o) => o.status === 'recorded')).toBe(true);
    const starts = [...cluster.docs.values()].map((d) => (d as { start: number }).start);
    expect(starts.every((x) => x % 1000 === 0)).toBe(true);
    expect(new Set(starts).size).toBe(starts.length);
    await new Promise((r) => setTimeout(r, 1200));
    expect(seen.length).toBe(n);
    expect(real.status().running).toBe(false);
  });
});

describe('the history index and the settings', () => {
  it('has a strict mapping that says what it is, storing counters without indexing them', () => {
    const m = historyMapping() as { dynamic: string; _meta: { format: string }; properties: Record<string, { type: string; enabled?: boolean }> };
    expect(m.dynamic).toBe('strict');
    expect(m._meta.format).toBe('geoshard-traffic/1');
    for (const f of ['copies', 'ranges', 'cells']) expect(m.properties[f]).toEqual({ type: 'object', enabled: false });
    expect(recordId('shards', 'places-live', T0)).toBe('shards|places-live|2026-12-04T18:00:00.000Z');
  });

  it('reads the recorder settings from the environment, naming a bad variable', () => {
    expect(trafficSettings({})).toEqual({ intervalSeconds: 60, historyIndex: 'geoshard-traffic', retentionDays: 7 });
    expect(trafficSettings({ GEOSHARD_TRAFFIC_INTERVAL_S: '0', GEOSHARD_TRAFFIC_INDEX: 'team-traffic', GEOSHARD_TRAFFIC_RETENTION_DAYS: '30' })).toEqual({ intervalSeconds: 0, historyIndex: 'team-traffic', retentionDays: 30 });
    expect(() => trafficSettings({ GEOSHARD_TRAFFIC_INTERVAL_S: '1m' })).toThrow('GEOSHARD_TRAFFIC_INTERVAL_S "1m" is invalid: expected an integer number of seconds in [1, 3600], or 0 for no sampling');
    expect(() => trafficSettings({ GEOSHARD_TRAFFIC_INTERVAL_S: '3601' })).toThrow(/INTERVAL_S "3601"/);
    expect(() => trafficSettings({ GEOSHARD_TRAFFIC_RETENTION_DAYS: '0' })).toThrow(/RETENTION_DAYS "0" is invalid/);
    expect(() => trafficSettings({ GEOSHARD_TRAFFIC_INDEX: 'Traffic*' })).toThrow(/GEOSHARD_TRAFFIC_INDEX "Traffic\*" is invalid/);
  });
});

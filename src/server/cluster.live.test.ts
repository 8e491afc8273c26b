/**
 * The live API on a real multi-node cluster (3 nodes or more, started by
 * scripts/cluster.mjs): shards spread over every node, routed and all-shards
 * searches agree, and a node stopped as a real process (the cluster script's
 * SIGTERM, SIGKILL after 30 s) during a loop of searches turns exactly the
 * searches whose shards lived only on it `partial` (or `unavailable`), never a
 * `complete` with fewer documents; with one replica the answers stay complete
 * and equal to the baseline; with the node back, everything is complete again.
 *
 * Skipped, with the reason printed, when the cluster under test has fewer than
 * 3 nodes or was not started by scripts/cluster.mjs (its nodes are stopped
 * and started with that script, with this process's GEOSHARD_CACHE and
 * OPENSEARCH_VERSION, and OPENSEARCH_PORT taken from the cluster's URL).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Router, KM_PER_MILE } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import { sampleOf } from '../data/sample.ts';
import { derivedFile, liveClient, startApi, getJson, ROOT, type RunningApi } from '../testing/testkit.ts';
import { seedIndex } from '../ops/seed/seeder.ts';
import { OpenSearchClient } from '../cluster/client.ts';
import { configFromEnv } from '../cluster/clientConfig.ts';

const INDEX = 'geoshard-live-cluster';
const RESTAURANTS = 2000;
const DISHES_PER_RESTAURANT = 5;
const MIN_NODES = 3;

const client = liveClient();
// Creating 15 shards across nodes and bulk loading take longer than a search: give them a minute.
const slowClient = new OpenSearchClient(configFromEnv({ ...process.env, OPENSEARCH_TIMEOUT_MS: '60000' }));
const file = derivedFile(INDEX);
const router = new Router(file);

interface CatNode {
  name: string;
  http_address?: string;
}
interface CatShard {
  shard: string;
  prirep: 'p' | 'r';
  state: string;
  node: string | null;
}

/** Why the suite cannot run here, or null: asked once, before the tests are collected. */
async function whySkip(): Promise<{ reason: string | null; nodes: CatNode[]; contact: string }> {
  try {
    const nodes = await client.get<CatNode[]>('/_cat/nodes', { query: { format: 'json', h: 'name,http_address' } });
    const root = await client.get<{ name: string }>('/');
    if (nodes.length < MIN_NODES) return { reason: `the cluster at ${client.url} has ${nodes.length} node(s); this suite needs ${MIN_NODES} (npm run cluster:start -- --nodes 3)`, nodes, contact: root.name };
    if (!nodes.every((n) => /^geoshard-node-\d+$/.test(n.name))) {
      return { reason: `the cluster at ${client.url} was not started by scripts/cluster.mjs (node names ${nodes.map((n) => n.name).join(', ')}): this suite cannot stop its nodes`, nodes, contact: root.name };
    }
    return { reason: null, nodes, contact: root.name };
  } catch (e) {
    return { reason: `no cluster answers at ${client.url}: ${(e as Error).message}`, nodes: [], contact: '' };
  }
}
const probe = await whySkip();
if (probe.reason) console.warn(`[cluster.live.test] skipped: ${probe.reason}`);

/** Runs scripts/cluster.mjs with the cluster's port; rejects with its output when it fails. */
function clusterScript(...args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, OPENSEARCH_PORT: String(new URL(client.url).port || 9200) };
  delete env.OPENSEARCH_URL;
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [resolve(ROOT, 'scripts', 'cluster.mjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => (code === 0 ? res(out) : rej(new Error(`cluster.mjs ${args.join(' ')} exited with ${code}:\n${out}`))));
  });
}

async function catShards(): Promise<CatShard[]> {
  return client.get<CatShard[]>(`/_cat/shards/${INDEX}`, { query: { format: 'json', h: 'shard,prirep,state,node' } });
}

/** Waits for the index's health (and the node count) to reach `status`. */
async function waitHealth(status: 'green' | 'yellow', nodes?: number): Promise<void> {
  const query: Record<string, string> = { wait_for_status: status, timeout: '120s', wait_for_no_initializing_shards: 'true' };
  if (nodes) query.wait_for_nodes = String(nodes);
  // OpenSearch answers 408 when the wait times out; the body still says so.
  const { body: h } = await client.request<{ timed_out: boolean; status: string }>('GET', `/_cluster/health/${INDEX}`, { query, timeoutMs: 130_000, okStatuses: [408] });
  expect(h.timed_out, `cluster health of ${INDEX} did not reach ${status}${nodes ? ` with ${nodes} nodes` : ''} (is ${h.status})`).toBe(false);
}

/** A circle to search. */
interface Circle {
  label: string;
  lat: number;
  lng: number;
  radiusMi: number;
  /** The shard numbers the routed search asks (the core's covering). */
  shards: number[];
}

/** 40 seeded circles near sample restaurants, radii log-uniform in [1, 200] mi. */
function circles(): Circle[] {
  const sample = sampleOf(RESTAURANTS);
  const rand = mulberry32(13_2026);
  const out: Circle[] = [];
  for (let i = 0; i < 40; i++) {
    const r = sample[Math.floor(rand() * sample.length)];
    const lat = Math.round((r.lat + (rand() - 0.5) * 0.4) * 1e5) / 1e5;
    const lng = Math.round((r.lng + (rand() - 0.5) * 0.4) * 1e5) / 1e5;
    const radiusMi = Math.round(Math.exp(rand() * Math.log(200)) * 100) / 100;
    out.push({ label: `#${i} (${lat}, ${lng}) ${radiusMi} mi`, lat, lng, radiusMi, shards: router.cover(lat, lng, radiusMi * KM_PER_MILE).shards.map((s) => s.shard) });
  }
  return out;
}

/** One routed search's answer as the loop records it. */
interface Answer {
  circle: Circle;
  http: number;
  status: string;
  total: number | undefined;
  /** The API's error message, if any. */
  message?: string;
  /** placement.lostNodes of a 200 answer. */
  lostNodes?: string[];
  /** placement.promoted of a 200 answer. */
  promoted?: { shard: number; from: string; to: string }[];
}

describe.skipIf(!!probe.reason)(`the live API on a ${probe.nodes.length}-node cluster`, () => {
  const all = circles();
  const baseline = new Map<Circle, number>();
  let server: RunningApi;
  /** The node this suite stops: not the one the API talks to. */
  let victim = '';
  let victimNumber = 0;
  let victimDown = false;

  const search = async (c: Circle, compare = false): Promise<{ http: number; body: any }> => {
    const { status, body } = await getJson(`${server.url}/api/search?lat=${c.lat}&lng=${c.lng}&radius=${c.radiusMi}mi&size=10${compare ? '&compare=1' : ''}`);
    return { http: status, body };
  };

  /** Runs every circle once; returns the answers. */
  const pass = async (): Promise<Answer[]> => {
    const out: Answer[] = [];
    for (const c of all) {
      const { http, body } = await search(c);
      out.push({ circle: c, http, status: body.status, total: body.total, message: body.error?.message, lostNodes: body.placement?.lostNodes, promoted: body.placement?.promoted });
    }
    return out;
  };

  /** A complete answer must carry the baseline total: fewer documents means a shard went missing unnoticed. */
  const expectNoShortComplete = (answers: Answer[]) => {
    for (const a of answers) {
      expect(['complete', 'partial', 'unavailable'], `${a.circle.label}: HTTP ${a.http} ${a.message ?? ''}`).toContain(a.status);
      if (a.status === 'complete') expect(a.total, `${a.circle.label}: complete must mean every document`).toBe(baseline.get(a.circle));
    }
  };

  /** Stops the victim node while searches loop; returns the answers given during and after the stop. */
  const stopDuringLoop = async (): Promise<Answer[]> => {
    const answers: Answer[] = [];
    let stopped = false;
    const stopping = clusterScript('stop', '--node', String(victimNumber)).then((out) => {
      victimDown = true;
      stopped = true;
      return out;
    });
    // Search until the node is gone, then one more full pass (each pass starts at the first circle).
    while (!stopped) answers.push(...(await pass()));
    await stopping;
    answers.push(...(await pass()));
    return answers;
  };

  const restartVictim = async () => {
    await clusterScript('start', '--node', String(victimNumber));
    victimDown = false;
    await waitHealth('green', probe.nodes.length);
  };

  beforeAll(async () => {
    await seedIndex({ client: slowClient, router, restaurants: RESTAURANTS, dishesPerRestaurant: DISHES_PER_RESTAURANT, replicas: 0, recreate: true });
    await waitHealth('green');
    server = await startApi({ file, client });
    // The victim: a node other than the one the API talks to, holding the most shards.
    const shards = await catShards();
    const candidates = probe.nodes.map((n) => n.name).filter((n) => n !== probe.contact);
    victim = candidates.sort((a, b) => shards.filter((s) => s.node === b).length - shards.filter((s) => s.node === a).length)[0];
    victimNumber = Number(/(\d+)$/.exec(victim)![1]);
  });

  afterAll(async () => {
    await server?.close();
    // Leave the cluster as found: every node up, the test index gone.
    if (victimDown) await clusterScript('start', '--node', String(victimNumber)).catch((e) => console.warn(String(e)));
    await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] }).catch(() => {});
  });

  it('spreads the shards over every node of the cluster', async () => {
    const shards = await catShards();
    expect(shards).toHaveLength(file.numberOfShards);
    expect(shards.every((s) => s.state === 'STARTED' && s.prirep === 'p')).toBe(true);
    const perNode = new Map<string, number>();
    for (const s of shards) perNode.set(s.node!, (perNode.get(s.node!) ?? 0) + 1);
    expect([...perNode.keys()].sort()).toEqual(probe.nodes.map((n) => n.name).sort());
    // The balancer gives each of the nodes its share, give or take one.
    const even = file.numberOfShards / probe.nodes.length;
    for (const [node, n] of perNode) {
      expect(n, node).toBeGreaterThanOrEqual(Math.floor(even) - 1);
      expect(n, node).toBeLessThanOrEqual(Math.ceil(even) + 1);
    }
  });

  it('reports every node and every shard copy in /api/status, from the cluster itself', async () => {
    const { status, body } = await getJson(`${server.url}/api/status`);
    expect(status).toBe(200);
    expect(body.nodes.map((n: { name: string }) => n.name)).toEqual(probe.nodes.map((n) => n.name).sort());
    expect(body.nodes.every((n: { up: boolean; id: string; roles: string[] }) => n.up && n.id.length > 0 && n.roles.includes('data'))).toBe(true);
    const cat = await catShards();
    const copies: { shard: number; name: string; primary: boolean; state: string; node: { name: string } | null }[] = body.index.copies;
    expect(copies).toHaveLength(cat.length);
    for (const row of cat) {
      const c = copies.find((x) => x.shard === Number(row.shard) && x.primary === (row.prirep === 'p'));
      expect(c, `shard ${row.shard} ${row.prirep}`).toBeDefined();
      expect(c!.state).toBe(row.state);
      expect(c!.node?.name ?? null).toBe(row.node);
      expect(c!.name).toBe(file.shards.find((s) => s.shard === Number(row.shard))!.name);
    }
  });

  it(`gives identical routed and all-shards answers for ${all.length} seeded circles`, async () => {
    let nonEmpty = 0;
    for (const c of all) {
      const { http, body } = await search(c, true);
      expect(http, c.label).toBe(200);
      expect(body.status, c.label).toBe('complete');
      expect(body.identical, `${c.label}: ${body.differences}`).toBe(true);
      expect(body.total, c.label).toBe(body.unrouted.total);
      expect(body.shardsAsked.map((s: { shard: number }) => s.shard).sort((a: number, b: number) => a - b), c.label).toEqual([...c.shards].sort((a, b) => a - b));
      baseline.set(c, body.total);
      if (body.total > 0) nonEmpty++;
    }
    // The comparison means something only if most circles found dishes.
    expect(nonEmpty).toBeGreaterThanOrEqual(all.length / 2);
  });

  it('answers "partial" or "unavailable" for exactly the searches whose shards lived only on a stopped node (0 replicas), and "complete" again once it is back', { timeout: 600_000 }, async () => {
    expect(baseline.size, 'the routed ≡ unrouted test records the baseline').toBe(all.length);
    const before = await catShards();
    const lost = new Set(before.filter((s) => s.node === victim).map((s) => Number(s.shard)));
    expect(lost.size, `${victim} holds shards`).toBeGreaterThan(0);
    const touching = all.filter((c) => c.shards.some((s) => lost.has(s)));
    const avoiding = all.filter((c) => !c.shards.some((s) => lost.has(s)));
    expect(touching.length, 'some circles ask a shard of the stopped node').toBeGreaterThan(0);
    expect(avoiding.length, 'some circles ask none').toBeGreaterThan(0);

    const answers = await stopDuringLoop();
    expectNoShortComplete(answers);
    // After the stop, the last pass: the searches that asked a lost shard are partial or unavailable, the others complete and whole.
    const last = answers.slice(-all.length);
    for (const a of last) {
      if (touching.includes(a.circle)) {
        expect(['partial', 'unavailable'], `${a.circle.label} asks a shard of ${victim}`).toContain(a.status);
        // The answer names the node that held the missing shards (from the shard table the API saw before).
        if (a.status === 'partial') expect(a.lostNodes, a.circle.label).toEqual([victim]);
        else expect(a.message, a.circle.label).toContain(victim);
      } else {
        expect(a.status, `${a.circle.label} asks no shard of ${victim}`).toBe('complete');
        expect(a.total, a.circle.label).toBe(baseline.get(a.circle));
      }
    }

    await restartVictim();
    for (const a of await pass()) {
      expect(a.status, `${a.circle.label} with ${victim} back`).toBe('complete');
      expect(a.total, a.circle.label).toBe(baseline.get(a.circle));
    }
  });

  it('keeps every answer "complete" and whole when a node is stopped with 1 replica, and after it is back', { timeout: 600_000 }, async () => {
    if (victimDown) await restartVictim(); // the test before failed half-way
    await slowClient.request('PUT', `/${INDEX}/_settings`, { body: { index: { number_of_replicas: 1 } } });
    await waitHealth('green', probe.nodes.length);
    const shards = await catShards();
    expect(shards.filter((s) => s.state === 'STARTED')).toHaveLength(2 * file.numberOfShards);
    // Every shard has a copy off the victim node, so no search depends on it alone.
    for (let n = 0; n < file.numberOfShards; n++) expect(shards.some((s) => Number(s.shard) === n && s.node !== victim), `shard ${n}`).toBe(true);
    const victimPrimaries = new Set(shards.filter((s) => s.node === victim && s.prirep === 'p').map((s) => Number(s.shard)));
    // The API takes this healthy table as where every primary belongs.
    expect((await getJson(`${server.url}/api/status`)).body.index.copies).toHaveLength(2 * file.numberOfShards);

    const answers = await stopDuringLoop();
    expectNoShortComplete(answers);
    for (const a of answers.slice(-all.length)) {
      expect(a.status, `${a.circle.label} after ${victim} stopped`).toBe('complete');
      expect(a.total, a.circle.label).toBe(baseline.get(a.circle));
    }
    // The answers served by a replica promoted from the stopped node's primaries say so (until the
    // cluster has made new replicas and the table is healthy again, which takes a minute or more).
    const promoted = answers.filter((a) => a.status === 'complete').flatMap((a) => a.promoted ?? []);
    expect(victimPrimaries.size, `${victim} held primaries`).toBeGreaterThan(0);
    expect(promoted.length, 'some answer says a promoted replica served it').toBeGreaterThan(0);
    for (const p of promoted) {
      expect(p.from).toBe(victim);
      expect(victimPrimaries.has(p.shard), `shard ${p.shard}`).toBe(true);
    }

    await restartVictim();
    for (const a of await pass()) {
      expect(a.status, `${a.circle.label} with ${victim} back`).toBe('complete');
      expect(a.total, a.circle.label).toBe(baseline.get(a.circle));
    }
  });
});

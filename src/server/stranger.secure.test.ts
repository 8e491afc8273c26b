/**
 * The whole adoption path as a stranger walks it, from the installed package, against the
 * secured node (TLS from its own CA, the security plugin, the roles of roles.json):
 *   1. pack geoshard and its explorer companion and install both tarballs (with the official
 *      client) into an empty folder;
 *   2. start from the team's hash-sharded flat index with its own field name (`pin`), written by
 *      a plain client, searched through the team's alias;
 *   3. write a config, then `npx geoshard cells`, `balance`, and `reindex` behind the alias;
 *   4. `npx geoshard migrate` one boundary while a plain writer (the official client, sending no
 *      routing) writes through the alias;
 *   5. `npx geoshard explore` from node_modules, opened in Chromium until the globe draws, its
 *      API searching the index; and a routed search built by the exported helper
 *      (`routedSearch` of `geoshard/opensearch`) in the stranger's own script;
 *   6. `npx geoshard audit`: clean.
 * Every command runs as a user holding exactly its documented role (src/cluster/roles.json), over
 * TLS with the node's CA (OPENSEARCH_CA); no output holds a password.
 *
 * Expected values come from the routing core of this checkout (not the installed package): the
 * shard of each document's point, and the ids an all-shards search (as admin) finds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, formatBoundaryFile, ordinalAt, parseBoundaryFile } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import { movedCandidateOf } from '../testing/migrationFixture.ts';
import { secrets, secureClient, secureNode, userEnv } from '../testing/secureTestkit.ts';
import { ROOT } from '../testing/testkit.ts';
import { consumer, drawGlobe, freePort, installIn, pack, packExplorer } from '../../scripts/packKit.ts';
import { LOCK_INDEX } from '../ops/migrate/migrationLock.ts';

const st = secureNode();
const admin = secureClient();
const asRole = (role: string) => st.users[role];
const dir = mkdtempSync(join(tmpdir(), 'geoshard-stranger-'));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> };
const CLIENT = '@opensearch-project/opensearch';

const SRC = 'stranger-src';
const DEST = 'stranger-geo';
const ALIAS = 'stranger';
const DOCS = 3000;
/** The team's documents: points over western Europe, their own field names. */
const points = (() => {
  const rand = mulberry32(2027);
  return Array.from({ length: DOCS }, () => ({ lat: 36 + rand() * 18, lon: -9 + rand() * 30 }));
})();
const kinds = ['cafe', 'bakery', 'bar'];
const sourceOf = (k: number, title = `place ${k}`) => ({ title, kind: kinds[k % 3], pin: points[k] });

let app: string;
/** Every output of every run, checked for passwords at the end. */
const outputs: string[] = [];

interface Run {
  status: number;
  stdout: string;
  stderr: string;
}

/** npx runs the installed `geoshard` bin in the stranger's folder as `role` (its env: URL, CA, user). */
function npx(role: string, args: string[]): Run {
  const r = spawnSync('npx', ['--offline', 'geoshard', ...args], { cwd: app, encoding: 'utf8', env: { ...userEnv(asRole(role)), NODE_OPTIONS: '' }, timeout: 600_000 });
  const out = { status: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
  outputs.push(out.stdout, out.stderr);
  return out;
}

/** npxAsync is npx for a command that runs beside the test's own writer. */
function npxAsync(role: string, args: string[]): Promise<Run> {
  return new Promise((done) => {
    const child = spawn('npx', ['--offline', 'geoshard', ...args], { cwd: app, env: { ...userEnv(asRole(role)), NODE_OPTIONS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('exit', (code) => {
      outputs.push(stdout, stderr);
      done({ status: code ?? -1, stdout, stderr });
    });
  });
}

async function clean(): Promise<void> {
  await admin.request('DELETE', `/${SRC},${DEST}`, { okStatuses: [404], query: { ignore_unavailable: 'true' } });
  await admin.request('DELETE', `/_ingest/pipeline/geoshard-${DEST}`, { okStatuses: [404] });
  await admin.request('DELETE', `/${LOCK_INDEX}/_doc/${ALIAS}`, { okStatuses: [404] });
  await admin.request('DELETE', `/${LOCK_INDEX}/_doc/${DEST}`, { okStatuses: [404] });
}

beforeAll(async () => {
  await clean();
  // 1. The packages, installed from their tarballs into an empty folder (with the official client the package names as its peer).
  const geoshard = pack(dir);
  const explorer = packExplorer(dir);
  app = consumer(dir, 'stranger');
  installIn(app, geoshard.tarball, explorer.tarball, `${CLIENT}@${pkg.peerDependencies[CLIENT]}`);
  // 2. The team's index, as their plain client wrote it: hash-sharded, searched through an alias.
  await admin.request('PUT', `/${SRC}`, { body: { settings: { index: { number_of_shards: 3, number_of_replicas: 0 } }, mappings: { properties: { pin: { type: 'geo_point' }, title: { type: 'text' }, kind: { type: 'keyword' } } }, aliases: { [ALIAS]: {} } } });
  const lines: string[] = [];
  for (let k = 0; k < DOCS; k++) lines.push(JSON.stringify({ index: { _index: SRC, _id: `p${k}` } }), JSON.stringify(sourceOf(k)));
  const bulk = await admin.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true' }, body: lines.join('\n') + '\n', timeoutMs: 120_000 });
  expect(bulk.body.errors).toBe(false);
}, 600_000);

afterAll(async () => {
  await clean();
  await admin.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a stranger adopts geoshard on a secured cluster with the installed package', () => {
  const CONFIG = () => join(app, 'geoshard.config.json');

  it('3. config, cells (readall_and_monitor), balance, and reindex behind the team\'s alias (geoshard_reindex)', () => {
    writeFileSync(CONFIG(), JSON.stringify({ index: ALIAS, location: 'pin', name: 'title', facets: ['kind'] }, null, 2));
    const cells = npx('readall_and_monitor', ['cells', '--from-index', ALIAS, '--config', 'geoshard.config.json', '--out', 'cells.csv']);
    expect(cells.status, cells.stderr).toBe(0);
    const rows = readFileSync(join(app, 'cells.csv'), 'utf8').trim().split('\n').slice(1);
    expect(rows.reduce((s, l) => s + Number(l.split(',')[1]), 0)).toBe(DOCS);
    const bal = npx('readall_and_monitor', ['balance', '--cells', 'cells.csv', '--min', '4', '--max', '4', '--index', ALIAS, '--out', 'boundaries.json']);
    expect(bal.status, bal.stderr).toBe(0);
    const ri = npx('geoshard_reindex', ['reindex', '--from', SRC, '--to', DEST, '--boundaries', 'boundaries.json', '--alias', ALIAS, '--config', 'geoshard.config.json']);
    expect(ri.status, ri.stderr).toBe(0);
    expect(ri.stderr).toMatch(/verify: 3,000 documents/);
  }, 600_000);

  it('4. migrate moves one boundary (geoshard_migrate) while a plain writer (geoshard_write) writes through the alias', async () => {
    const base = parseBoundaryFile(readFileSync(join(app, 'boundaries.json'), 'utf8'), 'boundaries.json');
    const candidate = movedCandidateOf(base, points.map((p) => ordinalAt(p.lat, p.lon)), [2], 60);
    writeFileSync(join(app, 'candidate.json'), formatBoundaryFile(candidate));
    const moving = points.map((p, k) => (new Router(base).readShard(p.lat, p.lon).shard !== new Router(candidate).readShard(p.lat, p.lon).shard ? k : -1)).filter((k) => k >= 0);
    expect(moving.length).toBeGreaterThanOrEqual(60);

    // The team's writer: its own client as the write user, no routing (the index's pipeline routes), retrying a write block.
    const writer = secureClient(asRole('geoshard_write'));
    const truth = new Map<string, Record<string, unknown>>();
    const rand = mulberry32(4);
    let stop = false;
    let refused = 0;
    const writing = (async () => {
      for (let n = 0; !stop; n++) {
        const k = moving[Math.floor(rand() * moving.length)];
        const id = rand() < 0.5 ? `p${k}` : `new${n}`;
        const s = sourceOf(k, `${id} #${n}`);
        for (let i = 0; ; i++) {
          try {
            await writer.request('PUT', `/${ALIAS}/_doc/${id}`, { body: s });
            break;
          } catch (e) {
            if (!/cluster_block_exception/.test(String((e as Error).message)) || i > 600) throw e;
            refused++;
            await new Promise((r) => setTimeout(r, 50));
          }
        }
        truth.set(id, s);
      }
    })();
    const mig = await npxAsync('geoshard_migrate', ['migrate', '--candidate', 'candidate.json', '--cells', 'cells.csv', '--config', 'geoshard.config.json', '--grace-ms', '300']);
    stop = true;
    await writing;
    await writer.close();
    expect(mig.status, mig.stderr).toBe(0);
    expect(mig.stdout).toMatch(/migrated index "stranger" to [0-9a-f]{12} \(version 2\): 1 range\(s\)/);
    expect(truth.size).toBeGreaterThan(5);

    // Every document on the shard the candidate names for its pin, each write there once with its last content.
    await admin.request('POST', `/${DEST}/_refresh`);
    const router = new Router(candidate);
    const held = new Map<string, { routing: string; source: Record<string, unknown> }[]>();
    let after: unknown[] | undefined;
    for (;;) {
      const r = await admin.request<{ hits: { hits: { _id: string; _routing: string; _source: Record<string, unknown>; sort: unknown[] }[] } }>('POST', `/${DEST}/_search`, { body: { size: 5000, sort: [{ _id: 'asc' }], ...(after ? { search_after: after } : {}) } });
      const hits = r.body.hits.hits;
      for (const h of hits) held.set(h._id, [...(held.get(h._id) ?? []), { routing: h._routing, source: h._source }]);
      if (hits.length < 5000) break;
      after = hits[hits.length - 1].sort;
    }
    const wrong: string[] = [];
    for (const [id, copies] of held) {
      const pin = copies[0].source.pin as { lat: number; lon: number };
      if (copies.length !== 1 || copies[0].routing !== router.readShard(pin.lat, pin.lon).name) wrong.push(id);
    }
    expect(wrong).toEqual([]);
    for (const [id, s] of truth) expect(held.get(id)?.[0].source, id).toEqual(s);
    expect(held.size).toBe(DOCS + [...truth.keys()].filter((id) => id.startsWith('new')).length);
    console.log(`stranger: migrate moved ${moving.length} documents while the writer wrote ${truth.size} (${refused} retried under the write block)`);
  }, 600_000);

  it('5. explore from node_modules (readall_and_monitor) draws in Chromium and searches the index; a routed search by the exported helper finds what every shard finds', async () => {
    const port = await freePort();
    const child = spawn('npx', ['--offline', 'geoshard', 'explore', '--boundaries', 'candidate.json', '--cells', 'cells.csv', '--config', 'geoshard.config.json', '--port', String(port)], {
      cwd: app,
      env: { ...userEnv(asRole('readall_and_monitor')), NODE_OPTIONS: '' },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d));
    child.stderr!.on('data', (d: Buffer) => (out += d));
    try {
      const base = `http://127.0.0.1:${port}/`;
      const deadline = Date.now() + 120_000;
      while (!out.includes(base)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`explore did not start (exit ${child.exitCode}):\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      // The API reads the secured index: no drift, and a live search answers routed as it does on every shard.
      const status = await fetch(base + 'api/status');
      const statusText = await status.text();
      expect(status.status, statusText).toBe(200);
      const search = await fetch(base + 'api/search?lat=48.85&lng=2.35&radius=300km&size=50&compare=1');
      const searchText = await search.text();
      expect(search.status, searchText).toBe(200);
      outputs.push(statusText, searchText);
      const answer = JSON.parse(searchText) as { drift: { status: string }; identical?: boolean; total?: number; hits?: unknown[]; shards?: unknown; ratio?: { shards: number } };
      expect(answer.drift.status).toBe('ok');
      expect(answer.identical, searchText.slice(0, 400)).toBe(true);
      expect(answer.ratio!.shards).toBeLessThan(1);
      expect((JSON.parse(statusText) as { drift: { status: string } }).drift.status).toBe('ok');
      const drawn = await drawGlobe(base);
      expect(drawn.canvas?.width).toBeGreaterThan(0);
      expect(drawn.canvas?.gl).toBe(true);
      expect(drawn.errors).toEqual([]);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    }
    outputs.push(out);

    // The stranger's search service: their own script, the exported helper, the official client over TLS.
    writeFileSync(
      join(app, 'search.mjs'),
      `import { readFileSync } from 'node:fs';
import { Client } from '@opensearch-project/opensearch';
import { parseBoundaryFile } from 'geoshard';
import { checkIndexConfig, routedSearch } from 'geoshard/opensearch';

const client = new Client({
  node: process.env.OPENSEARCH_URL,
  auth: { username: process.env.OPENSEARCH_USERNAME, password: process.env.OPENSEARCH_PASSWORD },
  ssl: { ca: readFileSync(process.env.OPENSEARCH_CA) },
});
const file = parseBoundaryFile(readFileSync('candidate.json', 'utf8'));
const config = checkIndexConfig(JSON.parse(readFileSync('geoshard.config.json', 'utf8'))).config;
const req = await routedSearch(client, file, config, { lat: 48.85, lng: 2.35, radiusKm: 300 }, { term: { kind: 'cafe' } }, { size: 1000, _source: false });
const res = await client.search({ index: req.index, routing: req.routing, body: req.body });
console.log(JSON.stringify({ routing: req.routing, ids: res.body.hits.hits.map((h) => h._id).sort() }));
await client.close();
`,
    );
    const r = spawnSync(process.execPath, ['search.mjs'], { cwd: app, encoding: 'utf8', env: { ...userEnv(asRole('readall_and_monitor')), NODE_OPTIONS: '' } });
    outputs.push(r.stdout ?? '', r.stderr ?? '');
    expect(r.status, r.stderr).toBe(0);
    const got = JSON.parse(r.stdout) as { routing: string; ids: string[] };
    const candidate = parseBoundaryFile(readFileSync(join(app, 'candidate.json'), 'utf8'), 'candidate.json');
    expect(got.routing.split(',').length).toBeLessThan(candidate.numberOfShards);
    const every = await admin.request<{ hits: { hits: { _id: string }[] } }>('POST', `/${ALIAS}/_search`, {
      body: { size: 1000, _source: false, query: { bool: { filter: [{ term: { kind: 'cafe' } }, { geo_distance: { distance: '300000m', pin: { lat: 48.85, lon: 2.35 } } }] } } },
    });
    const all = every.body.hits.hits.map((h) => h._id).sort();
    expect(all.length).toBeGreaterThan(10);
    expect(got.ids).toEqual(all);
  }, 600_000);

  it('6. audit (readall_and_monitor): clean; and no output of any run held a password', () => {
    const audit = npx('readall_and_monitor', ['audit', '--index', ALIAS, '--field', 'pin']);
    expect(audit.status, audit.stdout + audit.stderr).toBe(0);
    expect(audit.stdout).toContain('every document is on a right shard');
    for (const s of secrets(st)) expect(outputs.some((o) => o.includes(s)), 'a password in an output').toBe(false);
  }, 300_000);
});

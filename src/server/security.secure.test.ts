/**
 * geoshard on a secured cluster: the real OpenSearch 2.19.4 with the official security plugin
 * that `scripts/cluster.mjs start --secure` runs (TLS from its own CA, users and roles from
 * roles.json). Each command runs as the built CLI, over TLS with the node's CA, as a user holding
 * exactly its documented role (docs/security.md); with one privilege removed it is refused,
 * naming the privilege and the role, and the cluster is as it was. A wrong CA, no CA and a wrong
 * password are refused with their own messages. No output holds a password.
 *
 * Run by scripts/test.sh (the "secure" vitest project) with the environment of
 * `node scripts/cluster.mjs env --secure`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseBoundaryFile } from '../core/index.ts';
import { derivedFile, ensureSeeded, startApi } from '../testing/testkit.ts';
import { movedCandidate } from '../testing/migrationFixture.ts';
import { runCli, secrets, secureClient, secureNode, userEnv, userWithout, type CliRun } from '../testing/secureTestkit.ts';
import { LOCK_INDEX } from '../ops/migrate/migrationLock.ts';

const st = secureNode();
const admin = secureClient();
const asRole = (role: string) => st.users[role];
const dir = mkdtempSync(join(tmpdir(), 'geoshard-secure-'));

const FLAT = 'sec-t-flat';
const DEST = 'sec-t-geo';
const ALIAS = 'sec-t-live';
const SAMPLE = 'sec-t-sample';
const DOCS = 2000;
const CONFIG = join(dir, 'sec.config.json');
const CELLS = join(dir, 'cells.csv');
const FILE = join(dir, 'boundaries.json');

/** No password of the node (nor `extra`) appears in what a run printed. */
function expectNoSecret(r: CliRun, extra: string[] = []): void {
  for (const s of [...secrets(st), ...extra]) {
    expect(r.stdout.includes(s), 'a password in stdout').toBe(false);
    expect(r.stderr.includes(s), 'a password in stderr').toBe(false);
  }
}

/** What a refused command must leave as it was: the test's indexes, their aliases, settings and _meta, the pipelines, the lock index. */
async function snapshot(): Promise<unknown> {
  const body = await admin.get<{ metadata: { indices?: Record<string, unknown>; ingest?: unknown } }>('/_cluster/state/metadata', {
    query: {
      filter_path: 'metadata.indices.*.aliases,metadata.indices.*.mappings,metadata.indices.*.settings.index.blocks,metadata.indices.*.settings.index.default_pipeline,metadata.ingest',
      expand_wildcards: 'all',
    },
  });
  const indices = Object.fromEntries(Object.entries(body.metadata.indices ?? {}).filter(([k]) => k.startsWith('sec-t-') || k === LOCK_INDEX).sort(([a], [b]) => a.localeCompare(b)));
  const counts = await admin.request<{ count: number }>('POST', '/sec-t-*/_count', { okStatuses: [404] });
  return { indices, ingest: body.metadata.ingest ?? null, docs: counts.body.count ?? null };
}

async function clean(): Promise<void> {
  for (const i of [FLAT, DEST, SAMPLE, LOCK_INDEX]) await admin.request('DELETE', `/${i}`, { okStatuses: [404] });
  for (const p of [DEST, SAMPLE, ALIAS]) await admin.request('DELETE', `/_ingest/pipeline/geoshard-${p}`, { okStatuses: [404] });
}

beforeAll(async () => {
  await clean();
  // The team's own index, as a plain client writes it: hash-sharded, its own field names, no geoshard anything.
  await admin.request('PUT', `/${FLAT}`, { body: { settings: { index: { number_of_shards: 3, number_of_replicas: 0 } }, mappings: { properties: { where: { type: 'geo_point' }, title: { type: 'text' }, kind: { type: 'keyword' } } } } });
  let seed = 7;
  const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _index: FLAT, _id: `d${i}` } }), JSON.stringify({ where: { lat: 35 + rnd() * 20, lon: -10 + rnd() * 30 }, title: `doc ${i}`, kind: ['a', 'b', 'c'][i % 3] }));
  }
  const bulk = await admin.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true' }, body: lines.join('\n') + '\n', timeoutMs: 120_000 });
  expect(bulk.body.errors).toBe(false);
  writeFileSync(CONFIG, JSON.stringify({ index: ALIAS, location: 'where', weight: 'docs', name: 'title', join: null, facets: ['kind'] }));
}, 300_000);

afterAll(async () => {
  await clean();
  await admin.close();
});

describe('refusals before anything is sent: TLS and credentials', () => {
  it('a wrong CA is refused as an untrusted certificate naming the CA file used, never as unreachable; nothing is written', async () => {
    const otherCa = join(dir, 'other-ca.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'other-ca-key.pem'), '-out', otherCa, '-days', '2', '-subj', '/CN=not the node CA'], { stdio: 'ignore' });
    const before = await snapshot();
    const out = join(dir, 'wrong-ca.csv');
    const r = runCli(['cells', '--from-index', FLAT, '--field', 'where', '--out', out], userEnv(asRole('readall_and_monitor'), { OPENSEARCH_CA: otherCa }));
    expect(r.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).toMatch(/TLS certificate is not trusted/);
    expect(r.stderr).toContain(`the CA file ${otherCa} (OPENSEARCH_CA)`);
    expect(r.stderr).toMatch(/OPENSEARCH_CA=\/path\/to\/ca\.pem/);
    expect(r.stderr).not.toMatch(/unreachable/i);
    expectNoSecret(r);
    expect(await snapshot()).toEqual(before);

    const none = runCli(['cells', '--from-index', FLAT, '--field', 'where', '--out', join(dir, 'never.csv')], userEnv(asRole('readall_and_monitor'), { OPENSEARCH_CA: '' }));
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("the system's CAs (OPENSEARCH_CA is not set)");
    expect(none.stderr).not.toMatch(/unreachable/i);
    expectNoSecret(none);
  }, 120_000);

  it('a wrong password is refused (401) naming the user, not the password; nothing is written', async () => {
    const wrong = 'Wrong-Passw0rd-for-the-test!';
    const before = await snapshot();
    const r = runCli(['cells', '--from-index', FLAT, '--field', 'where', '--out', join(dir, 'never.csv')], userEnv({ username: asRole('readall_and_monitor').username, password: wrong }));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/refused the credentials of user "geoshard-readall-and-monitor".*401 Unauthorized/);
    expectNoSecret(r, [wrong]);
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('OPENSEARCH_INSECURE=1 connects without the CA and warns on every run', () => {
    const r = runCli(['cells', '--from-index', FLAT, '--field', 'where', '--out', join(dir, 'insecure.csv')], userEnv(asRole('readall_and_monitor'), { OPENSEARCH_CA: '', OPENSEARCH_INSECURE: '1' }));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/WARNING: OPENSEARCH_INSECURE=1: the OpenSearch node's TLS certificate and host name are NOT verified/);
    expectNoSecret(r);
  }, 120_000);
});

describe('each command as a user holding exactly its documented role, over TLS with the node CA', () => {
  it('cells --from-index: readall_and_monitor is enough', () => {
    const r = runCli(['cells', '--from-index', FLAT, '--config', CONFIG, '--out', CELLS, '--json'], userEnv(asRole('readall_and_monitor')));
    expect(r.status, r.stderr).toBe(0);
    expectNoSecret(r);
    const rows = readFileSync(CELLS, 'utf8').trim().split('\n').slice(1);
    expect(rows.reduce((s, l) => s + Number(l.split(',')[1]), 0)).toBe(DOCS);
    const b = runCli(['balance', '--cells', CELLS, '--min', '3', '--max', '5', '--index', ALIAS, '--out', FILE], userEnv(asRole('readall_and_monitor')));
    expect(b.status, b.stderr).toBe(0);
  }, 120_000);

  it('reindex without one of its privileges is refused before any change, naming the privilege and the role geoshard_reindex', async () => {
    for (const privilege of ['indices:admin/settings/update', 'cluster:admin/ingest/pipeline/put', 'manage_aliases']) {
      const user = await userWithout('geoshard_reindex', privilege, admin);
      const before = await snapshot();
      const r = runCli(['reindex', '--from', FLAT, '--to', DEST, '--alias', ALIAS, '--boundaries', FILE, '--config', CONFIG], userEnv(user));
      expect(r.status, r.stdout).toBe(1);
      // manage_aliases is an action group: the refusal names the action it holds.
      expect(r.stderr).toContain(`[${privilege === 'manage_aliases' ? 'indices:admin/aliases' : privilege}]`);
      expect(r.stderr).toContain('Nothing was changed: geoshard reindex needs the role "geoshard_reindex"');
      expectNoSecret(r, [user.password]);
      expect(await snapshot(), privilege).toEqual(before);
    }
  }, 300_000);

  it('reindex: geoshard_reindex copies the flat index into a geosharded one behind the alias', async () => {
    const r = runCli(['reindex', '--from', FLAT, '--to', DEST, '--alias', ALIAS, '--boundaries', FILE, '--config', CONFIG], userEnv(asRole('geoshard_reindex')));
    expect(r.status, r.stderr).toBe(0);
    expectNoSecret(r);
    const aliases = await admin.get<Record<string, unknown>>(`/_alias/${ALIAS}`);
    expect(Object.keys(aliases)).toEqual([DEST]);
    expect((await admin.request<{ count: number }>('POST', `/${DEST}/_count`)).body.count).toBe(DOCS);
    // What geoshard wrote into the cluster (_meta, settings, the pipeline, aliases) holds no credential either.
    const written = JSON.stringify(await snapshot());
    expect(written).toContain('"app":"geoshard"');
    for (const s of secrets(st)) expect(written.includes(s), 'a password in the cluster metadata').toBe(false);
  }, 300_000);

  it('audit: readall_and_monitor is enough, and the reindexed index is clean', () => {
    const r = runCli(['audit', '--index', ALIAS, '--config', CONFIG], userEnv(asRole('readall_and_monitor')));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/every document is on a right shard/);
    expectNoSecret(r);
    const j = runCli(['audit', '--index', ALIAS, '--config', CONFIG, '--json'], userEnv(asRole('readall_and_monitor')));
    expect(j.status, j.stderr).toBe(0);
    expectNoSecret(j);
  }, 120_000);

  it('pipeline --install: geoshard_pipeline installs it; without cluster:admin/ingest/pipeline/put it is refused and nothing changes', async () => {
    const user = await userWithout('geoshard_pipeline', 'cluster:admin/ingest/pipeline/put', admin);
    const before = await snapshot();
    const refused = runCli(['pipeline', '--install', '--index', ALIAS, '--config', CONFIG], userEnv(user));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('[cluster:admin/ingest/pipeline/put]');
    expect(refused.stderr).toContain('geoshard pipeline needs the role "geoshard_pipeline"');
    expectNoSecret(refused, [user.password]);
    expect(await snapshot()).toEqual(before);
    const r = runCli(['pipeline', '--install', '--index', ALIAS, '--config', CONFIG], userEnv(asRole('geoshard_pipeline')));
    expect(r.status, r.stderr).toBe(0);
    expectNoSecret(r);
    // Reading it back needs no write privilege.
    const p = runCli(['pipeline', '--print', '--index', ALIAS, '--config', CONFIG], userEnv(asRole('readall_and_monitor')));
    expect(p.status, p.stderr).toBe(0);
  }, 180_000);

  it('explore and search: the HTTP API under readall_and_monitor answers status and a routed search, and no response holds a password', async () => {
    const file = parseBoundaryFile(readFileSync(FILE, 'utf8'), FILE);
    const client = secureClient(asRole('readall_and_monitor'));
    const api = await startApi({ file, configPath: CONFIG, client });
    try {
      const status = await fetch(`${api.url}/api/status`);
      const statusText = await status.text();
      expect(status.status, statusText).toBe(200);
      const search = await fetch(`${api.url}/api/search?lat=45&lng=5&radius=300km&size=5`);
      const searchText = await search.text();
      expect(search.status, searchText).toBe(200);
      expect(JSON.parse(searchText).hits?.length ?? JSON.parse(searchText).results?.length ?? 0).toBeGreaterThanOrEqual(0);
      for (const s of secrets(st)) {
        expect(statusText.includes(s)).toBe(false);
        expect(searchText.includes(s)).toBe(false);
      }
    } finally {
      await api.close();
      await client.close();
    }
  }, 120_000);

  it('migrate: geoshard_migrate moves a boundary of the sample index; without indices:admin/settings/update (its write blocks) it is refused and nothing changes', async () => {
    const base = derivedFile(SAMPLE);
    await ensureSeeded(admin, base, 400, 2);
    const candidate = movedCandidate(base, 400, [1], 5);
    const path = join(dir, 'candidate.json');
    writeFileSync(path, JSON.stringify(candidate));

    const user = await userWithout('geoshard_migrate', 'indices:admin/settings/update', admin);
    const before = await snapshot();
    const refused = runCli(['migrate', '--to', path], userEnv(user));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('[indices:admin/settings/update]');
    expect(refused.stderr).toContain('geoshard migrate needs the role "geoshard_migrate"');
    expectNoSecret(refused, [user.password]);
    expect(await snapshot()).toEqual(before);

    const r = runCli(['migrate', '--to', path], userEnv(asRole('geoshard_migrate')));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`migrated index "${SAMPLE}"`);
    expectNoSecret(r);
    const audit = runCli(['audit', '--index', SAMPLE], userEnv(asRole('readall_and_monitor')));
    expect(audit.status, audit.stderr).toBe(0);
  }, 600_000);

  it('write: geoshard_write writes and deletes a document through the HTTP API; readall_and_monitor is refused and writes nothing', async () => {
    // The sample index as seeded (again, when a migration changed it): the test stands alone.
    const file = derivedFile(SAMPLE);
    await ensureSeeded(admin, file, 400, 2);
    for (const [role, ok] of [['geoshard_write', true], ['readall_and_monitor', false]] as const) {
      const client = secureClient(asRole(role));
      const api = await startApi({ file, client, writes: true });
      try {
        const put = await fetch(`${api.url}/api/restaurants/sec-w-1`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Secure Fig', lat: 48.85, lng: 2.35, cuisines: ['thai'], price_level: 2 }) });
        const text = await put.text();
        for (const s of secrets(st)) expect(text.includes(s)).toBe(false);
        if (ok) {
          expect(put.status, text).toBeLessThan(300);
          const del = await fetch(`${api.url}/api/restaurants/sec-w-1`, { method: 'DELETE' });
          expect(del.status, await del.text()).toBeLessThan(300);
        } else {
          // Refused by the security plugin at the writer's first request (it reads the index's mapping before writing).
          expect(put.status, text).toBeGreaterThanOrEqual(400);
          expect(text).toMatch(/no permissions for \[[a-z:/_*]+\] and User \[name=geoshard-readall-and-monitor/);
          const found = await admin.request('GET', `/${SAMPLE}/_doc/sec-w-1`, { query: { routing: file.shards[0].name }, okStatuses: [404] });
          expect(found.status).toBe(404);
        }
      } finally {
        await api.close();
        await client.close();
      }
    }
  }, 180_000);
});

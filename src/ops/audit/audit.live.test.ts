/**
 * `geoshard audit` as a user runs it (the built CLI, dist/cli/bin.js: run
 * `npm run build:lib` first) on a small seeded index of its own: clean, then
 * with three planted problems, which it must name exactly. The shards a
 * planted document sits on and should sit on come from the node
 * (`_search_shards?routing=`) and the seeder's own routing, not from the audit.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { derivedFile, ensureSeeded, liveClient, ROOT } from '../../testing/testkit.ts';
import { auditIndex } from './audit.ts';
import { plan } from '../../core/index.ts';
import { advance, startState, type MigrationState } from '../../core/migrationState.ts';
import type { AuditProblem } from '../../core/audit.ts';
import { movedCandidate } from '../../testing/migrationFixture.ts';
import { withState } from '../migrate/migration.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import { searchShardsOf } from '../../opensearch/fingerprint.ts';

const client = liveClient();
const INDEX = 'gs-audit-live';
const NO_META = 'gs-audit-live-nometa';
const MOVE_INDEX = 'gs-audit-live-move';
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const file = derivedFile(INDEX);
const RESTAURANTS = 300;
const DISHES = 5;

/** Runs the built CLI with OPENSEARCH_URL as the tests have it. */
function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env }, maxBuffer: 64 << 20 }, (e, out, err) => {
      resolve({ code: e ? Number((e as { code?: number }).code ?? 1) : 0, out, err });
    });
  });
}

interface Src {
  _id: string;
  _routing: string;
  _source: Record<string, unknown>;
}

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build:lib" first`);
  // A run that stopped after planting leaves its documents: start from a fresh seed then.
  const planted = await client.request<{ count: number }>('POST', `/${INDEX}/_count`, { body: { query: { prefix: { id: 'gs-audit-' } } }, okStatuses: [404] });
  if (planted.status === 200 && planted.body.count > 0) await client.request('DELETE', `/${INDEX}`);
  await ensureSeeded(client, file, RESTAURANTS, DISHES);
  await client.request('PUT', `/${NO_META}`, { body: { settings: { index: { number_of_shards: 1, number_of_replicas: 0 } } }, okStatuses: [400] });
}, 120_000);
afterAll(async () => {
  // The planted documents would fail the next run's clean audit: the next run seeds again.
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${NO_META}`, { okStatuses: [404] });
  await client.request('DELETE', `/${MOVE_INDEX}`, { okStatuses: [404] });
  await client.close();
});

describe('geoshard audit', () => {
  it('exits 0 on the seeded index, having read every document', async () => {
    const count = (await client.request<{ count: number }>('POST', `/${INDEX}/_count`, { body: { query: { match_all: {} } } })).body.count;
    const r = await cli('audit', '--index', INDEX);
    expect(r.err).toMatch(/documents\/s/);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${count.toLocaleString('en-US')} documents (${RESTAURANTS} restaurants`);
    expect(r.out).toContain('every document is on a right shard');
    const j = await cli('audit', '--index', INDEX, '--json');
    expect(j.code).toBe(0);
    const report = JSON.parse(j.out);
    expect(report).toMatchObject({ index: INDEX, clean: true, migrationEpoch: null, documents: { total: count, restaurants: RESTAURANTS } });
    // Each shard's documents as the node counts them.
    for (const s of report.shards) {
      const n = (await client.request<{ count: number }>('POST', `/${INDEX}/_count`, { query: { preference: `_shards:${s.shard}` }, body: { query: { match_all: {} } } })).body.count;
      expect(s.restaurants + s.dishes, `shard ${s.shard}`).toBe(n);
    }
  }, 120_000);

  it('names exactly the planted problems: a restaurant routed to the wrong shard, a dish apart from its restaurant, a wrong cell', async () => {
    const { body } = await client.request<{ hits: { hits: Src[] } }>('POST', `/${INDEX}/_search`, { body: { size: 1, query: { term: { join: 'restaurant' } }, sort: [{ id: 'asc' }] } });
    const r = body.hits.hits[0];
    // The seeder routed it by its cell's owner: that name and the node's shard for it are what the audit must expect.
    const owner = r._routing;
    const [ownerShard] = await searchShardsOf(client, INDEX, owner);
    const other = file.shards.find((s) => s.name !== owner)!.name;
    const [otherShard] = await searchShardsOf(client, INDEX, other);
    expect(otherShard).not.toBe(ownerShard);
    const otherCell = r._source.cell === '808581' ? '808583' : '808581';
    const docs: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ index: { _index: INDEX, _id: 'gs-audit-wrong-shard', routing: other } }, { ...r._source, id: 'gs-audit-wrong-shard' }],
      [
        { index: { _index: INDEX, _id: 'gs-audit-apart', routing: other } },
        { join: { name: 'dish', parent: r._id }, id: 'gs-audit-apart', restaurant_id: r._id, restaurant_location: r._source.location, name: 'planted dish' },
      ],
      [{ index: { _index: INDEX, _id: 'gs-audit-wrong-cell', routing: owner } }, { ...r._source, id: 'gs-audit-wrong-cell', cell: otherCell }],
    ];
    const bulk = await client.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true', pipeline: '_none' }, body: docs.map((l) => l.map((x) => JSON.stringify(x)).join('\n')).join('\n') + '\n' });
    expect(bulk.body.errors).toBe(false);

    const j = await cli('audit', '--index', INDEX, '--json');
    expect(j.code).toBe(1);
    const report = JSON.parse(j.out);
    expect(report.clean).toBe(false);
    const found = (report.tally.problems as AuditProblem[]).map((p) => ({ id: p.id, type: p.type, problem: p.problem, shard: p.shard, expected: p.expected })).sort((a, b) => `${a.id} ${a.problem}`.localeCompare(`${b.id} ${b.problem}`));
    expect(found).toEqual([
      { id: 'gs-audit-apart', type: 'dish', problem: 'dish-apart', shard: otherShard, expected: [ownerShard] },
      { id: 'gs-audit-apart', type: 'dish', problem: 'wrong-shard', shard: otherShard, expected: [ownerShard] },
      { id: 'gs-audit-wrong-cell', type: 'restaurant', problem: 'wrong-cell', shard: ownerShard, expected: [ownerShard] },
      { id: 'gs-audit-wrong-shard', type: 'restaurant', problem: 'wrong-shard', shard: otherShard, expected: [ownerShard] },
    ]);
    expect(report.tally.documents).toBe(3);
    expect(report.tally.omitted).toBe(0);

    // The text report names each, first N and how many more.
    const t = await cli('audit', '--index', INDEX, '--limit', '2');
    expect(t.code).toBe(1);
    expect(t.err).toContain('FAILED: 4 problems in 3 documents (2 wrong-shard, 1 dish-apart, 1 wrong-cell)');
    expect(t.err).toContain('... and 2 more');
    const all = await cli('audit', '--index', INDEX);
    expect(all.err).toContain(`restaurant gs-audit-wrong-shard: wrong-shard on shard ${otherShard}, expected shard ${ownerShard}`);
    expect(all.err).toContain(`dish gs-audit-apart: dish-apart on shard ${otherShard}, expected shard ${ownerShard}: its restaurant "${r._id}" is not on shard ${otherShard}: it is on shard ${ownerShard}`);
    expect(all.err).toContain(`restaurant gs-audit-wrong-cell: wrong-cell on shard ${ownerShard}`);
  }, 120_000);

  it('names a document routed with a value other than its shard\'s name, even on the right shard', async () => {
    const { body } = await client.request<{ hits: { hits: Src[] } }>('POST', `/${INDEX}/_search`, { body: { size: 1, query: { term: { join: 'restaurant' } }, sort: [{ id: 'desc' }] } });
    const r = body.hits.hits[0];
    const [ownerShard] = await searchShardsOf(client, INDEX, r._routing);
    // Find a routing value that is no shard name but lands on the owner's shard (the node says where).
    let routing = '';
    for (let i = 0; i < 500 && !routing; i++) if ((await searchShardsOf(client, INDEX, `gs-audit-${i}`))[0] === ownerShard) routing = `gs-audit-${i}`;
    expect(routing).not.toBe('');
    await client.request('PUT', `/${INDEX}/_doc/gs-audit-routing`, { query: { routing, refresh: 'true', pipeline: '_none' }, body: { ...r._source, id: 'gs-audit-routing' } });
    const report = await auditIndex(client, INDEX, { concurrency: 2, pageSize: 100 });
    const mine = report.tally.problems.filter((p) => p.id === 'gs-audit-routing');
    expect(mine).toEqual([expect.objectContaining({ problem: 'wrong-routing', shard: ownerShard, type: 'restaurant' })]);
    expect(mine[0].why).toContain(`"${routing}"`);
  }, 120_000);

  it('refuses a missing index and one without geoshard _meta (exit 1), and bad options (exit 2)', async () => {
    const missing = await cli('audit', '--index', 'gs-audit-live-missing');
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('index "gs-audit-live-missing" does not exist');
    const bare = await cli('audit', '--index', NO_META);
    expect(bare.code).toBe(1);
    expect(bare.err).toContain(`index "${NO_META}" has no geoshard _meta`);
    for (const args of [['--bogus'], ['--limit', '-1'], ['--page-size', '50'], ['--concurrency', 'x'], ['--index', 'Bad']]) {
      const r = await cli('audit', ...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toMatch(/^geoshard audit: /);
    }
  }, 120_000);

  it('follows the migration state: both owners are right while dual-written, the old copy is wrong once writes go to the new owner only', async () => {
    // A fresh index every run: the test writes a migration state into its _meta.
    await client.request('DELETE', `/${MOVE_INDEX}`, { okStatuses: [404] });
    const base = derivedFile(MOVE_INDEX);
    await ensureSeeded(client, base, RESTAURANTS, DISHES);
    const candidate = movedCandidate(base, RESTAURANTS, [1], 3);
    const p = plan(base, candidate, []);
    expect(p.moves.length).toBe(1);
    const m = p.moves[0];
    const [fromShard] = await searchShardsOf(client, MOVE_INDEX, m.from);
    const [toShard] = await searchShardsOf(client, MOVE_INDEX, m.to);
    // The range's documents on the old owner, found by the node: restaurants by cell and routing, dishes by restaurant.
    const cellRange = { range: { cell: m.end === null ? { gte: m.start } : { gte: m.start, lt: m.end } } };
    const rs = (await client.request<{ hits: { hits: Src[] } }>('POST', `/${MOVE_INDEX}/_search`, { query: { routing: m.from }, body: { size: 1000, query: { bool: { filter: [{ term: { join: 'restaurant' } }, cellRange] } } } })).body.hits.hits;
    expect(rs.length).toBeGreaterThanOrEqual(3);
    const ds = (await client.request<{ hits: { hits: Src[] } }>('POST', `/${MOVE_INDEX}/_search`, { query: { routing: m.from }, body: { size: 10000, query: { terms: { restaurant_id: rs.map((r) => r._id) } } } })).body.hits.hits;
    expect(ds.length).toBeGreaterThan(0);

    const now = () => new Date().toISOString();
    let state: MigrationState = startState(base, candidate, p.moves, now());
    const publish = async (to: Parameters<typeof advance>[2], patch: Parameters<typeof advance>[4] = {}) => {
      state = advance(state, 0, to, now(), patch);
      await writeMeta(client, MOVE_INDEX, withState((await fetchIndexMeta(client, MOVE_INDEX))!, state));
    };
    await publish('dual-write');
    await publish('copying');
    // The copy, as the executor writes it: the new owner's routing, the restaurant's shard field naming it.
    const body = [...rs, ...ds]
      .map((h) => JSON.stringify({ create: { _index: MOVE_INDEX, _id: h._id, routing: m.to } }) + '\n' + JSON.stringify(h._source.join === 'restaurant' ? { ...h._source, shard: m.to } : h._source))
      .join('\n') + '\n';
    const bulk = await client.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true', pipeline: '_none' }, body });
    expect(bulk.body.errors).toBe(false);

    const during = await auditIndex(client, MOVE_INDEX, { concurrency: 2 });
    expect(during.migrationEpoch).toBe(state.epoch);
    expect(during.tally.problems).toEqual([]);
    expect(during.clean).toBe(true);
    // Every copy is read: the seeded documents and the range's second copy.
    const total = (await client.request<{ count: number }>('POST', `/${MOVE_INDEX}/_count`, { body: { query: { match_all: {} } } })).body.count;
    expect(during.documents).toMatchObject({ total, restaurants: RESTAURANTS + rs.length });

    const counts = { restaurants: rs.length, dishes: ds.length };
    await publish('verified', { verified: { from: counts, to: counts } });
    await publish('switched');
    expect((await auditIndex(client, MOVE_INDEX, { concurrency: 2 })).clean).toBe(true);
    // Dual writes off: the old owner's copies (not yet deleted) are on a shard that is no longer written.
    await publish('deleting');
    const after = await auditIndex(client, MOVE_INDEX, { concurrency: 2 });
    const byDoc = new Map<string, string[]>();
    for (const q of after.tally.problems) {
      expect(q, q.id).toMatchObject({ shard: fromShard, expected: [toShard] });
      byDoc.set(q.id, [...(byDoc.get(q.id) ?? []), q.problem].sort());
    }
    expect([...byDoc.keys()].sort()).toEqual([...rs, ...ds].map((h) => h._id).sort());
    for (const r of rs) expect(byDoc.get(r._id)).toEqual(['wrong-shard', 'wrong-shard-field']);
    for (const d of ds) expect(byDoc.get(d._id)).toEqual(['wrong-shard']);
  }, 180_000);
});

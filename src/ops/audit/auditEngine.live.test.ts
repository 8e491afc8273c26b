/**
 * The cluster path of the audit (auditEngine.ts: each shard runs a Painless
 * filter, only suspects come back) reports exactly what the client path
 * reports (every document read and checked here), on the same index: the
 * sample's shape with planted problems of every kind the audit names, and a
 * flat index; both with documents at points 0 to 9 cm from level-10 cell
 * corners on the boundaries between shards (their doc values' centimetre boxes
 * straddle cell edges), placed right and placed wrong.
 *
 * The planted documents' owners come from the boundary file's router (the
 * writer's view); the shard a routing lands on comes from the node
 * (`_search_shards`). The set of documents each audit names must be exactly
 * the set planted wrong.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cellAt, cellFromOrdinal, cellOrdinal, cellToken, parseToken, Router, type BoundaryFile } from '../../core/index.ts';
import { cellVertices } from '../../core/cells.ts';
import type { AuditProblem } from '../../core/audit.ts';
import { derivedFile, ensureSeeded, liveClient } from '../../testing/testkit.ts';
import { auditIndex, type AuditReport } from './audit.ts';
import { indexMeta, indexSettings } from '../../opensearch/indexSpec.ts';
import { plan } from '../../core/index.ts';
import { advance, startState, type MigrationState } from '../../core/ops.ts';
import { movedCandidate } from '../../testing/migrationFixture.ts';
import { withState } from '../migrate/migration.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { writeMeta } from '../../cluster/indexMeta.ts';
import { searchShardsOf } from '../../opensearch/fingerprint.ts';

const client = liveClient();
const INDEX = 'gs-audit-engine-live';
const FLAT = 'gs-audit-engine-flat';
const MOVE = 'gs-audit-engine-move';
const file = derivedFile(INDEX);
const flatFile: BoundaryFile = derivedFile(FLAT);
const router = new Router(file);
/** Metres per degree of latitude (mean Earth radius). */
const M_PER_DEG = (6_371_008.8 * Math.PI) / 180;

/** Points 0 to 9 cm from each corner of the first cell of every shard after the first (cells whose neighbours belong to another shard). */
function boundaryCorners(f: BoundaryFile, perShard: number): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (const b of f.boundaries.slice(0, perShard)) {
    for (const v of cellVertices(cellFromOrdinal(cellOrdinal(parseToken(b))))) {
      for (const cm of [0, 1, 4, 9]) {
        for (let k = 0; k < (cm === 0 ? 1 : 4); k++) {
          const a = (k * Math.PI) / 2 + 0.3;
          out.push({ lat: v.lat + (cm / 100) * Math.cos(a) / M_PER_DEG, lng: v.lng + ((cm / 100) * Math.sin(a)) / (M_PER_DEG * Math.cos((v.lat * Math.PI) / 180)) });
        }
      }
    }
  }
  return out;
}

/** Another shard name than `name` whose shard number differs, as the node routes it. */
async function otherThan(index: string, f: BoundaryFile, name: string): Promise<string> {
  const [mine] = await searchShardsOf(client, index, name);
  for (const s of f.shards) if (s.name !== name && (await searchShardsOf(client, index, s.name))[0] !== mine) return s.name;
  throw new Error(`no other shard than ${name}`);
}

async function bulk(lines: object[]) {
  const { body } = await client.request<{ errors: boolean; items: unknown[] }>('POST', '/_bulk', { query: { refresh: 'true', pipeline: '_none' }, body: lines.map((l) => JSON.stringify(l)).join('\n') + '\n', timeoutMs: 120_000 });
  if (body.errors) throw new Error(`bulk failed: ${JSON.stringify(body.items.find((i) => JSON.stringify(i).includes('"error"')))}`);
}

/** The problems of a report, order-free. */
const sorted = (r: AuditReport) => [...r.tally.problems].sort((a, b) => `${a.id} ${a.shard} ${a.problem}`.localeCompare(`${b.id} ${b.shard} ${b.problem}`));
const idsOf = (ps: AuditProblem[]) => [...new Set(ps.map((p) => p.id))].sort();

const plantedWrong = new Set<string>();
const plantedRight = new Set<string>();
const flatWrong = new Set<string>();
const flatRight = new Set<string>();

beforeAll(async () => {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${FLAT}`, { okStatuses: [404] });
  await ensureSeeded(client, file, 300, 5);
  const { body } = await client.request<{ hits: { hits: { _id: string; _routing: string; _source: Record<string, unknown> }[] } }>('POST', `/${INDEX}/_search`, {
    body: { size: 1, query: { term: { join: 'restaurant' } }, sort: [{ id: 'asc' }] },
  });
  const r = body.hits.hits[0];
  const owner = r._routing;
  const other = await otherThan(INDEX, file, owner);
  const [ownerShard] = await searchShardsOf(client, INDEX, owner);
  let oddRouting = '';
  for (let i = 0; i < 500 && !oddRouting; i++) if ((await searchShardsOf(client, INDEX, `ae-${i}`))[0] === ownerShard) oddRouting = `ae-${i}`;
  const dish = (id: string, routing: string, src: Record<string, unknown>) => [{ index: { _index: INDEX, _id: id, routing } }, { id, name: 'planted dish', restaurant_location: r._source.location, ...src }];
  const wrong: object[][] = [
    [{ index: { _index: INDEX, _id: 'ae-wrong-shard', routing: other } }, { ...r._source, id: 'ae-wrong-shard' }],
    [{ index: { _index: INDEX, _id: 'ae-wrong-cell', routing: owner } }, { ...r._source, id: 'ae-wrong-cell', cell: r._source.cell === '808581' ? '808583' : '808581' }],
    [{ index: { _index: INDEX, _id: 'ae-wrong-shard-field', routing: owner } }, { ...r._source, id: 'ae-wrong-shard-field', shard: 'nowhere' }],
    [{ index: { _index: INDEX, _id: 'ae-wrong-routing', routing: oddRouting } }, { ...r._source, id: 'ae-wrong-routing' }],
    [{ index: { _index: INDEX, _id: 'ae-no-id', routing: other } }, { ...r._source, id: undefined }],
    dish('ae-apart', other, { join: { name: 'dish', parent: r._id }, restaurant_id: r._id }),
    dish('ae-parent-mismatch', owner, { join: { name: 'dish', parent: r._id }, restaurant_id: 'someone-else' }),
    dish('ae-no-restaurant-id', owner, { join: { name: 'dish', parent: r._id } }),
    dish('ae-orphan', owner, { join: { name: 'dish', parent: 'ae-nobody' }, restaurant_id: 'ae-nobody' }),
    dish('ae-no-join', owner, { restaurant_id: r._id }),
    dish('ae-dish-routing', oddRouting, { join: { name: 'dish', parent: r._id }, restaurant_id: r._id }),
  ];
  for (const [meta] of wrong) plantedWrong.add((meta as { index: { _id: string } }).index._id);
  // Restaurants (each with a dish) within 10 cm of cell corners on shard boundaries: right, and on another shard.
  const corners: object[][] = [];
  const points = boundaryCorners(file, 4);
  for (const [i, p] of points.entries()) {
    const at = router.readShard(p.lat, p.lng);
    const cell = cellToken(cellAt(p.lat, p.lng));
    const right = `ae-corner-${i}`;
    corners.push([{ index: { _index: INDEX, _id: right, routing: at.name } }, { id: right, join: 'restaurant', name: 'corner', location: { lat: p.lat, lon: p.lng }, cell, shard: at.name }]);
    corners.push(dish(`${right}-dish`, at.name, { restaurant_location: `${p.lat},${p.lng}`, join: { name: 'dish', parent: right }, restaurant_id: right }));
    plantedRight.add(right).add(`${right}-dish`);
    if (i % 3 === 0) {
      const elsewhere = await otherThan(INDEX, file, at.name);
      corners.push([{ index: { _index: INDEX, _id: `${right}-misplaced`, routing: elsewhere } }, { id: `${right}-misplaced`, join: 'restaurant', name: 'corner', location: [p.lng, p.lat], cell, shard: at.name }]);
      plantedWrong.add(`${right}-misplaced`);
    }
  }
  await bulk([...wrong, ...corners].flat());

  // A flat index (no join), routed by its geo_point `geo`, with geoshard _meta, at corners: right and wrong.
  await client.request('PUT', `/${FLAT}`, { body: { settings: { index: indexSettings(flatFile, 0) }, mappings: { _meta: indexMeta(flatFile), properties: { geo: { type: 'geo_point' } } } } });
  const lines: object[] = [];
  const flatRouter = new Router(flatFile);
  for (const [i, p] of [...points, ...boundaryCorners(flatFile, 8).slice(40)].entries()) {
    const at = flatRouter.readShard(p.lat, p.lng);
    lines.push({ index: { _index: FLAT, _id: `f${i}`, routing: at.name } }, { geo: { lat: p.lat, lon: p.lng } });
    flatRight.add(`f${i}`);
    if (i % 4 === 0) {
      lines.push({ index: { _index: FLAT, _id: `f${i}-misplaced`, routing: await otherThan(FLAT, flatFile, at.name) } }, { geo: `${p.lat},${p.lng}` });
      flatWrong.add(`f${i}-misplaced`);
    }
  }
  lines.push({ index: { _index: FLAT, _id: 'f-nowhere', routing: flatFile.shards[0].name } }, { other: 1 });
  lines.push({ index: { _index: FLAT, _id: 'f-odd-routing', routing: oddRouting } }, { geo: `${points[0].lat},${points[0].lng}` });
  flatWrong.add('f-nowhere').add('f-odd-routing');
  await bulk(lines);
}, 300_000);

afterAll(async () => {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${FLAT}`, { okStatuses: [404] });
  await client.request('DELETE', `/${MOVE}`, { okStatuses: [404] });
  await client.close();
});

describe('the audit in the cluster equals the audit in the client (live)', () => {
  it('on the sample shape: the same problems, exactly the documents planted wrong, and the same counts', async () => {
    const a = await auditIndex(client, INDEX, { engine: 'client', pageSize: 500 });
    const b = await auditIndex(client, INDEX, { engine: 'cluster', pageSize: 500 });
    expect(sorted(b)).toEqual(sorted(a));
    expect({ counts: b.tally.counts, documents: b.tally.documents }).toEqual({ counts: a.tally.counts, documents: a.tally.documents });
    expect(b.documents).toEqual(a.documents);
    expect(b.shards).toEqual(a.shards);
    expect(b.sourceReads).toBe(a.sourceReads);
    // Corner points straddled edges: both read them from _source.
    expect(a.sourceReads).toBeGreaterThan(0);
    expect(idsOf(a.tally.problems)).toEqual([...plantedWrong].sort());
    for (const id of plantedRight) expect(idsOf(a.tally.problems)).not.toContain(id);
    // The cluster sent only suspects: far fewer than the index holds.
    expect(a.returned).toBe(a.documents.total);
    expect(b.returned).toBeLessThan(a.documents.total / 5);
    // Every kind the audit names was planted and found.
    for (const kind of ['wrong-shard', 'dish-apart', 'wrong-cell', 'wrong-shard-field', 'wrong-routing'] as const) expect(b.tally.counts[kind], kind).toBeGreaterThan(0);
    const why = (id: string, problem: string) => b.tally.problems.find((p) => p.id === id && p.problem === problem)?.why;
    expect(why('ae-orphan', 'dish-apart')).toContain('it is in no shard of the index');
    expect(why('ae-parent-mismatch', 'dish-apart')).toContain('its join parent is');
    expect(why('ae-apart', 'dish-apart')).toMatch(/is not on shard \d+: it is on shard \d+/);
  }, 300_000);

  it('on a flat index: the same problems, exactly the documents planted wrong', async () => {
    const flat = { location: 'geo' };
    const a = await auditIndex(client, FLAT, { engine: 'client', flat });
    const b = await auditIndex(client, FLAT, { engine: 'cluster', flat });
    expect(sorted(b)).toEqual(sorted(a));
    expect(b.documents).toEqual(a.documents);
    expect(b.documents.total).toBe(flatRight.size + flatWrong.size);
    expect(idsOf(b.tally.problems)).toEqual([...flatWrong].sort());
    expect(b.returned).toBeLessThan(a.returned);
  }, 300_000);

  it('during a migration (a range with two write owners): the same problems at every step', async () => {
    await client.request('DELETE', `/${MOVE}`, { okStatuses: [404] });
    const base = derivedFile(MOVE);
    await ensureSeeded(client, base, 300, 5);
    const candidate = movedCandidate(base, 300, [1], 3);
    const m = plan(base, candidate, []).moves[0];
    type Hit = { _id: string; _source: Record<string, unknown> };
    const cellRange = { range: { cell: m.end === null ? { gte: m.start } : { gte: m.start, lt: m.end } } };
    const rs = (await client.request<{ hits: { hits: Hit[] } }>('POST', `/${MOVE}/_search`, { query: { routing: m.from }, body: { size: 1000, query: { bool: { filter: [{ term: { join: 'restaurant' } }, cellRange] } } } })).body.hits.hits;
    const ds = (await client.request<{ hits: { hits: Hit[] } }>('POST', `/${MOVE}/_search`, { query: { routing: m.from }, body: { size: 10000, query: { terms: { restaurant_id: rs.map((r) => r._id) } } } })).body.hits.hits;
    expect(rs.length).toBeGreaterThan(0);
    const now = () => new Date().toISOString();
    let state: MigrationState = startState(base, candidate, [m], now());
    const publish = async (to: Parameters<typeof advance>[2], patch: Parameters<typeof advance>[4] = {}) => {
      state = advance(state, 0, to, now(), patch);
      await writeMeta(client, MOVE, withState((await fetchIndexMeta(client, MOVE))!, state));
    };
    const same = async (dirty: boolean) => {
      const a = await auditIndex(client, MOVE, { engine: 'client' });
      const b = await auditIndex(client, MOVE, { engine: 'cluster' });
      expect(sorted(b)).toEqual(sorted(a));
      expect(b.documents).toEqual(a.documents);
      expect(a.clean).toBe(!dirty);
    };
    await publish('dual-write');
    await publish('copying');
    // The copy on the new owner, as the executor writes it: both copies are right while dual-written.
    const body = [...rs, ...ds].map((h) => JSON.stringify({ create: { _index: MOVE, _id: h._id, routing: m.to } }) + '\n' + JSON.stringify(h._source.join === 'restaurant' ? { ...h._source, shard: m.to } : h._source)).join('\n') + '\n';
    expect((await client.request<{ errors: boolean }>('POST', '/_bulk', { query: { refresh: 'true', pipeline: '_none' }, body })).body.errors).toBe(false);
    await same(false);
    const counts = { restaurants: rs.length, dishes: ds.length };
    await publish('verified', { verified: { from: counts, to: counts } });
    await publish('switched');
    await same(false);
    // Writes go to the new owner only: the old copies are wrong, on both paths.
    await publish('deleting');
    await same(true);
  }, 300_000);
});

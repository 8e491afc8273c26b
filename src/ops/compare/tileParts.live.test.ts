/**
 * The switch's exact check by parts (tileParts.ts, docDiff.ts) on a real
 * node. Two copies of the same 30,000 places (the gazetteer) plus points on
 * level-10 tile corners, near the poles, on the antimeridian, with a second
 * geo field and with none, sharded differently (3 and 5 shards); documents
 * are then deleted from the first copy only, as a writer does between the
 * last catch-up pass and the write block.
 *
 * The reference is the node: its own `geotile_grid` assigns each point a
 * tile, and each tile's box (tileBox) must select that point; the deleted ids
 * are the test's own record. Index names: tp-* only.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadGazetteer } from '../../data/places.ts';
import { mulberry32 } from '../../core/testutil.ts';
import { liveClient } from '../../testing/testkit.ts';
import { catchUpPass, compareSides, differingParts } from './docDiff.ts';
import { tileBox, tileParts } from './tileParts.ts';
import { indexSide } from '../reindex/indexSide.ts';
import { seqNos } from './shardReader.ts';

const client = liveClient();
const A = 'tp-a';
const B = 'tp-b';
const FIELDS = ['geo', 'child'];

/** The latitude of row y's top edge at zoom z (Web Mercator): computed here, not by the module under test. */
const rowLat = (z: number, y: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * y) / 2 ** z))) * 180) / Math.PI;

interface Doc {
  id: string;
  src: Record<string, unknown>;
}

function docs(): Doc[] {
  const out: Doc[] = loadGazetteer()
    .slice(0, 30_000)
    .map((p) => ({ id: `p${p.cityId}`, src: { name: p.name, geo: { lat: p.loc.coordinates[1], lon: p.loc.coordinates[0] } } }));
  // Tile corners and edges at zoom 10 (and the points a hair either side of them), around three cities.
  for (const [x, y] of [[300, 385], [511, 340], [900, 400]]) {
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
      const lat = rowLat(10, y + dy);
      const lon = ((x + dx) / 1024) * 360 - 180;
      for (const e of [-1e-7, 0, 1e-7]) out.push({ id: `corner-${x + dx}-${y + dy}-${e}`, src: { name: 'corner', geo: { lat: lat + e, lon: lon - e } } });
    }
  }
  for (const lat of [89.99, 85.06, -85.06, -89.99]) out.push({ id: `pole${lat}`, src: { name: 'pole', geo: { lat, lon: 10 } } });
  for (const lon of [180, -180, 179.9999999]) out.push({ id: `am${lon}`, src: { name: 'antimeridian', geo: { lat: 10, lon } } });
  for (let k = 0; k < 20; k++) out.push({ id: `child${k}`, src: { name: 'dish', child: { lat: 48.85 + k / 1000, lon: 2.35 } } });
  for (let k = 0; k < 5; k++) out.push({ id: `both${k}`, src: { name: 'both', geo: { lat: -33.9, lon: 151.2 + k / 100 }, child: { lat: 35.7, lon: 139.7 } } });
  for (let k = 0; k < 10; k++) out.push({ id: `nowhere${k}`, src: { name: 'nowhere' } });
  return out;
}

async function load(index: string, shards: number, all: Doc[]): Promise<void> {
  await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.admin('PUT', `/${index}`, {
    body: {
      settings: { index: { number_of_shards: shards, number_of_replicas: 0 } },
      mappings: { dynamic: 'strict', properties: { name: { type: 'keyword' }, geo: { type: 'geo_point' }, child: { type: 'geo_point' } } },
    },
  });
  for (let i = 0; i < all.length; i += 10_000) {
    let body = '';
    for (const d of all.slice(i, i + 10_000)) body += JSON.stringify({ index: { _index: index, _id: d.id } }) + '\n' + JSON.stringify(d.src) + '\n';
    const r = await client.request<{ errors: boolean }>('POST', '/_bulk', { body, query: { filter_path: 'errors' }, timeoutMs: 180_000 });
    expect(r.body.errors).toBe(false);
  }
  await client.request('POST', `/${index}/_refresh`);
}

const all = docs();
/** What the tests deleted from A only (B keeps it). */
const deleted = new Set<string>();

beforeAll(async () => {
  await load(A, 3, all);
  await load(B, 5, all);
}, 300_000);

afterAll(async () => {
  for (const i of [A, B]) await client.request('DELETE', `/${i}`, { okStatuses: [404] });
  await client.close();
});

describe('parts the cluster counts (map tiles of the geo fields)', () => {
  it("each tile's box selects every point the node's geotile_grid puts in that tile, at tile corners, poles and the antimeridian too", async () => {
    const special = all.filter((d) => !d.id.startsWith('p') || d.id.startsWith('pole'));
    for (const z of [7, 10, 16]) {
      for (const d of special) {
        for (const field of FIELDS) {
          if (!d.src[field]) continue;
          const { body } = await client.request<{ aggregations: { t: { buckets: { key: string }[] } } }>('POST', `/${A}/_search`, {
            body: { size: 0, query: { ids: { values: [d.id] } }, aggs: { t: { geotile_grid: { field, precision: z } } } },
          });
          const key = body.aggregations.t.buckets[0].key;
          const [kz, kx, ky] = key.split('/').map(Number);
          const hit = await client.request<{ count: number }>('POST', `/${A}/_count`, { body: { query: { bool: { filter: [{ ids: { values: [d.id] } }, { geo_bounding_box: { [field]: tileBox(kz, kx, ky) } }] } } } });
          expect(hit.body.count, `${d.id} ${field} in tile ${key}`).toBe(1);
        }
      }
    }
  }, 300_000);

  it('two equal copies, sharded differently, count alike in every part', async () => {
    const [pa, pb] = [tileParts(client, A, 3, FIELDS), tileParts(client, B, 5, FIELDS)];
    const [ca, cb] = await Promise.all([pa.counts(null), pb.counts(null)]);
    expect(ca.size).toBeGreaterThan(500);
    expect([...ca].sort()).toEqual([...cb].sort());
    expect(ca.get('none')).toBe(10);
    expect(await differingParts(pa, pb)).toEqual({ keys: [], docs: 0 });
  });

  it('after deletes on one copy only, the exact check finds exactly those ids, reading a small part of the index, and cuts a busy tile deeper', async () => {
    const rand = mulberry32(29);
    for (const id of ['corner-300-385-0', 'pole89.99', 'am180', 'child3', 'both1', 'nowhere4']) deleted.add(id);
    while (deleted.size < 40) deleted.add(all[Math.floor(rand() * 30_000)].id);
    // The checkpoint a catch-up pass took before the deletes: they are not "written since" (a delete leaves no document to find).
    const since = { from: await seqNos(client, A), to: await seqNos(client, B) };
    let body = '';
    for (const id of deleted) body += JSON.stringify({ delete: { _index: A, _id: id } }) + '\n';
    await client.request('POST', '/_bulk', { body, query: { refresh: 'true' } });

    const shape = { join: null, pipeline: false };
    const c = await compareSides(indexSide(client, A, 3, shape, FIELDS), indexSide(client, B, 5, shape, FIELDS), since, new Set(), { blocked: true, presenceByCount: true });
    expect(c.presence).toBe('parts');
    expect(c.diff).toEqual({ missing: [], changed: [], extra: [...deleted].sort() });

    // What was read: the differing parts only. With parts of at most 50 documents the busy tiles are cut deeper.
    const whole = all.length;
    const coarse = await differingParts(tileParts(client, A, 3, FIELDS), tileParts(client, B, 5, FIELDS));
    const fine = await differingParts(tileParts(client, A, 3, FIELDS), tileParts(client, B, 5, FIELDS), 50);
    expect(coarse.docs).toBeLessThan(whole / 2);
    expect(fine.docs).toBeLessThan(coarse.docs);
    expect(fine.keys.some((k) => k !== 'none' && Number(k.split('/')[1]) > 7)).toBe(true);
    for (const k of fine.keys) if (k !== 'none') expect(k).toMatch(/^[01]\/\d+\/\d+\/\d+$/);
    console.log(`parts: ${whole} documents; differing parts read ${coarse.docs} (${coarse.keys.length} parts, first cut) or ${fine.docs} (${fine.keys.length} parts of at most 50)`);

    // A field the cluster cannot cut into tiles (not a geo_point): every id, the same answer.
    const byIds = await compareSides(indexSide(client, A, 3, shape, ['name']), indexSide(client, B, 5, shape, ['name']), since, new Set(), { blocked: true, presenceByCount: true });
    expect(byIds.presence).toBe('ids');
    expect(byIds.diff).toEqual(c.diff);
  }, 300_000);

  it('a catch-up pass while the copies differ by creates, moves and deletes fixes them all, reading ids only in the tiles whose counts differ', async () => {
    // The copies as the test before left them: 40 deleted from A only. Then a writer creates, moves and deletes on A.
    const since = { from: await seqNos(client, A), to: await seqNos(client, B) };
    let body = '';
    for (let k = 0; k < 5; k++) body += JSON.stringify({ index: { _index: A, _id: `new${k}` } }) + '\n' + JSON.stringify({ name: 'new', geo: { lat: 10 + k, lon: 20 } }) + '\n';
    const moved = all.slice(2000, 2003).map((d) => d.id).filter((id) => !deleted.has(id));
    for (const id of moved) body += JSON.stringify({ index: { _index: A, _id: id } }) + '\n' + JSON.stringify({ name: 'moved', geo: { lat: -40, lon: -70 } }) + '\n';
    const gone = all.slice(1000, 1010).map((d) => d.id).filter((id) => !deleted.has(id));
    gone.forEach((id) => deleted.add(id));
    for (const id of gone) body += JSON.stringify({ delete: { _index: A, _id: id } }) + '\n';
    const w = await client.request<{ errors: boolean }>('POST', '/_bulk', { body, query: { refresh: 'true' } });
    expect(w.body.errors).toBe(false);

    const shape = { join: null, pipeline: false };
    const [sa, sb] = [indexSide(client, A, 3, shape, FIELDS), indexSide(client, B, 5, shape, FIELDS)];
    const pass = await catchUpPass(sa, sb, since, new Set());
    expect(pass.presence).toBe('parts');
    expect(pass.diff.missing).toEqual(['new0', 'new1', 'new2', 'new3', 'new4']);
    expect(pass.diff.changed).toEqual([...moved].sort());
    expect(pass.diff.extra).toEqual([...deleted].sort());
    expect(pass.presenceDocs).toBeLessThan(all.length / 2);
    // Now equal: an exact comparison of every id and every content finds nothing.
    const again = await compareSides(sa, sb, since, new Set(all.map((d) => d.id)), { blocked: true });
    expect(again.presence).toBe('ids');
    expect(again.diff).toEqual({ missing: [], changed: [], extra: [] });
  }, 300_000);
});

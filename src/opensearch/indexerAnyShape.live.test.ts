/**
 * GeoIndexer.putDocument / deleteDocument on indexes of a team's own shape,
 * made with createGeoIndex from a config, on a real node: a flat index
 * located by a nested field path (`where.pos`), and a parent/child index
 * (shops and their items, the child carrying its shop's location in
 * `shop_pos`).
 *
 * Expected shards come from the routing core (Router.writeShards), not from
 * the writer under test; where copies are is read back from the node (every
 * hit of the id with its `_routing`). Index names: gi-* only.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Client } from '@opensearch-project/opensearch';
import { Router } from '../core/index.ts';
import { loadGazetteer } from '../data/places.ts';
import { derivedFile } from '../testing/testkit.ts';
import { checkIndexConfig } from './indexConfig.ts';
import { createGeoIndex } from './createIndex.ts';
import { pipelineId } from './routingPipeline.ts';
import { GeoIndexer, GeoIndexError } from './indexer.ts';

const client = new Client({ node: process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200' });
const FLAT = 'gi-flat';
const SHOPS = 'gi-shops';

async function drop(index: string): Promise<void> {
  await client.indices.delete({ index }, { ignore: [404] });
  await client.transport.request({ method: 'DELETE', path: `/_ingest/pipeline/${pipelineId(index)}` }, { ignore: [404] });
}

/** Every copy of an id on the node: its routing and source. */
async function copiesOf(index: string, id: string): Promise<{ routing: string; source: Record<string, unknown> }[]> {
  await client.indices.refresh({ index });
  const r = await client.search({ index, body: { size: 20, query: { ids: { values: [id] } } } });
  return (r.body.hits.hits as { _routing: string; _source: Record<string, unknown> }[]).map((h) => ({ routing: h._routing, source: h._source }));
}

const router = new Router(derivedFile(FLAT));
/** Two places whose level-10 cells belong to different shards (picked with the core). */
const [P, Q] = (() => {
  const g = loadGazetteer();
  const at = (k: number) => ({ lat: g[k].loc.coordinates[1], lon: g[k].loc.coordinates[0] });
  const p = at(0);
  const first = router.writeShards(p.lat, p.lon)[0].name;
  for (let k = 1; k < g.length; k++) {
    const q = at(k);
    if (router.writeShards(q.lat, q.lon)[0].name !== first) return [p, q];
  }
  throw new Error('no two places on different shards');
})();
const owner = (p: { lat: number; lon: number }) => router.writeShards(p.lat, p.lon).map((s) => s.name);

beforeAll(async () => {
  await drop(FLAT);
  await drop(SHOPS);
  const flat = checkIndexConfig({ index: FLAT, location: 'where.pos', name: 'title' }).config!;
  await createGeoIndex(client, derivedFile(FLAT), flat, { replicas: 0, mappings: { properties: { title: { type: 'keyword' } } } });
  const shops = checkIndexConfig({ index: SHOPS, location: 'pos', name: 'title', join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'shop_pos' } }).config!;
  await createGeoIndex(client, derivedFile(SHOPS), shops, { replicas: 0, mappings: { properties: { title: { type: 'keyword' }, rel: { type: 'join', relations: { shop: 'item' } } } } });
}, 120_000);

afterAll(async () => {
  await drop(FLAT);
  await drop(SHOPS);
  await client.close();
});

describe('GeoIndexer on an index of its own shape', () => {
  it('a flat index: puts a document on the shard its nested location names, moves it when the location moves, deletes it', async () => {
    const w = new GeoIndexer(client, FLAT);
    const put = await w.putDocument('a', { title: 'A', where: { pos: P } });
    expect(put.created).toBe(true);
    expect(put.owners.map((o) => o.name)).toEqual(owner(P));
    expect((await copiesOf(FLAT, 'a')).map((c) => c.routing)).toEqual(owner(P));

    const moved = await w.putDocument('a', { title: 'A2', where: { pos: Q } });
    expect(moved.created).toBe(false);
    expect(moved.movedFrom).toEqual(owner(P));
    const after = await copiesOf(FLAT, 'a');
    expect(after.map((c) => c.routing)).toEqual(owner(Q));
    expect(after[0].source.title).toBe('A2');

    const del = await w.deleteDocument('a');
    expect(del.routings).toEqual(owner(Q));
    expect(await copiesOf(FLAT, 'a')).toEqual([]);
    await expect(w.deleteDocument('a')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('a document without a valid location is refused, naming the field and the value, and nothing is written', async () => {
    const w = new GeoIndexer(client, FLAT);
    const e1 = await w.putDocument('b', { title: 'B', where: { pos: { lat: 95, lon: 0 } } }).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(GeoIndexError);
    expect((e1 as GeoIndexError).code).toBe('invalid');
    expect((e1 as Error).message).toMatch(/"where\.pos" is \{"lat":95,"lon":0\}: expected a geo_point/);
    const e2 = await w.putDocument('b', { title: 'B' }).catch((e: unknown) => e);
    expect((e2 as Error).message).toMatch(/"where\.pos" is missing/);
    expect(await copiesOf(FLAT, 'b')).toEqual([]);
  });

  it('a parent/child index: a child is routed by its copy of the parent location; a parent that moves takes its children along, rewritten with its new location', async () => {
    const w = new GeoIndexer(client, SHOPS);
    await w.putDocument('s1', { title: 'Shop', rel: 'shop', pos: P });
    const item = await w.putDocument('i1', { title: 'Item', rel: { name: 'item', parent: 's1' }, shop_pos: P });
    expect(item.restaurantId).toBe('s1');
    expect((await copiesOf(SHOPS, 'i1')).map((c) => c.routing)).toEqual(owner(P));
    // A child's id cannot be reused for a parent.
    await expect(w.putDocument('i1', { title: 'x', rel: 'shop', pos: P })).rejects.toMatchObject({ code: 'conflict' });

    const moved = await w.putDocument('s1', { title: 'Shop moved', rel: 'shop', pos: Q });
    expect(moved.dishes).toBe(1);
    expect(moved.movedFrom).toEqual(owner(P));
    expect((await copiesOf(SHOPS, 's1')).map((c) => c.routing)).toEqual(owner(Q));
    const child = await copiesOf(SHOPS, 'i1');
    expect(child.map((c) => c.routing)).toEqual(owner(Q));
    expect(child[0].source.shop_pos).toEqual(Q);
    // The join still holds: the shop finds its item on its shard.
    const hc = await client.search({ index: SHOPS, routing: owner(Q)[0], body: { query: { has_child: { type: 'item', query: { match_all: {} } } } } });
    expect((hc.body.hits.hits as { _id: string }[]).map((h) => h._id)).toEqual(['s1']);

    // A parent with children is deleted only with them, when asked.
    await expect(w.deleteDocument('s1')).rejects.toMatchObject({ code: 'conflict' });
    expect(await copiesOf(SHOPS, 's1')).toHaveLength(1);
    const del = await w.deleteDocument('s1', { withChildren: true });
    expect(del.dishes).toBe(1);
    expect(await copiesOf(SHOPS, 's1')).toEqual([]);
    expect(await copiesOf(SHOPS, 'i1')).toEqual([]);
  });
});

/**
 * GET /api/documents/:id on the real node, on an index of this test's own (ui-docs), written
 * with the package's writer (GeoIndexer). Where a document is comes from the engine: each shard
 * is searched by itself (`preference=_shards:N`) for the id, so "the shard that holds it" in the
 * expectation is the engine's word, not the endpoint's; where the file puts it is the core's
 * Router (the boundary file's meaning).
 *
 *   - a restaurant and its dish: found on the file's shard, agrees;
 *   - a copy written around the routing pipeline with another shard's routing (a misrouted
 *     write): found there, named, and the answer says it disagrees;
 *   - an unknown id is a 404, an invalid id a 400 naming `id`.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Router } from '../core/index.ts';
import { derivedFile, ensureSeeded, liveClient, startApi, getJson, type RunningApi } from '../testing/testkit.ts';
import { SampleIndexer } from '../opensearch/index.ts';
import type { DocumentAnswer } from './wire.ts';

const client = liveClient();
const file = derivedFile('ui-docs');
const router = new Router(file);
const A = { lat: 37.7749, lng: -122.4194 }; // San Francisco
const B = { lat: 40.7128, lng: -74.006 }; // New York

/** The shard numbers on which a search of `id` by itself finds it (the engine's word). */
async function whereIs(id: string): Promise<number[]> {
  await client.request('POST', `/${file.index}/_refresh`);
  const out: number[] = [];
  for (let n = 0; n < file.numberOfShards; n++) {
    const { body } = await client.request<{ hits: { hits: unknown[] } }>('POST', `/${file.index}/_search`, { query: { preference: `_shards:${n}` }, body: { size: 10, query: { ids: { values: [id] } } } });
    if (body.hits.hits.length > 0) out.push(n);
  }
  return out;
}

describe('GET /api/documents/:id on the real node', () => {
  let api: RunningApi;
  let indexer: SampleIndexer;
  beforeAll(async () => {
    await ensureSeeded(client, file, 20, 1);
    indexer = new SampleIndexer(client.os, file.index, { metaTtlMs: 0 });
    await indexer.putRestaurant({ id: 'ui-r1', name: 'Blue Fig', lat: A.lat, lng: A.lng });
    await indexer.putDish('ui-r1', { id: 'ui-r1-d0', name: 'Fig salad', priceCents: 1299 });
    // A misrouted copy: New York's document written with San Francisco's routing, around the pipeline.
    await client.request('PUT', `/${file.index}/_doc/ui-stray`, {
      query: { routing: router.route(A.lat, A.lng).name, pipeline: '_none', refresh: 'true' },
      body: { join: 'restaurant', id: 'ui-stray', name: 'Stray', location: { lat: B.lat, lon: B.lng }, shard: router.route(A.lat, A.lng).name },
    });
    api = await startApi({ file, client });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('finds a restaurant on the shard the file names for its cell, and says they agree', async () => {
    const placed = router.route(A.lat, A.lng);
    expect(await whereIs('ui-r1')).toEqual([placed.shard]);
    const r = await getJson(`${api.url}/api/documents/ui-r1`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body as DocumentAnswer;
    expect(d).toMatchObject({ status: 'found', index: file.index, id: 'ui-r1', kind: 'restaurant', location: A, cell: placed.token, file: { name: placed.name, shard: placed.shard }, agrees: true });
    expect(d.copies).toEqual([{ shard: placed.shard, name: placed.name, routing: placed.name, agrees: true }]);
  });

  it('places a dish by its copy of the restaurant’s location', async () => {
    const placed = router.route(A.lat, A.lng);
    expect(await whereIs('ui-r1-d0')).toEqual([placed.shard]);
    const r = await getJson(`${api.url}/api/documents/ui-r1-d0`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ kind: 'dish', location: A, cell: placed.token, file: { shard: placed.shard }, copies: [{ shard: placed.shard, agrees: true }], agrees: true });
  });

  it('names the shard a misrouted document is on, and says it disagrees with the file', async () => {
    const placed = router.route(B.lat, B.lng);
    const wrong = router.route(A.lat, A.lng);
    expect(wrong.shard).not.toBe(placed.shard);
    expect(await whereIs('ui-stray')).toEqual([wrong.shard]);
    const r = await getJson(`${api.url}/api/documents/ui-stray`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ location: B, cell: placed.token, file: { name: placed.name, shard: placed.shard }, copies: [{ shard: wrong.shard, name: wrong.name, routing: wrong.name, agrees: false }], agrees: false });
  });

  it('answers 404 for an id no shard holds and 400 naming `id` for an invalid one', async () => {
    const missing = await getJson(`${api.url}/api/documents/ui-nobody`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'not-found', error: { param: 'id', message: expect.stringContaining('no document with id "ui-nobody" in index ui-docs') } });
    const bad = await getJson(`${api.url}/api/documents/${encodeURIComponent('a b')}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ status: 'invalid', error: { param: 'id', message: expect.stringContaining('id "a b" is invalid') } });
  });
});

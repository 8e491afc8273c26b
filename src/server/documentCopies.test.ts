import { describe, it, expect } from 'vitest';
import { Router } from '../core/index.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { documentAnswer, locationFields } from './documentCopies.ts';
import { SAMPLE_CONFIG } from '../opensearch/indexConfig.ts';
import type { OpenSearchClient } from '../cluster/client.ts';

// The engine's side is a recorded-shape stand-in (the real node's answers are documents.live.test.ts's);
// this checks what the answer reads from a flat index's config (no join, a nested location field).
const router = new Router(fileWithCuts([1_000_000, 3_000_000, 5_000_000], 'places'));
const flat = { location: 'pos.geo', join: null };

function clientAnswering(hits: unknown[]): { client: OpenSearchClient; bodies: unknown[] } {
  const bodies: unknown[] = [];
  const client = { request: async (_m: string, _p: string, o: { body: unknown }) => (bodies.push(o.body), { status: 200, body: { hits: { hits } } }) } as unknown as OpenSearchClient;
  return { client, bodies };
}

describe('documentAnswer', () => {
  it('places a document of a flat index by the config’s location field, with no kind', async () => {
    const placed = router.route(48.8566, 2.3522);
    const { client, bodies } = clientAnswering([{ _id: 'p1', _shard: '[places][' + placed.shard + ']', _routing: placed.name, _source: { pos: { geo: { lat: 48.8566, lon: 2.3522 } } } }]);
    const a = await documentAnswer(client, router, 'p1', flat);
    expect(bodies[0]).toMatchObject({ _source: ['pos.geo'], explain: true, query: { ids: { values: ['p1'] } } });
    expect(a).toEqual({ status: 'found', id: 'p1', kind: null, location: { lat: 48.8566, lng: 2.3522 }, cell: placed.token, file: { name: placed.name, shard: placed.shard }, copies: [{ shard: placed.shard, name: placed.name, routing: placed.name, agrees: true }], agrees: true });
  });

  it('reads the sample’s child by its copy of the parent’s location and names its relation', async () => {
    expect(locationFields(SAMPLE_CONFIG)).toEqual(['location', 'restaurant_location']);
    const placed = router.route(37.7749, -122.4194);
    const other = router.shards.find((s) => s.shard !== placed.shard)!;
    const { client } = clientAnswering([{ _id: 'r1-d0', _shard: `[places][${other.shard}]`, _routing: other.name, _source: { join: { name: 'dish', parent: 'r1' }, restaurant_location: '37.7749,-122.4194' } }]);
    const a = await documentAnswer(client, router, 'r1-d0', SAMPLE_CONFIG);
    expect(a).toMatchObject({ kind: 'dish', file: { shard: placed.shard }, copies: [{ shard: other.shard, name: other.name, agrees: false }], agrees: false });
  });

  it('is null when no shard holds the id, and says which fields it read when none holds a point', async () => {
    expect(await documentAnswer(clientAnswering([]).client, router, 'nobody', flat)).toBeNull();
    await expect(documentAnswer(clientAnswering([{ _id: 'p2', _source: { pos: {} } }]).client, router, 'p2', flat)).rejects.toThrow('document "p2" has no location: none of pos.geo holds a geo_point');
  });
});

/**
 * `geoshard seed`'s load on a real node: what it leaves (every document on the shard the core
 * names, the engine's refresh and durability settings back, the routing pipeline installed) and
 * what it does not do (run that pipeline on its own load when it seeds over an index that has
 * one). The expected shards come from the core's Router; the actual ones and the pipeline's
 * run count from the node (`preference=_shards:N`, `_nodes/stats/ingest`).
 */
import { describe, it, expect, afterAll } from 'vitest';
import { Router } from '../../core/index.ts';
import { derivedFile, liveClient } from '../../testing/testkit.ts';
import { seedIndex } from './seeder.ts';
import { predictCounts, sampleOf } from '../../data/sample.ts';
import { pipelineId } from '../../opensearch/routingPipeline.ts';

const client = liveClient();
const INDEX = 'gs-bulk-seed-live';
const file = derivedFile(INDEX);
const router = new Router(file);
const RESTAURANTS = 300;
const DISHES = 3;

/** How many documents the pipeline has run on, summed over the nodes. */
async function pipelineRuns(): Promise<number> {
  const st = await client.get<{ nodes: Record<string, { ingest?: { pipelines?: Record<string, { count: number }> } }> }>('/_nodes/stats/ingest');
  return Object.values(st.nodes).reduce((n, x) => n + (x.ingest?.pipelines?.[pipelineId(INDEX)]?.count ?? 0), 0);
}

afterAll(async () => {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`, { okStatuses: [404] });
  await client.close();
});

describe('seed on a real node', () => {
  it('puts every document on the shard the core names and restores the engine\'s settings with the pipeline', async () => {
    const r = await seedIndex({ client, router, restaurants: RESTAURANTS, dishesPerRestaurant: DISHES, recreate: true });
    const expected = predictCounts(router, sampleOf(RESTAURANTS), DISHES);
    const total = expected.restaurants.reduce((a, b) => a + b, 0) + expected.dishes.reduce((a, b) => a + b, 0);
    expect(r.indexDocs).toBe(total);
    for (let s = 0; s < router.numberOfShards; s++) {
      const q = (kind: string) => client.request<{ count: number }>('POST', `/${INDEX}/_count`, { query: { preference: `_shards:${s}` }, body: { query: { term: { join: kind } } } });
      expect([(await q('restaurant')).body.count, (await q('dish')).body.count]).toEqual([expected.restaurants[s], expected.dishes[s]]);
    }
    const settings = await client.get<Record<string, { settings: { index: Record<string, unknown> } }>>(`/${INDEX}/_settings`);
    const index = settings[INDEX].settings.index;
    expect(index.refresh_interval).toBeUndefined();
    expect(index.translog).toBeUndefined();
    expect(index.default_pipeline).toBe(pipelineId(INDEX));
  }, 120_000);

  it('does not run the index\'s routing pipeline on its own load when it seeds over the index again', async () => {
    const before = await pipelineRuns();
    const r = await seedIndex({ client, router, restaurants: RESTAURANTS, dishesPerRestaurant: DISHES });
    expect(r.created).toBe(false);
    expect(await pipelineRuns()).toBe(before);
    // A write that names no pipeline still goes through it.
    await client.request('PUT', `/${INDEX}/_doc/gs-bulk-probe`, { body: { join: 'restaurant', id: 'gs-bulk-probe', name: 'Probe', location: { lat: 40.7, lon: -74 } }, query: { refresh: 'true' } });
    expect(await pipelineRuns()).toBe(before + 1);
  }, 120_000);
});

/**
 * `geoshard pipeline --install --search` on a cluster with the geoshard plugin on every node, as a
 * user runs it (the CLI's main, against the real cluster): it chooses the plugin's geo_routing for
 * writes and says so, installs the search pipeline as the index's search.default_pipeline, and
 * then a plain client's search that sends no routing asks exactly the shards the core's covering
 * names (ext.geoshard and _shards.total) and finds what an all-shards search finds; a write that
 * sends no routing lands on the shard the core names. `--processor painless` puts the Painless
 * pipeline back; `--uninstall` removes both, and searches ask every shard again. Seed and
 * migrate's reinstalls keep the plugin's pipeline (installPipeline 'keep'). The live API then lets
 * the cluster route its searches (routedBy cluster, the covering's shards, every shard's answer;
 * route=client sends its own routing) and POST /api/measure compares the three ways.
 *
 * Skipped, saying why, on a cluster whose nodes do not all run the plugin (npm test starts its
 * clusters with --plugin; a cluster started without it skips).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Router } from '../../core/index.ts';
import { main } from '../../cli/main.ts';
import { derivedFile, ensureSeeded, getJson, liveClient, startApi } from '../../testing/testkit.ts';
import { installPipeline, readPipeline, pipelineStatusOf } from './pipelineInstall.ts';
import { pluginNodes, readSearchPipeline } from './searchPipelineInstall.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { searchPipelineId } from '../../opensearch/pluginPipelines.ts';

const client = liveClient();
const file = derivedFile('gs-spipe-live');
const INDEX = file.index;
let skip = '';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

type Hits = { _shards: { total: number }; hits: { total: { value: number }; hits: { _id: string }[] }; ext?: { geoshard?: { routed: boolean; routing: string | null; shards: number; reason: string | null } } };

/** A search of the circle by a plain client: no routing; `none` skips the index's search pipeline (every shard). */
async function search(lat: number, lng: number, km: number, none = false): Promise<Hits> {
  const body = { size: 1000, sort: [{ _id: 'asc' }], track_total_hits: true, query: { bool: { filter: [{ geo_distance: { distance: `${km * 1000}m`, location: { lat, lon: lng } } }] } } };
  return (await client.request<Hits>('POST', `/${INDEX}/_search`, { body, query: none ? { search_pipeline: '_none' } : {} })).body;
}

beforeAll(async () => {
  const nodes = await pluginNodes(client);
  if (nodes.nodes === 0 || nodes.without.length > 0) {
    skip = `the cluster does not run the geoshard plugin on every node (${nodes.without.length} of ${nodes.nodes} lack it): start it with "node scripts/cluster.mjs start --plugin"`;
    console.log(`searchPipelineInstall.live: skipped: ${skip}`);
    return;
  }
  await ensureSeeded(client, file, 400, 2);
}, 300_000);

afterAll(async () => {
  if (!skip) await cli('pipeline', '--uninstall', '--index', INDEX);
  await client.close();
});

describe('geoshard pipeline --install --search with the plugin on every node', () => {
  it('chooses the plugin for writes, says so, and routes a plain client\'s searches to the covering\'s shards', async (ctx) => {
    if (skip) return ctx.skip();
    const r = await cli('pipeline', '--install', '--search', '--index', INDEX);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain("run by the plugin's geo_routing");
    expect(r.out).toContain(`the geoshard plugin`);
    expect(r.out).toContain(`installed search pipeline ${searchPipelineId(INDEX)}`);
    const ingest = await readPipeline(client, INDEX);
    expect(ingest).toMatchObject({ processor: 'plugin', defaultPipeline: `geoshard-${INDEX}`, pinned: null });
    expect(pipelineStatusOf(ingest, await fetchIndexMeta(client, INDEX), INDEX)).toMatchObject({ matches: true });
    expect(await readSearchPipeline(client, INDEX)).toMatchObject({ routes: true, pinned: null });

    const router = new Router(file);
    for (const [lat, lng, km] of [
      [40.7128, -74.006, 25],
      [37.7749, -122.4194, 80],
      [51.5074, -0.1278, 300],
    ] as const) {
      const routed = await search(lat, lng, km);
      const all = await search(lat, lng, km, true);
      const cover = router.cover(lat, lng, km);
      expect(routed.ext?.geoshard?.routed, `${lat},${lng} ${km} km: ${routed.ext?.geoshard?.reason}`).toBe(true);
      expect(routed._shards.total).toBe(cover.shards.length);
      expect(routed.ext!.geoshard!.routing).toBe(cover.routing);
      expect(all._shards.total).toBe(file.numberOfShards);
      expect(routed.hits.total.value).toBe(all.hits.total.value);
      expect(routed.hits.hits.map((h) => h._id)).toEqual(all.hits.hits.map((h) => h._id));
    }
  }, 120_000);

  it('the live API lets the cluster route: /api/search says who routed it, route=client routes itself, and Measure compares three ways', async (ctx) => {
    if (skip) return ctx.skip();
    const installed = await cli('pipeline', '--install', '--search', '--index', INDEX);
    expect(installed.code, installed.err).toBe(0);
    const api = await startApi({ file, client, pipelineTtlMs: 0 });
    try {
      const router = new Router(file);
      for (const [lat, lng, km] of [
        [40.7128, -74.006, 25],
        [51.5074, -0.1278, 300],
      ] as const) {
        const cover = router.cover(lat, lng, km);
        const q = `lat=${lat}&lng=${lng}&radius=${km}km&size=20&compare=1`;
        const byCluster = await getJson(`${api.url}/api/search?${q}`);
        expect(byCluster.status, JSON.stringify(byCluster.body).slice(0, 400)).toBe(200);
        expect(byCluster.body, JSON.stringify(byCluster.body.cluster)).toMatchObject({ scope: 'cluster', routedBy: 'cluster', routing: cover.routing, identical: true });
        expect(byCluster.body.cluster).toMatchObject({ routed: true, agrees: true, reason: null });
        expect(byCluster.body.shards.total).toBe(cover.shards.length);
        expect(byCluster.body.shardsAsked.map((x: { name: string }) => x.name).sort()).toEqual(cover.shards.map((x) => x.name).sort());
        const byServer = await getJson(`${api.url}/api/search?${q}&route=client`);
        expect(byServer.body).toMatchObject({ scope: 'routed', routedBy: 'client', routing: cover.routing, identical: true, total: byCluster.body.total });
        expect(byServer.body.hits.map((h: { id: string }) => h.id)).toEqual(byCluster.body.hits.map((h: { id: string }) => h.id));
      }
      const bad = await getJson(`${api.url}/api/search?lat=1&lng=2&radius=5km&route=plugin`);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({ param: 'route' });
      const res = await fetch(`${api.url}/api/measure`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lat: 40.7128, lng: -74.006, radius: '25km', runs: 4, concurrency: 2 }) });
      const m = await res.json();
      expect(res.status, JSON.stringify(m).slice(0, 400)).toBe(200);
      expect(m.identical, m.differences?.join('; ')).toBe(true);
      const cover = router.cover(40.7128, -74.006, 25);
      expect(m.routed.shardsAsked).toBe(cover.shards.length);
      expect(m.cluster.side.shardsAsked).toBe(cover.shards.length);
      expect(m.all.shardsAsked).toBe(file.numberOfShards);
      expect(m.cluster.side.searchesPerS).toBeGreaterThan(0);
      expect(m.method).toContain('routed by the cluster');
    } finally {
      await api.close();
    }
  }, 180_000);

  it('places a write that sends no routing on the shard the core names, and keeps the plugin pipeline through a reinstall', async (ctx) => {
    if (skip) return ctx.skip();
    const router = new Router(file);
    const doc = { id: 'gs-spipe-w1', name: 'Plugin Fig', location: { lat: 48.8566, lon: 2.3522 }, join: 'restaurant' };
    await client.request('PUT', `/${INDEX}/_doc/${doc.id}`, { body: doc, query: { refresh: 'true' } });
    const at = await client.request<{ hits: { hits: { _routing?: string }[] } }>('POST', `/${INDEX}/_search`, { body: { query: { ids: { values: [doc.id] } } }, query: { search_pipeline: '_none' } });
    expect(at.body.hits.hits.map((h) => h._routing)).toEqual([router.route(48.8566, 2.3522).name]);
    // What seed and migrate call after each publish: the plugin's pipeline is kept, not replaced by Painless.
    const m = (await fetchIndexMeta(client, INDEX))!;
    const again = await installPipeline(client, INDEX, m.file!, null);
    expect(again.processor).toBe('plugin');
    expect((await readPipeline(client, INDEX))!.processor).toBe('plugin');
    await client.request('DELETE', `/${INDEX}/_doc/${doc.id}`, { query: { routing: router.route(48.8566, 2.3522).name, refresh: 'true' } });
  }, 60_000);

  it('puts the Painless pipeline back with --processor painless, and removes both with --uninstall', async (ctx) => {
    if (skip) return ctx.skip();
    const p = await cli('pipeline', '--install', '--processor', 'painless', '--index', INDEX);
    expect(p.code, p.err).toBe(0);
    expect(p.out).toContain('run by a Painless script');
    expect((await readPipeline(client, INDEX))!.processor).toBe('painless');
    const u = await cli('pipeline', '--uninstall', '--index', INDEX);
    expect(u.code, u.err).toBe(0);
    expect(u.out).toContain('search.default_pipeline unset');
    expect(await readSearchPipeline(client, INDEX)).toMatchObject({ routes: false, exists: false, defaultPipeline: null });
    const after = await search(40.7128, -74.006, 25);
    expect(after._shards.total).toBe(file.numberOfShards);
    expect(after.ext?.geoshard).toBeUndefined();
  }, 60_000);
});

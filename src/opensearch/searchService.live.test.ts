/**
 * docs/search-service.md's example, run as it is written (taken from the Markdown, so the page
 * cannot drift from what works), against the live node: createGeoIndex, writers without routing,
 * routedSearch. Expected answers come from the routing core in this repository and from the
 * documents read back from every shard, never from the package under test. Then the refusals:
 * drift, an index that exists, a location mapped as another type, a mapping OpenSearch refuses
 * (each leaves nothing behind).
 *
 * The example imports `geoshard` and `geoshard/opensearch` by name: it runs from a folder inside
 * this repository (scratch/, ignored by git), so Node resolves them to the built dist/ through
 * package.json "exports" (`npm run build:lib` first, as `npm test` does).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@opensearch-project/opensearch';
import { Router, parseBoundaryFile } from '../core/index.ts';
import { ROOT, derivedFile } from '../testing/testkit.ts';
import { parseIndexConfig } from './indexConfig.ts';
import { createGeoIndex } from './createIndex.ts';
import { GeoIndexSpecError } from './indexSpec.ts';
import { routedSearch, GeoSearchError } from './routedSearch.ts';
import { pipelineId } from './routingPipeline.ts';
import { distanceKm } from '../core/earth.ts';

const URL_ = process.env.OPENSEARCH_URL ?? 'http://127.0.0.1:9200';
const client = new Client({ node: URL_ });
const doc = readFileSync(join(ROOT, 'docs', 'search-service.md'), 'utf8');
const example = doc.slice(doc.indexOf('## Example'));
const configText = /```json\n([\s\S]*?)```/.exec(example)![1];
const code = /```js\n([\s\S]*?)```/.exec(example)![1];
const config = parseIndexConfig(configText, 'geoshard.config.json');
const file = derivedFile(config.index);
const BAD = `${config.index}-bad`;
let dir: string;

async function drop(index: string): Promise<void> {
  await client.indices.delete({ index }, { ignore: [404] });
  await client.transport.request({ method: 'DELETE', path: `/_ingest/pipeline/${pipelineId(index)}` }, { ignore: [404] });
}

async function absent(index: string): Promise<{ index: boolean; pipeline: boolean }> {
  const i = await client.transport.request({ method: 'HEAD', path: `/${index}` }, { ignore: [404] });
  const p = await client.transport.request({ method: 'GET', path: `/_ingest/pipeline/${pipelineId(index)}` }, { ignore: [404] });
  return { index: i.statusCode === 404, pipeline: p.statusCode === 404 };
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'opensearch', 'index.js'))) throw new Error('dist/opensearch is missing: run `npm run build:lib` before this test');
  await drop(config.index);
  await drop(BAD);
  mkdirSync(join(ROOT, 'scratch'), { recursive: true });
  dir = mkdtempSync(join(ROOT, 'scratch', 'search-service-'));
  writeFileSync(join(dir, 'geoshard.config.json'), configText);
  writeFileSync(join(dir, 'boundaries.json'), JSON.stringify(file));
  writeFileSync(join(dir, 'service.mjs'), code);
});

afterAll(async () => {
  await drop(config.index);
  await drop(BAD);
  if (dir) rmSync(dir, { recursive: true, force: true });
  await client.close();
});

describe("docs/search-service.md's example", () => {
  it('creates the index, routes writes without routing, and asks only the shards the circle touches, finding what lies in it', async () => {
    expect(config).toMatchObject({ index: 'cafes', location: 'pos', name: 'name', join: null });
    const r = spawnSync(process.execPath, ['service.mjs'], { cwd: dir, encoding: 'utf8', env: { ...process.env, OPENSEARCH_URL: URL_, NODE_OPTIONS: '' }, timeout: 120_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { routing: string; ids: string[]; shards: number };

    // The circle of the example, read from its code; the core computes the covering apart.
    const [, lat, lng, km] = /\{ lat: ([-\d.]+), lng: ([-\d.]+), radiusKm: ([\d.]+) \}/.exec(code)!.map(Number);
    const router = new Router(parseBoundaryFile(readFileSync(join(dir, 'boundaries.json'), 'utf8')));
    const cover = router.cover(lat, lng, km);
    expect(out.routing).toBe(cover.routing);
    expect(out.shards).toBe(cover.shards.length);

    // Every document, read back from each shard in turn: where it lies, and what the search should find.
    const where = new Map<string, { shard: number; name: string; lat: number; lon: number }>();
    for (const s of router.shards) {
      const res = await client.search({ index: config.index, preference: `_shards:${s.shard}`, body: { size: 100, query: { match_all: {} } } });
      for (const h of res.body.hits.hits) {
        const src = h._source as { name: string; pos: { lat: number; lon: number } };
        where.set(String(h._id), { shard: s.shard, name: src.name, ...src.pos });
      }
    }
    expect(where.size).toBe(4);
    for (const [id, d] of where) expect(d.shard, `${id} lies on the shard the core names for its pos`).toBe(router.route(d.lat, d.lon).shard);
    const expected = [...where].filter(([, d]) => distanceKm(lat, lng, d.lat, d.lon) <= km && /\bbakery\b/i.test(d.name)).map(([id]) => id).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(out.ids).toEqual(expected);
    // _meta: the file's hash, the fields the pipeline reads, and the engine's fingerprint.
    const mapping = await client.indices.getMapping({ index: config.index });
    const meta = (mapping.body as Record<string, { mappings: { _meta: Record<string, unknown> } }>)[config.index].mappings._meta;
    expect(meta).toMatchObject({ app: 'geoshard', hash: file.hash, index: 'cafes', fields: { location: 'pos', childLocation: null, stamp: false }, routing: { engine: 'opensearch' } });
  });

  it('refuses a search routed with another version of the boundary file, naming both hashes, before asking any shard', async () => {
    const other = derivedFile(config.index, 2);
    const err = await routedSearch(client, other, config, { lat: 37.77, lng: -122.43, radiusKm: 5 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GeoSearchError);
    expect((err as GeoSearchError).code).toBe('drift');
    expect((err as Error).message).toContain(file.hash);
    expect((err as Error).message).toContain(other.hash);
    const bad = await routedSearch(client, file, config, { lat: 37.77, lng: -122.43, radiusKm: 0 }).catch((e: unknown) => e);
    expect((bad as GeoSearchError).code).toBe('invalid');
    expect((bad as Error).message).toBe('circle.radiusKm: 0 is not valid: expected a radius in km above 0 and at most 1000 (a wider search is not local: send it to every shard without routing)');
  });

  it('refuses to create an index that exists, a location mapped as another type, and a mapping the engine refuses, leaving nothing behind', async () => {
    const again = await createGeoIndex(client, file, config).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(GeoIndexSpecError);
    expect((again as Error).message).toMatch(/^index "cafes" already exists: createGeoIndex makes a new index/);

    const badConfig = { ...config, index: BAD };
    const badFile = derivedFile(BAD);
    const typed = await createGeoIndex(client, badFile, badConfig, { mappings: { properties: { pos: { type: 'keyword' } } } }).catch((e: unknown) => e);
    expect((typed as Error).message).toBe('mappings: the config\'s location "pos" is mapped as "keyword": it must be a geo_point (or absent from the mappings, and it is added as one)');
    expect(await absent(BAD)).toEqual({ index: true, pipeline: true });

    const refused = await createGeoIndex(client, badFile, badConfig, { replicas: 0, mappings: { properties: { kind: { type: 'no_such_type' } } } }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GeoIndexSpecError);
    expect((refused as Error).message).toMatch(/^creating index "cafes-bad": PUT \/cafes-bad failed: 400 mapper_parsing_exception: .*no_such_type/);
    // The pipeline it installed first is gone again.
    expect(await absent(BAD)).toEqual({ index: true, pipeline: true });
  });
});

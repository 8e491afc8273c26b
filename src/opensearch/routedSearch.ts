/**
 * The search side of a geosharded index, for a search service on the official OpenSearch client:
 * a circle and the service's own query become the routed request (`index`, `routing`: the shard
 * names the core's exact covering of the circle touches, and `body`: the query with the
 * geo_distance filter on the config's location), after the drift check (the index's `_meta`
 * boundary hash must be the file's, or the target of the migration in progress).
 *
 *   const req = await routedSearch(client, file, config, { lat: 37.77, lng: -122.42, radiusKm: 5 }, { match: { name: 'tacos' } });
 *   const res = await client.search(req);   // asks only the shards the circle touches
 *
 * The filter stays even though routing has narrowed the shards: a shard holds more than the
 * circle. The live API's own search of an index (src/server/search/searchBody.ts buildDocSearchBody) builds
 * its filter with geoDistanceFilter too. Pure but for routedSearch's one read of `_meta`.
 */
import { exclusionFilters } from './rangeFilter.ts';
import { MAX_RADIUS_KM, Router, type BoundaryFile } from '../core/index.ts';
import type { IndexConfig } from './indexConfig.ts';
import { MigrationError, migrationOfMeta, routerOf, type IndexMeta } from './meta.ts';
import { fetchIndexMeta } from './indexMeta.ts';
import type { TransportClient } from './transport.ts';
import { driftState, type DriftState } from './drift.ts';

/** A search circle: its centre in degrees (lat in [-90, 90], lng in [-180, 180]) and its radius in km (> 0, at most MAX_RADIUS_KM). */
export interface Circle {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** The request for the official client's `client.search(...)`: ask only `routing`'s shards of `index`. */
export interface RoutedRequest {
  index: string;
  /** The shard names to ask, comma-separated (the core's covering of the circle). */
  routing: string;
  body: Record<string, unknown>;
}

/** Why a routed search was not built. */
export type GeoSearchErrorCode =
  /** The circle or the body is not valid (the message names the field). */
  | 'invalid'
  /** The index was written with another boundary file, or has no geoshard `_meta`: a routed search would miss documents. */
  | 'drift'
  /** The index does not exist. */
  | 'no-index'
  /** The cluster did not answer the `_meta` read, or refused it. */
  | 'failed';

/** GeoSearchError: the routed request was refused; `drift` holds the drift check's outcome when it was made. */
export class GeoSearchError extends Error {
  constructor(
    readonly code: GeoSearchErrorCode,
    message: string,
    readonly drift: DriftState | null = null,
  ) {
    super(message);
    this.name = 'GeoSearchError';
  }
}

/** checkCircle throws GeoSearchError invalid naming the field and what is valid. */
function checkCircle(c: Circle): void {
  const bad = (field: string, v: unknown, valid: string) => new GeoSearchError('invalid', `circle.${field}: ${JSON.stringify(v)} is not valid: expected ${valid}`);
  if (typeof c?.lat !== 'number' || !Number.isFinite(c.lat) || c.lat < -90 || c.lat > 90) throw bad('lat', c?.lat, 'a latitude in degrees from -90 to 90');
  if (typeof c.lng !== 'number' || !Number.isFinite(c.lng) || c.lng < -180 || c.lng > 180) throw bad('lng', c.lng, 'a longitude in degrees from -180 to 180');
  if (typeof c.radiusKm !== 'number' || !Number.isFinite(c.radiusKm) || c.radiusKm <= 0 || c.radiusKm > MAX_RADIUS_KM) {
    throw bad('radiusKm', c.radiusKm, `a radius in km above 0 and at most ${MAX_RADIUS_KM} (a wider search is not local: send it to every shard without routing)`);
  }
}

/**
 * geoDistanceFilter returns the filter of documents in the circle: geo_distance on the config's
 * location, or, with a join, on the parent's location or the child's copy of it.
 */
export function geoDistanceFilter(config: Pick<IndexConfig, 'location' | 'join'>, circle: Circle): Record<string, unknown> {
  const at = { lat: circle.lat, lon: circle.lng };
  const distance = `${circle.radiusKm * 1000}m`;
  const geo = (field: string) => ({ geo_distance: { distance, [field]: at } });
  return config.join ? { bool: { should: [geo(config.location), geo(config.join.childLocation)], minimum_should_match: 1 } } : geo(config.location);
}

/**
 * routedRequest builds the routed request with a router the caller trusts (routedSearch checks
 * it against the index first): `query` (any query of OpenSearch's DSL; absent: every document in
 * the circle) scored as the service wrote it, the circle as a filter, and `body`'s other keys
 * (size, sort, aggs, _source, ...) as they are. Throws GeoSearchError invalid for a bad circle, or
 * a `body` that has its own `query` (give it as `query`). While a range of the index is moved
 * (`geoshard migrate`: the router has read exclusions) it is on two shards, and the copy that is
 * not the read copy is left out (rangeFilter.ts exclusionFilters: that `_routing`, located in
 * the range), so each document answers once. Pure.
 */
export function routedRequest(router: Router, config: Pick<IndexConfig, 'index' | 'location' | 'join'>, circle: Circle, query?: Record<string, unknown>, body: Record<string, unknown> = {}): RoutedRequest {
  checkCircle(circle);
  if ('query' in body) throw new GeoSearchError('invalid', 'body.query: give the query as the query argument: routedRequest puts it beside the circle\'s filter');
  const excluded = exclusionFilters({ location: config.location, childLocation: config.join?.childLocation ?? null }, router.readExclusions());
  const cover = router.cover(circle.lat, circle.lng, circle.radiusKm);
  return { index: config.index, routing: cover.routing, body: { ...body, query: { bool: { filter: [geoDistanceFilter(config, circle)], ...(query ? { must: [query] } : {}), ...(excluded.length > 0 ? { must_not: excluded } : {}) } } } };
}

/**
 * routedSearch reads the index's `_meta` (indexMeta.ts fetchIndexMeta: one `GET /<index>/_mapping`,
 * or the cluster state for a read-only role), checks it against the
 * boundary file (driftState: the same check the live API makes on every search), and builds the
 * routed request (routedRequest) with the router of the index's routing state (the settled file,
 * or the migration's intermediate one). Rejects with GeoSearchError: drift (another file, or no
 * geoshard `_meta`: the message names both hashes), no-index, invalid, or failed.
 */
export async function routedSearch(client: TransportClient, file: BoundaryFile, config: IndexConfig, circle: Circle, query?: Record<string, unknown>, body?: Record<string, unknown>): Promise<RoutedRequest> {
  checkCircle(circle);
  if (config.index !== file.index) throw new GeoSearchError('invalid', `config.index: "${config.index}" is not the boundary file's index ("${file.index}"): the file routes the one index it names`);
  let meta: IndexMeta | null | undefined;
  try {
    meta = await fetchIndexMeta(client, config.index);
  } catch (e) {
    throw new GeoSearchError('failed', `reading index "${config.index}"'s _meta failed: ${(e as Error).message}`);
  }
  const drift = driftState(file, meta);
  if (drift.status === 'missing-index') throw new GeoSearchError('no-index', drift.message, drift);
  if (drift.status !== 'ok') throw new GeoSearchError('drift', drift.message, drift);
  let router: Router;
  try {
    const m = migrationOfMeta(meta!);
    router = m.base ? routerOf(m.base, m.state) : new Router(file);
  } catch (e) {
    if (e instanceof MigrationError) throw new GeoSearchError('drift', e.message, drift);
    throw e;
  }
  return routedRequest(router, config, circle, query, body);
}

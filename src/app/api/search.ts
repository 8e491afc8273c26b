/**
 * The live API's search, GET /api/search (src/server/api.ts; the wire's SearchAnswer): the
 * request URL of the compared search for the radius explorer's circle and the filters, and its
 * answer read defensively into a LiveResult, or a LiveFailure with the server's own message.
 *
 *   GET /api/search?lat=&lng=&radius=15mi[&diet=..][&allergen=..][&cuisine=..]&size=20&compare=1[&profile=1]
 */
import type { RadiusUnit } from '../../core/index';
import {
  searchQueryString,
  sideStatus,
  redactUrl,
  type ShardAnswer,
  type AskedShard,
  type DishHit,
  type FacetCount,
  type Facets,
  type SearchSide,
  type ShardTiming,
  type SearchPlacement,
} from '../../server/wire';
import { asked, badResponse, shaped, NOT_MOUNTED_MESSAGE, type LiveFailure, type Parsed } from './request';
import { isObj, num, str, strs, strOrNull, numOrNull, need, ShapeError } from './read';

export { sideStatus, redactUrl, type ShardAnswer, type ShardTiming, type SearchPlacement };

// The filter kinds and the empty selection (filters.ts, which the store's slice imports alone).
import { NO_FILTERS, type LiveFilterKind, type LiveFilters } from './filters';
export { NO_FILTERS, type LiveFilterKind, type LiveFilters };

/** The search a live request asks for: the radius explorer's search plus the filters. */
export interface LiveQuery {
  /** Degrees; null when no centre is chosen. */
  centre: { lat: number; lng: number } | null;
  radius: { value: number; unit: RadiusUnit };
  /** "No location": no circle, every shard is asked. */
  noLocation: boolean;
  filters: LiveFilters;
  /** Top dishes to return, integer in [0, 100]. */
  size: number;
  /** Ask each shard's time (profile=1); absent: not profiled. */
  profile?: boolean;
}

/** Top dishes the panel asks for. */
export const LIVE_SIZE = 20;

/**
 * liveSearchParams returns the query string of the compared search
 * (`compare=1`), or null when there is nothing to search (no centre and not
 * in no-location mode). lat, lng and the radius are sent at full precision
 * (shortest round-trip decimal), so the server covers exactly the circle the
 * globe covers. Filter values are sorted, so equal searches give equal URLs.
 */
export function liveSearchParams(q: LiveQuery): URLSearchParams | null {
  if (!q.noLocation && !q.centre) return null;
  const circle = q.noLocation || !q.centre ? null : { ...q.centre, radius: q.radius };
  return new URLSearchParams(searchQueryString({ circle, filters: q.filters, size: q.size, compare: true, profile: q.profile }));
}

/** liveSearchUrl returns `/api/search?...` for a query, or null (see liveSearchParams). */
export function liveSearchUrl(q: LiveQuery, base = '/api/search'): string | null {
  const p = liveSearchParams(q);
  return p ? `${base}?${p.toString().replace(/%2C/g, ',')}` : null;
}

// ---------------------------------------------------------------------------
// Answers

/** A shard a search asked (the wire's AskedShard; reason null when ok). */
export type LiveShard = AskedShard & { reason: string | null };

/**
 * One hit of the results: a dish of the sample, or a document of another index (the wire's
 * DocHit: its name, distance, routing and `fields`, the config's facet fields; the dish fields
 * empty, restaurant null).
 */
export type LiveHit = DishHit & { fields?: Record<string, unknown> };
export type LiveFacet = FacetCount;
export type LiveFacets = Facets;

/** One executed search (routed, or on all shards); status is recomputed from `_shards` and the shards' answers, as the server does. */
/**
 * One side as the panel reads it. `fieldFacets`: an index of another config's facets (the
 * config's `facets`, in its order: each field's values with their counts, count descending), empty
 * for the sample, whose facets are the vocabulary in `facets`.
 */
export type LiveSide = Omit<SearchSide, 'shardsAsked'> & { shardsAsked: LiveShard[]; fieldFacets: { field: string; values: LiveFacet[] }[] };

/** A search that ran: the routed side, and the all-shards side when compared. */
export interface LiveResult {
  /** complete only when both sides are complete; partial otherwise (never shown as complete). */
  status: 'complete' | 'partial';
  index: string;
  boundary: { hash: string; version: number; numberOfShards: number };
  routed: LiveSide;
  unrouted: LiveSide | null;
  /** Same total, same hits in the same order, same facet counts; null when not compared. */
  identical: boolean | null;
  differences: string[];
  /** routed / all-shards: shards asked, took, wall time (null when all-shards took 0 ms). */
  ratio: { shards: number; took: number | null; wall: number } | null;
  /** The server's note (no location: all shards), or null. */
  note: string | null;
  /** The radius the server searched, km; null without a location. */
  radiusKm: number | null;
  /** Where the asked shards live and what a lost node cost this answer; null when the server did not say. */
  placement: SearchPlacement | null;
}

function shardsSection(v: unknown): LiveSide['shards'] {
  if (!isObj(v)) throw new ShapeError('the answer has no _shards section');
  return { total: num(v.total, 0), successful: num(v.successful, 0), skipped: num(v.skipped, 0), failed: num(v.failed, 0) };
}

/** The sample's facet keys (its vocabulary); any other key of `facets` is a config facet (wire FacetMap). */
const SAMPLE_FACETS = new Set(['diets', 'allergens', 'cuisines']);

function facetList(v: unknown): LiveFacet[] {
  return Array.isArray(v) ? v.filter(isObj).map((f) => ({ value: str(f.value), count: num(f.count, 0) })) : [];
}

const SHARD_ANSWERS: readonly ShardAnswer[] = ['ok', 'failed', 'unavailable', 'unknown'];

/** readClusterReport reads what the cluster's search pipeline said it did (a cluster-routed side's `cluster`); null when it did not report. */
function readClusterReport(v: unknown): NonNullable<LiveSide['cluster']> | null {
  if (!isObj(v)) return null;
  return { routed: v.routed === true, reason: strOrNull(v.reason), cells: numOrNull(v.cells), micros: numOrNull(v.micros), agrees: v.agrees === true };
}

/** readSide reads one search of the answer (the body itself for routed, `unrouted` for all shards). */
function readSide(v: Record<string, unknown>, what: string): LiveSide {
  const asked = need(Array.isArray(v.shardsAsked) ? v.shardsAsked : null, `${what} shardsAsked`);
  const shardsAsked: LiveShard[] = asked.filter(isObj).map((s) => ({
    index: num(s.index, -1),
    name: str(s.name),
    shard: num(s.shard, -1),
    cells: num(s.cells, 0),
    status: SHARD_ANSWERS.includes(s.status as ShardAnswer) ? (s.status as ShardAnswer) : 'unknown',
    reason: strOrNull(s.reason),
  }));
  const facets = isObj(v.facets) ? v.facets : {};
  const hits = (Array.isArray(v.hits) ? v.hits : []).filter(isObj).map((h): LiveHit => {
    const r = isObj(h.restaurant) ? h.restaurant : null;
    if (!('restaurant' in h) && isObj(h.fields)) {
      // A document of an index of another config (wire DocHit).
      return { id: str(h.id), name: str(h.name), cuisine: '', diets: [], allergens: [], calories: NaN, priceCents: NaN, routing: strOrNull(h.routing), restaurant: null, distanceKm: numOrNull(h.distanceKm), fields: h.fields };
    }
    return {
      id: str(h.id),
      name: str(h.name),
      cuisine: str(h.cuisine),
      diets: strs(h.diets),
      allergens: strs(h.allergens),
      calories: num(h.calories),
      priceCents: num(h.priceCents),
      routing: strOrNull(h.routing),
      restaurant: r ? { id: str(r.id), name: str(r.name), place: str(r.place), state: str(r.state), lat: num(r.lat), lng: num(r.lng), cuisines: strs(r.cuisines) } : null,
      distanceKm: numOrNull(h.distanceKm),
    };
  });
  const total = need(numOrNull(v.total), `${what} total`);
  const side: LiveSide = {
    status: 'complete',
    scope: v.scope === 'routed' || v.scope === 'cluster' ? v.scope : 'all-shards',
    routing: strOrNull(v.routing),
    // Who chose the shards; an older server sends no routedBy (its routed side is always its own).
    routedBy: v.routedBy === 'client' || v.routedBy === 'cluster' ? v.routedBy : v.routedBy === undefined && v.scope === 'routed' ? 'client' : null,
    ...(v.scope === 'cluster' ? { cluster: readClusterReport(v.cluster) } : {}),
    shardsAsked,
    partialReason: strOrNull(v.partialReason),
    took: num(v.took),
    wallMs: num(v.wallMs),
    timedOut: v.timedOut === true,
    total,
    hits,
    facets: { diets: facetList(facets.diets), allergens: facetList(facets.allergens), cuisines: facetList(facets.cuisines) },
    fieldFacets: Object.keys(facets)
      .filter((k) => !SAMPLE_FACETS.has(k) && Array.isArray(facets[k]))
      .map((field) => ({ field, values: facetList(facets[field]) })),
    shards: shardsSection(v.shards),
  };
  if (Array.isArray(v.shardTimes)) side.shardTimes = readShardTimes(v.shardTimes);
  side.status = sideStatus(side);
  return side;
}

/** readShardTimes keeps the well-formed timings (a shard number and a finite, non-negative ms). */
function readShardTimes(v: unknown[]): ShardTiming[] {
  return v
    .filter(isObj)
    .map((t) => ({ shard: num(t.shard, -1), name: str(t.name), node: strOrNull(t.node), ms: num(t.ms, -1) }))
    .filter((t) => t.shard >= 0 && t.ms >= 0);
}

/** readPlacement reads a search's placement section; null when absent or malformed. */
export function readPlacement(v: unknown): SearchPlacement | null {
  if (!isObj(v) || !Array.isArray(v.missing)) return null;
  return {
    missing: v.missing.filter(isObj).map((m) => ({ shard: num(m.shard, -1), name: str(m.name), node: strOrNull(m.node) })),
    lostNodes: strs(v.lostNodes),
    promoted: (Array.isArray(v.promoted) ? v.promoted : []).filter(isObj).map((m) => ({ shard: num(m.shard, -1), name: str(m.name), from: str(m.from), to: str(m.to) })),
  };
}

function driftOf(v: unknown): LiveFailure['drift'] {
  if (!isObj(v)) return undefined;
  return { status: str(v.status), indexHash: strOrNull(v.indexHash), fileHash: strOrNull(v.fileHash), indexVersion: numOrNull(v.indexVersion), fileVersion: numOrNull(v.fileVersion) };
}

/**
 * readSearch reads an /api/search answer: its HTTP status and its parsed JSON
 * body (undefined when the body was not JSON). Every failure status becomes a
 * LiveFailure carrying the server's own message; a 200 becomes a LiveResult
 * whose status is partial if the server or either side says so.
 */
export function readSearch(httpStatus: number, body: unknown): Parsed<LiveResult> {
  if (!isObj(body) || typeof body.status !== 'string') {
    if (httpStatus === 404 || httpStatus === 200) return { ok: false, failure: { kind: 'not-mounted', httpStatus, message: NOT_MOUNTED_MESSAGE } };
    return badResponse(httpStatus, `The live API answered HTTP ${httpStatus} without a status: this is not an answer the explorer understands.`);
  }
  const error = isObj(body.error) ? body.error : {};
  const serverMessage = str(error.message);
  switch (body.status) {
    case 'invalid':
      return { ok: false, failure: { kind: 'invalid', httpStatus, param: str(error.param) || undefined, message: serverMessage || `The live API refused a parameter (HTTP ${httpStatus}).` } };
    case 'drift':
      return { ok: false, failure: { kind: 'drift', httpStatus, drift: driftOf(body.drift), message: serverMessage || 'Boundary drift: the index was written with another boundary file; every search is refused.' } };
    case 'unavailable':
      return {
        ok: false,
        failure: {
          kind: 'unavailable',
          httpStatus,
          drift: driftOf(body.drift),
          message: serverMessage || 'OpenSearch is unavailable: start the node with `npm run cluster:start`, or check OPENSEARCH_URL.',
          ...(readPlacement(body.placement) ? { placement: readPlacement(body.placement)! } : {}),
        },
      };
    case 'error':
      return { ok: false, failure: { kind: 'error', httpStatus, message: serverMessage || `The live API failed (HTTP ${httpStatus}).` } };
    case 'complete':
    case 'partial':
      break;
    default:
      return badResponse(httpStatus, `The live API answered with status ${JSON.stringify(body.status)}; expected complete, partial, invalid, drift, unavailable or error.`);
  }
  if (httpStatus !== 200) return badResponse(httpStatus, `The live API answered HTTP ${httpStatus} with status ${body.status}; expected HTTP 200.`);
  return shaped<LiveResult>(httpStatus, 'answer', () => {
    const routed = readSide(body, 'routed');
    const unrouted = isObj(body.unrouted) ? readSide(body.unrouted, 'unrouted') : null;
    const b = isObj(body.boundary) ? body.boundary : {};
    const ratio = isObj(body.ratio) ? { shards: num(body.ratio.shards), took: numOrNull(body.ratio.took), wall: num(body.ratio.wall) } : null;
    const q = isObj(body.query) ? body.query : {};
    const anyPartial = body.status === 'partial' || routed.status === 'partial' || unrouted?.status === 'partial';
    return {
      ok: true,
      value: {
        status: anyPartial ? 'partial' : 'complete',
        index: str(body.index),
        boundary: { hash: str(b.hash), version: num(b.version), numberOfShards: num(b.numberOfShards) },
        routed,
        unrouted,
        identical: typeof body.identical === 'boolean' ? body.identical : null,
        differences: strs(body.differences),
        ratio,
        note: strOrNull(body.note),
        radiusKm: numOrNull(q.radiusKm),
        placement: readPlacement(body.placement),
      },
    };
  });
}

// ---------------------------------------------------------------------------

/** fetchSearch runs one compared search; resolves to a result or a failure (rejects only when aborted). */
export function fetchSearch(url: string, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<Parsed<LiveResult>> {
  return asked(url, signal, readSearch, fetchImpl);
}

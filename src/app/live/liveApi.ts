/**
 * The browser side of the live API (src/server/api.ts): the request URL for
 * the current search, the two JSON answers read defensively into typed
 * values, and every way a request can fail mapped to one message a person can
 * act on. No DOM, no store: liveRunner.ts does the fetching.
 *
 *   GET /api/search?lat=&lng=&radius=15mi[&diet=..][&allergen=..][&cuisine=..]&size=20&compare=1
 *   GET /api/status
 *
 * The API never sends credentials (the server strips user:password from the
 * node URL); readStatus strips them again, so none can reach the page.
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
  type ClusterNode,
  type ShardCopy,
  type ShardState,
  type MeasureAnswer,
  type MeasureRequest,
  type MeasureSide,
  type LoadAverage,
} from '../../server/wire';
export { MEASURE_RUNS, MEASURE_CONCURRENCY } from '../../server/wire';

export { sideStatus, redactUrl, type ShardAnswer, type ShardTiming, type SearchPlacement, type ClusterNode, type ShardCopy, type MeasureAnswer, type MeasureSide };

// The filter kinds and the empty selection (liveFilters.ts, which the store's slice imports alone).
import { NO_FILTERS, type LiveFilterKind, type LiveFilters } from './liveFilters';
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
export type LiveSide = Omit<SearchSide, 'shardsAsked'> & { shardsAsked: LiveShard[] };

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

/** Why there is no result. */
export type LiveFailureKind =
  /** /api is not served here (a static build, or the API module failed to load). */
  | 'not-mounted'
  /** The explorer's own server does not answer. */
  | 'network'
  /** No answer within the client's deadline. */
  | 'timeout'
  /** 400: a parameter is wrong. */
  | 'invalid'
  /** 409: the index was written with another boundary file. */
  | 'drift'
  /** 503: OpenSearch does not answer or the index does not exist. */
  | 'unavailable'
  /** 500/502: OpenSearch refused the query or the server's boundary file is unusable. */
  | 'error'
  /** A JSON answer of an unexpected shape. */
  | 'bad-response'
  /** 403: a write refused (writes disabled, a foreign Origin, a peer not on loopback). */
  | 'forbidden'
  /** 404 with an answer: a write named an id the index does not hold. */
  | 'not-found'
  /** 429: retryable (a migration's cutover window); `retryAfterS` says when. */
  | 'busy';

export interface LiveFailure {
  kind: LiveFailureKind;
  /** HTTP status, or null when no answer arrived. */
  httpStatus: number | null;
  /** One or two sentences for the panel. */
  message: string;
  /** The parameter at fault (invalid). */
  param?: string;
  /** Seconds to wait before retrying (busy: the Retry-After header), when the server said. */
  retryAfterS?: number;
  /** The shards a 503 lost and the nodes that held them (no asked shard answered). */
  placement?: SearchPlacement;
  /** Both hashes (drift, or an unavailable index). */
  drift?: { status: string; indexHash: string | null; fileHash: string | null; indexVersion: number | null; fileVersion: number | null };
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; failure: LiveFailure };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, fallback = NaN): number => (typeof v === 'number' && Number.isFinite(v) ? v : fallback);
const str = (v: unknown, fallback = ''): string => (typeof v === 'string' ? v : fallback);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** ShapeError: an answer lacks a field the panel needs (mapped to a bad-response failure). */
class ShapeError extends Error {}

function need<T>(v: T | undefined | null, what: string): T {
  if (v === undefined || v === null) throw new ShapeError(`the answer has no ${what}`);
  return v;
}

function shardsSection(v: unknown): LiveSide['shards'] {
  if (!isObj(v)) throw new ShapeError('the answer has no _shards section');
  return { total: num(v.total, 0), successful: num(v.successful, 0), skipped: num(v.skipped, 0), failed: num(v.failed, 0) };
}

function facetList(v: unknown): LiveFacet[] {
  return Array.isArray(v) ? v.filter(isObj).map((f) => ({ value: str(f.value), count: num(f.count, 0) })) : [];
}

const SHARD_ANSWERS: readonly ShardAnswer[] = ['ok', 'failed', 'unavailable', 'unknown'];

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
    scope: v.scope === 'routed' ? 'routed' : 'all-shards',
    routing: strOrNull(v.routing),
    shardsAsked,
    partialReason: strOrNull(v.partialReason),
    took: num(v.took),
    wallMs: num(v.wallMs),
    timedOut: v.timedOut === true,
    total,
    hits,
    facets: { diets: facetList(facets.diets), allergens: facetList(facets.allergens), cuisines: facetList(facets.cuisines) },
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

/** The message when /api answers with something that is not the live API. */
export const NOT_MOUNTED_MESSAGE =
  'The live API is not served here: this page came from a server without /api (a static build, or the API failed to load: see the server log). Serve the explorer with `npm start`; the rest of the explorer works without it.';

/**
 * readSearch reads an /api/search answer: its HTTP status and its parsed JSON
 * body (undefined when the body was not JSON). Every failure status becomes a
 * LiveFailure carrying the server's own message; a 200 becomes a LiveResult
 * whose status is partial if the server or either side says so.
 */
export function readSearch(httpStatus: number, body: unknown): Parsed<LiveResult> {
  if (!isObj(body) || typeof body.status !== 'string') {
    if (httpStatus === 404 || httpStatus === 200) return { ok: false, failure: { kind: 'not-mounted', httpStatus, message: NOT_MOUNTED_MESSAGE } };
    return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API answered HTTP ${httpStatus} without a status: this is not an answer the explorer understands.` } };
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
      return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API answered with status ${JSON.stringify(body.status)}; expected complete, partial, invalid, drift, unavailable or error.` } };
  }
  if (httpStatus !== 200) return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API answered HTTP ${httpStatus} with status ${body.status}; expected HTTP 200.` } };
  try {
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
  } catch (e) {
    if (e instanceof ShapeError) return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API's answer is not understood: ${e.message}.` } };
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Status

/** What /api/status says. */
export interface LiveStatus {
  connection: { up: boolean; url: string; version: string | null; distribution: string | null; health: string | null; nodes: number | null; message: string | null };
  /** The server's boundary file, or why it has none. */
  boundary: { index: string; hash: string; version: number; numberOfShards: number; routing: string | null } | { error: string };
  /** The index (null when the node is down or the boundary file unusable). */
  index: { name: string; exists: boolean; restaurants: number | null; dishes: number | null; total?: number | null; error: string | null } | null;
  /**
   * The index config the API searches with when it is not the sample's (wire StatusAnswer.config):
   * its documents are not dishes and the panel names them documents; null for the sample.
   */
  config?: { index: string; location: string; name: string | null; facets: string[] } | null;
  drift: { status: 'ok' | 'mismatch' | 'no-meta' | 'missing-index'; indexHash: string | null; fileHash: string | null; indexVersion: number | null; fileVersion: number | null; message: string } | null;
  /** The cluster's nodes, sorted by name, those that left included (up false); null when the cluster is down or the server did not say. */
  nodes: ClusterNode[] | null;
  /** Every copy of every shard of the index (the shard × node grid); null when the index is missing or unreadable. */
  copies: ShardCopy[] | null;
  /** Whether the API takes writes (GEOSHARD_WRITES=1); null when the server did not say (a server before writes). */
  writes?: { enabled: boolean } | null;
  /**
   * The answer's `migration` section as sent (wire StatusAnswer['migration']), unchecked: read it
   * with migration/migrationApi.ts readMigration (kept out of the first screen's bundle); absent
   * from a server that did not say.
   */
  migration?: unknown;
}

/** readStatus reads an /api/status answer (HTTP status and parsed JSON body, undefined when not JSON). */
export function readStatus(httpStatus: number, body: unknown): Parsed<LiveStatus> {
  if (!isObj(body) || !isObj(body.connection)) {
    if (isObj(body) && typeof body.status === 'string' && isObj(body.error)) {
      return { ok: false, failure: { kind: 'error', httpStatus, message: str(body.error.message) || `The live API failed (HTTP ${httpStatus}).` } };
    }
    if (httpStatus === 404 || httpStatus === 200) return { ok: false, failure: { kind: 'not-mounted', httpStatus, message: NOT_MOUNTED_MESSAGE } };
    return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API's status answered HTTP ${httpStatus} without a connection report.` } };
  }
  const c = body.connection;
  const cluster = isObj(c.cluster) ? c.cluster : {};
  const b = isObj(body.boundary) ? body.boundary : {};
  const boundary: LiveStatus['boundary'] =
    typeof b.error === 'string' ? { error: b.error } : { index: str(b.index), hash: str(b.hash), version: num(b.version), numberOfShards: num(b.numberOfShards), routing: strOrNull(b.routing) };
  let index: LiveStatus['index'] = null;
  if (isObj(body.index)) {
    const i = body.index;
    const docs = isObj(i.docs) ? i.docs : {};
    index = { name: str(i.name), exists: i.exists === true, restaurants: numOrNull(docs.restaurants), dishes: numOrNull(docs.dishes), total: numOrNull(docs.total), error: strOrNull(i.error) };
  }
  const cfg = isObj(body.config) ? body.config : null;
  const config: LiveStatus['config'] = cfg ? { index: str(cfg.index), location: str(cfg.location), name: strOrNull(cfg.name), facets: strs(cfg.facets) } : null;
  let drift: LiveStatus['drift'] = null;
  if (isObj(body.drift)) {
    const d = body.drift;
    const status = (['ok', 'mismatch', 'no-meta', 'missing-index'] as const).find((s) => s === d.status);
    if (status) drift = { status, indexHash: strOrNull(d.indexHash), fileHash: strOrNull(d.fileHash), indexVersion: numOrNull(d.indexVersion), fileVersion: numOrNull(d.fileVersion), message: str(d.message) };
  }
  const nodes = Array.isArray(body.nodes)
    ? body.nodes.filter(isObj).map((n): ClusterNode => ({ id: str(n.id), name: str(n.name), roles: strs(n.roles), up: n.up !== false }))
    : null;
  const rawCopies = isObj(body.index) && Array.isArray(body.index.copies) ? body.index.copies : null;
  const copies = rawCopies
    ? rawCopies.filter(isObj).map((x): ShardCopy => {
        const node = isObj(x.node) ? { id: str(x.node.id), name: str(x.node.name) } : null;
        const state = (['STARTED', 'INITIALIZING', 'RELOCATING', 'UNASSIGNED'] as const).find((k) => k === x.state) ?? ('UNASSIGNED' as ShardState);
        return { shard: num(x.shard, -1), name: strOrNull(x.name), primary: x.primary === true, state, node, docs: numOrNull(x.docs) };
      })
    : null;
  const writes = isObj(body.writes) && typeof body.writes.enabled === 'boolean' ? { enabled: body.writes.enabled } : null;
  return {
    ok: true,
    value: {
      nodes,
      copies,
      writes,
      config,
      migration: body.migration,
      connection: {
        up: c.status === 'up',
        url: redactUrl(str(c.url)),
        version: strOrNull(cluster.version),
        distribution: strOrNull(cluster.distribution),
        health: strOrNull(cluster.health),
        nodes: numOrNull(cluster.nodes),
        message: strOrNull(c.message),
      },
      boundary,
      index,
      drift,
    },
  };
}

/** liveNoun names what the live index's searches find: "documents" for an index of another config (LiveStatus.config), else the sample's "dishes". */
export function liveNoun(s: LiveStatus | null | undefined): 'documents' | 'dishes' {
  return s?.config ? 'documents' : 'dishes';
}

/** A one-glance verdict on the connection: level, a headline, details, and the command that fixes it. */
export interface StatusVerdict {
  level: 'ok' | 'warn' | 'error';
  /** up, down, drift, missing-index, no-meta, boundary-error, index-error, other-file */
  state: string;
  headline: string;
  detail: string;
  command: string | null;
}

const short = (h: string | null) => (h ? h.slice(0, 12) : '(none)');

/**
 * describeStatus turns a status into the panel's verdict. `explorer` is the
 * boundary file the globe shows (its hash, and routingKeyOf it): when the API
 * routes with another file that routes differently, the routed shards will
 * not be the ones the globe lights up. A file that differs only in what does
 * not route (its index name, version) is not a warning.
 */
export function describeStatus(s: LiveStatus, explorer: { hash: string; routing: string } | null): StatusVerdict {
  const explorerHash = explorer && !('error' in s.boundary) && s.boundary.routing !== null && s.boundary.routing === explorer.routing ? null : (explorer?.hash ?? null);
  const c = s.connection;
  if (!c.up) {
    return {
      level: 'error',
      state: 'down',
      headline: `OpenSearch is down: nothing answers at ${c.url || 'the configured URL'}.`,
      detail: `${c.message ? c.message + '. ' : ''}Start the local node, or point OPENSEARCH_URL at a cluster and restart the explorer.`,
      command: 'npm run cluster:start',
    };
  }
  const where = `OpenSearch ${c.version ?? '?'} at ${c.url} (${c.health ?? 'health unknown'}${c.nodes !== null ? `, ${c.nodes} node${c.nodes === 1 ? '' : 's'}` : ''})`;
  if ('error' in s.boundary) return { level: 'error', state: 'boundary-error', headline: 'The live API has no usable boundary file.', detail: s.boundary.error, command: 'npm run data:generate' };
  const d = s.drift;
  const name = s.boundary.index;
  if (d?.status === 'missing-index') {
    return { level: 'error', state: 'missing-index', headline: `Index "${name}" does not exist on ${c.url}.`, detail: `${where}. Create and load it with the command below, then turn Live off and on.`, command: 'npx geoshard seed' };
  }
  if (d?.status === 'mismatch') {
    return {
      level: 'error',
      state: 'drift',
      headline: `Boundary drift: index "${name}" was written with boundary file ${short(d.indexHash)} (version ${d.indexVersion ?? '?'}), the API routes with ${short(d.fileHash)} (version ${d.fileVersion ?? '?'}).`,
      detail: `Routed searches would look on shards the documents were not written to and come back silently short, so every search is refused (HTTP 409). Index hash ${d.indexHash ?? '(none)'}; file hash ${d.fileHash ?? '(none)'}.`,
      command: 'npx geoshard seed --recreate',
    };
  }
  if (d?.status === 'no-meta') {
    // Not geosharded (a team's plain index, hash-sharded by id): copy it into one routed by the file; the detail names the sample's own fix.
    return { level: 'error', state: 'no-meta', headline: `Index "${name}" has no geoshard _meta hash: it is not geosharded, so nothing says which boundary file routed its documents.`, detail: d.message, command: `npx geoshard reindex --from ${name} --to ${name}-geo --boundaries FILE` };
  }
  if (s.index?.error) return { level: 'warn', state: 'index-error', headline: `${where}: index "${name}" could not be read.`, detail: s.index.error, command: null };
  const docs = s.config
    ? s.index?.total != null
      ? ` · ${s.index.total.toLocaleString('en-US')} documents`
      : ''
    : s.index && s.index.restaurants !== null
      ? ` · ${s.index.restaurants.toLocaleString('en-US')} restaurants + ${(s.index.dishes ?? 0).toLocaleString('en-US')} dishes`
      : '';
  if (explorerHash && explorerHash !== s.boundary.hash) {
    return {
      level: 'warn',
      state: 'other-file',
      headline: `The globe shows boundary file ${short(explorerHash)}, the live API routes with ${short(s.boundary.hash)}.`,
      detail: `${where}. The routed shards below follow the API's file, not the globe's.`,
      command: null,
    };
  }
  return {
    level: 'ok',
    state: 'up',
    headline: `${where}`,
    detail: `Index "${name}"${docs} on ${s.boundary.numberOfShards} shards · index _meta hash = boundary file hash ${short(s.boundary.hash)} (version ${s.boundary.version}): no drift.`,
    command: null,
  };
}

// ---------------------------------------------------------------------------
// Requests

/** The client's own deadline per request (ms): above the server's (two searches of 5 s + 5 s each). */
export const LIVE_TIMEOUT_MS = 30_000;

/** A write request's method and JSON body (requestJson sends GET without one). */
export interface JsonRequest {
  method: 'PUT' | 'DELETE' | 'POST';
  /** Sent as application/json; absent: no body. */
  json?: unknown;
}

/**
 * requestJson asks a URL (GET, or `request`'s method with its JSON body) and
 * returns its status, its JSON body (undefined when the body is not JSON: the
 * SPA fallback's index.html when /api is not mounted) and its Retry-After
 * header when sent. Rejects with a LiveFailure for network errors and the
 * deadline; rethrows AbortError when `signal` aborts (a stale request).
 */
export async function requestJson(
  url: string,
  signal: AbortSignal,
  fetchImpl: typeof fetch = fetch,
  timeoutMs = LIVE_TIMEOUT_MS,
  request?: JsonRequest,
): Promise<{ httpStatus: number; body: unknown; retryAfter?: string }> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const onAbort = () => deadline.abort();
  signal.addEventListener('abort', onAbort);
  try {
    const init: RequestInit = { headers: { accept: 'application/json' }, signal: deadline.signal, cache: 'no-store' };
    if (request) {
      init.method = request.method;
      if (request.json !== undefined) {
        init.headers = { accept: 'application/json', 'content-type': 'application/json' };
        init.body = JSON.stringify(request.json);
      }
    }
    const res = await fetchImpl(url, init);
    const type = res.headers.get('content-type') ?? '';
    const retryAfter = res.headers.get('retry-after') ?? undefined;
    const text = await res.text();
    let body: unknown;
    if (type.includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
    return retryAfter === undefined ? { httpStatus: res.status, body } : { httpStatus: res.status, body, retryAfter };
  } catch (e) {
    if (signal.aborted) throw e;
    if (deadline.signal.aborted) throw failure('timeout', null, `The live API did not answer within ${timeoutMs / 1000} s: no result (nothing is shown as complete).`);
    throw failure('network', null, `The explorer's server does not answer (${(e as Error).message}): is \`npm start\` still running?`);
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}

function failure(kind: LiveFailureKind, httpStatus: number | null, message: string): LiveFailure {
  return { kind, httpStatus, message };
}

/** isLiveFailure tells a LiveFailure from other errors. */
export function isLiveFailure(e: unknown): e is LiveFailure {
  return isObj(e) && typeof e.kind === 'string' && typeof e.message === 'string' && 'httpStatus' in e;
}

/** fetchSearch runs one compared search; resolves to a result or a failure (rejects only when aborted). */
export async function fetchSearch(url: string, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<Parsed<LiveResult>> {
  try {
    const { httpStatus, body } = await requestJson(url, signal, fetchImpl);
    return readSearch(httpStatus, body);
  } catch (e) {
    if (isLiveFailure(e)) return { ok: false, failure: e };
    throw e;
  }
}

/** fetchStatus asks /api/status; resolves to a status or a failure (rejects only when aborted). */
export async function fetchStatus(signal: AbortSignal, fetchImpl: typeof fetch = fetch, url = '/api/status'): Promise<Parsed<LiveStatus>> {
  try {
    const { httpStatus, body } = await requestJson(url, signal, fetchImpl, 10_000);
    return readStatus(httpStatus, body);
  } catch (e) {
    if (isLiveFailure(e)) return { ok: false, failure: e };
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Measure (POST /api/measure)

/** The client's deadline for a measurement (ms): it runs 4 × runs searches, 30 by default. */
export const MEASURE_TIMEOUT_MS = 180_000;

/**
 * liveMeasureBody returns the POST /api/measure body for the live query (the
 * same circle and filters as its search, at full precision), or null when it
 * has no circle: without one both plans ask every shard and there is nothing
 * to compare.
 */
export function liveMeasureBody(q: LiveQuery, runs?: number, concurrency?: number): MeasureRequest | null {
  if (q.noLocation || !q.centre) return null;
  const p = liveSearchParams(q)!;
  const body: MeasureRequest = { lat: q.centre.lat, lng: q.centre.lng, radius: p.get('radius')!, size: q.size };
  for (const k of ['diet', 'allergen', 'cuisine'] as const) if (q.filters[k].length > 0) body[k] = [...q.filters[k]];
  if (runs !== undefined) body.runs = runs;
  if (concurrency !== undefined) body.concurrency = concurrency;
  return body;
}

const loadOf = (v: unknown): LoadAverage | null => (isObj(v) && typeof v['1m'] === 'number' ? { '1m': num(v['1m']), '5m': num(v['5m']), '15m': num(v['15m']) } : null);
const summaryOf = (v: unknown, what: string) => {
  if (!isObj(v)) throw new ShapeError(`the answer has no ${what}`);
  return { n: num(v.n, 0), p50Ms: need(numOrNull(v.p50Ms), `${what} p50Ms`), p99Ms: need(numOrNull(v.p99Ms), `${what} p99Ms`) };
};
function measureSide(v: unknown, what: string): MeasureSide {
  if (!isObj(v)) throw new ShapeError(`the answer has no ${what} side`);
  return {
    shardsAsked: num(v.shardsAsked, 0),
    latency: summaryOf(v.latency, `${what} latency`),
    tookP50Ms: num(v.tookP50Ms),
    cpuMsPerSearch: numOrNull(v.cpuMsPerSearch),
    searchesPerS: need(numOrNull(v.searchesPerS), `${what} searchesPerS`),
    underLoad: summaryOf(v.underLoad, `${what} underLoad`),
  };
}

/**
 * readMeasure reads a POST /api/measure answer as readSearch reads a search:
 * every failure status becomes a LiveFailure with the server's message (a 429
 * while another measurement runs is `busy`); a 200 becomes a MeasureAnswer,
 * partial when the server says so.
 */
export function readMeasure(httpStatus: number, body: unknown, retryAfter?: string): Parsed<MeasureAnswer> {
  if (isObj(body) && body.status === 'busy') {
    const message = str(isObj(body.error) ? body.error.message : undefined) || 'Another measurement is running: try again when it is done.';
    return { ok: false, failure: { kind: 'busy', httpStatus, message, ...(retryAfter && Number(retryAfter) > 0 ? { retryAfterS: Number(retryAfter) } : {}) } };
  }
  if (!isObj(body) || (body.status !== 'complete' && body.status !== 'partial') || httpStatus !== 200) {
    const r = readSearch(httpStatus, body);
    return r.ok ? { ok: false, failure: { kind: 'bad-response', httpStatus, message: 'The live API answered the measurement with a search: this is not an answer the explorer understands.' } } : r;
  }
  try {
    const b = isObj(body.boundary) ? body.boundary : {};
    const g = isObj(body.gain) ? body.gain : {};
    const w = isObj(body.warmup) ? body.warmup : {};
    const l = isObj(body.load) ? body.load : {};
    const q = isObj(body.query) ? body.query : {};
    return {
      ok: true,
      value: {
        status: body.status,
        index: str(body.index),
        boundary: { hash: str(b.hash), version: num(b.version), numberOfShards: num(b.numberOfShards) },
        query: q as unknown as MeasureAnswer['query'],
        runs: num(body.runs, 0),
        concurrency: num(body.concurrency, 0),
        warmup: { runs: num(w.runs, 0), note: need(typeof w.note === 'string' ? w.note : null, 'warm-up note') },
        routing: str(body.routing),
        routed: measureSide(body.routed, 'routed'),
        all: measureSide(body.all, 'all-shards'),
        gain: { p50: numOrNull(g.p50), p99: numOrNull(g.p99), cpu: numOrNull(g.cpu), throughput: numOrNull(g.throughput) },
        identical: body.identical === true,
        differences: strs(body.differences),
        partialRuns: num(body.partialRuns, 0),
        load: { before: loadOf(l.before), after: loadOf(l.after), nodes: num(l.nodes, 0), processors: numOrNull(l.processors) },
        method: str(body.method),
        ms: num(body.ms),
        at: str(body.at),
      },
    };
  } catch (e) {
    if (e instanceof ShapeError) return { ok: false, failure: { kind: 'bad-response', httpStatus, message: `The live API's measurement is not understood: ${e.message}.` } };
    throw e;
  }
}

/** fetchMeasure asks for one measurement; resolves to its answer or a failure (rejects only when aborted). */
export async function fetchMeasure(body: MeasureRequest, signal: AbortSignal, fetchImpl: typeof fetch = fetch, url = '/api/measure'): Promise<Parsed<MeasureAnswer>> {
  try {
    const r = await requestJson(url, signal, fetchImpl, MEASURE_TIMEOUT_MS, { method: 'POST', json: body });
    return readMeasure(r.httpStatus, r.body, r.retryAfter);
  } catch (e) {
    if (isLiveFailure(e)) return { ok: false, failure: e };
    throw e;
  }
}

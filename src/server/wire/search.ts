/**
 * The wire contract of GET /api/search (src/server/api/search.ts answers it): the query string,
 * written by the explorer (searchQueryString) and parsed and validated by the server
 * (parseSearchParams), the query as an answer echoes it, and the JSON shapes of a search's
 * answer: each side (routed, all shards), its hits and facets, the shards it asked and how
 * they answered, the drift section, the placement of the shards, and the refusals.
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 *
 * The search query string:
 *   lat, lng   decimal degrees (digits with an optional sign and fraction: no hex,
 *              binary, octal or exponent), lat in [-90, 90], lng in [-180, 180]; both or neither
 *   radius     a decimal number with an optional unit, "15mi", "25km", "10" (miles);
 *              at least MIN_RADIUS_KM (10 m) and at most MAX_RADIUS_KM (1000 km);
 *              required with lat/lng, not allowed without them
 *   diet       dishes carrying every listed diet (repeat or comma-separate)
 *   allergen   dishes free of every listed allergen
 *   cuisine    dishes of any listed cuisine
 *   size       top dishes returned, integer in [0, MAX_SIZE] (default DEFAULT_SIZE)
 *   compare    1/true: also run the same search on all shards and compare
 *   profile    1/true: ask OpenSearch's profile API and report each asked shard's time
 */
import { parseRadius, MAX_RADIUS_KM, KM_PER_MILE, formatRadius, type Radius, type RadiusUnit } from '../../core/index.ts';
import { ParamError, show, decimalString, FILTER_KINDS, VOCABULARY, type FilterKind, type ApiStatus } from './common.ts';

/** Largest `size` the API returns. */
export const MAX_SIZE = 100;
/** `size` when absent. */
export const DEFAULT_SIZE = 20;
/**
 * Smallest radius the API searches (km): 10 m. Below that a "circle" is a
 * point, its echo rounds to zero, and nothing real is that small; the core's
 * MAX_RADIUS_KM (1000 km) is the largest.
 */
export const MIN_RADIUS_KM = 0.01;

/** The parameters the search accepts; anything else is a 400. */
export const SEARCH_PARAMS = ['lat', 'lng', 'radius', 'diet', 'allergen', 'cuisine', 'size', 'compare', 'profile', 'q', 'route'] as const;

/**
 * Who routes a search (`route`): `auto` (the default) lets the cluster route it when the index's
 * search pipeline is geoshard's and follows its `_meta` (the plugin's geo_routing_search), else this
 * server; `client` always sends the server's routing; `cluster` always sends none through the
 * index's search pipeline (it asks every shard when that pipeline does not route).
 */
export const ROUTE_MODES = ['auto', 'client', 'cluster'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];

/** The longest text query (`q`, characters after trimming). */
export const MAX_TEXT_CHARS = 200;

/** A validated search. */
export interface SearchParams {
  /** The circle, or null for a search with no location (all shards). */
  circle: { lat: number; lng: number; radius: Radius } | null;
  /** Dishes must carry every one of these diets. */
  diets: string[];
  /** Dishes must contain none of these allergens. */
  allergens: string[];
  /** Dishes must be of one of these cuisines (empty: any). */
  cuisines: string[];
  size: number;
  compare: boolean;
  /** Profile the search (OpenSearch's profile API) and report each asked shard's time. */
  profile: boolean;
  /** A text query on the config's name field (`q`, trimmed, 1 to MAX_TEXT_CHARS characters); absent or null: none. */
  text?: string | null;
  /** Who routes it (`route`, ROUTE_MODES); absent: auto. */
  route?: RouteMode;
}

/** A plain decimal number: optional sign, digits, optional fraction. No hex/binary/octal, exponent, spaces or "Infinity". */
const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
/** A radius: an unsigned decimal and an optional unit (the core's spellings: mi, mile(s), km, km(s)). */
const RADIUS = /^(\d+(?:\.\d+)?)(mi|miles?|km|kms)?$/i;

function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length > 1) throw new ParamError(name, `${name} is given ${all.length} times: give it once`);
  return all[0];
}

function degrees(q: URLSearchParams, name: 'lat' | 'lng', limit: number): number | undefined {
  const raw = single(q, name);
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!DECIMAL.test(raw) || !Number.isFinite(v) || Math.abs(v) > limit) {
    throw new ParamError(name, `${name} ${show(raw)} is invalid: expected a decimal number of degrees in [-${limit}, ${limit}], such as ${name === 'lat' ? '37.7749' : '-122.4194'}`);
  }
  return v;
}

function radius(raw: string): Radius {
  const valid = `a decimal number with an optional unit mi or km (miles when none), such as "15mi" or "25km", from ${MIN_RADIUS_KM} km to ${MAX_RADIUS_KM} km`;
  if (!RADIUS.test(raw)) throw new ParamError('radius', `radius ${show(raw)} is invalid: expected ${valid}`);
  let r: Radius;
  try {
    r = parseRadius(raw, 'mi', 'radius');
  } catch (e) {
    throw new ParamError('radius', `${(e as Error).message} (expected ${valid})`);
  }
  if (r.km < MIN_RADIUS_KM) throw new ParamError('radius', `radius ${show(raw)} is too small: it is ${r.km} km; expected ${valid}`);
  return r;
}

function list(q: URLSearchParams, name: FilterKind): string[] {
  const valid = VOCABULARY[name];
  const out: string[] = [];
  for (const raw of q.getAll(name)) {
    for (const part of raw.split(',')) {
      const v = part.trim().toLowerCase();
      if (v === '') throw new ParamError(name, `${name} ${show(raw)} has an empty value: expected one or more of ${valid.join(', ')} (comma-separated or repeated)`);
      if (!valid.includes(v)) throw new ParamError(name, `${name} ${show(part)} is not known: expected one of ${valid.join(', ')}`);
      if (!out.includes(v)) out.push(v);
    }
  }
  // Canonical order (the vocabulary's), so equal searches build equal queries.
  return out.sort((a, b) => valid.indexOf(a) - valid.indexOf(b));
}

/** flag reads a yes/no parameter: 1, true or empty is yes; 0 or false (or absent) is no; anything else is a ParamError. */
function flag(q: URLSearchParams, name: 'compare' | 'profile'): boolean {
  const raw = single(q, name);
  if (raw === undefined) return false;
  const c = raw.trim().toLowerCase();
  if (c === '1' || c === 'true' || c === '') return true;
  if (c === '0' || c === 'false') return false;
  throw new ParamError(name, `${name} ${show(raw)} is invalid: expected 1 or 0 (true or false)`);
}

/**
 * parseSearchParams validates a search's query string. Throws ParamError
 * naming the first parameter at fault, its value and what is valid: unknown
 * parameters, repeated single parameters, numbers that are not plain decimals
 * or out of range, unknown filter values, a radius without a location or a
 * location without a radius.
 */
export function parseSearchParams(q: URLSearchParams): SearchParams {
  for (const key of new Set(q.keys())) {
    if (!(SEARCH_PARAMS as readonly string[]).includes(key)) {
      throw new ParamError(key, `${show(key)} is not a search parameter: expected only ${SEARCH_PARAMS.join(', ')}`);
    }
  }
  const lat = degrees(q, 'lat', 90);
  const lng = degrees(q, 'lng', 180);
  const radiusRaw = single(q, 'radius');
  if ((lat === undefined) !== (lng === undefined)) {
    const missing = lat === undefined ? 'lat' : 'lng';
    throw new ParamError(missing, `${missing} is missing: give both lat and lng (a location), or neither (a search on all shards)`);
  }
  let circle: SearchParams['circle'] = null;
  if (lat !== undefined && lng !== undefined) {
    if (radiusRaw === undefined) throw new ParamError('radius', `radius is missing: a search at a location needs a radius such as "15mi" or "25km" (from ${MIN_RADIUS_KM} km to ${MAX_RADIUS_KM} km)`);
    circle = { lat, lng, radius: radius(radiusRaw) };
  } else if (radiusRaw !== undefined) {
    throw new ParamError('radius', `radius ${show(radiusRaw)} is given without a location: add lat and lng, or leave radius out to search all shards`);
  }
  const sizeRaw = single(q, 'size');
  let size = DEFAULT_SIZE;
  if (sizeRaw !== undefined) {
    if (!/^\d+$/.test(sizeRaw) || Number(sizeRaw) > MAX_SIZE) throw new ParamError('size', `size ${show(sizeRaw)} is invalid: expected an integer in [0, ${MAX_SIZE}]`);
    size = Number(sizeRaw);
  }
  const compare = flag(q, 'compare');
  const profile = flag(q, 'profile');
  const textRaw = single(q, 'q');
  const text = textRaw?.trim();
  if (text !== undefined && (text === '' || text.length > MAX_TEXT_CHARS)) throw new ParamError('q', `q ${show(textRaw ?? '')} is invalid: expected a text of 1 to ${MAX_TEXT_CHARS} characters (matched against the index's name field), or no q`);
  const routeRaw = single(q, 'route');
  const route = routeRaw?.trim().toLowerCase();
  if (route !== undefined && !(ROUTE_MODES as readonly string[]).includes(route)) throw new ParamError('route', `route ${show(routeRaw ?? '')} is invalid: expected ${ROUTE_MODES.join(', ')} (auto, the default: the cluster's search pipeline when it routes the index, else this server)`);
  return { circle, diets: list(q, 'diet'), allergens: list(q, 'allergen'), cuisines: list(q, 'cuisine'), size, compare, profile, ...(text !== undefined ? { text } : {}), ...(route !== undefined && route !== 'auto' ? { route: route as RouteMode } : {}) };
}

/** The search the explorer asks for, before it is written as a query string. */
export interface SearchRequest {
  /** Degrees, or null for a search with no location (every shard). */
  circle: { lat: number; lng: number; radius: { value: number; unit: RadiusUnit } } | null;
  /** Filter values (any order, repeats allowed: written sorted and deduplicated). */
  filters: Record<FilterKind, readonly string[]>;
  size: number;
  compare: boolean;
  /** Ask for each shard's time (profile=1); absent or false: not profiled. */
  profile?: boolean;
}

/**
 * searchQueryString writes a search as the query string parseSearchParams
 * reads: numbers as plain decimals at full precision (the server covers
 * exactly the circle the globe covers), filter values sorted and joined with
 * commas, so equal searches give equal strings.
 */
export function searchQueryString(r: SearchRequest): string {
  const p = new URLSearchParams();
  if (r.circle) {
    p.set('lat', decimalString(r.circle.lat));
    p.set('lng', decimalString(r.circle.lng));
    p.set('radius', `${decimalString(r.circle.radius.value)}${r.circle.radius.unit}`);
  }
  for (const kind of FILTER_KINDS) {
    const values = [...new Set(r.filters[kind])].sort();
    if (values.length > 0) p.set(kind, values.join(','));
  }
  p.set('size', String(r.size));
  if (r.compare) p.set('compare', '1');
  if (r.profile) p.set('profile', '1');
  return p.toString().replace(/%2C/g, ',');
}

/** The query as the answer echoes it (units stated). */
export interface QueryEcho {
  lat: number | null;
  lng: number | null;
  /** As the URL writes it, e.g. "15mi". */
  radius: string | null;
  radiusKm: number | null;
  radiusMi: number | null;
  diets: string[];
  allergensExcluded: string[];
  cuisines: string[];
  size: number;
  compare: boolean;
  profile: boolean;
  /** The text query (q), when one was given. */
  text?: string;
}

/** describeQuery echoes a validated search for the response (units stated). */
export function describeQuery(p: SearchParams): QueryEcho {
  return {
    lat: p.circle?.lat ?? null,
    lng: p.circle?.lng ?? null,
    radius: p.circle ? formatRadius(p.circle.radius) : null,
    radiusKm: p.circle ? p.circle.radius.km : null,
    radiusMi: p.circle ? p.circle.radius.km / KM_PER_MILE : null,
    diets: p.diets,
    allergensExcluded: p.allergens,
    cuisines: p.cuisines,
    size: p.size,
    compare: p.compare,
    profile: p.profile,
    ...(p.text ? { text: p.text } : {}),
  };
}

/** A search's outcome: complete, or partial (some shard failed, was missing or timed out; its answer may miss documents). */
export type SearchStatus = 'complete' | 'partial';

/**
 * How one asked shard answered. ok: answered; failed: named in
 * `_shards.failures`; unavailable: no started copy (unassigned, recovering);
 * unknown: OpenSearch says fewer shards answered than were asked (or the
 * search timed out) without naming which, and this shard may be one of them.
 */
export type ShardAnswer = 'ok' | 'failed' | 'unavailable' | 'unknown';

/** A shard a search asked, with how it answered. */
export interface AskedShard {
  /** Key-order index in the boundary file (the palette colour). */
  index: number;
  /** The routing value. */
  name: string;
  /** OpenSearch shard number. */
  shard: number;
  /** Covering cells in the shard (routed searches with a location; 0 otherwise). */
  cells: number;
  status: ShardAnswer;
  /** Why the shard is not ok (absent or null when ok). */
  reason?: string | null;
}

/**
 * One asked shard's time for a profiled search (profile=1), from OpenSearch's
 * profile API: the shard's query time (every top-level query, rewrite time
 * included), plus its aggregation time and, where the engine profiles it, its
 * fetch time. Network, queueing and the coordinating node's merge are not in it.
 */
export interface ShardTiming {
  /** OpenSearch shard number. */
  shard: number;
  /** The boundary file's routing name of the shard ('' when the file has no such shard). */
  name: string;
  /** The node whose copy answered (its name when the API knows it, else its id); null when not reported. */
  node: string | null;
  /** Milliseconds, ≥ 0. */
  ms: number;
}

/** OpenSearch's `_shards` section of a search response, as the answer passes it on. */
export interface ShardsSection {
  total: number;
  /** Shards that answered, skipped ones included. */
  successful: number;
  skipped: number;
  failed: number;
  failures?: { shard?: number; index?: string; node?: string; reason?: { type?: string; reason?: string } }[];
}

/** One dish of the results. */
export interface DishHit {
  id: string;
  name: string;
  cuisine: string;
  diets: string[];
  allergens: string[];
  /** kcal. */
  calories: number;
  /** US cents. */
  priceCents: number;
  /** The routing value the dish was written with (its restaurant's shard name). */
  routing: string | null;
  restaurant: { id: string; name: string; place: string; state: string; lat: number; lng: number; cuisines: string[] } | null;
  /** Great-circle distance (km) from the search centre to the restaurant; null without a location. */
  distanceKm: number | null;
}

/** A facet value and how many matching dishes carry it. */
export interface FacetCount {
  value: string;
  count: number;
}

export interface Facets {
  diets: FacetCount[];
  allergens: FacetCount[];
  cuisines: FacetCount[];
}

/**
 * A hit of an index that is not the sample (its config's fields): any document in the circle,
 * nearest first (or by text score with q).
 */
export interface DocHit {
  /** The document's _id. */
  id: string;
  /** The config's name field, or the _id when the config names none (or the document has no name). */
  name: string;
  /** The routing value it was written with (null: none, the engine hashed its id). */
  routing: string | null;
  /** Its location (the config's location field; a join child: its childLocation), degrees; null when it has none. */
  lat: number | null;
  lng: number | null;
  /** Great-circle distance (km) from the search centre; null without a location. */
  distanceKm: number | null;
  /** The config's facet fields as the document holds them (absent ones left out). */
  fields: Record<string, unknown>;
}

/** Facet counts of an index that is not the sample: per config facet field, its values, count descending then value. */
export type FacetMap = Record<string, FacetCount[]>;

/**
 * One executed search (routed, or on all shards), as the answer reports it: the sample's dishes
 * and facets by default, DocHit and FacetMap for an index of another config.
 */
export interface SearchSide<H = DishHit, F = Facets> {
  status: SearchStatus;
  /**
   * routed: only the shards the circle touches, named by this server (routing= sent);
   * cluster: sent with no routing through the index's search pipeline, which routes it in the
   * cluster (the geoshard plugin's geo_routing_search); all-shards: every shard (no routing, the
   * search pipeline skipped).
   */
  scope: 'routed' | 'cluster' | 'all-shards';
  /** The routing string: sent (routed), or set by the cluster's search pipeline (cluster, from its report); null when every shard was asked. */
  routing: string | null;
  /** Who chose the shards: this server (the client of OpenSearch), the cluster's search pipeline, or nobody (every shard). Absent from older servers. */
  routedBy?: 'client' | 'cluster' | null;
  /**
   * For scope cluster: what the search pipeline reported (ext.geoshard): whether it narrowed the
   * search, why not, its covering's cells and its own time (µs); `agrees` says whether it asked
   * the shards the core's covering names (the routing this server would have sent).
   */
  cluster?: { routed: boolean; reason: string | null; cells: number | null; micros: number | null; agrees: boolean } | null;
  shardsAsked: AskedShard[];
  /** Why the side is partial, one sentence naming the shards (null when complete). */
  partialReason: string | null;
  /** OpenSearch's `took` (ms, server side). */
  took: number;
  /** Wall time of the request as the API server saw it (ms). */
  wallMs: number;
  timedOut: boolean;
  /** Exact number of matching dishes (or documents). */
  total: number;
  hits: H[];
  facets: F;
  shards: ShardsSection;
  /** Each answering shard's time, by shard number (profile=1 only; absent otherwise). */
  shardTimes?: ShardTiming[];
}

/**
 * sideStatus classifies one search by OpenSearch's own report: partial when it
 * timed out, a shard failed, fewer shards succeeded than were asked
 * (`successful` includes skipped shards), or any asked shard is not "ok".
 */
export function sideStatus(s: Pick<SearchSide, 'timedOut' | 'shards' | 'shardsAsked'>): SearchStatus {
  const sh = s.shards;
  if (s.timedOut || sh.failed > 0 || sh.successful < Math.max(sh.total, s.shardsAsked.length)) return 'partial';
  return s.shardsAsked.every((x) => x.status === 'ok') ? 'complete' : 'partial';
}

/** The drift section of an answer: the index's and the file's identity. */
export interface DriftEcho {
  /**
   * ok; mismatch: the index was written with another boundary file; no-meta;
   * missing-index; routing-mismatch: the hashes agree but the engine sends
   * some shard name to another shard than the file declares (another routing
   * formula or number_of_routing_shards); pipeline-mismatch: the index's
   * routing ingest pipeline (its default_pipeline) was made for another
   * boundary file or routing table than the index's _meta says.
   */
  status: 'ok' | 'mismatch' | 'no-meta' | 'missing-index' | 'routing-mismatch' | 'pipeline-mismatch';
  indexHash: string | null;
  fileHash: string;
  indexVersion?: number | null;
  fileVersion?: number;
  /** The target of a migration in progress on the index, when there is one. */
  targetHash?: string | null;
  message?: string;
}

/** A 200 answer of /api/search: the routed side at the top level, the all-shards side under `unrouted` when compared. */
export interface SearchAnswer extends SearchSide {
  query: QueryEcho;
  index: string;
  boundary: { hash: string; version: number; numberOfShards: number };
  drift: DriftEcho;
  /** Present while a migration runs on the index: the epoch whose state the search was routed with. */
  migration?: { epoch: number; target: string };
  /** Set when there is no location: the search went to every shard. */
  note?: string;
  unrouted?: SearchSide;
  /** Same total, same hits in the same order, same facet counts (compare=1 only). */
  identical?: boolean;
  differences?: string[];
  /** routed / all-shards: shards asked, took (null when all-shards took 0 ms), wall time. */
  ratio?: { shards: number; took: number | null; wall: number };
  /** Where the asked shards live and what a lost node cost this answer (absent when the shard table could not be read). */
  placement?: SearchPlacement;
}

/**
 * What the cluster's layout meant for one search: shards with no copy that
 * answered, with the node that held them in the last shard table in which
 * every copy was started (the "healthy" table, taken at API start, on
 * /api/status and on searches); shards answered by a copy that was a replica
 * in that table (its primary's node left and the replica was promoted).
 */
export interface SearchPlacement {
  /** Asked shards that did not answer (failed, unavailable or unknown) and where they lived. */
  missing: { shard: number; name: string; node: string | null }[];
  /** The distinct nodes named in `missing`, sorted. */
  lostNodes: string[];
  /** Asked shards that answered from a copy promoted since the healthy table: the primary was on `from`, now on `to`. */
  promoted: { shard: number; name: string; from: string; to: string }[];
}

/** A refusal or failure of /api/search or /api/status (4xx/5xx). */
export interface ErrorAnswer {
  status: Exclude<ApiStatus, 'complete' | 'partial'>;
  error: {
    /** The query parameter at fault (invalid only). */
    param?: string;
    message: string;
  };
  query?: QueryEcho;
  index?: string;
  boundary?: { hash: string; version: number; numberOfShards: number };
  drift?: DriftEcho;
}

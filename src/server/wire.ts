/**
 * The live API's wire format, in one place for both sides: the query string
 * of GET /api/search (written by the explorer, parsed and validated by the
 * server), and the JSON shapes of the answers of /api/search and /api/status.
 *
 * Imported by the server (src/server) and by the browser bundle
 * (src/app/live/liveApi.ts): no Node imports, no DOM.
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
 *              (`shardTimes`); off by default because profiling slows the search itself
 */
import { parseRadius, MAX_RADIUS_KM, KM_PER_MILE, formatRadius, type Radius, type RadiusUnit, type MoveStep, type DocCounts } from '../core/index.ts';
import { DIETS, ALLERGENS, CUISINES } from '../data/vocabulary.ts';

// ---------------------------------------------------------------------------
// Limits and vocabulary

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
export const SEARCH_PARAMS = ['lat', 'lng', 'radius', 'diet', 'allergen', 'cuisine', 'size', 'compare', 'profile', 'q'] as const;

/** The longest text query (`q`, characters after trimming). */
export const MAX_TEXT_CHARS = 200;

/** The three filters; values come from the vocabulary. */
export type FilterKind = 'diet' | 'allergen' | 'cuisine';
export const FILTER_KINDS: readonly FilterKind[] = ['diet', 'allergen', 'cuisine'];

/** The vocabularies of the filters (from the dataset generator). */
export const VOCABULARY: Record<FilterKind, readonly string[]> = {
  diet: DIETS as readonly string[],
  allergen: ALLERGENS as readonly string[],
  cuisine: CUISINES,
};

// ---------------------------------------------------------------------------
// The query string: one codec for both sides

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
}

/** ParamError is a 400: `param` is the query parameter at fault. */
export class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

const show = (v: string) => JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);

/** A plain decimal number: optional sign, digits, optional fraction. No hex/binary/octal, exponent, spaces or "Infinity". */
const DECIMAL = /^[+-]?\d+(?:\.\d+)?$/;
/** A radius: an unsigned decimal and an optional unit (the core's spellings: mi, mile(s), km, km(s)). */
const RADIUS = /^(\d+(?:\.\d+)?)(mi|miles?|km|kms)?$/i;

/**
 * decimalString writes a finite number as a plain decimal that reads back to
 * the same number (shortest round trip, like String, but never in exponent
 * form: 1e-7 becomes "0.0000001"), so what the explorer sends the server accepts.
 */
export function decimalString(n: number): string {
  const s = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, lead, frac = '', expRaw] = m;
  const exp = Number(expRaw);
  const digits = lead + frac;
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  return exp >= frac.length ? `${sign}${digits}${'0'.repeat(exp - frac.length)}` : `${sign}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

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
  return { circle, diets: list(q, 'diet'), allergens: list(q, 'allergen'), cuisines: list(q, 'cuisine'), size, compare, profile, ...(text !== undefined ? { text } : {}) };
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

// ---------------------------------------------------------------------------
// The answers

/** Every status an API answer carries. */
export type ApiStatus = 'complete' | 'partial' | 'invalid' | 'drift' | 'unavailable' | 'error' | 'forbidden' | 'not-found' | 'busy';

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
  /** routed: only the shards the circle touches; all-shards: no routing (every shard). */
  scope: 'routed' | 'all-shards';
  /** The routing string sent (names joined by commas, no spaces), or null when none was sent. */
  routing: string | null;
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

/**
 * A migration in progress on the index (`geoshard migrate`), as its `_meta`
 * records it: one entry per moving range with its step (core MOVE_STEPS) and
 * counts. Reported by /api/status; a search answer names the epoch it read.
 */
export interface MigrationStatus {
  /** +1 on every publish; searches route with the state of this epoch. */
  epoch: number;
  /** The settled file's hash and the target's. */
  base: string;
  target: string;
  targetVersion: number;
  startedAt: string;
  updatedAt: string;
  moves: {
    start: string;
    end: string | null;
    from: string;
    to: string;
    fromShard: number;
    toShard: number;
    step: MoveStep;
    /** Documents the copy wrote to the new owner. */
    copied: DocCounts;
    /** The range's documents on both owners when verified, null before. */
    verified: { from: DocCounts; to: DocCounts } | null;
    /**
     * The copy step's cutover: `blockedAt` set while the index's writes are
     * blocked for this range's exact check (writes answer 403
     * cluster_block_exception: retry), each try's window in ms; null before
     * the cutover (absent from older servers).
     */
    cutover?: { blockedAt: string | null; windowsMs: number[] } | null;
  }[];
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

// ---------------------------------------------------------------------------
// Nodes and shard copies

/** A shard copy's state, as OpenSearch's `_cat/shards` names it. */
export type ShardState = 'STARTED' | 'INITIALIZING' | 'RELOCATING' | 'UNASSIGNED';

/**
 * A node of the cluster. `up` is false for a node the API saw before (in a
 * shard table or node list since it started) that is no longer in the
 * cluster: the node list itself only ever holds nodes that are up.
 */
export interface ClusterNode {
  /** The node's persistent id (full, as `_cat/nodes?full_id=true` gives it). */
  id: string;
  name: string;
  /** Role names, e.g. ["cluster_manager", "data", "ingest"]; empty when not known (a node that left). */
  roles: string[];
  up: boolean;
}

/** One copy of one shard of the index. */
export interface ShardCopy {
  /** OpenSearch shard number. */
  shard: number;
  /** The boundary file's routing name of the shard (null if the file has no such shard). */
  name: string | null;
  primary: boolean;
  state: ShardState;
  /** The node holding the copy (null when unassigned); for RELOCATING, the node it leaves. */
  node: { id: string; name: string } | null;
  /** Documents in the copy (null when not started). */
  docs: number | null;
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

/** The answer of /api/status. */
export interface StatusAnswer {
  connection: {
    status: 'up' | 'down';
    /** The node's URL without credentials. */
    url: string;
    cluster?: { name: string; version: string; distribution: string; health: string; nodes: number };
    message?: string;
  };
  /**
   * The server's boundary file: its name relative to the project (or its
   * file name when it lies outside), never an absolute path; or why it is unusable.
   */
  boundary:
    | {
        file: string;
        index: string;
        hash: string;
        version: number;
        numberOfShards: number;
        shards: { index: number; name: string; shard: number }[];
        /** routingKeyOf(the file): equal for two files that route every cell alike (absent from older servers). */
        routing?: string;
      }
    | { file: string; error: string };
  /**
   * The cluster's nodes, sorted by name: those up now and those seen since
   * the API started that have left (up false). Null when the cluster is down.
   */
  nodes: ClusterNode[] | null;
  index:
    | { name: string; exists: false }
    | {
        name: string;
        exists: true;
        docs: { restaurants: number; dishes: number; total: number };
        sample: unknown;
        /** The primaries, one per shard, by shard number. */
        shards: { shard: number; name: string | null; state: string; docs: number | null; node: string | null }[];
        /** Every copy of every shard (primaries and replicas), by shard number, primary first: the shard × node grid. */
        copies: ShardCopy[];
      }
    | { name: string; error: string }
    | null;
  drift: (DriftEcho & { message: string }) | null;
  /** The migration in progress on the index, null when settled, an error when its state cannot be read (absent from older servers). */
  migration?: MigrationStatus | { error: string } | null;
  /**
   * The routing ingest pipeline installed as the index's default_pipeline
   * (`geoshard pipeline --install`), beside `_meta`: what it was made for
   * (settled boundary hash, migration epoch, routing table digest) and whether
   * it routes as `_meta` says (same hash and table; the epoch may lag). Null:
   * none installed; an error when it cannot be read (absent from older servers).
   */
  pipeline?: { id: string; hash: string; epoch: number; table: string; matches: boolean; message: string } | { error: string } | null;
  limits: { minRadiusKm: number; maxRadiusKm: number; maxSize: number; defaultSize: number; searchTimeoutMs: number };
  vocabulary: { diets: readonly string[]; allergens: readonly string[]; cuisines: readonly string[] };
  /** Whether the write endpoints answer (GEOSHARD_WRITES=1 on the server); absent from older servers. */
  writes?: { enabled: boolean };
  /**
   * The index config searches use (GEOSHARD_CONFIG), when it is not the sample's: its location,
   * name, join and facets (then docs.restaurants and docs.dishes are 0 and docs.total counts
   * every document). Absent for the sample.
   */
  config?: { index: string; location: string; name: string | null; join: unknown; facets: string[] };
}

/**
 * routingKeyOf says how a boundary file routes, without what else it says
 * (its index name, version, dates, counts): two files with equal keys send
 * every cell to the same shard name and number, so the explorer can show one
 * while the live API routes with the other (e.g. the same boundaries written
 * for another index) without a routed search asking other shards.
 */
export function routingKeyOf(f: { numberOfShards: number; routingNumShards?: number; boundaries: readonly string[]; shards: readonly { name: string; shard: number }[] }): string {
  return JSON.stringify([f.numberOfShards, f.routingNumShards ?? null, f.boundaries, f.shards.map((s) => [s.name, s.shard])]);
}

/** redactUrl removes user:password@ from every URL in a text (a URL alone, or a message naming one). */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s"']*@/gi, '$1');
}

// ---------------------------------------------------------------------------
// Writes (off unless the server runs with GEOSHARD_WRITES=1)
//
//   PUT    /api/restaurants/:id                 RestaurantBody
//   PUT    /api/restaurants/:id/dishes/:dishId  DishBody
//   DELETE /api/restaurants/:id                 (the restaurant with all its dishes)

/** Largest request body a write accepts (bytes). */
export const MAX_WRITE_BODY_BYTES = 16_384;
/** What a document id may be: 1..64 characters of [A-Za-z0-9_-]. */
export const WRITE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest name (characters). */
export const MAX_NAME_CHARS = 200;
/** Ranges of the integer fields, inclusive. */
export const PRICE_LEVEL_RANGE = [1, 4] as const;
export const PRICE_CENTS_RANGE = [0, 100_000] as const;
export const CALORIES_RANGE = [0, 10_000] as const;

/** The body of PUT /api/restaurants/:id: the whole restaurant (its dishes are kept and rewritten with it). */
export interface RestaurantBody {
  name: string;
  /** Degrees, lat in [-90, 90], lng in [-180, 180]. */
  lat: number;
  lng: number;
  /** Values of VOCABULARY.cuisine. */
  cuisines?: string[];
  /** Integer 1 (cheap) .. 4. */
  price_level?: number;
}

/** The body of PUT /api/restaurants/:id/dishes/:dishId: the whole dish. */
export interface DishBody {
  name: string;
  /** A value of VOCABULARY.cuisine. */
  cuisine?: string;
  /** US cents, integer 0 .. 100000. */
  price_cents?: number;
  /** kcal, integer 0 .. 10000. */
  calories?: number;
  diets?: string[];
  allergens?: string[];
}

/** The keys each body accepts; any other key is a 400. */
export const RESTAURANT_BODY_FIELDS = ['name', 'lat', 'lng', 'cuisines', 'price_level'] as const;
export const DISH_BODY_FIELDS = ['name', 'cuisine', 'price_cents', 'calories', 'diets', 'allergens'] as const;

const showJson = (v: unknown): string => {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
};

/** parseWriteId checks an id of a write path (`id` or `dishId`, already percent-decoded); throws ParamError naming it. */
export function parseWriteId(param: 'id' | 'dishId', raw: string): string {
  if (!WRITE_ID_RE.test(raw)) throw new ParamError(param, `${param} ${showJson(raw)} is invalid: expected 1 to 64 characters of A-Z, a-z, 0-9, "_" and "-"`);
  return raw;
}

function bodyObject(v: unknown, fields: readonly string[], what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ParamError('body', `the body ${showJson(v)} is not a JSON object: expected ${what} { ${fields.join(', ')} }`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!fields.includes(k)) throw new ParamError(k, `${showJson(k)} is not a field of ${what}: expected only ${fields.join(', ')}`);
  }
  return o;
}

function nameField(o: Record<string, unknown>): string {
  const v = o.name;
  if (v === undefined) throw new ParamError('name', `name is missing: give a non-empty string of at most ${MAX_NAME_CHARS} characters`);
  if (typeof v !== 'string' || v.trim() === '' || [...v].length > MAX_NAME_CHARS) throw new ParamError('name', `name ${showJson(v)} is invalid: expected a non-empty string of at most ${MAX_NAME_CHARS} characters`);
  return v;
}

function degreesField(o: Record<string, unknown>, k: 'lat' | 'lng', limit: number): number {
  const v = o[k];
  if (v === undefined) throw new ParamError(k, `${k} is missing: give a JSON number of degrees in [-${limit}, ${limit}]`);
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > limit) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected a JSON number of degrees in [-${limit}, ${limit}], such as ${k === 'lat' ? '37.7749' : '-122.4194'}`);
  return v;
}

function intField(o: Record<string, unknown>, k: string, [lo, hi]: readonly [number, number]): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected an integer in [${lo}, ${hi}]`);
  return v;
}

function termField(o: Record<string, unknown>, k: string, vocabulary: readonly string[]): string | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !vocabulary.includes(v)) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected one of ${vocabulary.join(', ')}`);
  return v;
}

function termsField(o: Record<string, unknown>, k: string, vocabulary: readonly string[]): string[] | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected an array of values from ${vocabulary.join(', ')}`);
  for (const x of v) {
    if (typeof x !== 'string' || !vocabulary.includes(x)) throw new ParamError(k, `${k} value ${showJson(x)} is invalid: expected values from ${vocabulary.join(', ')}`);
  }
  if (new Set(v).size !== v.length) throw new ParamError(k, `${k} ${showJson(v)} repeats a value: give each value once`);
  return [...v] as string[];
}

/** parseRestaurantBody checks a parsed JSON body of PUT /api/restaurants/:id; throws ParamError naming the first field at fault. */
export function parseRestaurantBody(v: unknown): RestaurantBody {
  const o = bodyObject(v, RESTAURANT_BODY_FIELDS, 'a restaurant');
  const out: RestaurantBody = { name: nameField(o), lat: degreesField(o, 'lat', 90), lng: degreesField(o, 'lng', 180) };
  const cuisines = termsField(o, 'cuisines', VOCABULARY.cuisine);
  if (cuisines) out.cuisines = cuisines;
  const price = intField(o, 'price_level', PRICE_LEVEL_RANGE);
  if (price !== undefined) out.price_level = price;
  return out;
}

/** parseDishBody checks a parsed JSON body of PUT /api/restaurants/:id/dishes/:dishId; throws ParamError naming the first field at fault. */
export function parseDishBody(v: unknown): DishBody {
  const o = bodyObject(v, DISH_BODY_FIELDS, 'a dish');
  const out: DishBody = { name: nameField(o) };
  const cuisine = termField(o, 'cuisine', VOCABULARY.cuisine);
  if (cuisine !== undefined) out.cuisine = cuisine;
  const cents = intField(o, 'price_cents', PRICE_CENTS_RANGE);
  if (cents !== undefined) out.price_cents = cents;
  const kcal = intField(o, 'calories', CALORIES_RANGE);
  if (kcal !== undefined) out.calories = kcal;
  const diets = termsField(o, 'diets', VOCABULARY.diet);
  if (diets) out.diets = diets;
  const allergens = termsField(o, 'allergens', VOCABULARY.allergen);
  if (allergens) out.allergens = allergens;
  return out;
}

/** One owner a write went to: its routing name and shard; `read` is the owner searches read (the core's shard), `write` a second owner during a move. */
export interface WriteOwner {
  name: string;
  shard: number;
  role: 'read' | 'write';
}

/** What OpenSearch says about one owner after the write: the shard (and node) holding the document, read back from the engine. */
export interface WriteAck {
  routing: string;
  shard: number;
  node: string | null;
  result: 'created' | 'updated' | 'deleted' | 'not_found';
}

/** The 200 answer of a write. */
export interface WriteAnswer {
  status: 'written' | 'deleted';
  kind: 'restaurant' | 'dish';
  /** The document written (the dish's id for a dish). */
  id: string;
  restaurantId: string;
  /** The restaurant's location (degrees). */
  location: { lat: number; lng: number };
  /** The restaurant's level-10 token. */
  cell: string;
  /** The shard the core names for the cell (the read owner). */
  core: { name: string; shard: number };
  /** Every owner written: 1, or 2 during a migration. */
  owners: WriteOwner[];
  /** Per owner, what the engine says after the write. */
  acknowledged: WriteAck[];
  /** Dishes rewritten (restaurant put) or deleted (restaurant delete); 0 for a dish put. */
  dishes: number;
  /** The migration epoch written under, null when settled. */
  epoch: number | null;
}

// ---------------------------------------------------------------------------
// Measure: POST /api/measure (the Live panel's Measure action, `geoshard bench`)

/** Searches per plan a measurement runs one at a time (the warm-up included), and again with several in flight: [min, max] and the default. */
export const MEASURE_RUNS = { min: 4, max: 200, default: 30 } as const;
/** Searches in flight in a measurement's throughput phase: [min, max] and the default. */
export const MEASURE_CONCURRENCY = { min: 1, max: 16, default: 4 } as const;
/** The keys a measure body accepts; any other key is a 400. */
export const MEASURE_FIELDS = ['lat', 'lng', 'radius', 'diet', 'allergen', 'cuisine', 'size', 'runs', 'concurrency'] as const;

/**
 * The body of POST /api/measure: the search (as /api/search takes it: lat and
 * lng in degrees, radius "15mi" / "25km" or a number of miles, the filters as
 * arrays or comma-separated strings, size) and how to measure it. A location is
 * required: without a circle both plans ask every shard.
 */
export interface MeasureRequest {
  lat: number | string;
  lng: number | string;
  radius: number | string;
  diet?: string | string[];
  allergen?: string | string[];
  cuisine?: string | string[];
  size?: number | string;
  /** Searches per plan, integer in [MEASURE_RUNS.min, MEASURE_RUNS.max] (default 30). */
  runs?: number;
  /** Searches in flight in the throughput phase, integer in [1, 16] (default 4). */
  concurrency?: number;
}

/** A validated measure request. */
export interface MeasureParams {
  /** The search (compare and profile off: a profiled search costs more than the one measured). */
  search: SearchParams;
  runs: number;
  concurrency: number;
}

/** showValue writes a JSON value for a message: strings quoted (and cut), anything else as JSON. */
const showValue = (v: unknown): string => (typeof v === 'string' ? show(v) : (JSON.stringify(v) ?? String(v)));

/** An integer field of the measure body in [min, max], or its default when absent; ParamError naming it otherwise. */
function measureInt(v: unknown, name: 'runs' | 'concurrency', r: { min: number; max: number; default: number }): number {
  if (v === undefined) return r.default;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < r.min || v > r.max) {
    throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected an integer in [${r.min}, ${r.max}] (default ${r.default})`);
  }
  return v;
}

/**
 * parseMeasureRequest validates a POST /api/measure body (parsed JSON). The
 * search fields go through parseSearchParams, so they are refused with the
 * same words as /api/search (lat in [-90, 90], lng in [-180, 180], radius from
 * MIN_RADIUS_KM to MAX_RADIUS_KM, known filter values, size in [0, MAX_SIZE]).
 * Throws ParamError naming the first field at fault, its value and what is
 * valid: a body that is not an object (param "body"), an unknown field, a
 * missing location, runs or concurrency out of range or not integers.
 */
export function parseMeasureRequest(body: unknown): MeasureParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ParamError('body', `the body is ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}: send one JSON object such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi","runs":30,"concurrency":4}`);
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!(MEASURE_FIELDS as readonly string[]).includes(key)) throw new ParamError(key, `${show(key)} is not a measure field: expected only ${MEASURE_FIELDS.join(', ')}`);
  }
  const q = new URLSearchParams();
  for (const name of ['lat', 'lng', 'radius', 'size'] as const) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    if (typeof v === 'number' && Number.isFinite(v)) q.set(name, decimalString(v));
    else if (typeof v === 'string') q.set(name, v);
    else throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected a ${name === 'radius' ? 'number of miles or a string such as "15mi" or "25km"' : 'number'}`);
  }
  for (const name of FILTER_KINDS) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    const values = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    if (values === null) throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected a string or an array of strings, from ${VOCABULARY[name].join(', ')}`);
    for (const x of values) q.append(name, x);
  }
  if (q.get('lat') === null || q.get('lng') === null) {
    const missing = q.get('lat') === null ? 'lat' : 'lng';
    throw new ParamError(missing, `${missing} is missing: a measurement compares the routed plan with all shards, which needs a location (lat and lng in degrees) and a radius`);
  }
  const search = parseSearchParams(q);
  return { search, runs: measureInt(b.runs, 'runs', MEASURE_RUNS), concurrency: measureInt(b.concurrency, 'concurrency', MEASURE_CONCURRENCY) };
}

/** The machine's load as the OpenSearch nodes report it (`_nodes/stats/os`, os.cpu.load_average; the highest over the nodes). */
export interface LoadAverage {
  '1m': number;
  '5m': number;
  '15m': number;
}

/** One plan's figures in a measurement. ms throughout. */
export interface MeasureSide {
  /** Shards the plan asks. */
  shardsAsked: number;
  /** Wall time as the server sees it, one search at a time, warm-up discarded: n, p50, p99 (nearest rank). */
  latency: { n: number; p50Ms: number; p99Ms: number };
  /** OpenSearch's own `took`, p50 over the same runs. */
  tookP50Ms: number;
  /** OpenSearch CPU time per search in the throughput phase (every node's process, `_nodes/stats/process`); null when the node stats could not be read. */
  cpuMsPerSearch: number | null;
  /** Searches per second completed with `concurrency` in flight. */
  searchesPerS: number;
  /** Wall time of the throughput phase's searches (several in flight). */
  underLoad: { n: number; p50Ms: number; p99Ms: number };
}

/**
 * The 200 answer of POST /api/measure. Every `gain` is above 1 when the routed
 * plan is better: all ÷ routed for the times and CPU per search, routed ÷ all
 * for searches per second (measureStats.ts gain); null when it means nothing.
 */
export interface MeasureAnswer {
  /** complete: every search answered in full; partial: some did not (`partialRuns`), so the figures may flatter the plan that skipped work. */
  status: 'complete' | 'partial';
  index: string;
  boundary: { hash: string; version: number; numberOfShards: number };
  query: QueryEcho;
  /** Searches per plan in each phase, and in flight in the throughput phase. */
  runs: number;
  concurrency: number;
  /** The first runs of each plan, measured one at a time and discarded, and the sentence that says so. */
  warmup: { runs: number; note: string };
  /** The routed plan's routing string. */
  routing: string;
  routed: MeasureSide;
  all: MeasureSide;
  gain: { p50: number | null; p99: number | null; cpu: number | null; throughput: number | null };
  /** Whether every routed / all-shards pair of the one-at-a-time phase gave the same answer (compareParts); the first differences otherwise. */
  identical: boolean;
  differences: string[];
  /** Searches that were partial (some shard did not answer), both plans and phases. */
  partialRuns: number;
  /** The load before and after (null when the node stats could not be read), the nodes asked, and the processors of the busiest node. */
  load: { before: LoadAverage | null; after: LoadAverage | null; nodes: number; processors: number | null };
  /** How the figures were taken, in one paragraph (shown under the table). */
  method: string;
  /** Wall time of the whole measurement. */
  ms: number;
  /** When the measurement started (ISO 8601). */
  at: string;
}

/** One copy of a document GET /api/documents/:id found: where the engine holds it. */
export interface DocumentCopy {
  /** The OpenSearch shard number that holds it (from the hit's `_shard`). */
  shard: number;
  /** The boundary file's name of that shard, or null when the file names no shard with that number. */
  name: string | null;
  /** The routing value it was written with (`_routing`), or null. */
  routing: string | null;
  /** Whether it is where the file places it: shard === file.shard. */
  agrees: boolean;
}

/** The 200 answer of GET /api/documents/:id: a document's location and where it is against where the boundary file puts it. */
export interface DocumentAnswer {
  status: 'found';
  index: string;
  id: string;
  /** The join kind (restaurant, dish) or null for an index without a join. */
  kind: string | null;
  /** The location the document is placed by (a dish: its restaurant's copy), degrees. */
  location: { lat: number; lng: number };
  /** Its level-10 token. */
  cell: string;
  /** The shard the boundary file names for that cell. */
  file: { name: string; shard: number };
  /** Every copy found (one, unless a move or a misrouted write left a second). */
  copies: DocumentCopy[];
  /** True when every copy is on the file's shard. */
  agrees: boolean;
}

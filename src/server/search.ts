/**
 * The dish search: dishes whose parent restaurant lies within the circle
 * (has_parent + geo_distance; the location filter stays even when routing has
 * already narrowed the shards), plus diet/allergen/cuisine filters; the top
 * dishes nearest first with their restaurant and distance; the exact total;
 * facet counts over the matching dishes. Run routed (`routing=<names>`, only
 * the shards the core says the circle touches) or on all shards, and compared.
 */
import { EARTH_RADIUS_KM, type Router, type ShardRef } from '../core/index.ts';
import type { OpenSearchClient } from './opensearch.ts';
import { CHILD, JOIN_FIELD, PARENT } from './indexSpec.ts';
import { VOCABULARY, type SearchParams } from './params.ts';

/** Default deadline OpenSearch gets for one search (ms); shards still running then return what they have. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5000;

/** A search's outcome: complete, or partial (some shard failed or timed out; its answer may miss documents). */
export type SearchStatus = 'complete' | 'partial';

/** OpenSearch's `_shards` section of a search response. */
export interface ShardsSection {
  total: number;
  successful: number;
  skipped: number;
  failed: number;
  failures?: { shard?: number; index?: string; node?: string; reason?: { type?: string; reason?: string } }[];
}

/** A shard a search asked, with how it answered. */
export interface AskedShard extends ShardRef {
  /** Covering cells in the shard (routed searches with a location; 0 otherwise). */
  cells: number;
  /**
   * ok: answered; failed: listed in `_shards.failures`; unavailable: no
   * started copy (unassigned, recovering), so OpenSearch skipped it without a
   * failure entry; unknown: the search timed out and OpenSearch does not say
   * which shard was late.
   */
  status: 'ok' | 'failed' | 'unavailable' | 'unknown';
  reason?: string;
}

/** One dish of the results. */
export interface DishHit {
  id: string;
  name: string;
  cuisine: string;
  diets: string[];
  allergens: string[];
  calories: number;
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

/** One executed search, as the API reports it. */
export interface SearchPart {
  status: SearchStatus;
  /** routed: only the shards the circle touches; all-shards: no routing (every shard). */
  scope: 'routed' | 'all-shards';
  /** The routing string sent (names joined by commas, no spaces), or null when none was sent. */
  routing: string | null;
  shardsAsked: AskedShard[];
  /** OpenSearch's `took` (ms, server side). */
  took: number;
  /** Wall time of the request as this server saw it (ms). */
  wallMs: number;
  timedOut: boolean;
  /** Exact number of matching dishes. */
  total: number;
  hits: DishHit[];
  facets: { diets: FacetCount[]; allergens: FacetCount[]; cuisines: FacetCount[] };
  shards: ShardsSection;
}

/** Facet aggregation names → dish fields and vocabularies. */
const FACETS = [
  { key: 'diets', field: 'diets', vocabulary: VOCABULARY.diet },
  { key: 'allergens', field: 'allergens', vocabulary: VOCABULARY.allergen },
  { key: 'cuisines', field: 'cuisine', vocabulary: VOCABULARY.cuisine },
] as const;

const DISH_SOURCE = ['id', 'name', 'cuisine', 'diets', 'allergens', 'calories', 'price_cents', 'restaurant_id'];
const RESTAURANT_SOURCE = ['id', 'name', 'place', 'state', 'location', 'cuisines'];

/**
 * buildSearchBody returns the `_search` body for validated params. The
 * restaurant query scores each restaurant by distance (exponential decay, 1 at
 * the centre, 0.5 at the radius) and has_parent passes that score to its
 * dishes, so sorting by score puts the nearest restaurants' dishes first; ties
 * break by restaurant id, then dish id, so the order is total and the same on
 * any set of shards. Facets use terms aggregations sized to the whole
 * vocabulary, so their counts are exact.
 */
export function buildSearchBody(p: SearchParams, timeoutMs = DEFAULT_SEARCH_TIMEOUT_MS): Record<string, unknown> {
  const parentQuery = p.circle
    ? {
        function_score: {
          query: { bool: { filter: [{ geo_distance: { distance: `${p.circle.radius.km * 1000}m`, location: { lat: p.circle.lat, lon: p.circle.lng } } }] } },
          functions: [{ exp: { location: { origin: { lat: p.circle.lat, lon: p.circle.lng }, scale: `${p.circle.radius.km * 1000}m`, decay: 0.5 } } }],
          boost_mode: 'replace',
        },
      }
    : { match_all: {} };
  const filter: unknown[] = [{ term: { [JOIN_FIELD]: CHILD } }];
  for (const d of p.diets) filter.push({ term: { diets: d } });
  if (p.cuisines.length > 0) filter.push({ terms: { cuisine: p.cuisines } });
  const mustNot = p.allergens.length > 0 ? [{ terms: { allergens: p.allergens } }] : [];
  return {
    size: p.size,
    timeout: `${timeoutMs}ms`,
    track_total_hits: true,
    _source: DISH_SOURCE,
    query: {
      bool: {
        must: [{ has_parent: { parent_type: PARENT, score: !!p.circle, query: parentQuery, inner_hits: { name: PARENT, size: 1, _source: RESTAURANT_SOURCE } } }],
        filter,
        ...(mustNot.length > 0 ? { must_not: mustNot } : {}),
      },
    },
    sort: p.circle ? [{ _score: 'desc' }, { restaurant_id: 'asc' }, { id: 'asc' }] : [{ restaurant_id: 'asc' }, { id: 'asc' }],
    aggs: Object.fromEntries(FACETS.map((f) => [f.key, { terms: { field: f.field, size: f.vocabulary.length, shard_size: f.vocabulary.length } }])),
  };
}

/** haversineKm returns the great-circle distance (km) between two points in degrees, on the core's Earth radius. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const r = Math.PI / 180;
  const dLat = (lat2 - lat1) * r;
  const dLng = (lng2 - lng1) * r;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** statusOf classifies a search response: partial when it timed out or any shard did not answer successfully. */
export function statusOf(body: { timed_out?: boolean; _shards: ShardsSection }): SearchStatus {
  const s = body._shards;
  // `successful` counts skipped shards too, so a complete answer has successful = total.
  return body.timed_out || s.failed > 0 || s.successful < s.total ? 'partial' : 'complete';
}

interface RawHit {
  _id: string;
  _routing?: string;
  _source: Record<string, unknown>;
  inner_hits?: Record<string, { hits: { hits: { _source: Record<string, unknown> }[] } }>;
}
interface RawResponse {
  took: number;
  timed_out: boolean;
  _shards: ShardsSection;
  hits: { total: { value: number; relation: string } | number; hits: RawHit[] };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number }[] }>;
}

/** facetsOf returns every vocabulary value with its count (0 when absent), count descending, then vocabulary order. */
export function facetsOf(aggs: RawResponse['aggregations']): SearchPart['facets'] {
  const out = {} as SearchPart['facets'];
  for (const f of FACETS) {
    const counts = new Map((aggs?.[f.key]?.buckets ?? []).map((b) => [String(b.key), b.doc_count]));
    out[f.key] = f.vocabulary.map((value) => ({ value, count: counts.get(value) ?? 0 })).sort((a, b) => b.count - a.count || f.vocabulary.indexOf(a.value) - f.vocabulary.indexOf(b.value));
  }
  return out;
}

function hitOf(h: RawHit, p: SearchParams): DishHit {
  const s = h._source;
  const r = h.inner_hits?.[PARENT]?.hits.hits[0]?._source;
  const loc = r?.location as { lat: number; lon: number } | undefined;
  return {
    id: String(s.id ?? h._id),
    name: String(s.name ?? ''),
    cuisine: String(s.cuisine ?? ''),
    diets: (s.diets as string[]) ?? [],
    allergens: (s.allergens as string[]) ?? [],
    calories: Number(s.calories),
    priceCents: Number(s.price_cents),
    routing: h._routing ?? null,
    restaurant: r
      ? { id: String(r.id), name: String(r.name), place: String(r.place ?? ''), state: String(r.state ?? ''), lat: loc?.lat ?? NaN, lng: loc?.lon ?? NaN, cuisines: (r.cuisines as string[]) ?? [] }
      : null,
    distanceKm: p.circle && loc ? haversineKm(p.circle.lat, p.circle.lng, loc.lat, loc.lon) : null,
  };
}

/** What to ask: the shards (with covering cells) and the routing string, or every shard without routing. */
export interface Plan {
  scope: 'routed' | 'all-shards';
  routing: string | null;
  shards: (ShardRef & { cells: number })[];
}

/**
 * planRouted returns the routed plan for params: the shards of the circle's
 * level-10 covering (the core's exact covering), or, with no location, every
 * shard without a routing string.
 */
export function planRouted(router: Router, p: SearchParams): Plan {
  if (!p.circle) return planAll(router);
  const c = router.cover(p.circle.lat, p.circle.lng, p.circle.radius.km);
  return { scope: 'routed', routing: c.routing, shards: c.shards };
}

/** planAll returns the plan that asks every shard and sends no routing. */
export function planAll(router: Router): Plan {
  return { scope: 'all-shards', routing: null, shards: router.shards.map((s) => ({ ...s, cells: 0 })) };
}

/** Options of runSearch. */
export interface RunOptions {
  /** Deadline OpenSearch gets (ms); the HTTP request gets this plus 5 s before it counts as unavailable. */
  timeoutMs?: number;
  /** Extra query-string parameters for `_search` (the benchmark turns the request cache off). */
  query?: Record<string, string>;
}

/**
 * runSearch runs one search as planned. Rejects with OpenSearchError when the
 * request fails (node down, deadline passed, OpenSearch refused the query).
 */
export async function runSearch(client: OpenSearchClient, router: Router, p: SearchParams, plan: Plan, opts: RunOptions = {}): Promise<SearchPart> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const t0 = performance.now();
  const { body } = await client.request<RawResponse>('POST', `/${encodeURIComponent(router.file.index)}/_search`, {
    query: { routing: plan.routing ?? undefined, allow_partial_search_results: 'true', ...opts.query },
    body: buildSearchBody(p, timeoutMs),
    timeoutMs: timeoutMs + 5000,
  });
  const wallMs = performance.now() - t0;
  const status = statusOf(body);
  const failed = new Map<number, string>();
  for (const f of body._shards.failures ?? []) if (typeof f.shard === 'number') failed.set(f.shard, [f.reason?.type, f.reason?.reason].filter(Boolean).join(': '));
  // A shard with no started copy is left out of `successful` without a failure entry; ask which one.
  const s = body._shards;
  const missing = s.successful + s.failed < s.total ? await shardsWithoutStartedCopy(client, router.file.index) : new Set<number>();
  const shardsAsked: AskedShard[] = plan.shards.map((sh) =>
    failed.has(sh.shard)
      ? { ...sh, status: 'failed', reason: failed.get(sh.shard) }
      : missing.has(sh.shard)
        ? { ...sh, status: 'unavailable', reason: 'no started copy of the shard (unassigned or recovering)' }
        : { ...sh, status: body.timed_out ? 'unknown' : 'ok' },
  );
  const total = typeof body.hits.total === 'number' ? body.hits.total : body.hits.total.value;
  return {
    status,
    scope: plan.scope,
    routing: plan.routing,
    shardsAsked,
    took: body.took,
    wallMs,
    timedOut: body.timed_out,
    total,
    hits: body.hits.hits.map((h) => hitOf(h, p)),
    facets: facetsOf(body.aggregations),
    shards: body._shards,
  };
}

/** shardsWithoutStartedCopy returns the shard numbers of an index with no STARTED copy (`_cat/shards`); empty if the lookup fails. */
async function shardsWithoutStartedCopy(client: OpenSearchClient, index: string): Promise<Set<number>> {
  try {
    const rows = await client.get<{ shard: string; state: string }[]>(`/_cat/shards/${encodeURIComponent(index)}`, { query: { format: 'json', h: 'shard,state' }, timeoutMs: 3000 });
    const started = new Set(rows.filter((r) => r.state === 'STARTED').map((r) => Number(r.shard)));
    return new Set(rows.map((r) => Number(r.shard)).filter((n) => !started.has(n)));
  } catch {
    return new Set();
  }
}

/**
 * compareParts says whether two searches gave the same answer: the same
 * total, the same hit ids in the same order, and the same facet counts.
 * `differences` names each difference (empty when identical).
 */
export function compareParts(a: Pick<SearchPart, 'total' | 'hits' | 'facets'>, b: Pick<SearchPart, 'total' | 'hits' | 'facets'>): { identical: boolean; differences: string[] } {
  const differences: string[] = [];
  if (a.total !== b.total) differences.push(`total: routed ${a.total}, all shards ${b.total}`);
  const ia = a.hits.map((h) => h.id);
  const ib = b.hits.map((h) => h.id);
  if (ia.length !== ib.length) differences.push(`hits: routed returned ${ia.length}, all shards ${ib.length}`);
  const k = ia.findIndex((id, i) => id !== ib[i]);
  if (k >= 0 && k < Math.min(ia.length, ib.length)) differences.push(`hits: first difference at position ${k}: routed ${ia[k]}, all shards ${ib[k]}`);
  for (const key of ['diets', 'allergens', 'cuisines'] as const) {
    const fa = JSON.stringify(a.facets[key]);
    const fb = JSON.stringify(b.facets[key]);
    if (fa !== fb) differences.push(`facets.${key} differ`);
  }
  return { identical: differences.length === 0, differences };
}

/**
 * The dish search: dishes whose parent restaurant lies within the circle
 * (has_parent + geo_distance, or, on an index whose dishes carry their
 * restaurant's location, geo_distance on that copy; the location filter stays
 * even when routing has already narrowed the shards), plus diet/allergen/cuisine filters; the top
 * dishes nearest first with their restaurant and distance; the exact total;
 * facet counts over the matching dishes. An index of another config (not the
 * sample's shape) gets its own search instead (buildDocSearchBody): any
 * document in the circle by the config's location field, `q` on its name
 * field, counts per facet field. Either runs routed (`routing=<names>`, only
 * the shards the core says the circle touches; during a migration the other
 * owner's copy of a moving range excluded) or on all shards, and the two are
 * compared (compareParts); profile=1 adds each asked shard's time (shardTimesOf).
 */
import { exclusionFilters } from '../opensearch/rangeFilter.ts';
import { EARTH_RADIUS_KM, type Router, type ShardRef, type ReadExclusion } from '../core/index.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
import { CHILD, JOIN_FIELD, PARENT } from '../opensearch/indexSpec.ts';
import { VOCABULARY, sideStatus, type SearchParams, type SearchSide, type Facets, type SearchStatus, type ShardsSection, type AskedShard, type DishHit, type ShardTiming, type DocHit, type FacetMap } from './wire.ts';
import { SAMPLE_CONFIG, type IndexConfig } from '../opensearch/indexConfig.ts';
import { pointOf } from '../opensearch/documents.ts';
import { geoDistanceFilter } from '../opensearch/search.ts';

export type { SearchStatus, ShardsSection, AskedShard, DishHit, DocHit, FacetMap };

/** Default deadline OpenSearch gets for one search (ms); shards still running then return what they have. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5000;

/** One executed search of the sample, as the API reports it (the wire's SearchSide). */
export type SearchPart = SearchSide;
/** One executed search of any index: the sample's dishes, or an index's documents by its config. */
export type AnySearchPart = SearchPart | SearchSide<DocHit, FacetMap>;

/**
 * isSampleShape says the config describes the bundled sample's documents (restaurants located
 * by `location`, their dishes joined to them with `restaurant_location`): those are searched by
 * the dish search below (buildSearchBody); any other config by its own fields (buildDocSearchBody).
 */
export function isSampleShape(config: IndexConfig): boolean {
  return config.location === SAMPLE_CONFIG.location && JSON.stringify(config.join) === JSON.stringify(SAMPLE_CONFIG.join);
}

/** Values per facet an index's search reports (the most frequent first); its shards count up to DOC_FACET_SHARD_SIZE each. */
export const DOC_FACET_SIZE = 50;
const DOC_FACET_SHARD_SIZE = 1000;

/**
 * buildDocSearchBody returns the `_search` body of an index described by `config` (not the
 * sample): every document whose `config.location` (or, with a join, whose
 * `config.join.childLocation`) lies in the circle, matching `p.text` on `config.name` when
 * given; scored by the text, then nearest first, ties by _id, so the order is total and the
 * same on any set of shards; terms aggregations on the config's facets. The sample's filters
 * (diet, allergen, cuisine) are the caller's to refuse. During a migration `exclusions` (the
 * router's readExclusions) leave out the copy of each moving range that is not its read copy
 * (opensearch/rangeFilter.ts exclusionFilters), so every document answers once.
 */
export function buildDocSearchBody(config: IndexConfig, p: SearchParams, timeoutMs = DEFAULT_SEARCH_TIMEOUT_MS, exclusions: readonly ReadExclusion[] = []): Record<string, unknown> {
  const filter: unknown[] = [];
  const excluded = exclusionFilters({ location: config.location, childLocation: config.join?.childLocation ?? null }, exclusions);
  if (p.circle) filter.push(geoDistanceFilter(config, { lat: p.circle.lat, lng: p.circle.lng, radiusKm: p.circle.radius.km }));
  const must = p.text && config.name ? [{ match: { [config.name]: { query: p.text, operator: 'and' } } }] : [];
  const sort: unknown[] = [];
  if (must.length > 0) sort.push({ _score: 'desc' });
  if (p.circle) sort.push({ _geo_distance: { [config.location]: { lat: p.circle.lat, lon: p.circle.lng }, order: 'asc', unit: 'km' } });
  sort.push({ _id: 'asc' });
  const body: Record<string, unknown> = {
    size: p.size,
    timeout: `${timeoutMs}ms`,
    track_total_hits: true,
    _source: [...new Set([...(config.name ? [config.name] : []), config.location, ...(config.join ? [config.join.childLocation] : []), ...config.facets])],
    query: { bool: { filter, ...(must.length > 0 ? { must } : {}), ...(excluded.length > 0 ? { must_not: excluded } : {}) } },
    sort,
    aggs: Object.fromEntries(config.facets.map((f) => [f, { terms: { field: f, size: DOC_FACET_SIZE, shard_size: DOC_FACET_SHARD_SIZE } }])),
  };
  return p.profile ? { ...body, profile: true } : body;
}

/** valueAt reads a dotted field path from a document's source (an object path, or a key with dots in it). */
function valueAt(source: Record<string, unknown>, path: string): unknown {
  if (path in source) return source[path];
  let cur: unknown = source;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** docHitOf turns a raw hit of an index of `config` into the wire's DocHit. */
function docHitOf(h: RawHit, config: IndexConfig, p: SearchParams): DocHit {
  const s = h._source ?? {};
  const name = config.name ? valueAt(s, config.name) : undefined;
  const at = pointOf(valueAt(s, config.location)) ?? (config.join ? pointOf(valueAt(s, config.join.childLocation)) : null);
  const fields: Record<string, unknown> = {};
  for (const f of config.facets) {
    const v = valueAt(s, f);
    if (v !== undefined) fields[f] = v;
  }
  return {
    id: h._id,
    name: name === undefined || name === null ? h._id : String(name),
    routing: h._routing ?? null,
    lat: at?.lat ?? null,
    lng: at?.lng ?? null,
    distanceKm: p.circle && at ? haversineKm(p.circle.lat, p.circle.lng, at.lat, at.lng) : null,
    fields,
  };
}

/** docFacetsOf returns each config facet's buckets, count descending, then value ascending (a total order). */
export function docFacetsOf(aggs: RawResponse['aggregations'], config: IndexConfig): FacetMap {
  const out: FacetMap = {};
  for (const f of config.facets) {
    out[f] = (aggs?.[f]?.buckets ?? []).map((b) => ({ value: String(b.key), count: b.doc_count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
  return out;
}

/** Facet aggregation names → dish fields and vocabularies. */
const FACETS = [
  { key: 'diets', field: 'diets', vocabulary: VOCABULARY.diet },
  { key: 'allergens', field: 'allergens', vocabulary: VOCABULARY.allergen },
  { key: 'cuisines', field: 'cuisine', vocabulary: VOCABULARY.cuisine },
] as const;

const DISH_SOURCE = ['id', 'name', 'cuisine', 'diets', 'allergens', 'calories', 'price_cents', 'restaurant_id', 'restaurant'];
/** What a hit shows of its restaurant: the dish's `restaurant` copy, or these fields of the restaurant itself (indexes written before dishes carried it). */
const RESTAURANT_SOURCE = ['id', 'name', 'place', 'state', 'location', 'cuisines'];

/**
 * buildSearchBody returns the `_search` body for validated params. The
 * restaurant query scores each restaurant by distance (exponential decay, 1 at
 * the centre, 0.5 at the radius) and has_parent passes that score to its
 * dishes, so sorting by score puts the nearest restaurants' dishes first; ties
 * break by restaurant id, then dish id, so the order is total and the same on
 * any set of shards. Facets use terms aggregations sized to the whole
 * vocabulary, so their counts are exact. Each dish carries what a hit shows of
 * its restaurant (`restaurant` in its source), so no inner_hits: OpenSearch
 * runs has_parent's inner hits as one more circle query per hit, which cost a
 * routed search about 40% of its time (bench/live.bench.ts). With `located`
 * (an index whose dishes carry `restaurant_location`, documents of shape 2)
 * the circle also filters the dishes directly: same answer, but no shard walks
 * dishes outside the circle; and, unless `join` or a migration's exclusions
 * ask for has_parent, the dishes are scored on that copy too (the same decay
 * on the same point: the same score and order) and has_parent is left out,
 * which spares each shard asked the restaurant search and the join: on 2.19 M
 * documents an all-shards search costs the node 22-40% less CPU, a routed one
 * the same within noise (bench/settings.bench.ts).
 * During a migration `exclusions`
 * (Router.readExclusions) drop the copy of each moving range that is not the
 * read copy: restaurants with that `_routing` and a cell in the range, and so
 * (through has_parent, which joins on the same shard) their dishes.
 */
export function buildSearchBody(p: SearchParams, timeoutMs = DEFAULT_SEARCH_TIMEOUT_MS, exclusions: readonly ReadExclusion[] = [], located = false, join = false): Record<string, unknown> {
  const body = searchBody(p, timeoutMs, exclusions, located, join);
  // Profiling is asked only when wanted: it instruments every query and collector, so it slows the search it measures.
  return p.profile ? { ...body, profile: true } : body;
}

function searchBody(p: SearchParams, timeoutMs: number, exclusions: readonly ReadExclusion[], located: boolean, join: boolean): Record<string, unknown> {
  const excluded = exclusions.map((e) => ({ bool: { filter: [{ term: { _routing: e.routing } }, { range: { cell: e.end === null ? { gte: e.start } : { gte: e.start, lt: e.end } } }] } }));
  const notExcluded = excluded.length > 0 ? { must_not: excluded } : {};
  const parentQuery = p.circle
    ? {
        function_score: {
          query: { bool: { filter: [{ geo_distance: { distance: `${p.circle.radius.km * 1000}m`, location: { lat: p.circle.lat, lon: p.circle.lng } } }], ...notExcluded } },
          functions: [{ exp: { location: { origin: { lat: p.circle.lat, lon: p.circle.lng }, scale: `${p.circle.radius.km * 1000}m`, decay: 0.5 } } }],
          boost_mode: 'replace',
        },
      }
    : excluded.length > 0
      ? { bool: notExcluded }
      : { match_all: {} };
  const filter: unknown[] = [{ term: { [JOIN_FIELD]: CHILD } }];
  // The same circle on the dish's copy of its restaurant's location: it selects exactly the dishes
  // has_parent would keep (a dish's copy is its restaurant's location), but from the points index,
  // so a shard walks only the circle's dishes instead of all of its own.
  if (located && p.circle) filter.push({ geo_distance: { distance: `${p.circle.radius.km * 1000}m`, restaurant_location: { lat: p.circle.lat, lon: p.circle.lng } } });
  // The text query (q) on the dish's name: a filter, so the order stays the distance's.
  if (p.text) filter.push({ match: { name: { query: p.text, operator: 'and' } } });
  for (const d of p.diets) filter.push({ term: { diets: d } });
  if (p.cuisines.length > 0) filter.push({ terms: { cuisine: p.cuisines } });
  const mustNot = p.allergens.length > 0 ? [{ terms: { allergens: p.allergens } }] : [];
  // Located, settled (no exclusions, which need the restaurant's cell): the dish's copy of its
  // restaurant's location decides and scores it alone, with the same decay on the same point, so
  // the score, the order and the answer are the join's, without has_parent's parent search and
  // join on every shard asked (bench/settings.bench.ts: its CPU per search).
  const scored =
    located && p.circle && excluded.length === 0 && !join
      ? { function_score: { query: { match_all: {} }, functions: [{ exp: { restaurant_location: { origin: { lat: p.circle.lat, lon: p.circle.lng }, scale: `${p.circle.radius.km * 1000}m`, decay: 0.5 } } }], boost_mode: 'replace' } }
      : { has_parent: { parent_type: PARENT, score: !!p.circle, query: parentQuery } };
  return {
    size: p.size,
    timeout: `${timeoutMs}ms`,
    track_total_hits: true,
    _source: DISH_SOURCE,
    query: {
      bool: {
        must: [scored],
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

/** statusOf classifies a search response by `_shards` alone: partial when it timed out or fewer shards answered than it counted. */
export function statusOf(body: { timed_out?: boolean; _shards: ShardsSection }): SearchStatus {
  return sideStatus({ timedOut: !!body.timed_out, shards: body._shards, shardsAsked: [] });
}

/**
 * shardAnswers says how each asked shard answered, consistently with
 * OpenSearch's `_shards`: a shard named in `failures` failed; a shard with no
 * started copy (`missing`, from `_cat/shards`) was unavailable; when fewer
 * shards succeeded than were asked and those two do not account for all of
 * them, OpenSearch does not say which others are short, so every shard not
 * already named is "unknown" (never "ok"); a timed-out search leaves every
 * unnamed shard unknown too. `reason` is one sentence for the whole side
 * (null when every shard answered).
 */
export function shardAnswers(
  plan: readonly (ShardRef & { cells: number })[],
  body: { timed_out?: boolean; _shards: ShardsSection },
  missing: ReadonlySet<number> = new Set(),
): { shardsAsked: AskedShard[]; reason: string | null } {
  const s = body._shards;
  const failed = new Map<number, string>();
  for (const f of s.failures ?? []) {
    if (typeof f.shard !== 'number') continue;
    const why = [f.reason?.type, f.reason?.reason].filter(Boolean).join(': ') || 'no reason given';
    failed.set(f.shard, failed.has(f.shard) ? `${failed.get(f.shard)}; ${why}` : why);
  }
  const asked = Math.max(s.total, plan.length);
  const short = Math.max(0, asked - s.successful);
  const named = plan.filter((sh) => failed.has(sh.shard) || missing.has(sh.shard)).length;
  const unnamed = short - named;
  const unknownReason = body.timed_out
    ? 'the search timed out; OpenSearch does not say which shards were late'
    : `OpenSearch reports ${short} of ${asked} shards did not answer but names only ${named}; this shard may be one of the other ${unnamed}`;
  const shardsAsked: AskedShard[] = plan.map((sh) => {
    const f = failed.get(sh.shard);
    if (f !== undefined) return { ...sh, status: 'failed', reason: f };
    if (missing.has(sh.shard)) return { ...sh, status: 'unavailable', reason: 'no started copy of the shard (unassigned or recovering)' };
    if (body.timed_out || unnamed > 0) return { ...sh, status: 'unknown', reason: unknownReason };
    return { ...sh, status: 'ok' };
  });
  const bad = shardsAsked.filter((x) => x.status !== 'ok');
  if (bad.length === 0 && !body.timed_out && short === 0 && s.failed === 0) return { shardsAsked, reason: null };
  const label = (x: AskedShard) => `${x.shard} "${x.name}"`;
  const parts: string[] = [`${s.successful} of ${asked} shards answered${body.timed_out ? ' before the search timed out' : ''}`];
  const of = (st: AskedShard['status']) => bad.filter((x) => x.status === st);
  if (of('failed').length) parts.push(`failed: ${of('failed').map((x) => `${label(x)} (${x.reason})`).join(', ')}`);
  if (of('unavailable').length) parts.push(`no started copy: ${of('unavailable').map(label).join(', ')}`);
  if (of('unknown').length) parts.push(`not named by OpenSearch${unnamed > 0 ? ` (${unnamed} missing)` : ''}, so unknown: ${of('unknown').map(label).join(', ')}`);
  return { shardsAsked, reason: `partial: ${parts.join('; ')}` };
}

/** A timed node of OpenSearch's profile tree (query, collector, aggregation or fetch). */
interface ProfileNode {
  time_in_nanos?: number;
}

/** One shard's part of OpenSearch's `profile` section. */
export interface ProfileShard {
  /** "[nodeId][index][shard]". */
  id: string;
  searches?: { query?: ProfileNode[]; rewrite_time?: number; collector?: ProfileNode[] }[];
  aggregations?: ProfileNode[];
  /** Fetch phase, on engines that profile it (a list on some versions, one node on others). */
  fetch?: ProfileNode | ProfileNode[];
}

const PROFILE_ID = /^\[([^\]]*)\]\[([^\]]*)\]\[(\d+)\]$/;

/**
 * shardTimesOf turns OpenSearch's profile section into one time per shard:
 * the top-level queries' time_in_nanos plus rewrite_time of each search, plus
 * the top-level aggregations and the fetch phase when profiled, in ms. The
 * collectors' times are left out: OpenSearch times them independently of the
 * queries and they overlap the queries' scoring time. Names come from `nameOf`
 * (shard number → routing name); node ids are kept as given (`[nodeId]`).
 * Sorted by shard number; a shard profiled twice (never expected) adds up.
 * Entries whose id is not "[node][index][shard]" are skipped.
 */
export function shardTimesOf(profile: { shards?: ProfileShard[] } | undefined, nameOf: (shard: number) => string): ShardTiming[] {
  const byShard = new Map<number, ShardTiming>();
  const ns = (n: ProfileNode | undefined) => (typeof n?.time_in_nanos === 'number' && Number.isFinite(n.time_in_nanos) ? n.time_in_nanos : 0);
  for (const sh of profile?.shards ?? []) {
    const m = PROFILE_ID.exec(sh.id ?? '');
    if (!m) continue;
    const shard = Number(m[3]);
    let nanos = 0;
    for (const search of sh.searches ?? []) {
      for (const q of search.query ?? []) nanos += ns(q);
      if (typeof search.rewrite_time === 'number' && Number.isFinite(search.rewrite_time)) nanos += search.rewrite_time;
    }
    for (const a of sh.aggregations ?? []) nanos += ns(a);
    for (const f of Array.isArray(sh.fetch) ? sh.fetch : sh.fetch ? [sh.fetch] : []) nanos += ns(f);
    const prev = byShard.get(shard);
    if (prev) prev.ms += nanos / 1e6;
    else byShard.set(shard, { shard, name: nameOf(shard), node: m[1] || null, ms: nanos / 1e6 });
  }
  return [...byShard.values()].sort((a, b) => a.shard - b.shard);
}

interface RawHit {
  _id: string;
  _routing?: string;
  _source: Record<string, unknown>;
}
interface RawResponse {
  took: number;
  timed_out: boolean;
  _shards: ShardsSection;
  hits: { total: { value: number; relation: string } | number; hits: RawHit[] };
  aggregations?: Record<string, { buckets: { key: string; doc_count: number }[] }>;
  profile?: { shards?: ProfileShard[] };
}

/** facetsOf returns every vocabulary value with its count (0 when absent), count descending, then vocabulary order. */
export function facetsOf(aggs: RawResponse['aggregations']): Facets {
  const out = {} as Facets;
  for (const f of FACETS) {
    const counts = new Map((aggs?.[f.key]?.buckets ?? []).map((b) => [String(b.key), b.doc_count]));
    out[f.key] = f.vocabulary.map((value) => ({ value, count: counts.get(value) ?? 0 })).sort((a, b) => b.count - a.count || f.vocabulary.indexOf(a.value) - f.vocabulary.indexOf(b.value));
  }
  return out;
}

/** hitOf turns a raw dish hit into the wire's DishHit; `r` is its restaurant's source (the dish's copy, or fetched; undefined when unknown). */
function hitOf(h: RawHit, p: SearchParams, r: Record<string, unknown> | undefined): DishHit {
  const s = h._source;
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
  /** Copies to ignore during a migration (Router.readExclusions; empty when settled). */
  exclusions: ReadExclusion[];
}

/**
 * planRouted returns the routed plan for params: the shards of the circle's
 * level-10 covering (the core's exact covering), or, with no location, every
 * shard without a routing string.
 */
export function planRouted(router: Router, p: SearchParams): Plan {
  if (!p.circle) return planAll(router);
  const c = router.cover(p.circle.lat, p.circle.lng, p.circle.radius.km);
  return { scope: 'routed', routing: c.routing, shards: c.shards, exclusions: router.readExclusions() };
}

/** planAll returns the plan that asks every shard and sends no routing. */
export function planAll(router: Router): Plan {
  return { scope: 'all-shards', routing: null, shards: router.shards.map((s) => ({ ...s, cells: 0 })), exclusions: router.readExclusions() };
}

/** Options of runSearch. */
export interface RunOptions {
  /** Deadline OpenSearch gets (ms); the HTTP request gets this plus 5 s before it counts as unavailable. */
  timeoutMs?: number;
  /** Extra query-string parameters for `_search` (the benchmark turns the request cache off). */
  query?: Record<string, string>;
  /** The index's dishes carry `restaurant_location` (documents of shape 2): filter them by it too (buildSearchBody). */
  located?: boolean;
  /** The index's config (default: the sample's): another shape is searched by its own fields (buildDocSearchBody). */
  config?: IndexConfig;
  /** Keep has_parent even when located (buildSearchBody's `join`): the query before dishes were scored on their own location, for comparisons. */
  join?: boolean;
}

/**
 * runSearch runs one search as planned. Rejects with OpenSearchError when the
 * request fails (node down, deadline passed, OpenSearch refused the query).
 */
export async function runSearch(client: OpenSearchClient, router: Router, p: SearchParams, plan: Plan, opts?: RunOptions & { config?: undefined }): Promise<SearchPart>;
export async function runSearch(client: OpenSearchClient, router: Router, p: SearchParams, plan: Plan, opts: RunOptions): Promise<AnySearchPart>;
export async function runSearch(client: OpenSearchClient, router: Router, p: SearchParams, plan: Plan, opts: RunOptions = {}): Promise<AnySearchPart> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
  const t0 = performance.now();
  const docs = opts.config && !isSampleShape(opts.config) ? opts.config : null;
  const { body } = await client.request<RawResponse>('POST', `/${encodeURIComponent(router.file.index)}/_search`, {
    query: { routing: plan.routing ?? undefined, allow_partial_search_results: 'true', ...opts.query },
    body: docs ? buildDocSearchBody(docs, p, timeoutMs, plan.exclusions) : buildSearchBody(p, timeoutMs, plan.exclusions, opts.located ?? false, opts.join ?? false),
    timeoutMs: timeoutMs + 5000,
  });
  const wallMs = performance.now() - t0;
  // A shard with no started copy is left out of `successful` without a failure entry; ask which one.
  const s = body._shards;
  const named = new Set((s.failures ?? []).map((f) => f.shard));
  const missing = s.successful + named.size < Math.max(s.total, plan.shards.length) ? await shardsWithoutStartedCopy(client, router.file.index) : new Set<number>();
  const { shardsAsked, reason } = shardAnswers(plan.shards, body, missing);
  const total = typeof body.hits.total === 'number' ? body.hits.total : body.hits.total.value;
  const nameOf = new Map(router.shards.map((x) => [x.shard, x.name]));
  const found = docs
    ? { hits: body.hits.hits.map((h) => docHitOf(h, docs, p)), facets: docFacetsOf(body.aggregations, docs) }
    : { hits: await hitsOf(client, router.file.index, body.hits.hits, p), facets: facetsOf(body.aggregations) };
  return {
    status: sideStatus({ timedOut: body.timed_out, shards: body._shards, shardsAsked }),
    scope: plan.scope,
    routing: plan.routing,
    shardsAsked,
    partialReason: reason,
    took: body.took,
    wallMs,
    timedOut: body.timed_out,
    total,
    ...found,
    shards: body._shards,
    ...(p.profile ? { shardTimes: shardTimesOf(body.profile, (n) => nameOf.get(n) ?? '') } : {}),
  };
}

/**
 * hitsOf returns the hits with their restaurants: each dish's own copy
 * (`restaurant`), or, for dishes written before they carried one, their
 * restaurants fetched in one `_mget` (same routing as the dish). A restaurant
 * that cannot be fetched leaves its hit's restaurant null, as a dangling
 * parent did before.
 */
async function hitsOf(client: OpenSearchClient, index: string, raw: RawHit[], p: SearchParams): Promise<DishHit[]> {
  const own = (h: RawHit) => h._source.restaurant as Record<string, unknown> | undefined;
  const lacking = raw.filter((h) => !own(h) && h._source.restaurant_id !== undefined);
  const fetched = new Map<string, Record<string, unknown>>();
  if (lacking.length > 0) {
    const docs = [...new Map(lacking.map((h) => [String(h._source.restaurant_id), { _id: String(h._source.restaurant_id), routing: h._routing, _source: RESTAURANT_SOURCE }])).values()];
    try {
      const { body } = await client.request<{ docs: { _id: string; found?: boolean; _source?: Record<string, unknown> }[] }>('POST', `/${encodeURIComponent(index)}/_mget`, { body: { docs } });
      for (const d of body.docs) if (d.found && d._source) fetched.set(d._id, d._source);
    } catch {
      // The hits stay, without their restaurants.
    }
  }
  return raw.map((h) => hitOf(h, p, own(h) ?? fetched.get(String(h._source.restaurant_id))));
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
export function compareParts(a: Pick<AnySearchPart, 'total' | 'hits' | 'facets'>, b: Pick<AnySearchPart, 'total' | 'hits' | 'facets'>): { identical: boolean; differences: string[] } {
  const fa = a.facets as unknown as Record<string, unknown>;
  const fb = b.facets as unknown as Record<string, unknown>;
  const differences: string[] = [];
  if (a.total !== b.total) differences.push(`total: routed ${a.total}, all shards ${b.total}`);
  const ia = a.hits.map((h) => h.id);
  const ib = b.hits.map((h) => h.id);
  if (ia.length !== ib.length) differences.push(`hits: routed returned ${ia.length}, all shards ${ib.length}`);
  const k = ia.findIndex((id, i) => id !== ib[i]);
  if (k >= 0 && k < Math.min(ia.length, ib.length)) differences.push(`hits: first difference at position ${k}: routed ${ia[k]}, all shards ${ib[k]}`);
  // Every facet either side has (the sample's: diets, allergens, cuisines; an index's: its config's), in a fixed order.
  for (const key of [...new Set([...Object.keys(fa), ...Object.keys(fb)])]) {
    if (JSON.stringify(fa[key]) !== JSON.stringify(fb[key])) differences.push(`facets.${key} differ`);
  }
  return { identical: differences.length === 0, differences };
}

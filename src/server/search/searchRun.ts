/**
 * One search of the live API, run: what to ask (a Plan: the routed shards of the circle's
 * covering, or every shard), the request (searchBody.ts), and its answer as the wire's
 * SearchSide: the hits (a dish with its restaurant, or a config's document), the facets, each
 * asked shard's status (shardAnswers.ts) and, with profile=1, time (profile.ts).
 */
import type { Router, ShardRef, ReadExclusion } from '../../core/index.ts';
import { distanceKm } from '../../core/earth.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';
import { sideStatus, type SearchParams, type SearchSide, type DishHit, type DocHit, type FacetMap } from '../wire.ts';
import { buildDocSearchBody, buildSearchBody, isSampleShape, DEFAULT_SEARCH_TIMEOUT_MS, RESTAURANT_SOURCE } from './searchBody.ts';
import { facetsOf, docFacetsOf } from './facets.ts';
import { shardAnswers } from './shardAnswers.ts';
import { shardTimesOf } from './profile.ts';
import type { ClusterRoutingReport, RawHit, RawResponse } from './rawResponse.ts';
import { fieldAt, pointOf } from '../../opensearch/documentFields.ts';

/** One executed search of the sample, as the API reports it (the wire's SearchSide). */
export type SearchPart = SearchSide;
/** One executed search of any index: the sample's dishes, or an index's documents by its config. */
export type AnySearchPart = SearchPart | SearchSide<DocHit, FacetMap>;

/** docHitOf turns a raw hit of an index of `config` into the wire's DocHit. */
function docHitOf(h: RawHit, config: IndexConfig, p: SearchParams): DocHit {
  const s = h._source ?? {};
  const name = config.name ? fieldAt(s, config.name) : undefined;
  const at = pointOf(fieldAt(s, config.location)) ?? (config.join ? pointOf(fieldAt(s, config.join.childLocation)) : null);
  const fields: Record<string, unknown> = {};
  for (const f of config.facets) {
    const v = fieldAt(s, f);
    if (v !== undefined) fields[f] = v;
  }
  return {
    id: h._id,
    name: name === undefined || name === null ? h._id : String(name),
    routing: h._routing ?? null,
    lat: at?.lat ?? null,
    lng: at?.lng ?? null,
    distanceKm: p.circle && at ? distanceKm(p.circle.lat, p.circle.lng, at.lat, at.lng) : null,
    fields,
  };
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
    distanceKm: p.circle && loc ? distanceKm(p.circle.lat, p.circle.lng, loc.lat, loc.lon) : null,
  };
}

/**
 * What to ask: the shards (with covering cells) and the routing string (routed), every shard
 * without routing (all-shards), or no routing through the index's search pipeline, which routes
 * in the cluster (cluster: `shards` and `routing` are then what the core's covering names, to
 * compare the cluster's choice with). Routed and all-shards searches skip the index's search
 * pipeline (`search_pipeline=_none`), so that neither is routed twice nor narrowed.
 */
export interface Plan {
  scope: 'routed' | 'cluster' | 'all-shards';
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

/**
 * planCluster returns the plan that lets the cluster's search pipeline route the search: no
 * routing sent, the index's default search pipeline applied; what the core's covering names is
 * kept to compare with what the pipeline reports. With no location, it is planAll's: nothing to
 * route.
 */
export function planCluster(router: Router, p: SearchParams): Plan {
  if (!p.circle) return planAll(router);
  return { ...planRouted(router, p), scope: 'cluster' };
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
  const cluster = plan.scope === 'cluster';
  const { body } = await client.request<RawResponse>('POST', `/${encodeURIComponent(router.file.index)}/_search`, {
    query: { routing: cluster ? undefined : (plan.routing ?? undefined), ...(cluster ? {} : { search_pipeline: '_none' }), allow_partial_search_results: 'true', ...opts.query },
    body: docs ? buildDocSearchBody(docs, p, timeoutMs, plan.exclusions) : buildSearchBody(p, timeoutMs, plan.exclusions, opts.located ?? false, opts.join ?? false),
    timeoutMs: timeoutMs + 5000,
  });
  const wallMs = performance.now() - t0;
  // A shard with no started copy is left out of `successful` without a failure entry; ask which one.
  const s = body._shards;
  const named = new Set((s.failures ?? []).map((f) => f.shard));
  const missing = s.successful + named.size < Math.max(s.total, plan.shards.length) ? await shardsWithoutStartedCopy(client, router.file.index) : new Set<number>();
  // The cluster's search pipeline says which shards it asked (its report); without one, every shard.
  const report = cluster ? (body.ext?.geoshard ?? null) : null;
  const asked = cluster ? clusterAsked(router, plan, report) : plan.shards;
  const { shardsAsked, reason } = shardAnswers(asked, body, missing);
  const total = typeof body.hits.total === 'number' ? body.hits.total : body.hits.total.value;
  const nameOf = new Map(router.shards.map((x) => [x.shard, x.name]));
  const found = docs
    ? { hits: body.hits.hits.map((h) => docHitOf(h, docs, p)), facets: docFacetsOf(body.aggregations, docs) }
    : { hits: await hitsOf(client, router.file.index, body.hits.hits, p), facets: facetsOf(body.aggregations) };
  return {
    status: sideStatus({ timedOut: body.timed_out, shards: body._shards, shardsAsked }),
    scope: plan.scope,
    routing: cluster ? (report?.routed ? (report.routing ?? null) : null) : plan.routing,
    routedBy: plan.scope === 'routed' ? 'client' : cluster && report?.routed ? 'cluster' : null,
    ...(cluster ? { cluster: report ? { routed: report.routed, reason: report.reason ?? null, cells: report.cells ?? null, micros: report.micros ?? null, agrees: report.routed && report.routing === plan.routing } : null } : {}),
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
 * clusterAsked returns the shards the cluster's search pipeline asked, from its report (the names
 * of its routing, each with the covering's cells when the core's covering has it); every shard
 * when it did not narrow or did not report (a search pipeline without geo_routing_report).
 */
function clusterAsked(router: Router, plan: Plan, report: ClusterRoutingReport | null): (ShardRef & { cells: number })[] {
  if (!report?.routed || !report.routing) return router.shards.map((s) => ({ ...s, cells: 0 }));
  const cells = new Map(plan.shards.map((s) => [s.name, s.cells]));
  const byName = new Map(router.shards.map((s) => [s.name, s]));
  return report.routing.split(',').flatMap((n) => {
    const s = byName.get(n);
    return s ? [{ ...s, cells: cells.get(n) ?? 0 }] : [];
  });
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

/**
 * GET /api/search: parse the query string (wire/search.ts parseSearchParams), refuse what the
 * index's config cannot run, pass the guards (guards.ts admit), run the routed search (and
 * the all-shards one when compare=1) through search.ts — routed by this server (routing=), or,
 * when the index's search pipeline routes (the geoshard plugin) and `route` is not client, sent
 * with no routing for the cluster to route (scope cluster, its report read back) — run it again while a migration's epoch
 * moves under it, and answer with the placement of the shards it asked (placement.ts).
 */
import { routingKeyOf } from '../../opensearch/meta.ts';
import type { Router } from '../../core/index.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';
import { placementOf, placementSentence } from '../placement.ts';
import { parseSearchParams, describeQuery, type AskedShard, type SearchParams, type SearchPlacement } from '../wire.ts';
import type { ApiContext } from './context.ts';
import { errorResult, invalid, type ApiResult } from './http.ts';
import { unusable, type Loaded } from './load.ts';
import { runSearch, planRouted, planAll, planCluster, type AnySearchPart, type Plan, type RunOptions } from '../search/searchRun.ts';
import { compareParts } from '../search/compare.ts';
import { isSampleShape } from '../search/searchBody.ts';
import { DOC_SHAPE, docShapeOf } from '../../opensearch/sampleIndex.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

/** How many times a search runs at most when the migration epoch keeps moving under it. */
const MAX_EPOCH_ATTEMPTS = 3;

/** searchAnswer answers GET /api/search for a query string. */
export async function searchAnswer(api: ApiContext, q: URLSearchParams): Promise<ApiResult> {
  let params;
  try {
    params = parseSearchParams(q);
  } catch (e) {
    return invalid(e);
  }
  const l = api.routing();
  if ('error' in l) return unusable(l);
  const { config } = l;
  const sample = isSampleShape(config);
  const refused = sample ? null : configRefusal(config, params, (k) => q.has(k));
  if (refused) return refused;
  const file = l.router.file;
  const head = {
    query: describeQuery(params),
    index: file.index,
    boundary: { hash: file.hash, version: file.version, numberOfShards: file.numberOfShards },
    ...(sample ? {} : { config: { location: config.location, name: config.name, join: config.join, facets: config.facets } }),
  };
  const opts: RunOptions = { timeoutMs: api.searchTimeoutMs, ...(sample ? {} : { config }) };
  const admitted = await api.guards.admit(l, head, { pipeline: true });
  if ('refused' in admitted) return admitted.refused;
  const drift0 = admitted.drift;
  let { router, state: migrationState } = admitted;
  // Dishes that carry their restaurant's location (documents of shape 2) are also filtered by it.
  opts.located = docShapeOf(drift0.meta?.sample) >= DOC_SHAPE;
  const healthyBefore = api.cluster.healthy;
  let routed: AnySearchPart | undefined;
  let unrouted: AnySearchPart | undefined;
  let failure: unknown;
  // Who routes it: the cluster when asked to, or by default when the index's search pipeline routes as _meta says.
  const byCluster = params.circle !== null && (params.route === 'cluster' || (params.route !== 'client' && (await api.guards.clusterRoutes(file.index, drift0.meta))));
  const planOf = (r: Router): Plan => (byCluster ? planCluster(r, params) : planRouted(r, params));
  try {
    // When the migration's epoch moved while the search ran, it runs again with the new state (guards.ts epochMoved).
    let key = routingKeyOf(drift0.meta);
    for (let attempt = 1; ; attempt++) {
      routed = await runSearch(api.client, router, params, planOf(router), opts);
      if (params.compare) unrouted = await runSearch(api.client, router, params, planAll(router), opts);
      if (attempt === MAX_EPOCH_ATTEMPTS) break;
      const moved = await api.guards.epochMoved(l, key);
      if (!moved) break;
      ({ key, router, state: migrationState } = moved);
    }
  } catch (e) {
    failure = e;
  }
  if (failure || !routed) {
    const none = failure instanceof OpenSearchError ? failure.noShardAnswered : null;
    if (!none) return errorResult(head, failure, api.client.url);
    // No asked shard could answer: name the nodes that held them.
    const current = await api.cluster.layout(router);
    const plan = planRouted(router, params).shards;
    const failed = new Set(none.map((f) => f.shard));
    const asked: AskedShard[] = plan.map((s) => ({ ...s, status: failed.size === 0 || failed.has(s.shard) ? 'unavailable' : 'ok' }));
    const placement = placementOf(asked, healthyBefore, current?.copies ?? null);
    const res = errorResult(head, failure, api.client.url, placementSentence(placement), (id) => api.cluster.name(id));
    res.body.placement = placement;
    return res;
  }
  const current = await api.cluster.layout(router);
  // The profile names nodes by id; the answer names them as /api/status does.
  for (const side of [routed, unrouted]) for (const t of side?.shardTimes ?? []) if (t.node) t.node = api.cluster.name(t.node);
  const placement: SearchPlacement | undefined = current ? placementOf(routed.shardsAsked, healthyBefore, current.copies) : undefined;
  if (placement && routed.partialReason && placement.lostNodes.length > 0) routed.partialReason += `; ${placementSentence(placement)}`;
  const { status, ...rest } = routed;
  const body: Record<string, unknown> = {
    status,
    ...head,
    drift: { status: drift0.status, indexHash: drift0.indexHash, fileHash: drift0.fileHash, ...(drift0.targetHash ? { targetHash: drift0.targetHash } : {}) },
    ...(migrationState ? { migration: { epoch: migrationState.epoch, target: migrationState.target } } : {}),
    ...rest,
    note: params.circle ? undefined : `no location: the search went to all ${file.numberOfShards} shards`,
    placement,
  };
  if (unrouted) {
    const cmp = compareParts(routed, unrouted);
    body.status = routed.status === 'complete' && unrouted.status === 'complete' ? 'complete' : 'partial';
    body.unrouted = unrouted;
    body.identical = cmp.identical;
    body.differences = cmp.differences;
    body.ratio = {
      shards: routed.shardsAsked.length / unrouted.shardsAsked.length,
      took: unrouted.took > 0 ? routed.took / unrouted.took : null,
      wall: routed.wallMs / unrouted.wallMs,
    };
  }
  return { httpStatus: 200, body };
}

/**
 * warmUp runs one all-shards search of size 0 (result ignored), so the first search a user makes
 * is not the one that pays for cold code paths and makes routed look slower than it is.
 */
export async function warmUp(api: ApiContext, l: Extract<Loaded, { router: Router }>): Promise<void> {
  await runSearch(api.client, l.router, parseSearchParams(new URLSearchParams('size=0')), planAll(l.router), { timeoutMs: api.searchTimeoutMs, ...(isSampleShape(l.config) ? {} : { config: l.config }) }).catch(() => {});
}

/**
 * configRefusal is the 400 of a search the index's config cannot run (`config` not the sample's):
 * one of the sample's dish filters (`given` says which parameters were sent), or a text query
 * without a name field in the config. Null when the search is valid for the config.
 */
export function configRefusal(config: IndexConfig, params: SearchParams, given: (param: 'diet' | 'allergen' | 'cuisine') => boolean): ApiResult | null {
  // The sample's filters name its dishes' fields; another index has its own (its config's facets).
  const filter = (['diet', 'allergen', 'cuisine'] as const).find(given);
  if (filter) return { httpStatus: 400, body: { status: 'invalid', error: { param: filter, message: `${filter} is not a filter of index "${config.index}": the ${filter} filter is the restaurant sample's; this index's search takes lat, lng, radius, q (text on ${config.name ?? 'no name field'}), size, compare and profile, and reports the facets ${config.facets.length > 0 ? config.facets.join(', ') : '(none)'}` } } };
  if (params.text && !config.name) return { httpStatus: 400, body: { status: 'invalid', error: { param: 'q', message: `q is not valid for index "${config.index}": its config names no name field to match text against (set "name" in the config)` } } };
  return null;
}

/**
 * The routing fingerprint: what an index's shard names were routed with (the
 * engine family and version, its routing formula and the index's
 * routing_num_shards), read from the cluster, recorded by `geoshard seed` in
 * the index's `_meta.routing`, and checked against the engine itself: every
 * shard name of the boundary file is asked to `_search_shards`, and a name
 * that lands on another shard than the file declares makes the index unfit
 * for routed searches (another engine, another formula, another
 * number_of_routing_shards).
 */
import { defaultRoutingNumShards, type Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';

/** The routing formula the core models (defined with the other `_meta` types in src/opensearch/meta.ts). */
export { ROUTING_FORMULA } from '../../opensearch/meta.ts';
import { ROUTING_FORMULA } from '../../opensearch/meta.ts';

/** What `_meta.routing` records (defined with the other `_meta` types in src/opensearch/meta.ts). */
export type { RoutingFingerprint } from '../../opensearch/meta.ts';
import type { RoutingFingerprint } from '../../opensearch/meta.ts';

/** One shard name the engine sends elsewhere. */
export interface Misroute {
  /** Key-order index of the shard in the boundary file. */
  index: number;
  name: string;
  declared: number;
  /** The shard numbers `_search_shards` lists (-1 for a group with no started copy). */
  actual: number[];
}

/** The result of checkRouting. */
export interface RoutingCheck {
  status: 'ok' | 'routing-mismatch';
  fingerprint: RoutingFingerprint;
  /** The routing_num_shards the file's names were chosen for (its routingNumShards, or the default for its shard count). */
  fileRoutingNumShards: number;
  misroutes: Misroute[];
  /** One paragraph for people (empty when ok). */
  message: string;
}

/** engineOf reads the engine family and version from the cluster's root endpoint. */
export async function engineOf(client: OpenSearchClient): Promise<{ engine: string; version: string; major: number }> {
  const root = await client.get<{ version: { number: string; distribution?: string } }>('/', { timeoutMs: 5000 });
  const version = root.version.number;
  return { engine: root.version.distribution ?? 'elasticsearch', version, major: Number(version.split('.')[0]) };
}

/** routingNumShardsOf reads an index's (or an alias's one index's) routing_num_shards from the cluster state's metadata. */
export async function routingNumShardsOf(client: OpenSearchClient, index: string): Promise<number> {
  // An alias (the name clients use after "geoshard reindex") resolves here too: the cluster state's index expression
  // resolves it, and the answer is keyed by its one concrete index (checked on a 2.19 node).
  const body = await client.get<{ metadata?: { indices?: Record<string, { routing_num_shards?: number }> } }>(`/_cluster/state/metadata/${encodeURIComponent(index)}`, {
    query: { filter_path: 'metadata.indices.*.routing_num_shards' },
    timeoutMs: 5000,
  });
  const n = Object.values(body.metadata?.indices ?? {})[0]?.routing_num_shards;
  if (typeof n !== 'number') throw new Error(`the cluster state does not give index "${index}" a routing_num_shards`);
  return n;
}

/** fingerprintOf reads the fingerprint of an existing index. Rejects when a request fails. */
export async function fingerprintOf(client: OpenSearchClient, index: string): Promise<RoutingFingerprint> {
  const [engine, routingNumShards] = await Promise.all([engineOf(client), routingNumShardsOf(client, index)]);
  return { ...engine, formula: ROUTING_FORMULA, routingNumShards };
}

/** searchShardsOf returns the shard numbers `_search_shards` lists for a routing value (-1 for a group with no copy). */
export async function searchShardsOf(client: OpenSearchClient, index: string, routing: string): Promise<number[]> {
  const body = await client.get<{ shards: { shard: number }[][] }>(`/${encodeURIComponent(index)}/_search_shards`, { query: { routing } });
  return body.shards.map((group) => (group.length > 0 ? group[0].shard : -1));
}

/**
 * mismatchMessage says which names land elsewhere, on which engine, with
 * which setting, and the two fixes. Pure.
 */
export function mismatchMessage(index: string, fp: RoutingFingerprint, fileRoutingNumShards: number, numberOfShards: number, misroutes: readonly Misroute[]): string {
  const shown = misroutes
    .slice(0, 5)
    .map((m) => `"${m.name}" → ${m.actual.includes(-1) ? 'no started copy' : `shard ${m.actual.join(',')}`} (declared ${m.declared})`)
    .join(', ');
  return (
    `routing mismatch: on ${fp.engine} ${fp.version}, ${misroutes.length} of ${numberOfShards} shard names of the boundary file land on another shard of index "${index}" than the file declares: ` +
    `${shown}${misroutes.length > 5 ? `, and ${misroutes.length - 5} more` : ''}. ` +
    `The index has routing_num_shards ${fp.routingNumShards} (index.number_of_routing_shards); the file's names were chosen for ${fileRoutingNumShards} ` +
    `(formula ${ROUTING_FORMULA}). Routed searches would miss documents, so every search is refused. ` +
    `Fix: reseed the index with the file's setting ("npx geoshard seed --recreate" sets number_of_routing_shards from the file's routingNumShards), ` +
    `or pick names for this engine and index with "geoshard balance".`
  );
}

/**
 * checkRouting asks the engine where every shard name of the router's file
 * goes and returns the fingerprint and the names that land elsewhere.
 * Rejects with OpenSearchError when a request fails (a missing index too).
 */
export async function checkRouting(client: OpenSearchClient, router: Router): Promise<RoutingCheck> {
  const file = router.file;
  const fingerprint = await fingerprintOf(client, file.index);
  const actuals = await Promise.all(router.shards.map((s) => searchShardsOf(client, file.index, s.name)));
  const misroutes: Misroute[] = [];
  router.shards.forEach((s, i) => {
    const actual = actuals[i];
    if (actual.length !== 1 || actual[0] !== s.shard) misroutes.push({ index: s.index, name: s.name, declared: s.shard, actual });
  });
  const fileRoutingNumShards = file.routingNumShards ?? defaultRoutingNumShards(file.numberOfShards);
  // A group without a started copy says nothing about routing: only names sent to a wrong shard number count.
  const wrong = misroutes.filter((m) => !(m.actual.length === 1 && m.actual[0] === -1));
  const status = wrong.length > 0 ? 'routing-mismatch' : 'ok';
  return {
    status,
    fingerprint,
    fileRoutingNumShards,
    misroutes,
    message: status === 'ok' ? '' : mismatchMessage(file.index, fingerprint, fileRoutingNumShards, file.numberOfShards, wrong),
  };
}

/**
 * What an index's shard names are routed with, read from the cluster, and where each name lands:
 * the engine family and version (the root endpoint), the index's routing_num_shards (the
 * cluster state), and `_search_shards` per shard name. The one reader of each for the package's
 * createGeoIndex, `geoshard reindex`, `geoshard seed` and the live API's routing guard
 * (src/ops/routing/routingCheck.ts checkRouting); the fingerprint is recorded in `_meta.routing`.
 *
 * Pure but for the requests it sends through the client it is given (transport.ts).
 */
import type { TransportClient } from './transport.ts';
import { ROUTING_FORMULA, type RoutingFingerprint } from './meta.ts';

/** One shard name the engine sends elsewhere than the boundary file declares. */
export interface Misroute {
  /** Key-order index of the shard in the boundary file. */
  index: number;
  name: string;
  declared: number;
  /** The shard numbers `_search_shards` lists (-1 for a group with no started copy). */
  actual: number[];
}

/** Deadline of the fingerprint's small reads (ms): the root endpoint and one index's metadata. */
const READ_TIMEOUT_MS = 5000;

/** engineOf reads the engine family ("opensearch", or "elasticsearch" when the root endpoint names none) and version from the cluster's root endpoint. */
export async function engineOf(client: TransportClient): Promise<{ engine: string; version: string; major: number }> {
  const root = (await client.transport.request({ method: 'GET', path: '/' }, { requestTimeout: READ_TIMEOUT_MS })).body as { version: { number: string; distribution?: string } };
  const version = root.version.number;
  return { engine: root.version.distribution ?? 'elasticsearch', version, major: Number(version.split('.')[0]) };
}

/**
 * routingNumShardsOf reads an index's routing_num_shards from the cluster state's metadata. An
 * alias (the name clients use after `geoshard reindex`) resolves too: the cluster state's index
 * expression resolves it, and the answer is keyed by its one concrete index (checked on 2.19).
 * Throws when the cluster state gives none.
 */
export async function routingNumShardsOf(client: TransportClient, index: string): Promise<number> {
  const res = await client.transport.request({ method: 'GET', path: `/_cluster/state/metadata/${encodeURIComponent(index)}`, querystring: { filter_path: 'metadata.indices.*.routing_num_shards' } }, { requestTimeout: READ_TIMEOUT_MS });
  const n = Object.values((res.body as { metadata?: { indices?: Record<string, { routing_num_shards?: number }> } }).metadata?.indices ?? {})[0]?.routing_num_shards;
  if (typeof n !== 'number') throw new Error(`the cluster state does not give index "${index}" a routing_num_shards`);
  return n;
}

/** fingerprintOf reads the routing fingerprint of an existing index (engineOf and routingNumShardsOf). Rejects when a request fails. */
export async function fingerprintOf(client: TransportClient, index: string): Promise<RoutingFingerprint> {
  const [engine, routingNumShards] = await Promise.all([engineOf(client), routingNumShardsOf(client, index)]);
  return { ...engine, formula: ROUTING_FORMULA, routingNumShards };
}

/** searchShardCopies returns what `_search_shards` lists for a routing value: per shard group, each copy's shard number, whether it is the primary and its node (null when unassigned). */
export async function searchShardCopies(client: TransportClient, index: string, routing: string): Promise<{ shard: number; primary: boolean; node: string | null }[][]> {
  const res = await client.transport.request({ method: 'GET', path: `/${encodeURIComponent(index)}/_search_shards`, querystring: { routing } });
  return (res.body as { shards: { shard: number; primary: boolean; node: string | null }[][] }).shards;
}

/** searchShardsOf returns the shard numbers `_search_shards` lists for a routing value (-1 for a group with no started copy). */
export async function searchShardsOf(client: TransportClient, index: string, routing: string): Promise<number[]> {
  return (await searchShardCopies(client, index, routing)).map((group) => (group.length > 0 ? group[0].shard : -1));
}

/**
 * misroutesOf asks `_search_shards` where each of `shards`' names lands on `index` and returns
 * those that land elsewhere than they declare (`index` is each shard's key-order index), in the
 * order given. Rejects when a request fails.
 */
export async function misroutesOf(client: TransportClient, index: string, shards: readonly { index: number; name: string; shard: number }[]): Promise<Misroute[]> {
  const actuals = await Promise.all(shards.map((s) => searchShardsOf(client, index, s.name)));
  const out: Misroute[] = [];
  shards.forEach((s, i) => {
    const actual = actuals[i];
    if (actual.length !== 1 || actual[0] !== s.shard) out.push({ index: s.index, name: s.name, declared: s.shard, actual });
  });
  return out;
}

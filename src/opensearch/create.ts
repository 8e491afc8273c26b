/**
 * createGeoIndex: makes a geosharded index a config describes on a cluster, with the official
 * OpenSearch client (a peer dependency: only its types are imported here; the caller passes its
 * own `Client`). What `geoshard reindex` gives a copy, for an index a search service creates
 * empty: the routing pipeline (routingPipeline) as default pipeline, the index (geoIndexBody),
 * the routing fingerprint the cluster reports in `_meta.routing`, and a check on the engine
 * itself that every shard name of the boundary file lands on the shard the file declares.
 *
 * Everything that can be checked is checked before the first change (the config against the
 * file and the mapping, the index absent); a step that fails after it removes what this call made
 * (the index, and the pipeline when it did not exist before), so nothing is left half made.
 */
import type { Client } from '@opensearch-project/opensearch';
import type { BoundaryFile } from '../core/index.ts';
import type { IndexConfig } from './indexConfig.ts';
import { ROUTING_FORMULA, type IndexMeta, type RoutingFingerprint } from './meta.ts';
import { geoIndexBody, pipelineFieldsOf, GeoIndexSpecError, type GeoIndexOptions } from './indexSpec.ts';
import { pipelineId, routingPipeline } from './pipeline.ts';

/** What createGeoIndex made. */
export interface CreatedGeoIndex {
  index: string;
  /** The routing pipeline's id (`geoshard-<index>`), the index's default pipeline. */
  pipeline: string;
  /** The index's `_meta`, with the routing fingerprint. */
  meta: IndexMeta;
}


/** call sends one request; a refusal becomes a GeoIndexSpecError naming the step, the status and OpenSearch's reason. */
async function call<T>(client: Pick<Client, 'transport'>, step: string, method: string, path: string, body?: unknown, querystring: Record<string, string> = {}, ignore: number[] = []): Promise<{ statusCode: number; body: T }> {
  try {
    const res = await client.transport.request({ method, path, querystring, ...(body !== undefined ? { body: body as Record<string, unknown> } : {}) }, ignore.length > 0 ? { ignore } : {});
    return { statusCode: res.statusCode ?? 0, body: res.body as T };
  } catch (e) {
    const meta = (e as { meta?: { statusCode?: number; body?: { error?: { type?: string; reason?: string } } } }).meta;
    const err = meta?.body?.error;
    const why = err ? `${meta?.statusCode} ${err.type}: ${err.reason}` : (e as Error).message;
    throw new GeoIndexSpecError(`${step}: ${method} ${path} failed: ${why}`);
  }
}

/**
 * fingerprintOn reads what the index's shard names are routed with: the engine family and version
 * (the root endpoint) and the index's routing_num_shards (the cluster state's metadata).
 */
export async function fingerprintOn(client: Pick<Client, 'transport'>, index: string): Promise<RoutingFingerprint> {
  const root = await call<{ version: { number: string; distribution?: string } }>(client, 'reading the engine version', 'GET', '/');
  const state = await call<{ metadata?: { indices?: Record<string, { routing_num_shards?: number }> } }>(client, `reading index "${index}"'s routing_num_shards`, 'GET', `/_cluster/state/metadata/${encodeURIComponent(index)}`, undefined, {
    filter_path: 'metadata.indices.*.routing_num_shards',
  });
  const routingNumShards = Object.values(state.body.metadata?.indices ?? {})[0]?.routing_num_shards;
  if (typeof routingNumShards !== 'number') throw new GeoIndexSpecError(`the cluster state does not give index "${index}" a routing_num_shards`);
  const version = root.body.version.number;
  return { engine: root.body.version.distribution ?? 'elasticsearch', version, major: Number(version.split('.')[0]), formula: ROUTING_FORMULA, routingNumShards };
}

/**
 * createGeoIndex creates `config.index` for the boundary file (its index must be the file's):
 * installs the routing pipeline, creates the index (geoIndexBody with `opts`), records the routing
 * fingerprint in `_meta.routing`, and asks `_search_shards` for every shard name of the file.
 * Rejects with GeoIndexSpecError when the config, mapping or options are wrong, the index already
 * exists, a request is refused (a missing privilege or a node without Painless: OpenSearch's
 * reason is in the message), or the engine routes a shard name elsewhere (the file was made for
 * another engine or routing_num_shards); in each case nothing this call made is left behind.
 */
export async function createGeoIndex(client: Pick<Client, 'transport'>, file: BoundaryFile, config: IndexConfig, opts: GeoIndexOptions = {}): Promise<CreatedGeoIndex> {
  const body = geoIndexBody(file, config, opts);
  const index = config.index;
  const enc = encodeURIComponent(index);
  const id = pipelineId(index);
  const exists = await call(client, `checking that index "${index}" is new`, 'HEAD', `/${enc}`, undefined, {}, [404]);
  if (exists.statusCode !== 404) throw new GeoIndexSpecError(`index "${index}" already exists: createGeoIndex makes a new index (copy an existing one into a geosharded index with "npx geoshard reindex --from ${index} --to ${index}-geo --boundaries FILE")`);
  const hadPipeline = (await call(client, `reading pipeline "${id}"`, 'GET', `/_ingest/pipeline/${encodeURIComponent(id)}`, undefined, {}, [404])).statusCode !== 404;
  let made = false;
  try {
    // The pipeline first: the index names it as its default pipeline.
    await call(client, `installing the routing pipeline "${id}"`, 'PUT', `/_ingest/pipeline/${encodeURIComponent(id)}`, routingPipeline(file, null, index, pipelineFieldsOf(config)));
    await call(client, `creating index "${index}"`, 'PUT', `/${enc}`, body, { wait_for_active_shards: '1' });
    made = true;
    const meta = { ...(body.mappings._meta as IndexMeta), routing: await fingerprintOn(client, index) };
    await call(client, `writing index "${index}"'s _meta`, 'PUT', `/${enc}/_mapping`, { _meta: meta });
    const wrong: string[] = [];
    for (const s of file.shards) {
      const got = await call<{ shards: { shard: number }[][] }>(client, `asking where shard name "${s.name}" lands`, 'GET', `/${enc}/_search_shards`, undefined, { routing: s.name });
      const shards = got.body.shards.map((g) => (g.length > 0 ? g[0].shard : -1));
      if (shards.length !== 1 || shards[0] !== s.shard) wrong.push(`${s.name} → shard ${shards.join(',')} (the file says ${s.shard})`);
    }
    if (wrong.length > 0) {
      throw new GeoIndexSpecError(
        `the engine routes ${wrong.length} of the boundary file's shard names elsewhere on index "${index}": ${wrong.slice(0, 3).join('; ')}. The file was made for another engine or routing_num_shards (${meta.routing.engine} ${meta.routing.version}, routing_num_shards ${meta.routing.routingNumShards}): make it with "geoshard balance" for this cluster. Index "${index}" was not kept.`,
      );
    }
    return { index, pipeline: id, meta };
  } catch (e) {
    if (made) await call(client, `removing index "${index}"`, 'DELETE', `/${enc}`, undefined, {}, [404]).catch(() => undefined);
    if (!hadPipeline) await call(client, `removing pipeline "${id}"`, 'DELETE', `/_ingest/pipeline/${encodeURIComponent(id)}`, undefined, {}, [404]).catch(() => undefined);
    throw e;
  }
}

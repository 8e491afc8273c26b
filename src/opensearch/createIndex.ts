/**
 * Making a routed index on a cluster (createRoutedIndex), and an empty one a config describes
 * (createGeoIndex), with any TransportClient (the official client as it is). The routing
 * pipeline (routingPipeline) as default pipeline, the index, the routing fingerprint the cluster
 * reports in `_meta.routing`, and a check on the engine itself that every shard name of the
 * boundary file lands on the shard the file declares.
 *
 * Everything that can be checked is checked before the first change (the config against the
 * file and the mapping, the index absent); a step that fails after it removes the index and puts
 * the routing pipeline back as it was before (removing it when it did not exist), so nothing is
 * left half made.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { IndexConfig } from './indexConfig.ts';
import type { IndexMeta } from './meta.ts';
import { geoIndexBody, pipelineFieldsOf, GeoIndexSpecError, type GeoIndexOptions } from './indexSpec.ts';
import { pipelineId, routingPipeline, type IngestPipeline } from './routingPipeline.ts';
import { fingerprintOf, misroutesOf } from './fingerprint.ts';
import type { TransportClient } from './transport.ts';

/** What createGeoIndex made. */
export interface CreatedGeoIndex {
  index: string;
  /** The routing pipeline's id (`geoshard-<index>`), the index's default pipeline. */
  pipeline: string;
  /** The index's `_meta`, with the routing fingerprint. */
  meta: IndexMeta;
}


/** The body createRoutedIndex creates an index with: settings (`index.default_pipeline` is added) and mappings whose `_meta` is the index's. */
export interface RoutedIndexBody {
  settings: { index: Record<string, unknown> };
  mappings: Record<string, unknown>;
}

/** step runs one step of a creation; a failure becomes a GeoIndexSpecError naming it, with OpenSearch's status, type and reason when it answered. */
async function step<T>(what: string, run: () => Promise<T>, request = ''): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof GeoIndexSpecError) throw e;
    const meta = (e as { meta?: { statusCode?: number; body?: { error?: { type?: string; reason?: string } } } }).meta;
    const err = meta?.body?.error;
    const why = err ? `${meta?.statusCode} ${err.type}: ${err.reason}` : (e as Error).message;
    throw new GeoIndexSpecError(`${what}: ${request ? `${request} failed: ` : ''}${why}`);
  }
}

/** call sends one request as one step (step). */
async function call<T>(client: TransportClient, what: string, method: string, path: string, body?: unknown, querystring: Record<string, string> = {}, ignore: number[] = []): Promise<{ statusCode: number; body: T }> {
  return step(
    what,
    async () => {
      const res = await client.transport.request({ method, path, querystring, ...(body !== undefined ? { body } : {}) }, ignore.length > 0 ? { ignore } : {});
      return { statusCode: res.statusCode ?? 0, body: res.body as T };
    },
    `${method} ${path}`,
  );
}

/**
 * createRoutedIndex creates `index`, routed by `file`, from a ready body (its settings and
 * mappings, `_meta` included but for the fingerprint) with `pipeline` (the routing ingest pipeline,
 * pipeline.ts routingPipeline) as its default pipeline, then records the routing fingerprint the
 * cluster reports in `_meta.routing` (fingerprint.ts) and asks `_search_shards` where every shard
 * name of the file lands. The one way geoshard makes a routed index: createGeoIndex (an empty
 * index a config describes) and `geoshard reindex` (a copy of a team's index) both call it.
 * Precondition: `index` does not exist. Rejects with GeoIndexSpecError naming the step when a
 * request is refused (a missing privilege, a node without Painless: OpenSearch's reason is in the
 * message) or the engine routes a shard name elsewhere (the file was made for another engine or
 * routing_num_shards); in each case the index is removed and the pipeline put back as it was
 * (removed when this call made it), so nothing is left half made.
 */
export async function createRoutedIndex(client: TransportClient, file: BoundaryFile, index: string, body: RoutedIndexBody, pipeline: IngestPipeline): Promise<{ pipeline: string; meta: IndexMeta }> {
  const enc = encodeURIComponent(index);
  const id = pipelineId(index);
  const pipelinePath = `/_ingest/pipeline/${encodeURIComponent(id)}`;
  const before = await call<Record<string, unknown>>(client, `reading pipeline "${id}"`, 'GET', pipelinePath, undefined, {}, [404]);
  const previous = before.statusCode === 404 ? null : (before.body[id] ?? null);
  let made = false;
  try {
    // The pipeline first: the index names it as its default pipeline.
    await call(client, `installing the routing pipeline "${id}"`, 'PUT', pipelinePath, pipeline);
    const withPipeline = { ...body, settings: { ...body.settings, index: { ...body.settings.index, default_pipeline: id } } };
    await call(client, `creating index "${index}"`, 'PUT', `/${enc}`, withPipeline, { wait_for_active_shards: '1' });
    made = true;
    const routing = await step(`reading index "${index}"'s routing fingerprint`, () => fingerprintOf(client, index));
    const meta = { ...(body.mappings._meta as IndexMeta), routing };
    await call(client, `writing index "${index}"'s _meta`, 'PUT', `/${enc}/_mapping`, { _meta: meta });
    const wrong = await step(`asking where the shard names of index "${index}" land`, () => misroutesOf(client, index, file.shards.map((s, i) => ({ index: i, name: s.name, shard: s.shard }))));
    if (wrong.length > 0) {
      throw new GeoIndexSpecError(
        `the engine routes ${wrong.length} of the boundary file's shard names elsewhere on index "${index}": ${wrong.slice(0, 3).map((m) => `${m.name} → shard ${m.actual.join(',')} (the file says ${m.declared})`).join('; ')}. The file was made for another engine or routing_num_shards (${routing.engine} ${routing.version}, routing_num_shards ${routing.routingNumShards}): make it with "geoshard balance" for this cluster. Index "${index}" was not kept.`,
      );
    }
    return { pipeline: id, meta };
  } catch (e) {
    if (made) await call(client, `removing index "${index}"`, 'DELETE', `/${enc}`, undefined, {}, [404]).catch(() => undefined);
    if (previous) await call(client, `putting pipeline "${id}" back`, 'PUT', pipelinePath, previous).catch(() => undefined);
    else await call(client, `removing pipeline "${id}"`, 'DELETE', pipelinePath, undefined, {}, [404]).catch(() => undefined);
    throw e;
  }
}

/**
 * createGeoIndex creates `config.index` for the boundary file (its index must be the file's):
 * the index geoIndexBody describes with `opts`, through createRoutedIndex. Rejects with
 * GeoIndexSpecError when the config, mapping or options are wrong, the index already exists, or
 * createRoutedIndex refuses; nothing this call made is left behind.
 */
export async function createGeoIndex(client: TransportClient, file: BoundaryFile, config: IndexConfig, opts: GeoIndexOptions = {}): Promise<CreatedGeoIndex> {
  const body = geoIndexBody(file, config, opts);
  const index = config.index;
  const exists = await call(client, `checking that index "${index}" is new`, 'HEAD', `/${encodeURIComponent(index)}`, undefined, {}, [404]);
  if (exists.statusCode !== 404) throw new GeoIndexSpecError(`index "${index}" already exists: createGeoIndex makes a new index (copy an existing one into a geosharded index with "npx geoshard reindex --from ${index} --to ${index}-geo --boundaries FILE")`);
  const made = await createRoutedIndex(client, file, index, body, routingPipeline(file, null, index, pipelineFieldsOf(config)));
  return { index, ...made };
}

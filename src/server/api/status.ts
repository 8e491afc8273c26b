/**
 * GET /api/status: the connection and the cluster, its nodes (those that left listed down), the
 * boundary file, the index (its documents, shards and copies), the drift, a migration in
 * progress, the routing pipeline, the API's limits and vocabulary, and whether writes answer.
 * It always answers 200: what is down or missing is said in the body.
 */
import { MAX_RADIUS_KM, type BoundaryFile } from '../../core/index.ts';
import type { MigrationState } from '../../core/migrationState.ts';
import { migrationOfMeta } from '../../opensearch/meta.ts';
import { readPipeline, pipelineStatusOf } from '../../ops/routing/pipelineInstall.ts';
import { readSearchPipeline, searchPipelineStatusOf } from '../../ops/routing/searchPipelineInstall.ts';
import { readLayout, withLeftNodes } from '../placement.ts';
import { publicName, redactPath } from '../projectFiles.ts';
import { MAX_SIZE, DEFAULT_SIZE, MIN_RADIUS_KM, VOCABULARY, type StatusAnswer, type MigrationStatus } from '../wire.ts';
import type { ApiContext } from './context.ts';
import type { ApiResult } from './http.ts';
import { boundaryInfo } from './load.ts';
import { isSampleShape } from '../search/searchBody.ts';
import { JOIN_FIELD, PARENT, CHILD } from '../../opensearch/sampleIndex.ts';

/** statusAnswer answers GET /api/status: connection, cluster version, index, drift, document counts. `writesEnabled`: whether the write endpoints answer. */
export async function statusAnswer(api: ApiContext, writesEnabled: boolean): Promise<ApiResult<StatusAnswer>> {
  const l = api.routing();
  const c = api.client;
  const body: StatusAnswer = {
    connection: { status: 'down', url: c.url },
    nodes: null,
    boundary: 'error' in l ? { file: publicName(l.path), error: redactPath(l.error, l.path) } : boundaryInfo(l.router.file, l.path),
    index: null,
    drift: null,
    limits: { minRadiusKm: MIN_RADIUS_KM, maxRadiusKm: MAX_RADIUS_KM, maxSize: MAX_SIZE, defaultSize: DEFAULT_SIZE, searchTimeoutMs: api.searchTimeoutMs },
    vocabulary: { diets: VOCABULARY.diet, allergens: VOCABULARY.allergen, cuisines: VOCABULARY.cuisine },
    writes: { enabled: writesEnabled },
    ...('config' in l && !isSampleShape(l.config) ? { config: { index: l.config.index, location: l.config.location, name: l.config.name, join: l.config.join, facets: l.config.facets } } : {}),
  };
  try {
    const root = await c.get<{ cluster_name: string; version: { number: string; distribution?: string } }>('/', { timeoutMs: 3000 });
    const health = await c.get<{ status: string; number_of_nodes: number }>('/_cluster/health', { timeoutMs: 3000 });
    body.connection = {
      status: 'up',
      url: c.url,
      cluster: { name: root.cluster_name, version: root.version.number, distribution: root.version.distribution ?? 'elasticsearch', health: health.status, nodes: health.number_of_nodes },
    };
  } catch (e) {
    body.connection = { status: 'down', url: c.url, message: (e as Error).message };
    return { httpStatus: 200, body };
  }
  if ('error' in l) return { httpStatus: 200, body };
  const layout = await api.cluster.layout(l.router);
  if (layout?.nodes) body.nodes = withLeftNodes(layout.nodes, api.cluster.seen);
  try {
    const d = await l.guard.check();
    body.drift = { status: d.status, indexHash: d.indexHash, fileHash: d.fileHash, indexVersion: d.indexVersion, fileVersion: d.fileVersion, ...(d.targetHash ? { targetHash: d.targetHash } : {}), message: d.message };
    if (d.meta) {
      try {
        const m = migrationOfMeta(d.meta);
        body.migration = m.state && m.base ? migrationStatusOf(m.base, m.state) : null;
      } catch (e) {
        body.migration = { error: (e as Error).message };
      }
    }
    if (d.status !== 'missing-index') {
      try {
        body.pipeline = pipelineStatusOf(await readPipeline(c, d.index), d.meta, d.index, l.router.file);
      } catch (e) {
        body.pipeline = { error: (e as Error).message };
      }
      try {
        body.searchPipeline = searchPipelineStatusOf(await readSearchPipeline(c, d.index), d.meta, d.index);
      } catch (e) {
        body.searchPipeline = { error: (e as Error).message };
      }
    }
    if (d.status === 'missing-index') {
      body.index = { name: d.index, exists: false };
      return { httpStatus: 200, body };
    }
    const path = `/${encodeURIComponent(d.index)}`;
    const copies = layout?.copies ?? (await readLayout(c, d.index, (n) => l.router.shards.find((s) => s.shard === n)?.name ?? null)).copies;
    let docs: { restaurants: number; dishes: number; total: number };
    if (isSampleShape(l.config)) {
      const [restaurants, dishes] = await Promise.all([
        c.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { term: { [JOIN_FIELD]: PARENT } } } }),
        c.request<{ count: number }>('POST', `${path}/_count`, { body: { query: { term: { [JOIN_FIELD]: CHILD } } } }),
      ]);
      docs = { restaurants: restaurants.body.count, dishes: dishes.body.count, total: restaurants.body.count + dishes.body.count };
    } else {
      docs = { restaurants: 0, dishes: 0, total: (await c.get<{ count: number }>(`${path}/_count`)).count };
    }
    body.index = {
      name: d.index,
      exists: true,
      docs,
      sample: d.meta?.sample ?? null,
      shards: copies.filter((x) => x.primary).map((x) => ({ shard: x.shard, name: x.name, state: x.state, docs: x.docs, node: x.node?.name ?? null })),
      copies,
    };
  } catch (e) {
    body.index = { name: l.router.file.index, error: (e as Error).message };
  }
  return { httpStatus: 200, body };
}

/** migrationStatusOf returns the wire form of a migration state (/api/status). */
export function migrationStatusOf(base: BoundaryFile, s: MigrationState): MigrationStatus {
  const shardOf = new Map(base.shards.map((x) => [x.name, x.shard]));
  return {
    epoch: s.epoch,
    base: s.base,
    target: s.target,
    targetVersion: s.targetFile.version,
    startedAt: s.startedAt,
    updatedAt: s.updatedAt,
    moves: s.moves.map((m) => ({ start: m.start, end: m.end, from: m.from, to: m.to, fromShard: shardOf.get(m.from)!, toShard: shardOf.get(m.to)!, step: m.step, copied: m.copied, verified: m.verified, cutover: m.cutover ? { blockedAt: m.cutover.blockedAt, windowsMs: m.cutover.windowsMs } : null })),
  };
}

/**
 * The first step of a reindex: what DEST takes from SRC (mapping, analysis,
 * replicas, shape), and creating DEST with geoshard's `_meta`, routing required
 * and the routing pipeline as default pipeline (the package's
 * createRoutedIndex, which also checks on the real node that every shard name
 * lands on its shard). Node only.
 */
import type { BoundaryFile } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { GeoIndexSpecError, indexMeta, indexSettings } from '../../opensearch/indexSpec.ts';
import { routingPipeline, type PipelineFields } from '../../opensearch/routingPipeline.ts';
import { createRoutedIndex } from '../../opensearch/createIndex.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { ReindexError, type ReindexState, type Shape } from './state.ts';
import type { IndexMeta } from '../../opensearch/meta.ts';

const enc = encodeURIComponent;

/** The parts of SRC that DEST takes: its mapping, analysis settings and replica count. */
export interface SourceInfo {
  mappings: Record<string, unknown>;
  analysis?: unknown;
  replicas: number;
  shards: number;
  meta: IndexMeta | null;
  shape: Shape;
}

export async function sourceInfo(client: OpenSearchClient, src: string): Promise<SourceInfo> {
  const mapping = await client.get<Record<string, { mappings: Record<string, unknown> }>>(`/${enc(src)}/_mapping`);
  const mappings = Object.values(mapping)[0].mappings ?? {};
  const settings = await client.get<Record<string, { settings: { index: { number_of_replicas?: string; number_of_shards: string; analysis?: unknown; default_pipeline?: string } } }>>(`/${enc(src)}/_settings`);
  const idx = Object.values(settings)[0].settings.index;
  const props = (mappings.properties ?? {}) as Record<string, { type?: string; relations?: Record<string, unknown> }>;
  const joinField = Object.keys(props).find((k) => props[k]?.type === 'join');
  const join = joinField ? { field: joinField, parents: Object.keys(props[joinField].relations ?? {}) } : null;
  return {
    mappings,
    analysis: idx.analysis,
    replicas: Number(idx.number_of_replicas ?? 0),
    shards: Number(idx.number_of_shards),
    meta: await fetchIndexMeta(client, src).then((m) => m ?? null),
    shape: { join, pipeline: !!idx.default_pipeline && idx.default_pipeline !== '_none' },
  };
}

/** fieldsOf returns the pipeline's fields for a mapping: the location (and a join child's), stamped when the mapping has the sample's `cell` and `shard`. */
export function fieldsOf(mappings: Record<string, unknown>, location: string, childLocation: string | null): PipelineFields {
  const props = (mappings.properties ?? {}) as Record<string, unknown>;
  return { location, childLocation, stamp: 'cell' in props && 'shard' in props };
}

/** typeAt returns the mapping type of a dotted field path, or undefined when the mapping has no such field. */
export function typeAt(mappings: Record<string, unknown>, path: string): string | undefined {
  let props = mappings.properties as Record<string, { type?: string; properties?: Record<string, unknown> }> | undefined;
  const parts = path.split('.');
  for (let i = 0; i < parts.length; i++) {
    const f = props?.[parts[i]];
    if (!f) return undefined;
    if (i === parts.length - 1) return f.type ?? 'object';
    props = f.properties as typeof props;
  }
  return undefined;
}

/**
 * createDest creates DEST with SRC's mapping and analysis, routing required, N shards, geoshard's
 * `_meta` with the reindex state, and its routing pipeline as default pipeline, through the
 * package's createRoutedIndex (which also records the fingerprint and checks on the node that
 * every shard name lands on its shard, removing DEST when not). Throws ReindexError naming the
 * step that failed; DEST is then absent, so the next run starts again.
 */
export async function createDest(client: OpenSearchClient, dest: string, file: BoundaryFile, info: SourceInfo, fields: PipelineFields, state: ReindexState): Promise<IndexMeta> {
  const { _meta: _m, _routing: _r, ...mappings } = info.mappings as Record<string, unknown>;
  const body = {
    settings: {
      index: { ...indexSettings(file, info.replicas), ...(info.analysis ? { analysis: info.analysis } : {}) },
    },
    mappings: { ...mappings, _routing: { required: true }, _meta: { ...indexMeta(file, info.meta?.sample), fields, reindex: state } },
  };
  try {
    return (await createRoutedIndex(client, file, dest, body, routingPipeline(file, null, dest, fields))).meta;
  } catch (e) {
    if (e instanceof GeoIndexSpecError) throw new ReindexError(`creating "${dest}": ${e.message}`);
    throw e;
  }
}

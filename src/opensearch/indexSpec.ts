/**
 * The index definition for a boundary file: the `_meta` that ties an index to the file it was
 * made with (indexMeta), the shard settings the file sets (indexSettings), and the whole body of
 * an index a config describes (geoIndexBody; create.ts createGeoIndex makes it on a cluster).
 * The bundled sample's index is sampleIndex.ts. Pure.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { IndexMeta, RoutingFingerprint, SampleMeta } from './meta.ts';
import type { IndexConfig } from './indexConfig.ts';
import { pipelineId, type PipelineFields } from './routingPipeline.ts';


/** indexMeta returns the `_meta` of an index for the file, with the sample and the routing fingerprint when given. */
export function indexMeta(file: BoundaryFile, sample?: SampleMeta, routing?: RoutingFingerprint): IndexMeta {
  return { app: 'geoshard', hash: file.hash, version: file.version, index: file.index, numberOfShards: file.numberOfShards, ...(sample ? { sample } : {}), ...(routing ? { routing } : {}), file };
}

/**
 * indexSettings returns the settings: number_of_shards = N from the file,
 * `replicas` replicas per shard (default 0: a single local node; an integer
 * >= 0), number_of_routing_shards only when the file declares it (else
 * OpenSearch computes its default, which the core models and
 * `geoshard verify-routing` checks on the real node).
 */
export function indexSettings(file: BoundaryFile, replicas = 0): Record<string, unknown> {
  return {
    number_of_shards: file.numberOfShards,
    number_of_replicas: replicas,
    ...(file.routingNumShards !== undefined ? { number_of_routing_shards: file.routingNumShards } : {}),
  };
}

/** pipelineFieldsOf returns the fields the routing pipeline reads for an index a config describes (never stamped: only the sample has `cell` and `shard`). */
export function pipelineFieldsOf(config: IndexConfig): PipelineFields {
  return { location: config.location, childLocation: config.join?.childLocation ?? null, stamp: false };
}

/** Options of geoIndexBody and createGeoIndex. */
export interface GeoIndexOptions {
  /** The index's own mappings (`properties`, dynamic, ...): the config's location fields are added as geo_point when absent. */
  mappings?: Record<string, unknown>;
  /** More index settings (analysis, refresh_interval, ...); the shard counts and the default pipeline are geoshard's. */
  settings?: Record<string, unknown>;
  /** Replicas per shard, an integer >= 0 (default 1). */
  replicas?: number;
}

/** GeoIndexSpecError: a config, a mapping or an option that cannot make a geosharded index; the message names the field and what is valid. */
export class GeoIndexSpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeoIndexSpecError';
  }
}

/** setGeoPoint puts a geo_point at a dotted path of a mapping's properties, or checks the one there; returns the properties. */
function withGeoPoint(properties: Record<string, unknown>, path: string, key: string): Record<string, unknown> {
  const [head, ...rest] = path.split('.');
  const here = properties[head] as { type?: string; properties?: Record<string, unknown> } | undefined;
  if (rest.length === 0) {
    if (here === undefined) return { ...properties, [head]: { type: 'geo_point' } };
    if (here.type !== 'geo_point') throw new GeoIndexSpecError(`mappings: the config's ${key} "${path}" is mapped as ${JSON.stringify(here.type ?? 'object')}: it must be a geo_point (or absent from the mappings, and it is added as one)`);
    return properties;
  }
  if (here !== undefined && (here.type ?? 'object') !== 'object') throw new GeoIndexSpecError(`mappings: the config's ${key} "${path}" goes through "${head}", mapped as ${JSON.stringify(here.type)}: it must be an object holding the geo_point`);
  return { ...properties, [head]: { ...(here ?? {}), properties: withGeoPoint(here?.properties ?? {}, rest.join('.'), key) } };
}

/**
 * geoIndexBody returns the body of `PUT /<index>` for an index a config describes, made with the
 * boundary file: number_of_shards from the file (and number_of_routing_shards when it declares
 * one), `replicas` replicas, the routing pipeline (`geoshard-<index>`, routingPipeline) as
 * default pipeline, routing required, the config's location (and a join child's location) as
 * geo_point, and geoshard's `_meta` (the file, its hash, the pipeline's fields). The routing
 * fingerprint is the cluster's to tell: createGeoIndex adds it. Throws GeoIndexSpecError when the
 * config's index is not the file's, a location field is mapped as something else, or `replicas`
 * is not an integer >= 0. Pure.
 */
export function geoIndexBody(file: BoundaryFile, config: IndexConfig, opts: GeoIndexOptions = {}): { settings: { index: Record<string, unknown> }; mappings: Record<string, unknown> } {
  if (config.index !== file.index) throw new GeoIndexSpecError(`config: index "${config.index}" is not the boundary file's ("${file.index}"): a boundary file routes the one index it names; use the file made for "${config.index}", or set the config's index to "${file.index}"`);
  const replicas = opts.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 0) throw new GeoIndexSpecError(`replicas: ${JSON.stringify(replicas)} is not a replica count: expected an integer >= 0`);
  const { _meta: _m, _routing: _r, properties: given, ...rest } = (opts.mappings ?? {}) as Record<string, unknown>;
  let properties = (given ?? {}) as Record<string, unknown>;
  properties = withGeoPoint(properties, config.location, 'location');
  if (config.join) properties = withGeoPoint(properties, config.join.childLocation, 'join.childLocation');
  const fields = pipelineFieldsOf(config);
  return {
    settings: {
      index: {
        ...(opts.settings ?? {}),
        ...indexSettings(file, replicas),
        default_pipeline: pipelineId(config.index),
      },
    },
    mappings: { ...rest, _routing: { required: true }, _meta: { ...indexMeta(file), fields }, properties },
  };
}

/**
 * The index definition for a boundary file: settings, mappings and the `_meta`
 * that ties the index to the file it was made with.
 *
 * One index holds both document kinds, joined parent → child:
 *   restaurant (parent): id, name, place, state, location (geo_point), cell (level-10 token),
 *                        shard (the routing name), cuisines, price_level, dish_count
 *   dish (child):        id, restaurant_id, name, cuisine, diets, allergens, ingredients,
 *                        calories (kcal), price_cents (US cents), and copies of its
 *                        restaurant: `restaurant` (what a search shows of it: id, name,
 *                        place, state, location, cuisines; stored, not indexed) and
 *                        `restaurant_location` (geo_point)
 * Every document is written with routing = its restaurant's shard name; the
 * mapping makes routing required, so OpenSearch itself rejects a write without it.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { IndexMeta, RoutingFingerprint, SampleMeta } from '../opensearch/meta.ts';

// The `_meta` types and reader live with the package's writer (src/opensearch/meta.ts), which both sides use.
export { DOC_SHAPE, docShapeOf, JOIN_FIELD, PARENT, CHILD, readIndexMeta, type IndexMeta, type SampleMeta } from '../opensearch/meta.ts';
import { JOIN_FIELD, PARENT, CHILD } from '../opensearch/meta.ts';

/** indexMeta returns the `_meta` of an index for the file, with the sample and the routing fingerprint when given. */
export function indexMeta(file: BoundaryFile, sample?: SampleMeta, routing?: RoutingFingerprint): IndexMeta {
  return { app: 'geoshard', hash: file.hash, version: file.version, index: file.index, numberOfShards: file.numberOfShards, ...(sample ? { sample } : {}), ...(routing ? { routing } : {}), file };
}

/**
 * indexMappings returns the mappings: strict (an unknown field is an error,
 * not a silent new field), routing required, the join relation, and the
 * boundary file's identity in `_meta`.
 */
export function indexMappings(file: BoundaryFile, sample?: SampleMeta): Record<string, unknown> {
  const keyword = { type: 'keyword' };
  return {
    dynamic: 'strict',
    _routing: { required: true },
    _meta: indexMeta(file, sample),
    properties: {
      [JOIN_FIELD]: { type: 'join', relations: { [PARENT]: CHILD } },
      id: keyword,
      name: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } },
      // restaurant
      place: keyword,
      state: keyword,
      location: { type: 'geo_point' },
      cell: keyword,
      shard: keyword,
      cuisines: keyword,
      price_level: { type: 'byte' },
      dish_count: { type: 'integer' },
      // dish
      restaurant_id: keyword,
      restaurant: { type: 'object', enabled: false },
      restaurant_location: { type: 'geo_point' },
      cuisine: keyword,
      diets: keyword,
      allergens: keyword,
      ingredients: keyword,
      calories: { type: 'integer' },
      price_cents: { type: 'integer' },
    },
  };
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

/** indexBody returns the body of `PUT /<index>` for the file, with `replicas` replicas per shard (default 0). */
export function indexBody(file: BoundaryFile, sample?: SampleMeta, replicas = 0): Record<string, unknown> {
  return { settings: { index: indexSettings(file, replicas) }, mappings: indexMappings(file, sample) };
}

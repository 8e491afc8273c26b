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
import type { RoutingFingerprint } from './fingerprint.ts';

/** The document shape this version writes (SampleMeta.docShape). */
export const DOC_SHAPE = 2;

/** docShapeOf returns the document shape a sample was written with: its `docShape`, 1 when it predates the field (or there is no sample). */
export function docShapeOf(s: SampleMeta | undefined): number {
  return s?.docShape ?? 1;
}

/** The join field's name and its relation. */
export const JOIN_FIELD = 'join';
export const PARENT = 'restaurant';
export const CHILD = 'dish';

/** What `_meta` records about the boundary file (and, after seeding, the sample). */
export interface IndexMeta {
  app: 'geoshard';
  /** The boundary file's hash: the drift guard compares it on every search. */
  hash: string;
  /** The boundary file's version. */
  version: number;
  /** The index name the boundary file declares. */
  index: string;
  numberOfShards: number;
  /** The seeded sample, written by `geoshard seed` (absent before the first seed). */
  sample?: SampleMeta;
  /**
   * What the documents were routed with: engine family and version, routing
   * formula and the index's routing_num_shards, as the cluster reported them
   * when `geoshard seed` wrote the index (absent in indexes seeded before).
   */
  routing?: RoutingFingerprint;
  /**
   * The boundary file itself (the settled file: its hash is `hash`), so a
   * migration can start from what the index was written with (absent in
   * indexes seeded before).
   */
  file?: BoundaryFile;
  /** A migration in progress (`geoshard migrate`): see core/migrationState.ts; absent when settled. */
  migration?: unknown;
}

/** The sample `geoshard seed` loaded: enough to predict the per-shard counts. */
export interface SampleMeta {
  /** Restaurants asked for (`--restaurants`). */
  restaurants: number;
  /** At most this many dishes per restaurant (the first ones of its menu). */
  dishesPerRestaurant: number;
  /** False while a seed is running or after one failed: counts are then not final. */
  complete: boolean;
  /**
   * The documents' shape: 2 = dishes carry their restaurant (`restaurant`,
   * `restaurant_location`); absent = written before they did. An index of
   * another shape is seeded again (its strict mapping refuses the new fields).
   */
  docShape?: number;
  /** Documents written by the last complete seed. */
  restaurantDocs?: number;
  dishDocs?: number;
}

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

/** readIndexMeta picks the geoshard `_meta` out of a `GET /<index>/_mapping` body, or null if absent. */
export function readIndexMeta(mappingBody: unknown, index: string): IndexMeta | null {
  const b = mappingBody as Record<string, { mappings?: { _meta?: Partial<IndexMeta> } }> | undefined;
  // The body is keyed by the concrete index name (an alias resolves to it): take the only entry.
  const entry = b?.[index] ?? (b && Object.keys(b).length === 1 ? b[Object.keys(b)[0]] : undefined);
  const meta = entry?.mappings?._meta;
  if (!meta || typeof meta.hash !== 'string') return null;
  return meta as IndexMeta;
}

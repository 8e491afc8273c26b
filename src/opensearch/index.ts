/**
 * geoshard/opensearch: writing to a geoshard index with the official
 * OpenSearch client (@opensearch-project/opensearch, a peer dependency).
 *
 *   import { Client } from '@opensearch-project/opensearch';
 *   import { GeoIndexer } from 'geoshard/opensearch';
 *   const indexer = new GeoIndexer(new Client({ node: 'http://127.0.0.1:9200' }), 'dishes');
 *   const put = await indexer.putRestaurant({ id: 'r1', name: 'Blue Fig', lat: 37.77, lng: -122.42 });
 *   put.owners; // [{ index, name: 'sierra', shard: 7 }]: the shard(s) written, each with its routing
 *
 * The entry lists its exports by name.
 */
export {
  GeoIndexer,
  GeoIndexError,
  DEFAULT_RETRY,
  type GeoIndexerOptions,
  type GeoIndexErrorCode,
  type RetryPolicy,
  type RoutingState,
  type WriteItem,
  type DocResult,
  type BulkDoc,
  type BulkOptions,
  type BulkReport,
  type PutResult,
  type DeleteResult,
  type Located,
} from './indexer.ts';
export {
  cellOf,
  restaurantSource,
  restaurantCopy,
  dishSource,
  withRestaurant,
  withShard,
  kindOf,
  restaurantOfSource,
  pointOf,
  type RestaurantFields,
  type DishFields,
  type Source,
} from './documents.ts';
export {
  DOC_SHAPE,
  docShapeOf,
  JOIN_FIELD,
  PARENT,
  CHILD,
  readIndexMeta,
  migrationOfMeta,
  routerOf,
  MigrationError,
  type IndexMeta,
  type SampleMeta,
  type RoutingFingerprint,
  type IndexMigration,
} from './meta.ts';
export {
  SAMPLE_CONFIG,
  CONFIG_FILE_NAME,
  INDEX_CONFIG_KEYS,
  MAX_FACETS,
  checkIndexConfig,
  parseIndexConfig,
  withOverrides,
  weightColumn,
  fieldPathProblem,
  indexNameProblem,
  IndexConfigError,
  type IndexConfig,
  type IndexConfigOverrides,
  type IndexConfigProblem,
  type IndexJoin,
  type IndexWeight,
} from './indexConfig.ts';

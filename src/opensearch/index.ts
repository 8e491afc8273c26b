/**
 * geoshard/opensearch: writing to a geoshard index with the official
 * OpenSearch client (@opensearch-project/opensearch, a peer dependency).
 *
 *   import { Client } from '@opensearch-project/opensearch';
 *   import { GeoIndexer } from 'geoshard/opensearch';
 *   const indexer = new GeoIndexer(new Client({ node: 'http://127.0.0.1:9200' }), 'places');
 *   const put = await indexer.putDocument('p1', { name: 'Blue Fig', geo: { lat: 37.77, lon: -122.42 } });
 *   put.owners; // [{ index, name: 'sierra', shard: 7 }]: the shard(s) written, each with its routing
 *
 * The bundled sample's restaurants and dishes: SampleIndexer (putRestaurant, putDish, deleteRestaurant).
 *
 * A search service creates its index and asks only the shards a circle touches:
 *
 *   import { createGeoIndex, routedSearch } from 'geoshard/opensearch';
 *   await createGeoIndex(client, file, config, { mappings: { properties: { name: { type: 'text' } } } });
 *   const req = await routedSearch(client, file, config, { lat: 37.77, lng: -122.42, radiusKm: 5 }, { match: { name: 'tacos' } });
 *   const res = await client.search(req);
 *
 * (docs/search-service.md). The entry lists its exports by name.
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
export { SampleIndexer } from './sampleIndexer.ts';
export { pointOf, type Source } from './documentFields.ts';
export { restaurantSource, dishSource, type RestaurantFields, type DishFields } from './sampleDocuments.ts';
export { indexBody, DOC_SHAPE, docShapeOf, JOIN_FIELD, PARENT, CHILD } from './sampleIndex.ts';
export { indexMeta, geoIndexBody, pipelineFieldsOf, GeoIndexSpecError, type GeoIndexOptions } from './indexSpec.ts';
export { createGeoIndex, type CreatedGeoIndex } from './createIndex.ts';
export { routingPipeline, pipelineId, type IngestPipeline, type PipelineFields, type PipelineParams, type PipelineIdentity, type RoutingTable } from './routingPipeline.ts';
export { routedSearch, routedRequest, geoDistanceFilter, GeoSearchError, type Circle, type RoutedRequest, type GeoSearchErrorCode } from './routedSearch.ts';
export { fetchIndexMeta } from './indexMeta.ts';
export type { TransportClient, TransportRequest, TransportOptions } from './transport.ts';
export { driftState, type DriftState } from './drift.ts';
export { migrationOfMeta, routerOf, MigrationError, type IndexMeta, type SampleMeta, type RoutingFingerprint, type IndexMigration } from './meta.ts';
export {
  SAMPLE_CONFIG,
  MAX_FACETS,
  checkIndexConfig,
  parseIndexConfig,
  withOverrides,
  IndexConfigError,
  type IndexConfig,
  type IndexConfigOverrides,
  type IndexConfigProblem,
  type IndexJoin,
  type IndexWeight,
} from './indexConfig.ts';

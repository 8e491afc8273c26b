/**
 * The index definition lives with the package's writer, in src/opensearch/indexSpec.ts (exported
 * as geoshard/opensearch, so a search service creates a geosharded index the way geoshard does);
 * the server's modules import it through this name.
 */
export * from '../opensearch/indexSpec.ts';

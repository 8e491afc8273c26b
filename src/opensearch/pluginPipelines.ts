/**
 * The pipelines that run the geoshard OpenSearch plugin's processors (plugin/, docs/plugin.md) on
 * an index, for a cluster that has the plugin on every node: the ingest pipeline of `geo_routing`
 * (the same id as the Painless routing pipeline, `geoshard-<index>`, which it replaces: one
 * default pipeline an index) and the search pipeline of `geo_routing_search` with
 * `geo_routing_report` (`geoshard-search-<index>`, the index's `index.search.default_pipeline`).
 * Neither pins a boundary file: both read the index's `_meta` from the node's cluster state on
 * every request, so they follow a migration and a new boundary file at once and need no
 * reinstall (a pipeline put by hand with `hash` is pinned to that file; readers report it).
 * Pure: bodies and their recognition only.
 */
/** The plugin's processor types. */
export const PLUGIN_PROCESSORS = { ingest: 'geo_routing', search: 'geo_routing_search', report: 'geo_routing_report' } as const;

/** The prefix of geoshard's search pipeline ids: `geoshard-search-<index>`. */
export const SEARCH_PIPELINE_ID_PREFIX = 'geoshard-search-';

/** searchPipelineId returns the id of an index's geoshard search pipeline. */
export function searchPipelineId(index: string): string {
  return `${SEARCH_PIPELINE_ID_PREFIX}${index}`;
}

/** A search pipeline's body (`PUT _search/pipeline/<id>`). */
export interface SearchPipeline {
  description: string;
  request_processors: Record<string, Record<string, unknown>>[];
  response_processors: Record<string, Record<string, unknown>>[];
}

/**
 * searchPipeline returns the body of an index's geoshard search pipeline: `geo_routing_search`
 * (routes a search with no routing by its location clauses; `maxCells` caps the covering, the
 * plugin's default when absent) and `geo_routing_report` (what it decided, as `ext.geoshard`).
 */
export function searchPipeline(index: string, opts: { maxCells?: number } = {}): SearchPipeline {
  return {
    description: `geoshard: routes searches of ${index} that send no routing to the shards their location clauses can match (the plugin's geo_routing_search), and says so in ext.geoshard`,
    request_processors: [{ [PLUGIN_PROCESSORS.search]: opts.maxCells !== undefined ? { max_cells: opts.maxCells } : {} }],
    response_processors: [{ [PLUGIN_PROCESSORS.report]: {} }],
  };
}

/** The routing ingest pipeline run by the plugin's `geo_routing` (`PUT _ingest/pipeline/geoshard-<index>`). */
export interface PluginIngestPipeline {
  description: string;
  processors: [{ geo_routing: Record<string, never> }];
}

/** pluginIngestPipeline returns the body of an index's routing ingest pipeline run by the plugin's `geo_routing` (instead of the Painless script). */
export function pluginIngestPipeline(index: string): PluginIngestPipeline {
  return { description: `geoshard: routes writes into ${index} that send no routing, by the plugin's geo_routing (from the index's _meta)`, processors: [{ geo_routing: {} }] };
}

/** The plugin processor a pipeline body runs (its first processor of that type) and the boundary file hash it is pinned to (null: it follows `_meta`); null when it runs none. */
export function pluginProcessorOf(pipeline: unknown, type: (typeof PLUGIN_PROCESSORS)['ingest' | 'search']): { pinned: string | null } | null {
  const list = (pipeline as { processors?: unknown; request_processors?: unknown } | null)?.[type === PLUGIN_PROCESSORS.ingest ? 'processors' : 'request_processors'];
  if (!Array.isArray(list)) return null;
  for (const p of list) {
    const cfg = (p as Record<string, { hash?: unknown } | undefined> | null)?.[type];
    if (cfg && typeof cfg === 'object') return { pinned: typeof cfg.hash === 'string' ? cfg.hash : null };
  }
  return null;
}

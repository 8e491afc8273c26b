/**
 * The geoshard plugin on a live cluster: whether every node has it (pluginNodes), and the
 * index's search pipeline that runs its geo_routing_search (install, read, uninstall), so that a
 * search sent with no routing, by any client, asks only its shards. The bodies are
 * src/opensearch/pluginPipelines.ts; the ingest side is pipelineInstall.ts.
 *
 * "Installed" means: the index's `index.search.default_pipeline` names `geoshard-search-<index>`
 * and that pipeline runs geo_routing_search. A search can still skip it with
 * `search_pipeline=_none` (every shard: the baseline the live API measures against).
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import { PLUGIN_PROCESSORS, pluginProcessorOf, searchPipeline, searchPipelineId } from '../../opensearch/pluginPipelines.ts';
import { concreteIndexOf, PipelineError, removePipeline } from './pipelineInstall.ts';

const enc = encodeURIComponent;

/** The name the plugin has in `GET _nodes/plugins`. */
export const PLUGIN_NAME = 'geoshard';

/** The cluster's nodes and which of them have the geoshard plugin (its version, from the node's plugin list). */
export interface PluginNodes {
  nodes: number;
  /** Names of the nodes that have it. */
  with: string[];
  /** Names of the nodes that do not. */
  without: string[];
  /** The plugin's version on the nodes that have it (the first one's). */
  version: string | null;
}

/** pluginNodes reads which nodes have the geoshard plugin (`GET _nodes/plugins`: cluster:monitor/nodes/info, a read). Rejects with OpenSearchError. */
export async function pluginNodes(client: OpenSearchClient): Promise<PluginNodes> {
  const body = await client.get<{ nodes?: Record<string, { name?: string; plugins?: { name: string; version?: string }[] }> }>('/_nodes/plugins', { query: { filter_path: 'nodes.*.name,nodes.*.plugins.name,nodes.*.plugins.version' } });
  const out: PluginNodes = { nodes: 0, with: [], without: [], version: null };
  for (const [id, n] of Object.entries(body.nodes ?? {})) {
    out.nodes++;
    const p = (n.plugins ?? []).find((x) => x.name === PLUGIN_NAME);
    if (p) {
      out.with.push(n.name ?? id);
      out.version ??= p.version ?? null;
    } else out.without.push(n.name ?? id);
  }
  return out;
}

/** What is set on an index for its searches. */
export interface InstalledSearchPipeline {
  /** The id geoshard uses for the index (`geoshard-search-<index>`). */
  id: string;
  /** The index's `index.search.default_pipeline`, or null when unset. */
  defaultPipeline: string | null;
  /** Whether `geoshard-search-<index>` exists and runs geo_routing_search. */
  exists: boolean;
  /** The boundary file hash geo_routing_search was pinned to by hand, or null (it follows `_meta`). */
  pinned: string | null;
  /** True when searches of the index sent with no routing are routed by the cluster: the default pipeline is geoshard's and runs geo_routing_search. */
  routes: boolean;
}

/** readSearchPipeline reads the index's default search pipeline and `geoshard-search-<index>`; undefined when the index does not exist. Rejects with OpenSearchError. */
export async function readSearchPipeline(client: OpenSearchClient, index: string): Promise<InstalledSearchPipeline | undefined> {
  const [settings, pipeline] = await Promise.all([
    client.request<Record<string, { settings?: { index?: { search?: { default_pipeline?: string } } } }>>('GET', `/${enc(index)}/_settings/index.search.default_pipeline`, { okStatuses: [404] }),
    client.request<Record<string, unknown>>('GET', `/_search/pipeline/${enc(searchPipelineId(index))}`, { okStatuses: [404] }),
  ]);
  if (settings.status === 404) return undefined;
  const entries = Object.entries(settings.body ?? {});
  // Keyed by the concrete index (an alias resolves to it): its pipeline is the concrete index's.
  const concrete = entries.length === 1 ? entries[0][0] : index;
  const id = searchPipelineId(concrete);
  const body = concrete === index ? (pipeline.status === 404 ? undefined : pipeline.body?.[id]) : await client.request<Record<string, unknown>>('GET', `/_search/pipeline/${enc(id)}`, { okStatuses: [404] }).then((r) => (r.status === 404 ? undefined : r.body?.[id]));
  const processor = body === undefined ? null : pluginProcessorOf(body, PLUGIN_PROCESSORS.search);
  const defaultPipeline = entries.length === 1 ? (entries[0][1]?.settings?.index?.search?.default_pipeline ?? null) : null;
  return { id, defaultPipeline, exists: processor !== null, pinned: processor?.pinned ?? null, routes: processor !== null && defaultPipeline === id };
}

/**
 * installSearchPipeline writes `geoshard-search-<index>` (searchPipeline: geo_routing_search and
 * geo_routing_report, following `_meta`) and sets it as the index's
 * `index.search.default_pipeline`. Idempotent. Throws PipelineError naming the nodes when the
 * plugin is not on every node (nothing is changed), OpenSearchError when a request fails.
 */
export async function installSearchPipeline(client: OpenSearchClient, index: string, opts: { maxCells?: number } = {}): Promise<{ id: string; plugin: PluginNodes }> {
  const plugin = await pluginNodes(client);
  if (plugin.without.length > 0) {
    throw new PipelineError(
      `the geoshard plugin is not on ${plugin.without.length} of the ${plugin.nodes} nodes of ${client.url} (${plugin.without.slice(0, 5).join(', ')}): a search pipeline of its processors needs it on every node. ` +
        'Nothing was changed. Install it on every node (docs/plugin.md; "npx geoshard plugin --opensearch VERSION" writes its zip), or route searches from the client with routedSearch (geoshard/opensearch).',
    );
  }
  // An alias's search pipeline is its one index's, as readSearchPipeline reads it.
  const concrete = (await concreteIndexOf(client, index)) ?? index;
  const id = searchPipelineId(concrete);
  await client.admin('PUT', `/_search/pipeline/${enc(id)}`, { body: searchPipeline(concrete, opts) });
  await client.admin('PUT', `/${enc(index)}/_settings`, { body: { index: { 'search.default_pipeline': id } } });
  return { id, plugin };
}

/** uninstallSearchPipeline unsets the index's default search pipeline when it is geoshard's (another is left alone), then deletes `geoshard-search-<index>`. */
export async function uninstallSearchPipeline(client: OpenSearchClient, index: string): Promise<{ id: string; unset: boolean; deleted: boolean }> {
  const p = await readSearchPipeline(client, index);
  if (p === undefined) throw new PipelineError(`index "${index}" does not exist on ${client.url}`);
  return removePipeline(client, index, p, 'search');
}

/** The search pipeline beside `_meta`, as `/api/status` and `geoshard audit` show it. */
export interface SearchPipelineStatus {
  id: string;
  /** Searches sent with no routing are routed by the cluster (the index's default search pipeline is geoshard's). */
  routes: boolean;
  /** The boundary file hash it was pinned to by hand, or null (it follows `_meta`). */
  pinned: string | null;
  /** Whether it narrows searches as `_meta` says: unpinned, or pinned to `_meta.hash` or the migration's target. */
  matches: boolean;
  /** What it does, or why it does not narrow and what to run. */
  message: string;
}

/**
 * searchPipelineStatusOf says what the index's search pipeline does beside `_meta`. Null when
 * geoshard's search pipeline is not the index's default (searches are routed by their clients).
 * A pipeline pinned to another file than the index's does not narrow any search (each asks every
 * shard, and says why in ext.geoshard): correct but not local, so it is reported, not refused.
 */
export function searchPipelineStatusOf(installed: InstalledSearchPipeline | undefined, meta: { hash: string; migration?: unknown } | null | undefined, index: string): SearchPipelineStatus | null {
  if (!installed || !installed.routes) return null;
  const target = (meta?.migration as { target?: string } | undefined)?.target;
  const matches = !!meta && (installed.pinned === null || installed.pinned === meta.hash || installed.pinned === target);
  const message = matches
    ? `searches of "${index}" sent with no routing are routed by the cluster (${installed.id}: the plugin's geo_routing_search${installed.pinned ? `, pinned to ${installed.pinned.slice(0, 12)}` : ', following _meta'})`
    : `${installed.id} is pinned to boundary file ${installed.pinned}, but "${index}" was written with ${meta?.hash ?? 'no geoshard _meta'}: every search asks every shard. Reinstall it unpinned: "npx geoshard pipeline --install --search --index ${index}"`;
  return { id: installed.id, routes: true, pinned: installed.pinned, matches, message };
}

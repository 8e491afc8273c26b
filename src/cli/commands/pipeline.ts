import { parse } from '../args.ts';
import { loadBoundaryFile, DEFAULT_BOUNDARIES, CliError, INDEX_CONFIG_OPTIONS, INDEX_CONFIG_USAGE, indexConfigOf } from '../io.ts';
import type { Command } from '../command.ts';
import { installPipelineFromMeta, uninstallPipeline, readPipeline, PipelineError, type IngestProcessor } from '../../ops/routing/pipelineInstall.ts';
import { installSearchPipeline, pluginNodes, readSearchPipeline, uninstallSearchPipeline } from '../../ops/routing/searchPipelineInstall.ts';
import { routingPipeline, pipelineId } from '../../opensearch/routingPipeline.ts';
import { checkPipelineModules, checkPrivileges, ClusterAbilityError, pipelineProbes, PrivilegeError } from '../../cluster/privilegeChecks.ts';
import { readMigration } from '../../opensearch/indexMeta.ts';
import { MigrationError } from '../../opensearch/meta.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';

const USAGE_HINT = 'Run "geoshard pipeline --help" for usage.';

export const pipeline: Command = {
  name: 'pipeline',
  summary: 'install, print or remove the pipelines that route writes (and, with the plugin, searches) sent with no routing',
  usage: `geoshard pipeline --install [--search] [--processor auto|painless|plugin] [--index I] [--config FILE]
geoshard pipeline --print [--index I | --boundaries FILE] [--config FILE]
geoshard pipeline --uninstall [--index I] [--config FILE]

The routing ingest pipeline geoshard-<index> runs one processor: where the geoshard OpenSearch
plugin is on every node, its geo_routing (docs/plugin.md); else a Painless script processor (no
plugin). --processor auto (the default) chooses by what the cluster has and says which it chose.
Either computes each document's level-10 S2 cell from its location (restaurants: location;
dishes: restaurant_location) exactly as the core does, and
  - with no routing on the request, sets _routing to the name of the shard searches read the
    cell from (during a migration: the range's read owner);
  - with a routing, keeps it if it is one of the cell's write owners (one, or two while the
    range moves), else fails the document naming the routing, the cell and the owner(s);
  - for a restaurant, sets its cell (the level-10 token) and shard (the routing) fields.
A writer (curl _bulk, Logstash, any client) then needs to send no routing to create or replace
a document. Deletes and partial updates (_update) do not run ingest pipelines: they still need
the routing (the shard name of the restaurant's cell, "geoshard route").

  --install          make the pipeline from the index's _meta (its boundary file and migration
                     state) and set it as the index's index.default_pipeline; idempotent.
                     "geoshard seed" does this after its load; run it again after changing _meta
                     (the plugin's geo_routing reads _meta itself and needs no reinstall)
  --search           with --install: also the search pipeline geoshard-search-<index> (the plugin's
                     geo_routing_search and geo_routing_report), set as the index's
                     index.search.default_pipeline: any client's search that sends no routing asks
                     only the shards its location clauses can match. Needs the plugin on every node
  --processor P      with --install: auto (the plugin's geo_routing where every node has the
                     plugin, else Painless), painless, or plugin
  --print            write the pipeline JSON to stdout: from the index's _meta, or from FILE
                     (--boundaries, no cluster needed)
  --uninstall        unset the index's default_pipeline and default search pipeline (each when it is
                     geoshard's) and delete geoshard's pipelines
  --boundaries FILE  with --print: the settled boundary file to make the pipeline from
${INDEX_CONFIG_USAGE}
                 The index: --index, else the config's, else the index of data/boundaries.json.
                 The config names the index; the pipeline's fields come from the index's _meta.

While an installed pipeline disagrees with the index's _meta (another boundary hash or routing
table), the live API refuses searches (409, drift status pipeline-mismatch).
OpenSearch 2.x needs the lang-painless and ingest-common modules (every distribution bundles
them but the 2.x integ-test zip; "npm run cluster:start" adds them to the local node).

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(argv, { install: { type: 'boolean' }, print: { type: 'boolean' }, uninstall: { type: 'boolean' }, search: { type: 'boolean' }, processor: { type: 'string' }, boundaries: { type: 'string' }, ...INDEX_CONFIG_OPTIONS }, 'pipeline');
    const actions = (['install', 'print', 'uninstall'] as const).filter((a) => values[a]);
    if (actions.length !== 1) {
      throw new CliError(
        `geoshard pipeline: ${actions.length === 0 ? 'give one of --install, --print or --uninstall' : `--${actions.join(' and --')} cannot be combined: give one of --install, --print or --uninstall`}\n${USAGE_HINT}`,
        2,
      );
    }
    const action = actions[0];
    if ((values.search || values.processor !== undefined) && action !== 'install') throw new CliError(`geoshard pipeline: --${values.search ? 'search' : 'processor'} goes with --install\n${USAGE_HINT}`, 2);
    const processor = (values.processor as string | undefined) ?? 'auto';
    if (!['auto', 'painless', 'plugin'].includes(processor)) throw new CliError(`geoshard pipeline: --processor ${JSON.stringify(processor)} is not valid: expected auto, painless or plugin\n${USAGE_HINT}`, 2);
    const boundaries = values.boundaries as string | undefined;
    if (boundaries !== undefined && action !== 'print') throw new CliError(`geoshard pipeline: --boundaries is read only with --print (--${action} reads the index's _meta)\n${USAGE_HINT}`, 2);
    if (boundaries !== undefined && values.index !== undefined) throw new CliError(`geoshard pipeline: --print takes --index or --boundaries, not both\n${USAGE_HINT}`, 2);
    // The config names the index; the fields the pipeline reads come from the index's _meta.
    const { config, given } = indexConfigOf(values, 'pipeline');
    if (boundaries !== undefined) {
      // The pipeline of a settled file, no cluster involved.
      const file = loadBoundaryFile(boundaries);
      io.out(JSON.stringify({ id: pipelineId(file.index), pipeline: routingPipeline(file) }, null, 2) + '\n');
      return 0;
    }
    const index = given ? config.index : loadBoundaryFile(DEFAULT_BOUNDARIES).index;
    const client = await clusterClient('pipeline');
    try {
      if (action === 'print') {
        const m = await readMigration(client, index);
        if (m === undefined) throw new PipelineError(`index "${index}" does not exist on ${client.url}: seed it first ("geoshard seed"), or give --boundaries FILE`);
        if (!m.base) throw new PipelineError(`index "${index}" _meta does not hold its boundary file (seeded by an older geoshard): give it with --boundaries FILE, or seed the index again`);
        io.out(JSON.stringify({ id: pipelineId(index), pipeline: routingPipeline(m.base, m.state, index) }, null, 2) + '\n');
        return 0;
      }
      // The privileges (and, to install, the modules) the change needs, checked before it.
      await checkPrivileges(client, pipelineProbes(index, !!values.search), 'pipeline');
      if (action === 'install') {
        // Which processor routes writes: the plugin's where every node has it (auto), else Painless.
        const nodes = processor === 'painless' ? null : await pluginNodes(client).catch(() => null);
        const onEvery = nodes !== null && nodes.nodes > 0 && nodes.without.length === 0;
        if (processor === 'plugin' && !onEvery) {
          throw new PipelineError(`--processor plugin: the geoshard plugin is not on every node of ${client.url}${nodes ? ` (missing on ${nodes.without.slice(0, 5).join(', ')})` : ' (its nodes\' plugins could not be read)'}; nothing was changed. Install it (docs/plugin.md), or leave --processor auto`);
        }
        const kind = processor === 'auto' ? (onEvery ? 'plugin' : 'painless') : (processor as IngestProcessor);
        if (kind === 'painless') await checkPipelineModules(client);
        const r = await installPipelineFromMeta(client, index, kind);
        const back = await readPipeline(client, index);
        if (back?.defaultPipeline !== r.id || back.processor !== kind || (kind === 'painless' && back.identity?.table !== r.identity.table)) {
          throw new PipelineError(`installed ${r.id}, but index "${index}" reads back default_pipeline ${JSON.stringify(back?.defaultPipeline ?? null)} running ${back?.processor ?? 'no geoshard processor'}${kind === 'painless' ? ` with table ${back?.identity?.table ?? 'none'}` : ''}: something else changed it`);
        }
        const why = processor === 'auto' ? (onEvery ? `: the geoshard plugin ${nodes!.version ?? ''} is on all ${nodes!.nodes} nodes` : nodes ? `: the geoshard plugin is not on every node (${nodes.with.length} of ${nodes.nodes})` : ": the nodes' plugins could not be read") : '';
        io.out(
          `installed ingest pipeline ${r.id} as index "${index}"'s default_pipeline on ${client.url}, run by ${kind === 'plugin' ? "the plugin's geo_routing (it reads _meta on every write)" : 'a Painless script'}${why}. ` +
            `Boundary file ${r.identity.hash.slice(0, 12)}, migration epoch ${r.identity.epoch}${kind === 'painless' ? `, routing table ${r.identity.table.slice(0, 12)}` : ''}. Writes that send no routing are now routed by the cluster.\n`,
        );
        if (values.search) {
          const s = await installSearchPipeline(client, index);
          const sb = await readSearchPipeline(client, index);
          if (!sb?.routes) throw new PipelineError(`installed ${s.id}, but index "${index}" reads back index.search.default_pipeline ${JSON.stringify(sb?.defaultPipeline ?? null)}: something else changed it`);
          io.out(`installed search pipeline ${s.id} (the plugin's geo_routing_search and geo_routing_report) as index "${index}"'s index.search.default_pipeline: a search that sends no routing now asks only the shards its location clauses can match, and says so in ext.geoshard. search_pipeline=_none asks every shard.\n`);
        }
        return 0;
      }
      const r = await uninstallPipeline(client, index);
      const sr = await uninstallSearchPipeline(client, index);
      io.out(
        r.unset || r.deleted
          ? `index "${index}": ${r.unset ? 'default_pipeline unset' : 'default_pipeline was not geoshard\'s (left as it is)'}; pipeline ${r.id} ${r.deleted ? 'deleted' : 'did not exist'}. Writes must now send their routing.\n`
          : `index "${index}": no geoshard pipeline was installed (${r.id} does not exist, default_pipeline is not it): nothing to do\n`,
      );
      if (sr.unset || sr.deleted) io.out(`index "${index}": ${sr.unset ? 'search.default_pipeline unset' : 'search.default_pipeline was not geoshard\'s (left as it is)'}; search pipeline ${sr.id} ${sr.deleted ? 'deleted' : 'did not exist'}. Searches are routed by their clients again.\n`);
      return 0;
    } catch (e) {
      if (e instanceof PipelineError || e instanceof MigrationError || e instanceof PrivilegeError || e instanceof ClusterAbilityError) throw new CliError(`geoshard pipeline: ${e.message}`);
      if (e instanceof OpenSearchError) {
        throw new CliError(`geoshard pipeline: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      }
      throw e;
    } finally {
      await client.close().catch(() => {});
    }
  },
};

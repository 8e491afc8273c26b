import { parse } from '../args.ts';
import { loadBoundaryFile, DEFAULT_BOUNDARIES, CliError, INDEX_CONFIG_OPTIONS, INDEX_CONFIG_USAGE, indexConfigOf } from '../io.ts';
import type { Command } from '../command.ts';
import { OpenSearchClient } from '../../cluster/client.ts';
import { installPipelineFromMeta, uninstallPipeline, readPipeline, PipelineError } from '../../ops/routing/pipelineInstall.ts';
import { routingPipeline, pipelineId } from '../../opensearch/routingPipeline.ts';
import { checkPipelineModules, checkPrivileges, ClusterAbilityError, pipelineProbes, PrivilegeError } from '../../cluster/privilegeChecks.ts';
import { readMigration } from '../../opensearch/indexMeta.ts';
import { MigrationError } from '../../opensearch/meta.ts';
import { configFromEnv } from '../../cluster/clientConfig.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

const USAGE_HINT = 'Run "geoshard pipeline --help" for usage.';

export const pipeline: Command = {
  name: 'pipeline',
  summary: 'install, print or remove the ingest pipeline that routes writes sent with no routing',
  usage: `geoshard pipeline --install [--index I] [--config FILE]
geoshard pipeline --print [--index I | --boundaries FILE] [--config FILE]
geoshard pipeline --uninstall [--index I] [--config FILE]

The routing ingest pipeline geoshard-<index>: one Painless script processor (no plugin) that
computes each document's level-10 S2 cell from its location (restaurants: location; dishes:
restaurant_location) exactly as the core does, and
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
  --print            write the pipeline JSON to stdout: from the index's _meta, or from FILE
                     (--boundaries, no cluster needed)
  --uninstall        unset the index's default_pipeline (when it is geoshard's) and delete the pipeline
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
    const { values } = parse(argv, { install: { type: 'boolean' }, print: { type: 'boolean' }, uninstall: { type: 'boolean' }, boundaries: { type: 'string' }, ...INDEX_CONFIG_OPTIONS }, 'pipeline');
    const actions = (['install', 'print', 'uninstall'] as const).filter((a) => values[a]);
    if (actions.length !== 1) {
      throw new CliError(
        `geoshard pipeline: ${actions.length === 0 ? 'give one of --install, --print or --uninstall' : `--${actions.join(' and --')} cannot be combined: give one of --install, --print or --uninstall`}\n${USAGE_HINT}`,
        2,
      );
    }
    const action = actions[0];
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
    let client: OpenSearchClient;
    try {
      client = new OpenSearchClient(configFromEnv());
    } catch (e) {
      throw new CliError(`geoshard pipeline: ${(e as Error).message}`);
    }
    try {
      if (action === 'print') {
        const m = await readMigration(client, index);
        if (m === undefined) throw new PipelineError(`index "${index}" does not exist on ${client.url}: seed it first ("geoshard seed"), or give --boundaries FILE`);
        if (!m.base) throw new PipelineError(`index "${index}" _meta does not hold its boundary file (seeded by an older geoshard): give it with --boundaries FILE, or seed the index again`);
        io.out(JSON.stringify({ id: pipelineId(index), pipeline: routingPipeline(m.base, m.state, index) }, null, 2) + '\n');
        return 0;
      }
      // The privileges (and, to install, the modules) the change needs, checked before it.
      await checkPrivileges(client, pipelineProbes(index), 'pipeline');
      if (action === 'install') await checkPipelineModules(client);
      if (action === 'install') {
        const r = await installPipelineFromMeta(client, index);
        const back = await readPipeline(client, index);
        if (back?.defaultPipeline !== r.id || back.identity?.table !== r.identity.table) {
          throw new PipelineError(`installed ${r.id}, but index "${index}" reads back default_pipeline ${JSON.stringify(back?.defaultPipeline ?? null)} with table ${back?.identity?.table ?? 'none'}: something else changed it`);
        }
        io.out(
          `installed ingest pipeline ${r.id} as index "${index}"'s default_pipeline on ${client.url}: boundary file ${r.identity.hash.slice(0, 12)}, ` +
            `migration epoch ${r.identity.epoch}, routing table ${r.identity.table.slice(0, 12)}. Writes that send no routing are now routed by the cluster.\n`,
        );
        return 0;
      }
      const r = await uninstallPipeline(client, index);
      io.out(
        r.unset || r.deleted
          ? `index "${index}": ${r.unset ? 'default_pipeline unset' : 'default_pipeline was not geoshard\'s (left as it is)'}; pipeline ${r.id} ${r.deleted ? 'deleted' : 'did not exist'}. Writes must now send their routing.\n`
          : `index "${index}": no geoshard pipeline was installed (${r.id} does not exist, default_pipeline is not it): nothing to do\n`,
      );
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

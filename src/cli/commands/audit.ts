import { existsSync } from 'node:fs';
import { parse, int } from '../args.ts';
import { loadBoundaryFile, DEFAULT_BOUNDARIES, CliError, INDEX_CONFIG_OPTIONS, INDEX_CONFIG_USAGE, indexConfigOf, requireShape } from '../io.ts';
import { SAMPLE_CONFIG } from '../../opensearch/indexConfig.ts';
import type { Command } from '../command.ts';
import type { BoundaryFile } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { auditIndex, AuditError, type AuditProgress } from '../../ops/audit/audit.ts';
import { chooseEngine } from '../../cluster/enginePath.ts';
import { engineOf, engineUsage } from '../engineFlag.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { readPipeline, pipelineStatusOf, type PipelineStatus } from '../../ops/routing/pipelineInstall.ts';
import { readSearchPipeline, searchPipelineStatusOf, type SearchPipelineStatus } from '../../ops/routing/searchPipelineInstall.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';

/** Problems printed by default (--limit). */
const DEFAULT_LIMIT = 20;

/**
 * routingInCluster reads what routes the index's writes and searches that send no routing: its
 * ingest pipeline (Painless or the plugin's geo_routing) and search pipeline (the plugin's
 * geo_routing_search), each beside `_meta`. A read that is refused or fails is reported as its
 * error: the audit itself stands.
 */
async function routingInCluster(client: OpenSearchClient, index: string): Promise<{ ingest: PipelineStatus | null | { error: string }; search: SearchPipelineStatus | null | { error: string } }> {
  const meta = await fetchIndexMeta(client, index).catch(() => null);
  const [ingest, search] = await Promise.all([
    readPipeline(client, index).then((p) => pipelineStatusOf(p, meta, index), (e: Error) => ({ error: e.message })),
    readSearchPipeline(client, index).then((p) => searchPipelineStatusOf(p, meta, index), (e: Error) => ({ error: e.message })),
  ]);
  return { ingest, search };
}

export const audit: Command = {
  name: 'audit',
  summary: 'read every shard of the live index and name each document on the wrong shard, each dish apart from its restaurant',
  usage: `geoshard audit [--index I] [--config FILE] [--engine E] [--json] [--limit N] [--page-size P] [--concurrency C]

Reads every document of every shard of the index (one point-in-time per shard, opened with
preference=_shards:N, paged with search_after; C shards at a time) and checks each against
the routing state in the index's _meta (the settled boundary file, or the migration's
intermediate file while "geoshard migrate" runs, when a range in a move has two right shards):

  wrong-shard        the shard it sits on is not an owner of its location's level-10 cell
                     (restaurants: location; dishes: restaurant_location)
  dish-apart         a dish whose restaurant (restaurant_id, its join parent) is not on its shard,
                     or is in no shard
  wrong-cell         a restaurant whose cell is not the level-10 token of its location
  wrong-shard-field  a restaurant whose shard field is not the routing of the shard it sits on
  wrong-routing      a document whose _routing is not the name of the shard it sits on

Exit 0 when every document is right; exit 1 naming each problem (document id, shard found,
shard expected, why; the first N, and how many more). It also says what routes writes and
searches sent with no routing: the index's ingest pipeline (Painless, or the geoshard plugin's
geo_routing) and search pipeline (the plugin's geo_routing_search), each checked against _meta. Progress (documents/s, ETA) on stderr.
The index: --index, else the config's, else the index of data/boundaries.json.

  --json             print the report as JSON (every problem up to 10,000; counts of all)
  --limit N          problems printed (default ${DEFAULT_LIMIT}; 0..10000)
  --page-size P      documents per page (default 10000; 100..10000)
  --concurrency C    shards read at once (default 3; 1..32)
${engineUsage(21)}
${INDEX_CONFIG_USAGE}
                 With a join, the audit checks the sample's shape (location, dishes by
                 restaurant_location beside their join parent). A flat index (--field F, or a
                 config with "join": null) is checked by its location field: every document on an
                 owner of its cell, routed with that shard's name.

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      { json: { type: 'boolean' }, limit: { type: 'string' }, 'page-size': { type: 'string' }, concurrency: { type: 'string' }, engine: { type: 'string' }, ...INDEX_CONFIG_OPTIONS },
      'audit',
    );
    const limit = int(values.limit, 'limit', 'audit', DEFAULT_LIMIT, 0, 10_000);
    const pageSize = int(values['page-size'], 'page-size', 'audit', 10_000, 100, 10_000);
    const concurrency = int(values.concurrency, 'concurrency', 'audit', 3, 1, 32);
    const engineChoice = engineOf(values.engine, 'audit');
    // The bundled file names the default index, and serves an index seeded before _meta held its file.
    const bundled: BoundaryFile | undefined = existsSync(DEFAULT_BOUNDARIES) ? loadBoundaryFile(DEFAULT_BOUNDARIES) : undefined;
    const { config, given } = indexConfigOf(values, 'audit');
    // A flat index (no join: --field F, or a config with "join": null) is audited by its location field;
    // a joined index must be the sample's shape (restaurants by location, dishes beside their parent).
    const flat = given && config.join === null ? { location: config.location } : undefined;
    if (given && !flat) requireShape(config, SAMPLE_CONFIG, 'audit', 'with a join, the audit checks restaurants by location and dishes by restaurant_location beside their join parent; a flat index (join null, or --field) is checked by its location field');
    const index = given ? config.index : bundled?.index;
    if (!index) throw new CliError('geoshard audit: --index is required (there is no data/boundaries.json to name the default)\nRun "geoshard audit --help" for usage.', 2);
    const client = await clusterClient('audit');
    let lastLine = 0;
    const progress = (p: AuditProgress) => {
      const now = p.elapsedMs;
      if (now - lastLine < 2000 && p.shardsDone < p.shards) return;
      lastLine = now;
      const pct = p.total > 0 ? Math.min(100, Math.round((p.done / p.total) * 100)) : 100;
      const eta = p.etaSeconds === null ? '' : `, ETA ${Math.ceil(p.etaSeconds)} s`;
      io.err(`geoshard audit: ${p.done.toLocaleString('en-US')}/${p.total.toLocaleString('en-US')} documents (${pct}%), ${p.shardsDone}/${p.shards} shards, ${Math.round(p.docsPerSecond).toLocaleString('en-US')} documents/s${eta}\n`);
    };
    let r;
    let routing: Awaited<ReturnType<typeof routingInCluster>>;
    try {
      const { engine } = await chooseEngine(client, 'audit', engineChoice);
      r = await auditIndex(client, index, { pageSize, concurrency, limit: values.json ? 10_000 : limit, progress, fallbackFile: bundled, flat, engine });
      routing = await routingInCluster(client, index);
    } catch (e) {
      if (e instanceof AuditError) throw new CliError(`geoshard audit: ${e.message}`);
      if (e instanceof OpenSearchError) {
        throw new CliError(`geoshard audit: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      }
      throw e;
    } finally {
      await client.close().catch(() => undefined);
    }
    const t = r.tally;
    const found = t.problems.length + t.omitted;
    if (values.json) {
      io.out(JSON.stringify({ ...r, pipelines: routing }, null, 2) + '\n');
    } else {
      const state = r.migrationEpoch === null ? 'settled' : `migration epoch ${r.migrationEpoch}`;
      io.out(
        `audited index "${r.index}" on ${client.url} (boundary file ${r.hash.slice(0, 12)} version ${r.version}, ${state}): ` +
          `${r.documents.total.toLocaleString('en-US')} documents${flat ? ` (flat, located by ${flat.location})` : ` (${r.documents.restaurants.toLocaleString('en-US')} restaurants, ${r.documents.dishes.toLocaleString('en-US')} dishes)`} ` +
          `on ${r.shards.length} shards in ${(r.elapsedMs / 1000).toFixed(1)} s (${Math.round(r.docsPerSecond).toLocaleString('en-US')} documents/s; checked by the ${r.engine}, ${r.returned.toLocaleString('en-US')} documents returned to this client)\n`,
      );
      io.out(`writes sent with no routing: ${routing.ingest !== null && 'error' in routing.ingest ? `not read (${routing.ingest.error})` : routing.ingest === null ? 'no geoshard pipeline: writers must send their routing' : `${routing.ingest.matches ? 'routed by' : 'REFUSED or misrouted by'} ${routing.ingest.id} (${routing.ingest.table.startsWith('geo_routing') ? "the plugin's geo_routing" : 'a Painless script'})${routing.ingest.matches ? '' : `: ${routing.ingest.message}`}`}\n`);
      io.out(`searches sent with no routing: ${routing.search !== null && 'error' in routing.search ? `not read (${routing.search.error})` : routing.search === null ? 'ask every shard (no search pipeline: clients route them, e.g. routedSearch)' : routing.search.matches ? `routed by the cluster (${routing.search.id})` : `ask every shard: ${routing.search.message}`}\n`);
      if (r.clean) io.out(flat ? `every document is on a right shard (an owner of its ${flat.location}'s cell), routed with that shard's name\n` : 'every document is on a right shard, every dish beside its restaurant, every restaurant\'s cell and shard fields right\n');
    }
    if (r.clean) return 0;
    const kinds = Object.entries(t.counts)
      .filter(([, n]) => n > 0)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    const shown = t.problems.slice(0, values.json ? 0 : limit);
    const lines = shown.map((p) => `  ${p.type} ${p.id}: ${p.problem} on shard ${p.shard}, expected ${p.expected.length > 0 ? `shard ${p.expected.join(' or ')}` : 'none'}: ${p.why}`);
    const more = found - shown.length;
    io.err(
      `geoshard audit: FAILED: ${found} problem${found === 1 ? '' : 's'} in ${t.documents} document${t.documents === 1 ? '' : 's'} (${kinds})` +
        (lines.length > 0 ? `:\n${lines.join('\n')}\n` : '\n') +
        (more > 0 && !values.json ? `  ... and ${more} more (--limit N shows more, --json lists up to 10,000)\n` : ''),
    );
    return 1;
  },
};

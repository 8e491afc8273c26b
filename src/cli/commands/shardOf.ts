/**
 * `geoshard shard-of --shards N NAME...`: the primary shard OpenSearch 2.x picks for each routing
 * value (the core's shardForRouting: Murmur3 of the UTF-16LE string, floorMod routing_num_shards,
 * divided by the routing factor), with no cluster. --routing-shards sets
 * index.number_of_routing_shards (default: OpenSearch's for N, defaultRoutingNumShards).
 */
import { shardForRouting, MAX_SHARDS } from '../../core/index.ts';
import { parse, int } from '../args.ts';
import { CliError } from '../io.ts';
import type { Command } from '../command.ts';

export const shardOf: Command = {
  name: 'shard-of',
  summary: 'print the OpenSearch shard each routing value goes to',
  usage: `geoshard shard-of --shards N [--routing-shards M] [--json] NAME...

For each routing value prints NAME<TAB>SHARD: the primary shard OpenSearch 2.x selects
for an index of N primary shards (Murmur3 of the UTF-16LE string, floorMod by
routing_num_shards, divided by the routing factor).

  --shards N          number of primary shards, [1, ${MAX_SHARDS}]
  --routing-shards M  index.number_of_routing_shards (default: OpenSearch's default for N)
  --json              print [{ "name", "shard" }]`,
  run(argv, io) {
    const { values, positionals } = parse(argv, { shards: { type: 'string' }, 'routing-shards': { type: 'string' }, json: { type: 'boolean' } }, 'shard-of', true);
    if (values.shards === undefined) throw new CliError('geoshard shard-of: --shards is required\nRun "geoshard shard-of --help" for usage.', 2);
    const n = int(values.shards, 'shards', 'shard-of', 0, 1, MAX_SHARDS);
    const m = values['routing-shards'] === undefined ? undefined : int(values['routing-shards'], 'routing-shards', 'shard-of', 0, n, 1 << 30);
    if (positionals.length === 0) throw new CliError('geoshard shard-of: give at least one NAME\nRun "geoshard shard-of --help" for usage.', 2);
    if (values.json) io.out(JSON.stringify(positionals.map((name) => ({ name, shard: shardForRouting(name, n, m) }))) + '\n');
    else for (const name of positionals) io.out(`${name}\t${shardForRouting(name, n, m)}\n`);
    return 0;
  },
};

/**
 * `npx tsx bench/fixedCost.ts [index] [shard name]`: the CPU a search costs
 * OpenSearch when it does nothing (`match_none`, `size: 0`, request cache off),
 * on one shard (`routing=<shard name>`, default "india": shard 0 of the bundled
 * boundaries) and on every shard: the request's own fixed cost, and what one
 * more shard with nothing to do adds. 300 searches each, 2 in flight, CPU from
 * bench/cpu.ts, two rounds. The README's "why 6× is not reached" uses it
 * beside bench:settings' figures. Index default: geoshard-bench-large.
 */
import { OpenSearchClient } from '../src/cluster/client.ts';
import { cpuReader } from './cpu.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 60000 });
const cpu = await cpuReader(client);
const IDX = process.argv[2] ?? 'geoshard-bench-large';
const SHARD = process.argv[3] ?? 'india';
const N = 300;
async function run(label: string, body: unknown, q: Record<string, string>) {
  const c0 = await cpu.read();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next++ < N) await client.request('POST', `/${IDX}/_search`, { query: { request_cache: 'false', ...q }, body });
    }),
  );
  console.log(`${label}: ${((await cpu.read()) - c0) / N} ms CPU/search, ${((performance.now() - t0) / N).toFixed(1)} ms wall/search`);
}
const none = { size: 0, query: { match_none: {} } };
for (let rep = 0; rep < 2; rep++) {
  await run(`match_none size 0, 1 shard (routing=${SHARD})`, none, { routing: SHARD });
  await run('match_none size 0, all shards', none, {});
}
await client.close();

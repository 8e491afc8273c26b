import { OpenSearchClient, configFromEnv } from '../src/server/opensearch.ts';
import { cpuReader } from './cpu.ts';
const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 60000 });
const cpu = await cpuReader(client);
const IDX = process.argv[2] ?? 'geoshard-bench-large';
const N = 300;
async function run(label: string, body: unknown, q: Record<string, string>) {
  const c0 = await cpu.read(); const t0 = performance.now(); let next = 0;
  await Promise.all([0, 1].map(async () => { while (next++ < N) await client.request('POST', `/${IDX}/_search`, { query: { request_cache: 'false', ...q }, body }); }));
  console.log(`${label}: ${((await cpu.read() - c0) / N).toFixed(2)} ms CPU/search, ${((performance.now() - t0) / N).toFixed(1)} ms wall/search`);
}
const none = { size: 0, query: { match_none: {} } };
const shardName = process.argv[3] ?? 'x';
for (let rep = 0; rep < 2; rep++) {
  await run('match_none size 0, 1 shard', none, { routing: shardName });
  await run('match_none size 0, all shards', none, {});
  await run('match_none size 0, 1 shard, mcsr... preference _shards:0', none, { preference: '_shards:0' });
  await run('count-only _search size 0 match_all 1 shard (track_total_hits)', { size: 0, track_total_hits: true, query: { match_all: {} } }, { routing: shardName });
}
await client.close();

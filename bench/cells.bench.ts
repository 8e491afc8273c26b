/**
 * `npm run bench:cells -- [--index I] [--rounds R] [--concurrency C]`: the throughput of
 * `geoshard cells --from-index` (readIndexCells) on a large index, against a baseline
 * measured in the same run, interleaved round by round (cells, source, cells, ...) so the
 * machine's load hits both alike:
 *
 *   cells   readIndexCells with the bundled sample's config on index I: doc values, the
 *           few points whose doc value straddles a cell edge from _source;
 *   source  the same counts read the plain way: the same per-shard point-in-time, `_doc`
 *           order, page size and shards in flight, every hit's location from `_source`.
 *
 * Per pass: documents/s (wall) and OpenSearch's CPU (`_nodes/stats/process`) in ms per
 * 1,000 documents, steadier than wall time when other work shares the machine. The index:
 * default `geoshard-bench-large` (2,192,974 documents; read only). Both passes must give
 * the same cells file, or the bench fails. Needs a node (OPENSEARCH_URL).
 */
import os from 'node:os';
import { readIndexCells } from '../src/ops/cells/cellsReader.ts';
import { liveClient } from '../src/testing/testkit.ts';
import { CellCounter } from '../src/core/index.ts';
import { SAMPLE_CONFIG, withOverrides } from '../src/opensearch/indexConfig.ts';
import type { OpenSearchClient } from '../src/cluster/client.ts';
import { pointOf } from '../src/opensearch/documentFields.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const INDEX = option('index') ?? 'geoshard-bench-large';
const ROUNDS = Number(option('rounds') ?? 2);
const CONCURRENCY = Number(option('concurrency') ?? 2);
const PAGE = 10_000;
const config = withOverrides(SAMPLE_CONFIG, { index: INDEX }, true);

async function nodeCpuMs(client: OpenSearchClient): Promise<number> {
  const s = await client.get<{ nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }>('/_nodes/stats/process');
  return Object.values(s.nodes).reduce((a, n) => a + n.process.cpu.total_in_millis, 0);
}

/** sourceScan counts the index's documents per cell reading each location from _source (the baseline). */
async function sourceScan(client: OpenSearchClient, shards: number): Promise<CellCounter> {
  const counter = new CellCounter();
  const queue = Array.from({ length: shards }, (_, i) => i);
  const one = async (shard: number) => {
    const pit = (await client.request<{ pit_id: string }>('POST', `/${INDEX}/_search/point_in_time`, { query: { keep_alive: '5m', preference: `_shards:${shard}` } })).body.pit_id;
    let after: unknown[] | undefined;
    for (;;) {
      const { body } = await client.request<{ hits: { hits: { _source: Record<string, unknown>; sort: unknown[] }[] } }>('POST', '/_search', {
        query: { filter_path: 'hits.hits._source,hits.hits.sort' },
        body: { size: PAGE, pit: { id: pit, keep_alive: '5m' }, sort: [{ _doc: 'asc' }], track_total_hits: false, _source: { includes: [config.location, config.join!.childLocation] }, ...(after ? { search_after: after } : {}) },
        timeoutMs: 120_000,
      });
      const hits = body.hits?.hits ?? [];
      for (const h of hits) {
        const p = pointOf(h._source[config.location]) ?? pointOf(h._source[config.join!.childLocation]);
        if (p) counter.add(p.lat, p.lng);
      }
      if (hits.length < PAGE) break;
      after = hits[hits.length - 1].sort;
    }
    await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit] }, okStatuses: [404] });
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (queue.length) await one(queue.shift()!);
  }));
  return counter;
}

const client = liveClient();
const shards = Number((await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${INDEX}/_settings/index.number_of_shards`))[INDEX].settings.index.number_of_shards);
console.log(`bench/cells: ${INDEX}, ${shards} shards, ${CONCURRENCY} in flight, page ${PAGE}, ${ROUNDS} round(s); ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (let round = 1; round <= ROUNDS; round++) {
  const texts: string[] = [];
  for (const pass of ['cells', 'source'] as const) {
    const cpu0 = await nodeCpuMs(client);
    const t0 = performance.now();
    const counter = pass === 'cells' ? (await readIndexCells(client, config, { concurrency: CONCURRENCY })).counter : await sourceScan(client, shards);
    const ms = performance.now() - t0;
    const cpu = (await nodeCpuMs(client)) - cpu0;
    texts.push(counter.csv());
    console.log(`round ${round} ${pass.padEnd(6)} ${counter.total.toLocaleString('en-US')} documents in ${(ms / 1000).toFixed(1)} s: ${Math.round((counter.total * 1000) / ms).toLocaleString('en-US')} documents/s, OpenSearch CPU ${((cpu * 1000) / counter.total).toFixed(1)} ms per 1,000 documents`);
  }
  if (texts[0] !== texts[1]) {
    console.error('bench/cells: the two passes wrote different cells files');
    process.exit(1);
  }
}
console.log(`load after: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
await client.close();

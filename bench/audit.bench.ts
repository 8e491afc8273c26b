/**
 * `npm run bench:audit -- [--index I] [--rounds R] [--page-size P] [--concurrency C]`:
 * the throughput of `geoshard audit` (auditIndex) on a large seeded index, against two
 * baselines measured in the same run, interleaved round by round (audit, plain, bare,
 * audit, ...) so the machine's load hits all three alike:
 *
 *   plain   a plain `_search` scan of the same documents, as a naive auditor would read
 *           them: the same per-shard point-in-time, `_doc` order and search_after, the same
 *           page size and shards in flight, every hit with its `_source`;
 *   bare    the same scan fetching nothing (`stored_fields: _none_`, no `_source`): the
 *           cost of paging alone, the floor any reader of every document pays.
 *
 * Per pass: documents/s (wall), and the CPU it cost, OpenSearch's (`_nodes/stats/process`,
 * every node) and this process's, in ms per 1,000 documents: steadier than wall time when
 * other work shares the machine. The index: default `geoshard-bench-large`, as
 * `npm run bench:live -- --restaurants 200000 --quick` seeds it (2,192,974 documents).
 * Needs a node (OPENSEARCH_URL). Results also go to test-results/bench-audit.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { auditIndex } from '../src/ops/audit/audit.ts';
import { ROOT, liveClient } from '../src/testing/testkit.ts';
import type { OpenSearchClient } from '../src/cluster/client.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const intOption = (name: string, dflt: number, min: number, max: number): number => {
  const raw = option(name);
  if (raw === undefined) return dflt;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    console.error(`bench/audit: --${name} ${JSON.stringify(raw)} is invalid: expected an integer in [${min}, ${max}]`);
    process.exit(2);
  }
  return Number(raw);
};
const INDEX = option('index') ?? 'geoshard-bench-large';
const ROUNDS = intOption('rounds', 2, 1, 20);
const PAGE = intOption('page-size', 10_000, 100, 10_000);
const CONCURRENCY = intOption('concurrency', 3, 1, 32);

/** scanAll reads every document of every shard as the audit does (a point-in-time per shard, C in flight), with `fetch` as the hits' contents; returns the documents read. */
async function scanAll(client: OpenSearchClient, shards: number, fetch: Record<string, unknown>): Promise<number> {
  const queue = Array.from({ length: shards }, (_, i) => i);
  let docs = 0;
  const one = async (shard: number) => {
    const pit = (await client.request<{ pit_id: string }>('POST', `/${INDEX}/_search/point_in_time`, { query: { keep_alive: '5m', preference: `_shards:${shard}` } })).body.pit_id;
    try {
      let after: unknown[] | undefined;
      for (;;) {
        const { body } = await client.request<{ hits: { hits: { sort: unknown[] }[] } }>('POST', '/_search', {
          body: { size: PAGE, pit: { id: pit, keep_alive: '5m' }, sort: [{ _doc: 'asc' }], track_total_hits: false, ...fetch, ...(after ? { search_after: after } : {}) },
          timeoutMs: 120_000,
        });
        const hits = body.hits.hits;
        docs += hits.length;
        if (hits.length < PAGE) break;
        after = hits[hits.length - 1].sort;
      }
    } finally {
      await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit] }, okStatuses: [404] });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, shards) }, async () => {
    for (let s = queue.shift(); s !== undefined; s = queue.shift()) await one(s);
  }));
  return docs;
}

/** OpenSearch's CPU time so far, summed over nodes (ms). */
async function nodeCpuMs(client: OpenSearchClient): Promise<number> {
  const s = await client.get<{ nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }>('/_nodes/stats/process');
  return Object.values(s.nodes).reduce((a, n) => a + n.process.cpu.total_in_millis, 0);
}

interface Pass {
  name: string;
  docs: number;
  ms: number;
  osCpuMs: number;
  clientCpuMs: number;
}

async function timed(client: OpenSearchClient, name: string, run: () => Promise<number>): Promise<Pass> {
  const cpu0 = await nodeCpuMs(client);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const docs = await run();
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const osCpuMs = (await nodeCpuMs(client)) - cpu0;
  const p = { name, docs, ms, osCpuMs, clientCpuMs: (c.user + c.system) / 1000 };
  console.log(`  ${name.padEnd(6)} ${docs.toLocaleString('en-US')} documents in ${(ms / 1000).toFixed(1)} s: ${Math.round((docs * 1000) / ms).toLocaleString('en-US')} documents/s; CPU per 1,000 documents: OpenSearch ${((osCpuMs * 1000) / docs).toFixed(1)} ms, client ${((p.clientCpuMs * 1000) / docs).toFixed(1)} ms (load ${os.loadavg()[0].toFixed(1)})`);
  return p;
}

const client = liveClient();
const count = await client.request<{ count: number }>('POST', `/${INDEX}/_count`, { body: { query: { match_all: {} } }, okStatuses: [404] });
if (count.status === 404) {
  console.error(`bench/audit: index "${INDEX}" does not exist: seed it with "npm run bench:live -- --restaurants 200000 --quick" (or pass --index)`);
  process.exit(1);
}
const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${INDEX}/_settings`);
const shards = Number(Object.values(settings)[0].settings.index.number_of_shards);
const version = (await client.get<{ version: { number: string; distribution?: string } }>('/')).version;
console.log(
  `bench/audit: index "${INDEX}" (${count.body.count.toLocaleString('en-US')} documents, ${shards} shards) on ${version.distribution ?? 'elasticsearch'} ${version.number} at ${client.url}; ` +
    `page ${PAGE}, ${CONCURRENCY} shards in flight, ${ROUNDS} round(s); ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
);

const audit = async () => {
  const r = await auditIndex(client, INDEX, { pageSize: PAGE, concurrency: CONCURRENCY });
  if (!r.clean) console.log(`  (the audit found ${r.tally.documents} documents with problems)`);
  return r.documents.total;
};
const plain = () => scanAll(client, shards, {});
const bare = () => scanAll(client, shards, { _source: false, stored_fields: '_none_' });

// Warm-up: one bare pass loads the shards' files into the page cache for all three alike.
console.log('warm-up (bare scan, not counted)');
await scanAll(client, shards, { _source: false, stored_fields: '_none_' });
const passes: Pass[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round}/${ROUNDS}`);
  // Alternate which goes first, so neither always follows the same neighbour.
  const order = round % 2 === 1 ? ([['audit', audit], ['plain', plain], ['bare', bare]] as const) : ([['bare', bare], ['plain', plain], ['audit', audit]] as const);
  for (const [name, run] of order) passes.push(await timed(client, name, run));
}

const sum = (name: string) => {
  const ps = passes.filter((p) => p.name === name);
  const docs = ps.reduce((a, p) => a + p.docs, 0);
  const ms = ps.reduce((a, p) => a + p.ms, 0);
  return {
    name,
    docsPerSecond: Math.round((docs * 1000) / ms),
    osCpuMsPer1000: Number(((ps.reduce((a, p) => a + p.osCpuMs, 0) * 1000) / docs).toFixed(2)),
    clientCpuMsPer1000: Number(((ps.reduce((a, p) => a + p.clientCpuMs, 0) * 1000) / docs).toFixed(2)),
  };
};
const rows = ['audit', 'plain', 'bare'].map(sum);
console.log('\n  pass    documents/s   OpenSearch CPU ms / 1,000 docs   client CPU ms / 1,000 docs');
for (const r of rows) console.log(`  ${r.name.padEnd(6)} ${r.docsPerSecond.toLocaleString('en-US').padStart(12)}   ${String(r.osCpuMsPer1000).padStart(30)}   ${String(r.clientCpuMsPer1000).padStart(26)}`);
const [a, p, b] = rows;
console.log(`\naudit / plain scan: ${(a.docsPerSecond / p.docsPerSecond).toFixed(2)}× the documents/s; audit / bare scan: ${(a.docsPerSecond / b.docsPerSecond).toFixed(2)}×`);
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(
  join(ROOT, 'test-results', 'bench-audit.json'),
  JSON.stringify({ index: INDEX, documents: count.body.count, shards, engine: version, pageSize: PAGE, concurrency: CONCURRENCY, rounds: ROUNDS, cores: os.cpus().length, loadAverage: os.loadavg(), rows, passes }, null, 2) + '\n',
);
await client.close();

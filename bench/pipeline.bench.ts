/**
 * `npx tsx bench/pipeline.bench.ts [--restaurants R] [--rounds K]`: indexing
 * throughput through the routing ingest pipeline vs client-side routing,
 * same documents, same run, same node.
 *
 *   pipeline: every document sent with NO routing (restaurants without their
 *             `cell` and `shard` fields, as a plain writer sends them); the
 *             index's default pipeline (geoshard-<index>) routes each one.
 *   client:   every document sent with its routing computed by the core
 *             (Router.route, as `geoshard seed` does) and `pipeline=_none`.
 *   noop:     as client, but through a pipeline of one processor that does
 *             nothing (`remove` of a field no document has): what any ingest
 *             pipeline costs (the source parsed to a map and written back),
 *             so the script's own share is pipeline - noop.
 *
 * The documents are the seed's sample (R restaurants, default 5,000, and the
 * first 10 dishes of each). Each round recreates the index (the bundled
 * boundaries under another name, `gs-pipe-bench`) with the seed's load
 * settings (refresh off, async translog), writes everything in bulk requests
 * of 2,000 documents, 2 in flight, and refreshes; rounds run
 * the three modes in rotating order after one warm-up round
 * of each (the order rotates). Prints the median docs/s of each and the ratios,
 * and the node's CPU time per 1,000 documents (`_nodes/stats/process`); results also go
 * to test-results/bench-pipeline.json. Needs a node with the script processor
 * (OPENSEARCH_URL; 2.x started by scripts/cluster.mjs has it). Deletes its
 * index and pipeline at the end.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Router } from '../src/core/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { docsOf, sampleOf, type Doc } from '../src/data/sample.ts';
import { installPipeline } from '../src/ops/routing/pipelineInstall.ts';
import { pipelineId } from '../src/opensearch/routingPipeline.ts';
import { derivedFile, ROOT } from '../src/testing/testkit.ts';
import { bulkErrors, type BulkResponse } from '../src/opensearch/bulk.ts';
import { indexBody } from '../src/opensearch/sampleIndex.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const RESTAURANTS = arg('restaurants', 5000);
const ROUNDS = arg('rounds', 3);
const INDEX = 'gs-pipe-bench';
const BATCH = 2000;
const CONCURRENCY = 2;

const client = new OpenSearchClient({ ...configFromEnv(), timeoutMs: 120_000 });
const file = derivedFile(INDEX);
const router = new Router(file);
const docs: Doc[] = sampleOf(RESTAURANTS).flatMap((r) => docsOf(r, router, 10));

/** The bulk bodies of one mode, built before timing. */
type Mode = 'pipeline' | 'client' | 'noop';
const NOOP = 'gs-pipe-bench-noop';

function bodies(mode: Mode): string[] {
  const out: string[] = [];
  for (let i = 0; i < docs.length; i += BATCH) {
    let b = '';
    for (const d of docs.slice(i, i + BATCH)) {
      if (mode !== 'pipeline') {
        b += JSON.stringify({ index: { _index: INDEX, _id: d.id, routing: d.routing } }) + '\n' + JSON.stringify(d.source) + '\n';
      } else {
        const { cell: _c, shard: _s, ...plain } = d.source;
        b += JSON.stringify({ index: { _index: INDEX, _id: d.id } }) + '\n' + JSON.stringify(plain) + '\n';
      }
    }
    out.push(b);
  }
  return out;
}

/** The node's process CPU time so far (ms, summed over nodes): steadier than throughput when other work shares the machine. */
async function nodeCpuMs(): Promise<number> {
  const st = await client.get<{ nodes: Record<string, { process: { cpu: { total_in_millis: number } } }> }>('/_nodes/stats/process');
  return Object.values(st.nodes).reduce((n, x) => n + x.process.cpu.total_in_millis, 0);
}

async function round(mode: Mode, bulks: string[]): Promise<{ rate: number; cpuMsPer1000: number }> {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('PUT', `/${INDEX}`, { body: indexBody(file) });
  await client.request('PUT', `/${INDEX}/_settings`, { body: { index: { refresh_interval: '-1', 'translog.durability': 'async' } } });
  await installPipeline(client, INDEX, file, null);
  await client.request('GET', '/_cluster/health', { query: { wait_for_status: 'yellow', index: INDEX } });
  let next = 0;
  const cpu0 = await nodeCpuMs();
  const t0 = performance.now();
  const worker = async () => {
    for (let k = next++; k < bulks.length; k = next++) {
      const res = await client.request<BulkResponse>('POST', '/_bulk', { body: bulks[k], query: mode === 'client' ? { pipeline: '_none' } : mode === 'noop' ? { pipeline: NOOP } : {} });
      const errs = bulkErrors(res.body);
      if (errs.length > 0) throw new Error(`${mode}: ${errs.length} documents refused, e.g. ${JSON.stringify(errs[0])}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await client.request('POST', `/${INDEX}/_refresh`);
  const s = (performance.now() - t0) / 1000;
  const cpu = (await nodeCpuMs()) - cpu0;
  const count = (await client.get<{ count: number }>(`/${INDEX}/_count`)).count;
  if (count !== docs.length) throw new Error(`${mode}: the index holds ${count} documents, ${docs.length} were written`);
  return { rate: docs.length / s, cpuMsPer1000: (cpu / docs.length) * 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function mainBench() {
  const root = await client.get<{ version: { number: string; distribution?: string } }>('/');
  await client.request('PUT', `/_ingest/pipeline/${NOOP}`, { body: { description: 'geoshard bench: does nothing', processors: [{ remove: { field: '__geoshard_bench_none', ignore_missing: true } }] } });
  const bulks = { pipeline: bodies('pipeline'), client: bodies('client'), noop: bodies('noop') };
  console.log(`${root.version.distribution ?? 'elasticsearch'} ${root.version.number} at ${client.url}: ${docs.length.toLocaleString('en-US')} documents (${RESTAURANTS} restaurants + dishes), bulk ${BATCH}, ${CONCURRENCY} in flight`);
  await round('pipeline', bulks.pipeline);
  await round('client', bulks.client);
  await round('noop', bulks.noop);
  const rates: Record<Mode, number[]> = { pipeline: [], client: [], noop: [] };
  const cpus: Record<Mode, number[]> = { pipeline: [], client: [], noop: [] };
  const orders: Mode[][] = [['pipeline', 'client', 'noop'], ['client', 'noop', 'pipeline'], ['noop', 'pipeline', 'client']];
  for (let k = 0; k < ROUNDS; k++) {
    const order = orders[k % orders.length];
    for (const mode of order) {
      const r = await round(mode, bulks[mode]);
      rates[mode].push(r.rate);
      cpus[mode].push(r.cpuMsPer1000);
      console.log(`  round ${k + 1} ${mode.padEnd(8)} ${Math.round(r.rate).toLocaleString('en-US').padStart(8)} docs/s, node CPU ${r.cpuMsPer1000.toFixed(0).padStart(4)} ms per 1,000 documents`);
    }
  }
  const p = median(rates.pipeline);
  const c = median(rates.client);
  const n = median(rates.noop);
  const f = (x: number) => Math.round(x).toLocaleString('en-US');
  const cp = median(cpus.pipeline);
  const cc = median(cpus.client);
  const cn = median(cpus.noop);
  console.log(`median node CPU per 1,000 documents: pipeline ${cp.toFixed(0)} ms, client ${cc.toFixed(0)} ms, no-op pipeline ${cn.toFixed(0)} ms: pipeline / client = ${(cp / cc).toFixed(2)}`);
  console.log(`median: pipeline (no routing) ${f(p)} docs/s, client-side routing ${f(c)} docs/s, client-side routing through a no-op pipeline ${f(n)} docs/s: pipeline / client = ${(p / c).toFixed(2)}, no-op / client = ${(n / c).toFixed(2)}`);
  mkdirSync(join(ROOT, 'test-results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'test-results', 'bench-pipeline.json'),
    JSON.stringify({ engine: root.version, docs: docs.length, batch: BATCH, concurrency: CONCURRENCY, rounds: rates, cpuMsPer1000: cpus, median: { pipeline: p, client: c, noop: n, ratio: p / c, noopRatio: n / c, cpuMsPer1000: { pipeline: cp, client: cc, noop: cn } } }, null, 2) + '\n',
  );
}

try {
  await mainBench();
} finally {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] }).catch(() => {});
  await client.request('DELETE', `/_ingest/pipeline/${pipelineId(INDEX)}`, { okStatuses: [404] }).catch(() => {});
  await client.request('DELETE', `/_ingest/pipeline/${NOOP}`, { okStatuses: [404] }).catch(() => {});
  await client.close();
}

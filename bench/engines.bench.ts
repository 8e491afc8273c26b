/**
 * `npm run bench:engines -- [--rounds R] [--copies K]`: the client path against the cluster
 * path (--engine client|cluster) of `geoshard cells --from-index` and `geoshard audit`, on one
 * node, interleaved round by round so the machine's load hits both alike, on two indexes:
 *
 *   dishes            the bundled sample as `npx geoshard seed` writes it (read only; seed it
 *                     first): 20,000 restaurants and their dishes, joined, 15 shards;
 *   places            `npx geoshard seed --sample places` (read only; seed it first): 135,233
 *                     gazetteer places, hash-sharded (5 shards), about 1.5 documents per
 *                     level-10 cell: the worst case for the cluster path of cells, whose
 *                     aggregation then returns nearly a bucket per document;
 *   gs-engines-flat   made here if missing: K copies (default 4) of every gazetteer place,
 *                     each jittered up to ~1 km, as small flat documents (a geo_point and a
 *                     population), routed by the bundled boundary file's owners with geoshard
 *                     _meta (15 shards), the shape `geoshard reindex` leaves.
 *
 * Per pass: documents/s (wall), the node's CPU (ms per 1,000 documents, /proc or node
 * stats: bench/cpu.ts), this process's CPU (ms per 1,000 documents), the documents the
 * node sent back. Both paths must give the same answer (the cells file; the problems), or
 * the bench fails. Needs a node (OPENSEARCH_URL).
 */
import os from 'node:os';
import { readIndexCells } from '../src/ops/cells/cellsReader.ts';
import { readIndexCellsInCluster } from '../src/ops/cells/cellsEngine.ts';
import { auditIndex, type AuditEngine } from '../src/ops/audit/audit.ts';
import { derivedFile, liveClient } from '../src/testing/testkit.ts';
import { indexMeta, indexSettings } from '../src/opensearch/indexSpec.ts';
import { Router } from '../src/core/index.ts';
import { mulberry32 } from '../src/core/prng.ts';
import { SAMPLE_CONFIG, type IndexConfig } from '../src/opensearch/indexConfig.ts';
import { loadGazetteer } from '../src/data/places.ts';
import { cpuReader } from './cpu.ts';
import { PLACES_CONFIG } from '../src/ops/seed/places.ts';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROUNDS = Number(option('rounds') ?? 2);
const COPIES = Number(option('copies') ?? 4);
const FLAT = 'gs-engines-flat';
const client = liveClient();

async function ensureFlat(): Promise<void> {
  const want = loadGazetteer().length * COPIES;
  const has = await client.request<{ count: number }>('GET', `/${FLAT}/_count`, { okStatuses: [404] });
  if (has.status === 200 && has.body.count === want) return;
  await client.request('DELETE', `/${FLAT}`, { okStatuses: [404] });
  const file = derivedFile(FLAT);
  await client.request('PUT', `/${FLAT}`, {
    body: { settings: { index: indexSettings(file, 0) }, mappings: { _meta: indexMeta(file), properties: { geo: { type: 'geo_point' }, population: { type: 'long' } } } },
  });
  const router = new Router(file);
  const rand = mulberry32(77);
  const places = loadGazetteer();
  let lines: string[] = [];
  let n = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    const { body } = await client.request<{ errors: boolean }>('POST', `/${FLAT}/_bulk`, { body: lines.join('\n') + '\n', timeoutMs: 300_000 });
    if (body.errors) throw new Error('bulk into the flat index failed');
    lines = [];
  };
  for (let k = 0; k < COPIES; k++) {
    for (const c of places) {
      const lat = Math.max(-89.99, Math.min(89.99, c.loc.coordinates[1] + (rand() - 0.5) * 0.02));
      const lng = Math.max(-180, Math.min(180, c.loc.coordinates[0] + (rand() - 0.5) * 0.02));
      lines.push(JSON.stringify({ index: { _id: `${c.cityId}-${k}`, routing: router.readShard(lat, lng).name } }), JSON.stringify({ geo: { lat, lon: lng }, population: c.population }));
      if (++n % 5000 === 0) await flush();
    }
  }
  await flush();
  await client.request('POST', `/${FLAT}/_refresh`);
  await client.request('POST', `/${FLAT}/_forcemerge`, { query: { max_num_segments: '1' }, timeoutMs: 600_000 });
}

interface Pass {
  name: string;
  docs: number;
  returned: number;
  ms: number;
  nodeCpuMs: number;
  clientCpuMs: number;
  answer: string;
}

async function main() {
  await ensureFlat();
  const cpu = await cpuReader(client);
  const flatConfig: IndexConfig = { index: FLAT, location: 'geo', weight: 'docs', name: null, join: null, facets: [] };
  const sample: IndexConfig = { ...SAMPLE_CONFIG, index: 'dishes' };
  const places: IndexConfig = { ...PLACES_CONFIG };
  const audit = (index: string, engine: AuditEngine, flat?: { location: string }) => async () => {
    const r = await auditIndex(client, index, { engine, flat });
    return { docs: r.documents.total, returned: r.returned, answer: JSON.stringify([r.tally.counts, r.tally.problems.map((p) => `${p.id} ${p.problem}`).sort()]) };
  };
  const cells = (config: IndexConfig, engine: AuditEngine) => async () => {
    const r = engine === 'cluster' ? await readIndexCellsInCluster(client, config) : await readIndexCells(client, config);
    return { docs: r.counter.total, returned: engine === 'cluster' ? r.counter.cells().length : r.counter.total, answer: r.counter.csv() };
  };
  const jobs: [string, () => Promise<{ docs: number; returned: number; answer: string }>][] = [
    ['cells dishes client', cells(sample, 'client')],
    ['cells dishes cluster', cells(sample, 'cluster')],
    ['cells flat client', cells(flatConfig, 'client')],
    ['cells flat cluster', cells(flatConfig, 'cluster')],
    ['cells places client', cells(places, 'client')],
    ['cells places cluster', cells(places, 'cluster')],
    ['audit dishes client', audit('dishes', 'client')],
    ['audit dishes cluster', audit('dishes', 'cluster')],
    ['audit flat client', audit(FLAT, 'client', { location: 'geo' })],
    ['audit flat cluster', audit(FLAT, 'cluster', { location: 'geo' })],
  ];
  const passes: Pass[] = [];
  console.log(`engines bench: ${new Date().toISOString()}, ${os.cpus().length} × ${os.cpus()[0]?.model}, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}, node CPU from ${cpu.source}`);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, job] of jobs) {
      const c0 = await cpu.read();
      const u0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await job();
      const ms = performance.now() - t0;
      const u = process.cpuUsage(u0);
      const nodeCpuMs = (await cpu.read()) - c0;
      passes.push({ name, docs: r.docs, returned: r.returned, ms, nodeCpuMs, clientCpuMs: (u.user + u.system) / 1000, answer: r.answer });
      console.log(
        `  round ${round + 1} ${name.padEnd(22)} ${r.docs.toLocaleString('en-US').padStart(9)} docs ${((r.docs * 1000) / ms).toFixed(0).padStart(7)} docs/s  node CPU ${((nodeCpuMs * 1000) / r.docs).toFixed(1).padStart(6)} ms/1k docs  client CPU ${(((u.user + u.system) / 1000 / r.docs) * 1000).toFixed(1).padStart(6)} ms/1k docs  returned ${r.returned.toLocaleString('en-US')}`,
      );
    }
  }
  // Both paths give the same answer.
  for (const [name] of jobs.filter(([n]) => n.endsWith('client'))) {
    const twin = name.replace(/client$/, 'cluster');
    for (const p of passes.filter((q) => q.name === twin)) {
      if (p.answer !== passes.find((q) => q.name === name)!.answer) throw new Error(`${twin} differs from ${name}`);
    }
  }
  console.log(`\nmedians (${ROUNDS} rounds), load at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}:`);
  for (const [name] of jobs) {
    const ps = passes.filter((p) => p.name === name);
    const med = (f: (p: Pass) => number) => {
      const v = ps.map(f).sort((a, b) => a - b);
      return v[Math.floor((v.length - 1) / 2)];
    };
    console.log(`  ${name.padEnd(22)} ${med((p) => (p.docs * 1000) / p.ms).toFixed(0).padStart(7)} docs/s  node CPU ${med((p) => (p.nodeCpuMs * 1000) / p.docs).toFixed(1).padStart(6)} ms/1k  client CPU ${med((p) => (p.clientCpuMs * 1000) / p.docs).toFixed(1).padStart(6)} ms/1k`);
  }
  await client.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

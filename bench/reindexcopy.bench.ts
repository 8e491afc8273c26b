/**
 * `npx tsx bench/reindexcopy.bench.ts [--from places] [--field geo] [--rounds 2] [--old PATH]`:
 * the copy phase of `geoshard reindex` against plain `_bulk` of the same documents, in the same
 * run, on an index the bench only reads (default `places`, 135,233 documents, flat, field geo).
 * Per round, one after the other:
 *
 *   copy      runReindex (src/server/reindex.ts) from SRC into rf-copy-new (the bundled
 *             boundaries: 8 shards), to the end of its verify (stopped there by the verify
 *             pause point: no catch-up, no write block, no alias: SRC is never written); its
 *             documents/s is the copy's own figure (the last progress line);
 *   old copy  the same from `--old` (a reindex.ts that copies through DEST's pipeline, e.g.
 *             /work/main/src/server/reindex.ts before this change), when given, into rf-copy-old;
 *   plain     SRC's documents, read into memory first, sent with plain `_bulk` (no routing, no
 *             pipeline, 5,000 per request, 3 in flight: the copy's batch and concurrency) into
 *             rf-copy-plain (SRC's mapping, the same shard count, the same load settings).
 *
 * The ratio copy / plain is the figure (the copy also reads SRC; plain does not). Load averages
 * before and after each step are printed beside it. Needs OPENSEARCH_URL. Writes only rf-copy-*.
 */
import os from 'node:os';
import { derivedFile, liveClient } from '../src/server/testkit.ts';
import { LOAD_SETTINGS, bulkErrors } from '../src/server/seeder.ts';
import * as current from '../src/server/reindex.ts';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const SRC = arg('from', 'places');
const FIELD = arg('field', 'geo');
const ROUNDS = Number(arg('rounds', '2'));
const OLD = arg('old', '');
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`--rounds ${arg('rounds', '')} is invalid: expected a positive integer`);
const client = liveClient();
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');
const enc = encodeURIComponent;

class Stop extends Error {}

/** copyRate runs a reindex module's runReindex into `dest` to the end of its verify; its copy's documents/s and the verify's verdict. */
async function copyRate(mod: typeof current, dest: string): Promise<{ rate: number; verify: string; lines: string[] }> {
  await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  const lines: string[] = [];
  try {
    await mod.runReindex({
      client, from: SRC, to: dest, alias: `${dest}-alias`, file: derivedFile(dest), location: FIELD, childLocation: null, renameOnFinalize: false,
      progress: (l) => lines.push(l),
      pause: async (p) => { if (p === 'verifying') throw new Stop(); },
    });
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  } finally {
    await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  }
  const last = [...lines].reverse().find((l) => /^copy [\d,]+\/[\d,]+ documents \(100%\)/.test(l));
  const rate = Number(/([\d,]+) documents\/s/.exec(last ?? '')?.[1].replace(/,/g, ''));
  const verify = [...lines].reverse().find((l) => /^verify: /.test(l) && !/checked|documents on/.test(l)) ?? '(no verify line)';
  return { rate, verify, lines };
}

/** Every document of SRC, read once (ids and sources). */
async function readAll(): Promise<{ id: string; source: unknown }[]> {
  const out: { id: string; source: unknown }[] = [];
  let after: unknown[] | undefined;
  const pit = (await client.request<{ pit_id: string }>('POST', `/${SRC}/_search/point_in_time`, { query: { keep_alive: '5m' } })).body.pit_id;
  for (;;) {
    const { body } = await client.request<{ hits: { hits: { _id: string; _source: unknown; sort: unknown[] }[] } }>('POST', '/_search', {
      body: { size: 10_000, pit: { id: pit, keep_alive: '5m' }, sort: [{ _shard_doc: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
      timeoutMs: 120_000,
    });
    const hits = body.hits.hits;
    for (const h of hits) out.push({ id: h._id, source: h._source });
    if (hits.length < 10_000) break;
    after = hits[hits.length - 1].sort;
  }
  await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit] }, okStatuses: [404] });
  return out;
}

/** plainRate sends the documents with plain `_bulk` (5,000 a request, 3 in flight) into an index like DEST without routing or pipeline. */
async function plainRate(docs: { id: string; source: unknown }[], shards: number): Promise<number> {
  const dest = 'rf-copy-plain';
  await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  const mapping = await client.get<Record<string, { mappings: Record<string, unknown> }>>(`/${SRC}/_mapping`);
  const { _meta: _m, _routing: _r, ...mappings } = Object.values(mapping)[0].mappings;
  await client.admin('PUT', `/${dest}`, { body: { settings: { index: { number_of_shards: shards, number_of_replicas: 0, ...LOAD_SETTINGS } }, mappings } });
  try {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 3 }, async () => {
      while (next < docs.length) {
        const batch = docs.slice(next, (next += 5000));
        let body = '';
        for (const d of batch) body += JSON.stringify({ index: { _index: dest, _id: d.id } }) + '\n' + JSON.stringify(d.source) + '\n';
        const res = await client.request<Parameters<typeof bulkErrors>[0]>('POST', '/_bulk', { body, query: { filter_path: 'errors,items.*._id,items.*.status,items.*.error' }, timeoutMs: 300_000 });
        const errs = bulkErrors(res.body);
        if (errs.length) throw new Error(`plain _bulk: ${errs.length} failed: ${JSON.stringify(errs.slice(0, 3))}`);
      }
    }));
    return docs.length / ((performance.now() - t0) / 1000);
  } finally {
    await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  }
}

const old = OLD ? ((await import(OLD)) as typeof current) : null;
const shards = derivedFile('rf-copy-new').numberOfShards;
const docs = await readAll();
console.log(`${SRC}: ${docs.length.toLocaleString('en-US')} documents read; DEST ${shards} shards; ${os.cpus().length} cores; load ${load()} at ${new Date().toISOString()}`);
const rows: Record<string, unknown>[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const l0 = load();
  const c = await copyRate(current, 'rf-copy-new');
  const l1 = load();
  const o = old ? await copyRate(old, 'rf-copy-old') : null;
  const l2 = load();
  const p = await plainRate(docs, shards);
  const l3 = load();
  const row = { round, copy: Math.round(c.rate), oldCopy: o ? Math.round(o.rate) : null, plain: Math.round(p), ratio: +(c.rate / p).toFixed(2), oldRatio: o ? +(o.rate / p).toFixed(2) : null, verify: c.verify, oldVerify: o?.verify ?? null, load: [l0, l1, l2, l3] };
  rows.push(row);
  console.log(JSON.stringify(row));
  if (round === 1) console.log(c.lines.filter((l) => /^verify: checked/.test(l)).slice(-3).join('\n'));
}
await client.close();

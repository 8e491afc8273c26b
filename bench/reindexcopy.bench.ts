/**
 * `npx tsx bench/reindexcopy.bench.ts [--from places] [--field geo] [--child F] [--rounds 2] [--old PATH] [--plain 0]`:
 * the copy phase of `geoshard reindex` against plain `_bulk` of the same documents, in the same
 * run, on an index the bench only reads (default `places`, 135,233 documents, flat, field geo).
 * Per round, one after the other:
 *
 *   copy      runReindex (src/ops/reindex/reindex.ts) from SRC into rf-copy-new (the bundled
 *             boundaries: 15 shards), to the end of its verify (stopped there by the verify
 *             pause point: no catch-up, no write block, no alias: SRC is never written); its
 *             documents/s is the copy's own figure (the last progress line);
 *   old copy  the same from `--old` (a reindex.ts that copies through DEST's pipeline, e.g.
 *             src/ops/reindex/reindex.ts of a checkout before commit a429dae), when given, into rf-copy-old;
 *   plain     SRC's documents, read into memory first, sent with plain `_bulk` (no routing, no
 *             pipeline, 5,000 per request, 3 in flight: the copy's batch and concurrency) into
 *             rf-copy-plain (SRC's mapping, the same shard count, the same load settings);
 *             `--plain 0` leaves it out (it holds every document in memory: not for 2.19 M);
 *   engine    the engine's own `_reindex` of SRC (slices auto, `pipeline: _none`, no routing) into
 *             rf-copy-engine, alike: the same read and write as the copy, without a client.
 *
 * The ratios copy / plain and copy / engine are the figures (the copy also reads SRC; plain does not). Load averages
 * before and after each step are printed beside it. Needs OPENSEARCH_URL. Writes only rf-copy-*.
 */
import os from 'node:os';
import { derivedFile, liveClient } from '../src/testing/testkit.ts';
import * as current from '../src/ops/reindex/reindex.ts';
import { LOAD_SETTINGS, bulkErrors, BULK_ERRORS_FILTER, type BulkResponse } from '../src/opensearch/bulk.ts';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string) => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : dflt);
const SRC = arg('from', 'places');
const FIELD = arg('field', 'geo');
const ROUNDS = Number(arg('rounds', '2'));
const OLD = arg('old', '');
const CHILD = arg('child', '') || null;
const PLAIN = arg('plain', '1') !== '0';
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
      client, from: SRC, to: dest, alias: `${dest}-alias`, file: derivedFile(dest), location: FIELD, childLocation: CHILD, renameOnFinalize: false,
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

/** Every document of SRC, read once (ids and sources: a scroll). */
async function readAll(): Promise<{ id: string; source: unknown }[]> {
  const out: { id: string; source: unknown }[] = [];
  type Page = { _scroll_id: string; hits: { hits: { _id: string; _source: unknown }[] } };
  let page = (await client.request<Page>('POST', `/${enc(SRC)}/_search`, { query: { scroll: '2m' }, body: { size: 10_000, sort: ['_doc'] }, timeoutMs: 120_000 })).body;
  while (page.hits.hits.length > 0) {
    for (const h of page.hits.hits) out.push({ id: h._id, source: h._source });
    page = (await client.request<Page>('POST', '/_search/scroll', { body: { scroll: '2m', scroll_id: page._scroll_id }, timeoutMs: 120_000 })).body;
  }
  await client.request('DELETE', '/_search/scroll', { body: { scroll_id: [page._scroll_id] }, okStatuses: [404] });
  return out;
}

/** createLike (re)creates `dest` with SRC's mapping (no `_meta`, routing not required), `shards` primaries, no replica and the load settings: the index both baselines write. */
async function createLike(dest: string, shards: number): Promise<void> {
  await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  const mapping = await client.get<Record<string, { mappings: Record<string, unknown> }>>(`/${SRC}/_mapping`);
  const { _meta: _m, _routing: _r, ...mappings } = Object.values(mapping)[0].mappings;
  await client.admin('PUT', `/${dest}`, { body: { settings: { index: { number_of_shards: shards, number_of_replicas: 0, ...LOAD_SETTINGS } }, mappings } });
}

/** engineRate copies SRC with the engine's own `_reindex` (one slice per SRC shard, no pipeline, no routing) into an index like plainRate's: the same read and write, no client. */
async function engineRate(shards: number): Promise<number> {
  const dest = 'rf-copy-engine';
  await createLike(dest, shards);
  try {
    const t0 = performance.now();
    const res = await client.request<{ created: number; failures: unknown[] }>('POST', '/_reindex', { query: { slices: 'auto', wait_for_completion: 'true', refresh: 'false' }, body: { source: { index: SRC, size: 5000 }, dest: { index: dest, pipeline: '_none' } }, timeoutMs: 1_800_000, okStatuses: [405] });
    // A node without the reindex module (the dev node's distribution) answers 405: no figure.
    if (res.status === 405) return NaN;
    const body = res.body;
    if (body.failures?.length) throw new Error(`_reindex: ${JSON.stringify(body.failures.slice(0, 3))}`);
    return body.created / ((performance.now() - t0) / 1000);
  } finally {
    await client.request('DELETE', `/${dest}`, { okStatuses: [404] });
  }
}

/** plainRate sends the documents with plain `_bulk` (5,000 a request, 3 in flight) into an index like DEST without routing or pipeline. */
async function plainRate(docs: { id: string; source: unknown }[], shards: number): Promise<number> {
  const dest = 'rf-copy-plain';
  await createLike(dest, shards);
  try {
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 3 }, async () => {
      while (next < docs.length) {
        const batch = docs.slice(next, (next += 5000));
        let body = '';
        for (const d of batch) body += JSON.stringify({ index: { _index: dest, _id: d.id } }) + '\n' + JSON.stringify(d.source) + '\n';
        const res = await client.request<BulkResponse>('POST', '/_bulk', { body, query: { filter_path: BULK_ERRORS_FILTER }, timeoutMs: 300_000 });
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
const docs = PLAIN ? await readAll() : [];
console.log(`${SRC}: ${docs.length.toLocaleString('en-US')} documents read; DEST ${shards} shards; ${os.cpus().length} cores; load ${load()} at ${new Date().toISOString()}`);
const rows: Record<string, unknown>[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const l0 = load();
  const c = await copyRate(current, 'rf-copy-new');
  const l1 = load();
  const o = old ? await copyRate(old, 'rf-copy-old') : null;
  const l2 = load();
  const p = PLAIN ? await plainRate(docs, shards) : NaN;
  const l3 = load();
  const e = await engineRate(shards);
  const l4 = load();
  const r = (x: number, y: number) => +(x / y).toFixed(2);
  const row = { round, copy: Math.round(c.rate), oldCopy: o ? Math.round(o.rate) : null, plain: Math.round(p), engineReindex: Math.round(e), ratioPlain: r(c.rate, p), ratioEngine: r(c.rate, e), oldRatioPlain: o ? r(o.rate, p) : null, oldRatioEngine: o ? r(o.rate, e) : null, verify: c.verify, oldVerify: o?.verify ?? null, load: [l0, l1, l2, l3, l4] };
  rows.push(row);
  console.log(JSON.stringify(row));
  if (round === 1) console.log(c.lines.filter((l) => /^verify: checked/.test(l)).slice(-3).join('\n'));
}
await client.close();

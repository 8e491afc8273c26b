/**
 * GeoIndexer's retries and its following of `_meta`, against a scripted
 * transport (no node): which bulk items it sends again, when it re-reads
 * `_meta`, and what it reports. The routing itself is checked on the real
 * node (src/server/writes.live.test.ts); here the expected owners come from
 * the core's Router on the same file.
 */
import { describe, it, expect } from 'vitest';
import type { Client } from '@opensearch-project/opensearch';
import { Router, cellOrdinal, ordinalAt, parseToken } from '../core/index.ts';
import type { MigrationState } from '../core/migrationState.ts';
import { GeoIndexer, type BulkDoc } from './index.ts';
import { derivedFile } from '../testing/testkit.ts';
import { indexMeta } from './indexSpec.ts';
import { movedCandidate } from '../testing/migrationFixture.ts';
import { sampleOf } from '../data/sample.ts';
import type { IndexMeta } from './meta.ts';

const file = derivedFile('gs-writer-unit');
const router = new Router(file);

interface Sent {
  action: string;
  id: string;
  routing: string;
}

/** A transport that answers `_mapping` with `meta` and each `_bulk` with `answer(ops, call)`. */
function fakeClient(state: { meta: IndexMeta; mappingReads: number }, answer: (ops: Sent[], call: number) => { status: number; error?: { type: string; reason: string } }[] | Error) {
  const bulks: Sent[][] = [];
  const queries: Record<string, string>[] = [];
  const transport = {
    async request(params: { method: string; path: string; bulkBody?: string | Buffer; querystring?: Record<string, string> }) {
      if (params.path.endsWith('/_mapping')) {
        state.mappingReads++;
        return { statusCode: 200, body: { [file.index]: { mappings: { _meta: state.meta } } } };
      }
      if (params.path === '/_bulk') {
        const lines = String(params.bulkBody).trim().split('\n').map((l) => JSON.parse(l));
        const ops: Sent[] = [];
        for (let i = 0; i < lines.length; i++) {
          const [action, v] = Object.entries(lines[i])[0] as [string, { _id: string; routing: string }];
          ops.push({ action, id: v._id, routing: v.routing });
          if (action === 'index') i++;
        }
        bulks.push(ops);
        queries.push(params.querystring ?? {});
        const a = answer(ops, bulks.length);
        if (a instanceof Error) throw a;
        return { statusCode: 200, body: { errors: a.some((x) => x.status >= 300), items: a.map((x, i) => ({ [ops[i].action]: { _id: ops[i].id, status: x.status, result: x.status < 300 ? 'created' : undefined, error: x.error } })) } };
      }
      throw new Error(`unexpected request ${params.method} ${params.path}`);
    },
  };
  return { client: { transport } as unknown as Client, bulks, queries };
}

const docs = (n: number): BulkDoc[] =>
  sampleOf(n).map((r) => ({ id: r.id, lat: r.lat, lng: r.lng, source: { join: 'restaurant', id: r.id, name: r.name, location: { lat: r.lat, lon: r.lng } } }));

const ok = (ops: Sent[]) => ops.map(() => ({ status: 201 }));
const BLOCK = { type: 'cluster_block_exception', reason: 'index [x] blocked by: [FORBIDDEN/8/index write (api)];' };
const REJECTED = { type: 'es_rejected_execution_exception', reason: 'rejected execution of coordinating operation' };

describe('GeoIndexer.bulk', () => {
  it('routes each document to the shard the core names, with its name as routing', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client, bulks } = fakeClient(state, ok);
    const input = docs(50);
    const report = await new GeoIndexer(client, file.index).bulk(input, { batchDocs: 20 });
    expect(report).toMatchObject({ docs: 50, written: 50, failed: 0 });
    expect(bulks.map((b) => b.length)).toEqual([20, 20, 10]);
    expect(bulks.flat().map((o) => o.routing)).toEqual(input.map((d) => router.route(d.lat, d.lng).name));
  });

  it('asks the engine for each item\'s status, result and error only, and sends the pipeline asked for', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client, queries } = fakeClient(state, ok);
    await new GeoIndexer(client, file.index).bulk(docs(3), { batchDocs: 2, pipeline: '_none' });
    expect(queries).toEqual([
      { filter_path: 'errors,items.*.status,items.*.result,items.*.error', pipeline: '_none' },
      { filter_path: 'errors,items.*.status,items.*.result,items.*.error', pipeline: '_none' },
    ]);
    await new GeoIndexer(client, file.index).bulk(docs(1), { refresh: true });
    expect(queries[2]).toEqual({ filter_path: 'errors,items.*.status,items.*.result,items.*.error', refresh: 'wait_for' });
  });

  it('sends again only the items refused with 429 or a write block, after a backoff, and reports them written', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client, bulks } = fakeClient(state, (ops, call) => ops.map((_, i) => (call === 1 && i === 1 ? { status: 429, error: REJECTED } : call === 1 && i === 3 ? { status: 403, error: BLOCK } : { status: 201 })));
    const waits: number[] = [];
    const report = await new GeoIndexer(client, file.index, { sleep: async (ms) => void waits.push(ms) }).bulk(docs(5));
    expect(report).toMatchObject({ written: 5, failed: 0 });
    expect(bulks[1].map((o) => o.id)).toEqual([docs(5)[1].id, docs(5)[3].id]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(50);
    expect(report.results.map((r) => r.attempts)).toEqual([1, 2, 1, 2, 1]);
  });

  it('retries a whole request refused with 429', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const busy = Object.assign(new Error('Response Error'), { meta: { statusCode: 429, body: { error: { type: 'es_rejected_execution_exception', reason: 'busy' } } } });
    const { client, bulks } = fakeClient(state, (ops, call) => (call === 1 ? busy : ok(ops)));
    const report = await new GeoIndexer(client, file.index, { sleep: async () => {} }).bulk(docs(3));
    expect(report.written).toBe(3);
    expect(bulks).toHaveLength(2);
  });

  it('does not retry other refusals, and reports each failed document with its routing, status and error', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const bad = { type: 'mapper_parsing_exception', reason: 'failed to parse field [location]' };
    const { client, bulks } = fakeClient(state, (ops) => ops.map((_, i) => (i === 0 ? { status: 400, error: bad } : { status: 201 })));
    const input = docs(2);
    const report = await new GeoIndexer(client, file.index, { sleep: async () => {} }).bulk(input, { keep: 'failures' });
    expect(bulks).toHaveLength(1);
    expect(report).toMatchObject({ written: 1, failed: 1 });
    expect(report.results).toEqual([
      { id: input[0].id, kind: 'restaurant', action: 'index', ok: false, attempts: 1, epoch: null, items: [{ routing: router.route(input[0].lat, input[0].lng).name, status: 400, result: null, error: bad }] },
    ]);
  });

  it('gives up after its retry budget, reporting the documents not written with their 429', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client, bulks } = fakeClient(state, (ops) => ops.map(() => ({ status: 429, error: REJECTED })));
    let clock = 0;
    const indexer = new GeoIndexer(client, file.index, { retry: { budgetMs: 0 }, sleep: async (ms) => void (clock += ms) });
    const report = await indexer.bulk(docs(2));
    expect(report).toMatchObject({ written: 0, failed: 2 });
    expect(bulks).toHaveLength(1);
    expect(report.results.every((r) => r.items[0].status === 429)).toBe(true);
  });
});

describe('GeoIndexer follows the index _meta', () => {
  const restaurants = 300;
  const candidate = movedCandidate(file, restaurants, [5], 3);
  const start = candidate.boundaries[5];
  const end = file.boundaries[5];
  const inRange = sampleOf(restaurants).find((r) => {
    const o = ordinalAt(r.lat, r.lng);
    return o >= cellOrdinal(parseToken(start)) && o < cellOrdinal(parseToken(end));
  })!;
  const from = router.route(inRange.lat, inRange.lng);
  const to = new Router(candidate).route(inRange.lat, inRange.lng);
  const migration: MigrationState = {
    epoch: 4,
    base: file.hash,
    target: candidate.hash,
    targetFile: candidate,
    startedAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:00.000Z',
    moves: [{ start, end, from: from.name, to: to.name, step: 'copying', copied: { restaurants: 0, dishes: 0 }, verified: null }],
  };
  const doc: BulkDoc = { id: inRange.id, lat: inRange.lat, lng: inRange.lng, source: { join: 'restaurant', id: inRange.id } };

  it('reuses a read of _meta within its TTL, and reads it again after', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client } = fakeClient(state, ok);
    const indexer = new GeoIndexer(client, file.index, { metaTtlMs: 60_000 });
    await indexer.bulk([doc]);
    await indexer.bulk([doc]);
    expect(state.mappingReads).toBe(1);
    const eager = new GeoIndexer(client, file.index, { metaTtlMs: 0 });
    await eager.bulk([doc]);
    await eager.bulk([doc]);
    expect(state.mappingReads).toBe(3);
  });

  it('writes to both owners, each with its own routing, while the range is copying', async () => {
    const state = { meta: { ...indexMeta(file), migration } as IndexMeta, mappingReads: 0 };
    const { client, bulks } = fakeClient(state, ok);
    const report = await new GeoIndexer(client, file.index).bulk([doc]);
    expect(bulks[0].map((o) => o.routing)).toEqual([from.name, to.name]);
    expect(report.results[0]).toMatchObject({ ok: true, epoch: 4, items: [{ routing: from.name }, { routing: to.name }] });
  });

  // The routing pipeline's refusal as a real 2.19 node answers it (a Painless exception: the message is in caused_by).
  const scriptRefusal = (r: string) => ({ type: 'script_exception', reason: 'runtime error', caused_by: { type: 'illegal_argument_exception', reason: r } });
  it.each([
    ['a fail processor', { type: 'fail_processor_exception', reason: `geoshard: routing "${from.name}" is not an owner of cell ${inRange.cell} at epoch 4` }],
    ['the routing script (script_exception, the message in caused_by)', scriptRefusal(`geoshard-dishes: routing "${from.name}" is not an owner of cell ${inRange.cell}: expected x`)],
  ])('re-reads _meta at once when the cluster refuses a routing (%s), and sends the document to the owners of the new epoch', async (_what, refusal) => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const { client, bulks } = fakeClient(state, (ops, call) => {
      // The cluster moved on to epoch 4 before this writer's TTL ran out.
      if (call === 1) {
        state.meta = { ...indexMeta(file), migration } as IndexMeta;
        return ops.map(() => ({ status: 400, error: refusal }));
      }
      return ok(ops);
    });
    const waits: number[] = [];
    const report = await new GeoIndexer(client, file.index, { metaTtlMs: 60_000, sleep: async (ms) => void waits.push(ms) }).bulk([doc]);
    expect(state.mappingReads).toBe(2);
    expect(waits).toEqual([]);
    expect(bulks.map((b) => b.map((o) => o.routing))).toEqual([[from.name], [from.name, to.name]]);
    expect(report.results[0]).toMatchObject({ ok: true, epoch: 4, attempts: 2 });
  });

  it('routes a batch made ready while the one before it was in flight again when _meta changed before it is sent', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const outside = docs(restaurants).find((d) => router.route(d.lat, d.lng).name !== from.name)!;
    const { client, bulks } = fakeClient(state, (ops, call) => {
      // The move starts while the first batch is written (the second one is being made ready).
      if (call === 1) state.meta = { ...indexMeta(file), migration } as IndexMeta;
      return ok(ops);
    });
    const report = await new GeoIndexer(client, file.index, { metaTtlMs: 0 }).bulk([outside, doc], { batchDocs: 1, concurrency: 1 });
    expect(bulks.map((b) => b.map((o) => o.routing))).toEqual([[router.route(outside.lat, outside.lng).name], [from.name, to.name]]);
    expect(report.results.map((r) => r.epoch)).toEqual([null, 4]);
  });

  it('tries a routing refusal again while _meta has not changed, for the moment the pipeline lags behind it', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const refusal = scriptRefusal('geoshard-dishes: routing "x" is not an owner of cell 89c25c: expected y');
    // The pipeline accepts the routing from the third request on (it was updated after _meta).
    const { client, bulks } = fakeClient(state, (ops, call) => (call < 3 ? ops.map(() => ({ status: 400, error: refusal })) : ok(ops)));
    const waits: number[] = [];
    const report = await new GeoIndexer(client, file.index, { metaTtlMs: 60_000, sleep: async (ms) => void waits.push(ms) }).bulk([doc]);
    expect(bulks).toHaveLength(3);
    expect(waits.length).toBe(2);
    expect(report.results[0]).toMatchObject({ ok: true, attempts: 3 });
  });

  it('reports a mapping error as the engine words it at the top (naming the field), not its parser cause', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const mapping = { type: 'mapper_parsing_exception', reason: 'failed to parse field [calories] of type [boolean]', caused_by: { type: 'i_o_exception', reason: 'Current token (VALUE_NUMBER_INT) not of boolean type' } };
    const { client } = fakeClient(state, (ops) => ops.map(() => ({ status: 400, error: mapping })));
    const report = await new GeoIndexer(client, file.index, { sleep: async () => {} }).bulk([doc]);
    expect(report.results[0].items[0].error).toEqual({ type: 'mapper_parsing_exception', reason: 'failed to parse field [calories] of type [boolean]' });
  });

  it('reports a routing refusal as final when _meta has not changed', async () => {
    const state = { meta: indexMeta(file), mappingReads: 0 };
    const refusal = { type: 'fail_processor_exception', reason: 'geoshard: routing is not an owner' };
    const { client, bulks } = fakeClient(state, (ops) => ops.map(() => ({ status: 400, error: refusal })));
    const report = await new GeoIndexer(client, file.index, { metaTtlMs: 60_000, sleep: async () => {}, pipelineLagMs: 0 }).bulk([doc]);
    expect(bulks).toHaveLength(1);
    expect(report.results[0]).toMatchObject({ ok: false, items: [{ status: 400, error: refusal }] });
  });
});

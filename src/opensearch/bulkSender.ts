/**
 * BulkSender: how the package's writer (GeoIndexer) sends documents to their owners in `_bulk`
 * requests: each document routed by its point under the index's routing state (one owner, or two
 * while its range moves), a 429 (the engine's back-pressure) or a 403 write block (a migration's
 * cutover window) retried with exponential backoff within the retry budget, a copy refused for its
 * routing (the routing pipeline follows a newer state) sent again under the state read anew, and
 * one result per document. Node only (Buffer).
 */
import type { Client } from '@opensearch-project/opensearch';
import { NdjsonBytes } from './bulk.ts';
import { statusOfError } from './transport.ts';
import { GeoIndexError, type RetryPolicy, type RoutingState, type WriteItem, type DocResult } from './indexerTypes.ts';
import { kindOf, withShard } from './sampleDocuments.ts';
import { type Source } from './documentFields.ts';

/** One document to send: routed by its point under the current state, or to explicit routings (deletes of found copies). */
export interface Entry {
  id: string;
  action: 'index' | 'delete';
  point: { lat: number; lng: number } | null;
  routings: string[] | null;
  source: Source | null;
  result: DocResult;
}

export interface Op {
  entry: Entry;
  routing: string;
}

/** A batch of `bulk` made ready while the batches before it are in flight: routed under `view`, serialised. */
export interface Prepared {
  view: RoutingState;
  ops: Op[];
  body: Buffer;
}

/**
 * The fields of a `_bulk` response GeoIndexer reads (`filter_path`): per item its status,
 * result and error, by position. The rest (`_index`, `_id`, `_version`, `_shards`, `_seq_no`,
 * `_primary_term`) is most of the response, for the engine to write and the client to parse.
 */
const BULK_FILTER_PATH = 'errors,items.*.status,items.*.result,items.*.error';

type ItemError = { type?: string; reason?: string; caused_by?: ItemError };
type BulkItem = { _id?: string; status?: number; result?: string; error?: ItemError };

/**
 * causeOf returns the error that says what happened: a script's own exception
 * arrives as `script_exception: runtime error` with the message in
 * `caused_by` (the routing pipeline's refusals do), so for a script error the
 * innermost cause with a reason is taken; any other error says it best
 * itself (a mapping error names the field, its cause only the parser's token).
 */
function causeOf(e: ItemError): { type: string; reason: string } {
  if (e.type !== 'script_exception') return { type: e.type ?? '', reason: e.reason ?? '' };
  let cur = e;
  while (cur.caused_by && (cur.caused_by.reason || cur.caused_by.type)) cur = cur.caused_by;
  return { type: cur.type ?? e.type ?? '', reason: cur.reason ?? e.reason ?? '' };
}


/** What a BulkSender needs of its writer: the index's routing state (read anew when `fresh`), the retry policy, the deadlines. */
export interface SenderOptions {
  routing: (fresh?: boolean) => Promise<RoutingState>;
  retry: RetryPolicy;
  sleep: (ms: number) => Promise<void>;
  /** Deadline of one `_bulk` request (ms). */
  bulkTimeoutMs: number;
  /** How long a copy refused for its routing is sent again under the same state (ms): the routing pipeline follows `_meta` a moment later. */
  pipelineLagMs: number;
}

/** BulkSender sends the writer's entries to one index (see the file's comment). */
export class BulkSender {
  /** The index name as a JSON string, for the action lines. */
  private readonly indexJson: string;

  constructor(
    private readonly client: Client,
    private readonly index: string,
    private readonly o: SenderOptions,
  ) {
    this.indexJson = JSON.stringify(index);
  }

  /** entry makes one document to send, its result not yet filled. */
  entry(id: string, action: 'index' | 'delete', point: Entry['point'], routings: string[] | null, source: Source | null): Entry {
    return { id, action, point, routings, source, result: { id, kind: source ? kindOf(source) : null, action, ok: false, items: [], attempts: 0, epoch: null } };
  }

  /** prepare routes and serialises a batch under `view` (bulk's next batch, made ready while the ones before it are in flight). */
  prepare(entries: Entry[], view: RoutingState): Prepared {
    const ops = this.route(entries, view);
    return { view, ops, body: this.bulkBody(ops) };
  }

  route(entries: Entry[], view: RoutingState): Op[] {
    const ops: Op[] = [];
    // Dishes follow their restaurant with the same point: route each run of one point once.
    let last: { lat: number; lng: number; names: string[] } | null = null;
    for (const e of entries) {
      e.result.epoch = view.epoch;
      let routings = e.routings;
      if (!routings) {
        const p = e.point!;
        if (!last || last.lat !== p.lat || last.lng !== p.lng) last = { lat: p.lat, lng: p.lng, names: view.router.writeShards(p.lat, p.lng).map((s) => s.name) };
        routings = last.names;
      }
      for (const routing of routings) ops.push({ entry: e, routing });
    }
    return ops;
  }

  /**
   * send writes entries to their owners, retrying 429 and write blocks with backoff and
   * re-routing on a new epoch; fills each entry's result. `prepared` (bulk's batch made ready
   * ahead) is sent as it is when it was routed under the current state.
   */
  async send(entries: Entry[], refresh: boolean, pipeline?: string, prepared?: Prepared): Promise<void> {
    let view = await this.o.routing();
    let ops: Op[];
    let body: Buffer | undefined;
    if (prepared && prepared.view.key === view.key) {
      ops = prepared.ops;
      body = prepared.body;
    } else ops = this.route(entries, view);
    const t0 = performance.now();
    for (let attempt = 1; ops.length > 0; attempt++) {
      let items: BulkItem[];
      try {
        items = await this.bulkRequest(ops, refresh, pipeline, body);
        body = undefined;
      } catch (e) {
        const status = statusOf(e);
        if (!isRetryable(status, errorOf(e))) throw new GeoIndexError('failed', `bulk write to index "${this.index}" failed: ${(e as Error).message}`, entries.map((x) => x.result));
        items = ops.map(() => ({ status, error: errorOf(e) ?? { type: String(status), reason: (e as Error).message } }));
      }
      const retry: Op[] = [];
      let refused = false;
      ops.forEach((op, i) => {
        const it = items[i] ?? { status: 0, error: { type: 'missing', reason: 'the bulk response has no item for this operation' } };
        const item: WriteItem = { routing: op.routing, status: it.status ?? 0, result: it.result ?? null, error: it.error ? causeOf(it.error) : null };
        const r = op.entry.result;
        r.attempts = attempt;
        // The last answer per routing, in the order last sent.
        const k = r.items.findIndex((x) => x.routing === op.routing);
        if (k >= 0) r.items.splice(k, 1);
        r.items.push(item);
        if (isRetryable(item.status, item.error)) retry.push(op);
        else if (isRoutingRefusal(item)) {
          refused = true;
          retry.push(op);
        }
      });
      for (const e of entries) e.result.ok = e.result.items.length > 0 && e.result.items.every((i) => (i.status >= 200 && i.status < 300) || (e.action === 'delete' && i.status === 404));
      if (retry.length === 0) return;
      if (performance.now() - t0 >= this.o.retry.budgetMs) return;
      if (!refused) await this.o.sleep(this.backoff(attempt));
      const next = await this.o.routing(refused);
      if (next.key !== view.key) {
        // A new epoch: the owners may have changed; send the whole document again under the new state.
        view = next;
        const again = [...new Set(retry.map((o) => o.entry))];
        for (const e of again) e.result.items = e.routings ? e.result.items : [];
        ops = this.route(again, view);
      } else if (refused && performance.now() - t0 < Math.min(this.o.retry.budgetMs, this.o.pipelineLagMs)) {
        // Refused for its routing under the state `_meta` still says: the routing pipeline follows
        // `_meta` a moment later (geoshard migrate writes one, then the other), so try again shortly.
        await this.o.sleep(this.backoff(attempt));
        ops = retry;
      } else if (refused) {
        // Still refused under the state this process holds: nothing to retry with.
        ops = retry.filter((o) => !isRoutingRefusal(o.entry.result.items.find((i) => i.routing === o.routing)!));
        if (ops.length > 0) await this.o.sleep(this.backoff(attempt));
      } else ops = retry;
    }
  }

  private backoff(attempt: number): number {
    const ms = Math.min(this.o.retry.maxMs, this.o.retry.baseMs * 2 ** (attempt - 1));
    return ms * (0.5 + Math.random() / 2);
  }

  /**
   * bulkBody returns the NDJSON of ops as UTF-8 bytes: an action line per copy, then its source
   * (a restaurant's `shard` set to the copy's routing), into NdjsonBytes (bulk.ts). Not bulk.ts's
   * bulkBody, because this is the writer's hot path: the action line is a template around the
   * index name serialised once (indexJson), not an object serialised per document.
   */
  private bulkBody(ops: Op[]): Buffer {
    const out = new NdjsonBytes();
    for (const { entry, routing } of ops) {
      out.line(`{"${entry.action}":{"_index":${this.indexJson},"_id":${JSON.stringify(entry.id)},"routing":${JSON.stringify(routing)}}}`);
      if (entry.action === 'index') out.line(JSON.stringify(withShard(entry.source!, routing)));
    }
    return out.bytes();
  }

  private async bulkRequest(ops: Op[], refresh: boolean, pipeline?: string, body = this.bulkBody(ops)): Promise<BulkItem[]> {
    const querystring: Record<string, string> = { filter_path: BULK_FILTER_PATH };
    if (refresh) querystring.refresh = 'wait_for';
    if (pipeline !== undefined) querystring.pipeline = pipeline;
    // As bytes (bulkBody): the batch is encoded once, and its bytes live outside the JS heap.
    const res = await this.client.transport.request({ method: 'POST', path: '/_bulk', bulkBody: body, querystring }, { requestTimeout: this.o.bulkTimeoutMs });
    const b = res.body as { items?: Record<string, BulkItem>[] };
    return (b.items ?? []).map((x) => Object.values(x)[0]);
  }

  /** failure is the GeoIndexError of entries not all written: busy when every refusal was a 429 or a write block (retry later), failed otherwise. */
  failure(what: string, entries: Entry[], tail: string): GeoIndexError {
    const bad = entries.filter((e) => !e.result.ok);
    const items = bad.flatMap((e) => e.result.items.filter((i) => !(i.status >= 200 && i.status < 300) && !(e.action === 'delete' && i.status === 404)).map((i) => ({ e, i })));
    const busy = items.length > 0 && items.every(({ i }) => isRetryable(i.status, i.error));
    const shown = items.slice(0, 3).map(({ e, i }) => `${e.id} on ${i.routing}: ${i.status} ${i.error?.type ?? ''}${i.error?.reason ? ` (${i.error.reason})` : ''}`).join('; ');
    const why = busy ? `the cluster refused the write for ${Math.round(this.o.retry.budgetMs / 1000)} s (429 or a write block: a migration's cutover window or an overloaded node)` : 'the cluster refused the write';
    return new GeoIndexError(busy ? 'busy' : 'failed', `${what} was not written: ${why}: ${shown}${tail}`, entries.map((e) => e.result), busy ? this.o.retry.maxMs : undefined);
  }

}

/** The HTTP status a failed request answered with (0 when nothing answered). */
export function statusOf(e: unknown): number {
  return statusOfError(e) ?? 0;
}

export function errorOf(e: unknown): { type: string; reason: string } | null {
  const err = (e as { meta?: { body?: { error?: { type?: string; reason?: string } } } })?.meta?.body?.error;
  return err && typeof err === 'object' ? { type: err.type ?? '', reason: err.reason ?? '' } : null;
}

/** isRetryable: 429 (back-pressure) or a 403 cluster block (a write block, e.g. a migration's cutover window). */
function isRetryable(status: number, error: { type?: string } | null | undefined): boolean {
  return status === 429 || (status === 403 && error?.type === 'cluster_block_exception');
}

/** isRoutingRefusal: the cluster (its routing pipeline) refused a copy for its routing value: the writer's state is out of date. */
function isRoutingRefusal(i: WriteItem): boolean {
  return i.status === 400 && !!i.error && (i.error.type === 'fail_processor_exception' || /routing/i.test(i.error.reason)) && i.error.type !== 'routing_missing_exception';
}


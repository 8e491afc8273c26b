/**
 * A `_bulk` request and its answer, the one place geoshard builds and reads them: the body
 * (NdjsonBytes, and bulkBody of index, create and delete actions), the failed items of a response
 * (bulkErrors), and the index settings of a load (LOAD_SETTINGS, RESTORED_SETTINGS). The writer
 * (indexer.ts), the seed, the reindex copy, migrate's copy and the benches use them. Node only
 * (Buffer).
 */

/**
 * NdjsonBytes: the body of one `_bulk` request (NDJSON: one JSON value per line), written as
 * UTF-8 bytes line by line: each line is encoded once, straight into the buffer, where a string
 * built with `+=` and encoded at the end cost a loading client about a third of its CPU in
 * copying and garbage collection (a seed of 219,214 documents: 6.0 s of client CPU with the
 * string, 4.8 s with the bytes).
 */
export class NdjsonBytes {
  private buf: Buffer;
  private n = 0;

  /** `initialBytes`: the first buffer's size; it doubles when a line does not fit. */
  constructor(initialBytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(16, initialBytes));
  }

  /** line appends `s` (one JSON value, no newline in it) and a newline. */
  line(s: string): void {
    // A UTF-8 character takes at most 3 bytes per UTF-16 code unit.
    const need = this.n + 3 * s.length + 1;
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(need, 2 * this.buf.length));
      this.buf.copy(grown, 0, 0, this.n);
      this.buf = grown;
    }
    this.n += this.buf.write(s, this.n, 'utf8');
    this.buf[this.n++] = 0x0a;
  }

  /** The number of bytes written so far. */
  get length(): number {
    return this.n;
  }

  /** bytes returns the lines written (a view of the buffer, not a copy: write no more lines after). */
  bytes(): Buffer {
    return this.buf.subarray(0, this.n);
  }
}

/**
 * One action of a `_bulk` request: `index` (replace), `create` (only if absent: 409 otherwise) or
 * `delete` a document by id, with its routing (absent: the engine hashes the id, or the index's
 * default pipeline routes it), optionally only if it is still at a version (`ifSeqNo` and
 * `ifPrimaryTerm`: 409 otherwise), and the source of an index or create.
 */
export interface BulkAction {
  op: 'index' | 'create' | 'delete';
  index: string;
  id: string;
  routing?: string;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
  source?: Record<string, unknown>;
}

/** bulkBody returns the NDJSON body of `actions`: an action line each, then the source line of an index or create (trailing newline included). */
export function bulkBody(actions: Iterable<BulkAction>): Buffer {
  const out = new NdjsonBytes();
  for (const a of actions) {
    const meta: Record<string, unknown> = { _index: a.index, _id: a.id };
    if (a.routing !== undefined) meta.routing = a.routing;
    if (a.ifSeqNo !== undefined) (meta.if_seq_no = a.ifSeqNo), (meta.if_primary_term = a.ifPrimaryTerm);
    out.line(JSON.stringify({ [a.op]: meta }));
    if (a.op !== 'delete') out.line(JSON.stringify(a.source ?? {}));
  }
  return out.bytes();
}

/** One failed item of a `_bulk` response. */
export interface BulkItemError {
  id: string;
  status: number;
  type?: string;
  reason?: string;
}

/** The part of a `_bulk` response bulkErrors reads (ask for no more with BULK_ERRORS_FILTER). */
export interface BulkResponse {
  errors?: boolean;
  items?: Record<string, { _id?: string; status?: number; error?: { type?: string; reason?: string } }>[];
}

/** The `filter_path` of a `_bulk` request whose answer is only read by bulkErrors: the rest is most of the response. */
export const BULK_ERRORS_FILTER = 'errors,items.*._id,items.*.status,items.*.error';

/** bulkErrors lists the failed items of a `_bulk` response, in order. */
export function bulkErrors(body: BulkResponse): BulkItemError[] {
  if (!body.errors) return [];
  const out: BulkItemError[] = [];
  for (const item of body.items ?? []) {
    const r = Object.values(item)[0];
    if (r?.error) out.push({ id: r._id ?? '?', status: r.status ?? 0, type: r.error.type, reason: r.error.reason });
  }
  return out;
}

/** The index settings of a load: no refreshes and no fsync per bulk request (one refresh at the end). */
export const LOAD_SETTINGS = { refresh_interval: '-1', 'translog.durability': 'async' } as const;
/** What a load restores after it: the engine's defaults. */
export const RESTORED_SETTINGS = { refresh_interval: null, 'translog.durability': null } as const;

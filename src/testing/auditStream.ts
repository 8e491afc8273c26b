/**
 * A test and bench helper: the audit's bookkeeping (core/audit.ts AuditBook,
 * all the state the audit keeps, src/ops/audit/audit.ts) driven over a synthetic
 * stream of `count` documents, without OpenSearch, as the reader hands them
 * over: restaurants and dishes in runs sharing a point (a restaurant and its
 * menu), their location as a doc value string, every `plantEvery`-th one on
 * a wrong shard. It samples the process's heap as it goes, so a test can
 * state a bound on it whatever the count (the lead's 20 M-id test calls
 * driveAuditBook(20_000_000)).
 */
import { AuditBook } from '../core/audit.ts';
import { cellAt, cellToken, Router } from '../core/index.ts';
import { fileWithCuts, randomPoint } from '../core/testutil.ts';
import { mulberry32 } from '../core/prng.ts';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Options of driveAuditBook. */
export interface AuditStreamOptions {
  /** Every plantEvery-th document sits on a wrong shard (an integer >= 2; default 1000). */
  plantEvery?: number;
  /** Documents sharing one point, one after another (default 11: a restaurant and ten dishes). */
  run?: number;
  /** Problems the tally keeps (default 10,000, as the audit's). */
  limit?: number;
  /** Documents between heap samples (default 100,000). */
  sampleEvery?: number;
}

/** What driveAuditBook saw. */
export interface AuditStreamResult {
  count: number;
  /** Documents planted wrong, and documents the book counted with a problem (equal when it reports every one). */
  planted: number;
  found: number;
  /** Problems kept (at most the limit), and counted beyond it. */
  kept: number;
  omitted: number;
  /** heapUsed before the stream, and the most seen at a sample (bytes; after a full GC at each sample, so garbage is not counted). */
  heapBeforeBytes: number;
  heapPeakBytes: number;
  elapsedMs: number;
}

/** A full garbage collection: V8's gc(), exposed for this process if it was not (node --expose-gc). */
function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (g) return g();
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/** driveAuditBook runs the audit's bookkeeping over `count` synthetic documents (an integer >= 0): see the top of this file. */
export function driveAuditBook(count: number, opts: AuditStreamOptions = {}): AuditStreamResult {
  const plantEvery = opts.plantEvery ?? 1000;
  const run = opts.run ?? 11;
  const sampleEvery = opts.sampleEvery ?? 100_000;
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`driveAuditBook: count ${count} is invalid: expected an integer >= 0`);
  if (!Number.isInteger(plantEvery) || plantEvery < 2) throw new RangeError(`driveAuditBook: plantEvery ${plantEvery} is invalid: expected an integer >= 2`);
  const file = fileWithCuts([100_000, 900_000, 2_000_000, 3_100_000, 4_000_000, 5_200_000, 6_000_000], 'audit-stream');
  const router = new Router(file);
  const n = router.shards.length;
  const rand = mulberry32(20_000_000);
  // A pool of points with their cell and owner: the stream cycles through it, a run of documents per point.
  const pool = Array.from({ length: 4096 }, () => {
    const p = randomPoint(rand);
    const owner = router.readShard(p.lat, p.lng);
    return { value: `${p.lat}, ${p.lng}`, exact: p, cell: cellToken(cellAt(p.lat, p.lng)), shard: owner.shard, name: owner.name };
  });
  const heap = () => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const book = new AuditBook(router, opts.limit ?? 10_000);
  const heapBeforeBytes = heap();
  let heapPeakBytes = heapBeforeBytes;
  let planted = 0;
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const k = Math.floor(i / run);
    const p = pool[k % pool.length];
    const wrong = i % plantEvery === plantEvery - 1;
    if (wrong) planted++;
    const shard = wrong ? (p.shard + 1) % n : p.shard;
    const id = `doc-${i}`;
    if (i % run === 0) {
      const d = { id, shard, cell: p.cell, shardField: p.name };
      if (!book.restaurant(d, p.value)) book.restaurant(d, p.exact, true);
    } else {
      // A dish beside its restaurant (the reader's has_parent scan: its restaurant is on its shard).
      const d = { id, shard, restaurantId: `doc-${k * run}`, parent: `doc-${k * run}` };
      if (!book.dish(d, p.value, [shard])) book.dish(d, p.exact, [shard], true);
    }
    if (i % sampleEvery === sampleEvery - 1) heapPeakBytes = Math.max(heapPeakBytes, heap());
  }
  heapPeakBytes = Math.max(heapPeakBytes, heap());
  const t = book.tally;
  return { count, planted, found: t.documents, kept: t.problems.length, omitted: t.omitted, heapBeforeBytes, heapPeakBytes, elapsedMs: performance.now() - t0 };
}

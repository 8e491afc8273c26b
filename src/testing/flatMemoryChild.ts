/**
 * The bounded-memory bookkeeping of the commands that read a whole index,
 * driven over synthetic streams of N ids with planted differences and no
 * OpenSearch: the reindex verify's tally (tallyVerify), the presence check of
 * the reindex's catch-up and migrate's cutover (presence, over two DocSides
 * that generate their ids), migrate's range diff (diffOfJoin) and the audit's
 * bookkeeping (when a module provides one: see AUDIT below).
 *
 * Run by src/ops/compare/flatMemory.test.ts in a child process with a small V8 heap limit
 * (`node --expose-gc --max-old-space-size=M --import tsx`), so a design that
 * keeps per-document state dies instead of passing. Prints one JSON line:
 * each check's planted and found differences, and the peak heap used after a
 * full collection, sampled every 500 k records.
 *
 *   node --expose-gc --max-old-space-size=256 --import tsx src/testing/flatMemoryChild.ts 20000000 [verify|presence|rangeDiff|audit|all]
 */
import { presence, diffOfJoin, type DocSide } from '../ops/compare/docDiff.ts';
import { SpillJoin } from '../ops/compare/spill.ts';
import { tallyVerify, type ShardVerify } from '../ops/reindex/reindex.ts';
import { driveAuditBook } from './auditStream.ts';

const N = Number(process.argv[2] ?? 1_000_000);
if (!Number.isInteger(N) || N < 1000) throw new Error(`N must be an integer >= 1000, got ${process.argv[2]}`);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

let peak = 0;
let ticks = 0;
const sample = () => {
  gc!();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
};
/** Counts records and samples the heap every 500 k. */
const tick = () => {
  if (++ticks % 500_000 === 0) sample();
};

const id = (i: number) => `d${i.toString(36)}`;
/** A content hash stand-in: 8 hex digits derived from i (a real hash is 40; the length does not change the design). */
const hash = (i: number) => ((Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0'));
const SHARDS = 15;

/** Planted ids: every step-th index from an offset, about 100 of each kind whatever N. */
const planted = (offset: number) => {
  const step = Math.floor(N / 100);
  const out = new Set<number>();
  for (let i = offset; i < N; i += step) out.add(i);
  return out;
};

// --- the reindex verify ---------------------------------------------------------------------
function verify() {
  const missing = planted(1);
  const extra = planted(2); // DEST holds N + i for these
  const changed = planted(3);
  const misplaced = planted(4);
  const twice = planted(5);
  const join = new SpillJoin(N);
  join.onPartition = sample;
  const byShard = new Map<number, ShardVerify>(Array.from({ length: SHARDS }, (_, k) => [k, { shard: k, name: `s${k}`, expected: 0, held: 0, missing: 0, changed: 0, extra: 0, misplaced: 0 }]));
  const diff = { missing: [] as string[], changed: [] as string[], extra: [] as string[] };
  try {
    for (let i = 0; i < N; i++) {
      join.a(id(i), `${i % SHARDS}:${hash(i)}`);
      tick();
    }
    for (let i = 0; i < N; i++) {
      if (!missing.has(i)) {
        const k = misplaced.has(i) ? (i + 1) % SHARDS : i % SHARDS;
        join.b(id(i), `${k}:${changed.has(i) ? 'ffffffff' : hash(i)}`);
        if (twice.has(i)) join.b(id(i), `${(i + 7) % SHARDS}:${hash(i)}`);
      }
      if (extra.has(i)) join.b(id(N + i), `0:${hash(N + i)}`);
      tick();
    }
    sample();
    tallyVerify(join, byShard, diff);
    sample();
  } finally {
    join.close();
  }
  const want = {
    missing: [...missing].map(id).sort(),
    changed: [...new Set([...changed, ...misplaced, ...twice])].filter((i) => !missing.has(i)).map(id).sort(),
    extra: [...extra].map((i) => id(N + i)).sort(),
  };
  const got = { missing: [...diff.missing].sort(), changed: [...new Set(diff.changed)].sort(), extra: [...diff.extra].sort() };
  return { want, got };
}

// --- presence (the reindex catch-up's and migrate's cutover check) --------------------------
function side(n: number, skip: Set<number>, more: Set<number>): DocSide<number> {
  return {
    label: 'synthetic',
    refresh: async () => undefined,
    checkpoint: async () => 0,
    count: async () => n,
    async eachId(f) {
      let page: string[] = [];
      let docs = 0;
      for (let i = 0; i < n; i++) {
        if (!skip.has(i)) page.push(id(i)), docs++;
        if (more.has(i)) page.push(id(n + i)), docs++;
        if (page.length >= 10_000) f(page), (page = []);
        tick();
      }
      f(page);
      return { docs };
    },
    changedSince: async () => new Set(),
    sources: async () => new Map(),
    write: async () => undefined,
  };
}

async function presenceCheck() {
  const missing = planted(6);
  const extra = planted(7);
  const look = new Set([id(8), id(9), id(N - 1)]);
  const p = await presence(side(N, new Set(), new Set()), side(N, missing, extra), look);
  sample();
  return {
    want: { missing: [...missing].map(id).sort(), extra: [...extra].map((i) => id(N + i)).sort(), both: [...look].sort() },
    got: { missing: p.missing.sort(), extra: p.extra.sort(), both: p.both.sort() },
  };
}

// --- migrate's range diff ---------------------------------------------------------------------
function rangeDiff() {
  const missing = planted(10);
  const changed = planted(11);
  const extra = planted(12);
  const join = new SpillJoin(N);
  join.onPartition = sample;
  try {
    for (let i = 0; i < N; i++) {
      join.a(id(i), hash(i));
      if (!missing.has(i)) join.b(id(i), changed.has(i) ? 'ffffffff' : hash(i));
      if (extra.has(i)) join.b(id(N + i), hash(i));
      tick();
    }
    sample();
    const d = diffOfJoin(join);
    sample();
    return {
      want: { missing: [...missing].map(id).sort(), changed: [...changed].filter((i) => !missing.has(i)).map(id).sort(), extra: [...extra].map((i) => id(N + i)).sort() },
      got: d,
    };
  } finally {
    join.close();
  }
}

const t0 = performance.now();
sample();
const base = peak;
const out: Record<string, unknown> = { n: N };
const timed = async <T>(name: string, f: () => T | Promise<T>) => {
  const t = performance.now();
  const r = await f();
  out[name] = { ...(r as object), seconds: +((performance.now() - t) / 1000).toFixed(1) };
};
// --- the audit's bookkeeping (core/audit.ts AuditBook, driven by auditStream.ts) -----------------
function audit() {
  const r = driveAuditBook(N);
  peak = Math.max(peak, r.heapPeakBytes);
  // The planted count is the driver's (every 1000th document on a wrong shard); found is the book's.
  return { want: { found: [String(r.planted)] }, got: { found: [String(r.found)] }, kept: r.kept, omitted: r.omitted };
}

const CHECKS: Record<string, () => unknown> = { verify, presence: presenceCheck, rangeDiff, audit };
const which = process.argv[3] ?? 'all';
if (which !== 'all' && !(which in CHECKS)) throw new Error(`check "${which}" is not one of ${Object.keys(CHECKS).join(', ')} or all`);
for (const [name, f] of Object.entries(CHECKS)) if (which === 'all' || which === name) await timed(name, f);
out.baseHeapMB = +(base / 2 ** 20).toFixed(1);
out.peakHeapMB = +(peak / 2 ** 20).toFixed(1);
out.peakRssMB = +(process.resourceUsage().maxRSS / 1024).toFixed(1);
out.seconds = +((performance.now() - t0) / 1000).toFixed(1);
console.log(JSON.stringify(out));

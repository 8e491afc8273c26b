/**
 * A keyed comparison of two large streams in bounded memory: every record
 * (an id and a short value) goes to one of P partition files on disk by a
 * hash of its id, one set of files per side; then the partitions are joined
 * one at a time, so the process holds one partition of each side (about N/P
 * records), never the whole index. This is how `geoshard reindex`'s verify
 * and catch-up and `geoshard migrate`'s range diff compare the ids (and
 * content hashes) of two copies of millions of documents.
 *
 * Why partitions on disk rather than the other bounded designs:
 *   - a merge of two streams in id order (Vitess VDiff) needs both copies
 *     sorted by id, and OpenSearch can sort a whole index by `_id` only with
 *     `_id` field data loaded into the nodes' heap (off by default in recent
 *     versions), or by a doc-valued copy of the id that a team's index may
 *     not have;
 *   - digests per chunk with a drill-down (TiDB's sync-diff-inspector) need
 *     the cluster to hash chunks of documents by an id range, which again
 *     needs a sortable id, and reads a differing chunk twice;
 *   - partitions by a hash of the id need nothing of the index, read each
 *     side once, and cost disk (about 60 bytes a document a side) instead of
 *     memory. Measured in docs/scale.md.
 *
 * Records are written with `writeSync` in 64 KiB buffers per partition (the
 * callers are I/O bound on the cluster; a synchronous append of 64 KiB to the
 * page cache takes microseconds) and a partition is read back whole
 * (`readFileSync`), at most a few megabytes.
 *
 * Values must not contain a newline, a tab or a control character below
 * U+0002; ids may hold anything (a tab or newline in an id, which
 * OpenSearch allows, is escaped here and unescaped on read).
 *
 * Node only.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { env } from '../../cluster/env.ts';

/** Records a partition aims at (per side): 200 k records of ~60 bytes is ~12 MB of file, ~40 MB as a Map. */
export const RECORDS_PER_PARTITION = 200_000;

/** partitionsFor returns how many partitions hold `expected` records a side at RECORDS_PER_PARTITION each (at least 1, at most 4096). */
export function partitionsFor(expected: number, perPartition = RECORDS_PER_PARTITION): number {
  return Math.max(1, Math.min(4096, Math.ceil(Math.max(0, expected) / perPartition)));
}

/** FNV-1a over the UTF-16 code units of `s`, unsigned 32-bit: spreads ids over partitions. */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const escape = (s: string) => (/[\t\n\\]/.test(s) ? s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n') : s);
const unescape = (s: string) => (s.includes('\\') ? s.replace(/\\(.)/g, (_, c: string) => (c === 't' ? '\t' : c === 'n' ? '\n' : c)) : s);

/**
 * Bytes a side buffers across all its partitions, at most: each partition's buffer is this over
 * the number of partitions, from 4 KiB to 64 KiB. Buffers (outside the JS heap, fixed size), not
 * strings grown by `+=`: those were ropes of one node per record, ~3× their text in heap, and one
 * per partition, so the heap they held grew with the index (101 partitions a side at 20 M).
 */
const SIDE_BUFFER_BYTES = 4 * 1024 * 1024;
const ONLY_B = '\u0001';

/** One side's partition files, written record by record. */
class SideWriter {
  private readonly fds: number[];
  private readonly bufs: (Buffer | null)[];
  private readonly used: Int32Array;
  private readonly size: number;
  private n = 0;
  constructor(
    dir: string,
    side: string,
    private readonly parts: number,
  ) {
    this.fds = Array.from({ length: parts }, (_, p) => fs.openSync(path.join(dir, `${side}.${p}`), 'w'));
    this.size = Math.max(4096, Math.min(65_536, Math.floor(SIDE_BUFFER_BYTES / parts)));
    this.bufs = Array.from({ length: parts }, () => null);
    this.used = new Int32Array(parts);
  }
  add(id: string, value: string): void {
    const p = hashOf(id) % this.parts;
    const line = `${escape(id)}\t${value}\n`;
    // At most 3 bytes a UTF-16 unit in UTF-8: room for the worst case, else flush first.
    const worst = line.length * 3;
    if (worst > this.size) {
      this.flush(p);
      fs.writeSync(this.fds[p], line);
    } else {
      if (this.used[p] + worst > this.size) this.flush(p);
      const buf = (this.bufs[p] ??= Buffer.allocUnsafe(this.size));
      this.used[p] += buf.write(line, this.used[p], 'utf8');
    }
    this.n++;
  }
  private flush(p: number): void {
    if (this.used[p] === 0) return;
    fs.writeSync(this.fds[p], this.bufs[p]!, 0, this.used[p]);
    this.used[p] = 0;
  }
  get count(): number {
    return this.n;
  }
  private done = false;
  /** Writes what is buffered and closes the files (once; later calls do nothing). */
  close(): void {
    if (this.done) return;
    this.done = true;
    for (let p = 0; p < this.parts; p++) {
      this.flush(p);
      this.bufs[p] = null;
      fs.closeSync(this.fds[p]);
    }
  }
}

/** What the join reports for one id: its value on each side (undefined: absent there), and `dupB` when side B holds the id more than once (each further copy is reported again with dupB true). */
export type JoinVisitor = (id: string, a: string | undefined, b: string | undefined, dupB: boolean) => void;

/**
 * SpillJoin compares two keyed streams, A and B, in bounded memory. Add every
 * record of both sides (`a(id, value)`, `b(id, value)`, in any order and
 * interleaving), then `join(visit)` calls `visit` once per id of A ∪ B
 * (and once more per extra copy of an id on B), partition by partition.
 * `close()` (always, in a finally) deletes the files.
 *
 * Memory: one partition of each side while joining (about 2·N/P records);
 * the writers' buffers (4 MiB a side, 4 KiB a partition at least; outside the JS heap). Disk: every record once.
 */
export class SpillJoin {
  readonly dir: string;
  readonly partitions: number;
  private readonly A: SideWriter;
  private readonly B: SideWriter;
  private closed = false;
  /** Called after each partition is joined, while its records are still held (a test samples the heap there). */
  onPartition?: () => void;

  /**
   * @param expected records expected on the larger side (sizes the partitions; more is fine, the partitions grow).
   * @param o.dir a folder for the files (default: a new folder under `GEOSHARD_SPILL_DIR` or the OS's temp folder).
   * @param o.perPartition records a partition aims at (default RECORDS_PER_PARTITION).
   */
  constructor(expected: number, o: { dir?: string; perPartition?: number } = {}) {
    const root = o.dir ?? env('GEOSHARD_SPILL_DIR') ?? os.tmpdir();
    fs.mkdirSync(root, { recursive: true });
    this.dir = fs.mkdtempSync(path.join(root, 'geoshard-spill-'));
    this.partitions = partitionsFor(expected, o.perPartition);
    this.A = new SideWriter(this.dir, 'a', this.partitions);
    this.B = new SideWriter(this.dir, 'b', this.partitions);
  }

  /** Adds a record of side A. `value` must hold no tab or newline. */
  a(id: string, value = ''): void {
    this.A.add(id, value);
  }
  /** Adds a record of side B. `value` must hold no tab or newline. */
  b(id: string, value = ''): void {
    this.B.add(id, value);
  }
  /** Records added so far per side. */
  get counts(): { a: number; b: number } {
    return { a: this.A.count, b: this.B.count };
  }

  /** join visits every id of both sides, a partition at a time (call once, after the last add). */
  join(visit: JoinVisitor): void {
    this.A.close();
    this.B.close();
    for (let p = 0; p < this.partitions; p++) {
      // A's records by id. An id B has shown stays in the same map, marked (no second set): "\0" + A's
      // value when A has it, "\1" when only B has it, so a second copy on B is known as such.
      const left = new Map<string, string>();
      eachLine(path.join(this.dir, `a.${p}`), (id, v) => void left.set(id, v));
      eachLine(path.join(this.dir, `b.${p}`), (id, v) => {
        const a = left.get(id);
        if (a === undefined) return left.set(id, ONLY_B), visit(id, undefined, v, false);
        if (a === ONLY_B) return visit(id, undefined, v, true);
        if (a.charCodeAt(0) === 0) return visit(id, a.slice(1), v, true);
        left.set(id, `\0${a}`);
        visit(id, a, v, false);
      });
      for (const [id, v] of left) if (v !== ONLY_B && v.charCodeAt(0) !== 0) visit(id, v, undefined, false);
      this.onPartition?.();
      fs.rmSync(path.join(this.dir, `a.${p}`), { force: true });
      fs.rmSync(path.join(this.dir, `b.${p}`), { force: true });
    }
  }

  /** close deletes the files (safe to call twice, and before or after join). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.A.close();
    this.B.close();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** eachLine reads a partition file and calls `f(id, value)` per record. */
function eachLine(file: string, f: (id: string, value: string) => void): void {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  let i = 0;
  while (i < text.length) {
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl;
    const tab = text.indexOf('\t', i);
    f(unescape(text.slice(i, tab)), text.slice(tab + 1, end));
    i = end + 1;
  }
}

/**
 * Editing a boundary file by hand, the reference-003 way of handling a
 * hotspot: split a hot shard at its weighted median, or merge two
 * neighbouring shards.
 *
 * Both change the number of shards, and with it the OpenSearch shard every
 * name routes to: OpenSearch cannot change an index's shard count in place,
 * so shipping an edited file means reindexing every document into a new
 * index (geoshard plan lays out the steps). The edit keeps the names it can,
 * so a diff by name shows the edit as the local change it is: every old name
 * whose routing hash still lands on a free shard number under the new count
 * keeps its range (heaviest shards first when two collide), and the others get
 * the first unused pool word that routes to a free number. Shard numbers then
 * need not follow key order; each name routes to its declared number.
 *
 * The result is a new, valid, hashed file: version + 1, parent = the old
 * file's hash, shard counts recomputed from the cells list, `balance`
 * describing the edit, no migration.
 */
import { withHash, BOUNDARY_FORMAT, type BoundaryFile, type ShardEntry } from './boundaries.ts';
import { ShardTable } from './shardTable.ts';
import { CellSums } from './cellSums.ts';
import { tokenOfOrdinal } from './cells.ts';
import { NAME_POOL } from './names.ts';
import { shardForRouting, defaultRoutingNumShards, MAX_SHARDS } from './routingHash.ts';
import { CELL_COUNT } from './cells.ts';
import type { CellWeight } from './build.ts';

/** Options for splitShard and mergeShards. */
export interface EditOptions {
  /** createdAt of the new file (ISO-8601; default now). */
  createdAt?: string;
}

/** The result of an edit: the new file and what changed, in words and figures. */
export interface EditResult {
  file: BoundaryFile;
  /** The shard count before and after. */
  shardsBefore: number;
  shardsAfter: number;
  /** Old names that had to change (their hash collides under the new count), old → new. */
  renamed: { from: string; to: string }[];
  /** What the edit means for the live index. */
  consequence: string;
}

/** The result of splitShard. */
export interface SplitResult extends EditResult {
  /** The new boundary: the first cell of the right half. */
  at: string;
  left: { name: string; restaurants: number; dishes: number };
  right: { name: string; restaurants: number; dishes: number };
}

/** The result of mergeShards. */
export interface MergeResult extends EditResult {
  /** The boundary removed. */
  removed: string;
  /** The name the merged shard keeps. */
  name: string;
  restaurants: number;
  dishes: number;
}

/**
 * assignNames gives shards in key order their names and OpenSearch shard
 * numbers for an index of n shards: `preferred[i]` (an old name, or null for
 * a new shard) is kept when its routing hash lands on a number not yet taken,
 * trying shards in order of `priority` (higher first); the rest get the first
 * pool word (then with suffixes 2..99) not in `avoid` that routes to a free
 * number. Throws RangeError if the pool runs out.
 */
export function assignNames(preferred: readonly (string | null)[], priority: readonly number[], n: number, routingNumShards: number | undefined, avoid: ReadonlySet<string>): { name: string; shard: number }[] {
  const out: ({ name: string; shard: number } | null)[] = preferred.map(() => null);
  const taken = new Set<number>();
  const used = new Set<string>();
  const order = preferred.map((_, i) => i).sort((x, y) => priority[y] - priority[x] || x - y);
  for (const i of order) {
    const name = preferred[i];
    if (name === null) continue;
    const shard = shardForRouting(name, n, routingNumShards);
    if (!taken.has(shard)) {
      taken.add(shard);
      used.add(name);
      out[i] = { name, shard };
    }
  }
  for (let i = 0; i < out.length; i++) {
    if (out[i]) continue;
    search: for (let suffix = 1; suffix <= 99; suffix++) {
      for (const w of NAME_POOL) {
        const name = suffix === 1 ? w : `${w}${suffix}`;
        if (used.has(name) || avoid.has(name)) continue;
        const shard = shardForRouting(name, n, routingNumShards);
        if (taken.has(shard)) continue;
        taken.add(shard);
        used.add(name);
        out[i] = { name, shard };
        break search;
      }
    }
    if (!out[i]) throw new RangeError(`no unused pool name routes to a free shard number of ${n}: pass fewer shards or extend NAME_POOL`);
  }
  return out as { name: string; shard: number }[];
}

interface Layout {
  starts: number[];
  preferred: (string | null)[];
}

function build(file: BoundaryFile, cells: readonly CellWeight[], layout: Layout, balance: Record<string, unknown>, opts: EditOptions): EditResult & { sums: CellSums } {
  const n = layout.starts.length;
  if (n < 1 || n > MAX_SHARDS) throw new RangeError(`the edit would give ${n} shards: expected 1 to ${MAX_SHARDS}`);
  const sums = new CellSums(cells);
  const ranges = layout.starts.map((s, i) => sums.sum(s, i + 1 < n ? layout.starts[i + 1] : CELL_COUNT));
  // Keep an explicit routingNumShards only when it is still a multiple of the new count.
  const rns = file.routingNumShards !== undefined && file.routingNumShards % n === 0 ? file.routingNumShards : undefined;
  const names = assignNames(
    layout.preferred,
    ranges.map((r) => r.restaurants + r.dishes),
    n,
    rns,
    new Set(file.shards.map((s) => s.name)),
  );
  const shards: ShardEntry[] = names.map((s, i) => ({ name: s.name, shard: s.shard, restaurants: ranges[i].restaurants, dishes: ranges[i].dishes }));
  const { hash: _h, migration: _m, balance: _b, routingNumShards: _r, ...rest } = file;
  const out = withHash({
    ...rest,
    format: BOUNDARY_FORMAT,
    numberOfShards: n,
    ...(rns !== undefined ? { routingNumShards: rns } : {}),
    version: file.version + 1,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    parent: file.hash,
    boundaries: layout.starts.slice(1).map((s) => tokenOfOrdinal(s)!),
    shards,
    balance,
  });
  new ShardTable(out, 'edited boundary file'); // validates; an edit never yields an invalid file
  const renamed = layout.preferred.flatMap((p, i) => (p !== null && p !== shards[i].name ? [{ from: p, to: shards[i].name }] : []));
  const before = file.numberOfShards;
  const rnsNote = file.routingNumShards !== undefined && rns === undefined ? ` routingNumShards ${file.routingNumShards} is not a multiple of ${n}, so the file drops it (OpenSearch's default for ${n} shards, ${defaultRoutingNumShards(n)}).` : '';
  return {
    file: out,
    shardsBefore: before,
    shardsAfter: n,
    renamed,
    consequence: `numberOfShards changes ${before} → ${n}: OpenSearch cannot change an index's shard count in place and every name now routes under ${n} shards, so shipping this file means a new index with ${n} primary shards and reindexing every document (geoshard plan lists the steps).${rnsNote}`,
    sums,
  };
}

function current(file: BoundaryFile, cells: readonly CellWeight[]): ShardTable {
  const r = new ShardTable(file, 'boundary file');
  if (r.moves.length > 0) throw new RangeError(`the file has ${r.moves.length} move(s) in progress: finish that migration before editing the boundaries`);
  if (cells.length === 0) throw new RangeError('cells is empty: an edit needs the cells list to weigh the shards');
  return r;
}

function indexOfName(r: ShardTable, name: string): number {
  const s = r.shards.find((x) => x.name === name);
  if (!s) throw new RangeError(`shard "${name}" is not in the file: expected one of ${r.shards.map((x) => x.name).join(', ')}`);
  return s.index;
}

/**
 * splitShard splits the named shard in two at its weighted median: the cut
 * between two of its non-empty cells that makes the heavier half as light as
 * possible (weight = restaurants + dishes). The heavier half keeps the name
 * (ties: the left one), so fewer documents change named owner. Throws
 * RangeError when the name is unknown or the shard holds fewer than two
 * non-empty cells.
 */
export function splitShard(file: BoundaryFile, cells: readonly CellWeight[], name: string, opts: EditOptions = {}): SplitResult {
  const r = current(file, cells);
  const i = indexOfName(r, name);
  const lo = r.starts[i];
  const hi = r.starts[i + 1];
  const inShard = cells.filter((c) => c.ordinal >= lo && c.ordinal < hi);
  if (inShard.length < 2) throw new RangeError(`shard "${name}" holds ${inShard.length} non-empty cell(s): a split needs at least two, one for each half`);
  const total = inShard.reduce((s, c) => s + c.restaurants + c.dishes, 0);
  let best = 1;
  let bestMax = Infinity;
  let bestLeft = 0;
  let left = 0;
  for (let j = 1; j < inShard.length; j++) {
    left += inShard[j - 1].restaurants + inShard[j - 1].dishes;
    const heavier = Math.max(left, total - left);
    if (heavier < bestMax) (bestMax = heavier), (best = j), (bestLeft = left);
  }
  const cut = inShard[best].ordinal;
  const starts = [...r.starts.subarray(0, r.numberOfShards)];
  starts.splice(i + 1, 0, cut);
  const preferred: (string | null)[] = r.shards.map((s) => s.name);
  // The heavier half keeps the name (ties: the left), so fewer documents change named owner.
  const rightHeavier = total - bestLeft > bestLeft;
  preferred.splice(rightHeavier ? i : i + 1, 0, null);
  const at = tokenOfOrdinal(cut)!;
  const res = build(file, cells, { starts, preferred }, { method: 'split', shard: name, at, weight: 'restaurants + dishes' }, opts);
  const half = (k: number) => ({ name: res.file.shards[k].name, restaurants: res.file.shards[k].restaurants!, dishes: res.file.shards[k].dishes! });
  const { sums: _s, ...rest } = res;
  return { ...rest, at, left: half(i), right: half(i + 1) };
}

/**
 * mergeShards merges two shards that are neighbours in key order into one,
 * which keeps the name of the heavier (ties: the first in key order), so
 * fewer documents change named owner. Throws RangeError when a name is
 * unknown, the two are the same or not neighbours, or the file has one shard.
 */
export function mergeShards(file: BoundaryFile, cells: readonly CellWeight[], nameA: string, nameB: string, opts: EditOptions = {}): MergeResult {
  const r = current(file, cells);
  const ia = indexOfName(r, nameA);
  const ib = indexOfName(r, nameB);
  if (ia === ib) throw new RangeError(`"${nameA}" and "${nameB}" are the same shard: merge two different neighbours`);
  const i = Math.min(ia, ib);
  if (Math.abs(ia - ib) !== 1) {
    throw new RangeError(`"${nameA}" (key-order position ${ia}) and "${nameB}" (position ${ib}) are not neighbours: only adjacent key ranges merge into one range; neighbours of "${nameA}" are ${[ia - 1, ia + 1].filter((k) => k >= 0 && k < r.numberOfShards).map((k) => `"${r.shards[k].name}"`).join(' and ')}`);
  }
  const sums = new CellSums(cells);
  const w = (k: number) => {
    const s = sums.sum(r.starts[k], r.starts[k + 1]);
    return s.restaurants + s.dishes;
  };
  const keep = w(i + 1) > w(i) ? r.shards[i + 1].name : r.shards[i].name;
  const starts = [...r.starts.subarray(0, r.numberOfShards)];
  const removed = tokenOfOrdinal(starts[i + 1])!;
  starts.splice(i + 1, 1);
  const preferred: (string | null)[] = r.shards.map((s) => s.name);
  preferred.splice(i, 2, keep);
  const res = build(file, cells, { starts, preferred }, { method: 'merge', shards: [r.shards[i].name, r.shards[i + 1].name], removed, weight: 'restaurants + dishes' }, opts);
  const merged = res.file.shards[i];
  const { sums: _s, ...rest } = res;
  return { ...rest, removed, name: merged.name, restaurants: merged.restaurants!, dishes: merged.dishes! };
}

/**
 * Boundary review (issue 6), the explorer's pure part: reading a candidate
 * boundary file, editing its boundaries cell by cell, making the edited file
 * a child of the current one, and the small lookups the globe, the ribbon and
 * the side panel share. No DOM, no three, no React: unit-tested in
 * review.test.ts. Everything routing-related is the core's: here
 * parseBoundaryFile, validateBoundaryFile, withHash, ShardTable and CellSums;
 * the review's slice and diff (reviewSlice.ts, reviewDiff.ts) call
 * diffBoundaries, splitShard and mergeShards.
 *
 * Ordinals are level-10 curve positions in [0, CELL_COUNT) (core cells.ts).
 * `starts` are a file's range starts (Router.starts: starts[0] = 0,
 * starts[N] = CELL_COUNT); boundary i (1 ≤ i ≤ N−1) is starts[i], the first
 * cell of shard i. A cells list is the non-empty cells in key order
 * (data/cells.csv, as parseCellsCsv returns it).
 */
import {
  BoundaryFileError,
  CELL_COUNT,
  ShardTable,
  parseBoundaryFile,
  validateBoundaryFile,
  withHash,
  type BoundaryFile,
  type BoundaryMove,
  type CellWeight,
} from '../../core/index';
import { CellSums } from '../../core/cellSums';
import { tokenOfOrdinal } from '../../core/cells';
import { shardColor, type RGB } from '../shell/palette';

/** A candidate file that passed the core's validation, or why it did not. */
export type CandidateRead = { ok: true; file: BoundaryFile; router: ShardTable } | { ok: false; title: string; problems: string[] };

/**
 * readCandidate parses and validates a candidate boundary file's text with
 * the core. On failure `problems` lists every problem the validator found,
 * each naming the field and its value ("boundaries[3]: ..."), or the JSON
 * syntax error.
 */
export function readCandidate(text: string, source: string): CandidateRead {
  try {
    const file = parseBoundaryFile(text, source);
    return { ok: true, file, router: new ShardTable(file, source) };
  } catch (e) {
    if (e instanceof BoundaryFileError) return { ok: false, title: `${source} is not a valid boundary file`, problems: e.errors.map((x) => x.message) };
    return { ok: false, title: `${source} cannot be read`, problems: [(e as Error).message] };
  }
}

/** lowerBound returns the position of the first value >= x in an ascending list (its length if none). */
export function lowerBound(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * boundaryChoices returns the positions [lo, hi] in the cells list (non-empty
 * cells' ordinals, ascending) where boundary i of a layout may sit so that
 * both shards beside it keep at least one non-empty cell: boundary i at cell
 * k means cells k.. go to shard i, cells ..k−1 to shard i−1. lo > hi when the
 * boundary cannot move. Preconditions: 1 ≤ i ≤ N−1 for starts of length N+1.
 */
export function boundaryChoices(ordinals: ArrayLike<number>, starts: ArrayLike<number>, i: number): [number, number] {
  if (!(Number.isInteger(i) && i >= 1 && i < starts.length - 1)) throw new RangeError(`boundary ${i} is invalid: expected 1 to ${starts.length - 2}`);
  // The left shard keeps its first non-empty cell, the right one the last one before the next boundary.
  return [lowerBound(ordinals, starts[i - 1]) + 1, lowerBound(ordinals, starts[i + 1]) - 1];
}

/**
 * snapBoundary returns where boundary i goes when dragged to ordinal
 * `wanted`: the start of the non-empty cell nearest to it, kept where both
 * neighbouring shards still hold a non-empty cell. Returns starts[i] when the
 * boundary cannot move.
 */
export function snapBoundary(ordinals: ArrayLike<number>, starts: ArrayLike<number>, i: number, wanted: number): number {
  const [lo, hi] = boundaryChoices(ordinals, starts, i);
  if (lo > hi) return starts[i];
  let k = lowerBound(ordinals, wanted);
  if (k > 0 && (k === ordinals.length || wanted - ordinals[k - 1] < ordinals[k] - wanted)) k--;
  return ordinals[Math.min(hi, Math.max(lo, k))];
}

/**
 * nudgeBoundary moves boundary i by `steps` non-empty cells (positive: right,
 * giving cells to shard i−1; negative: left, giving them to shard i) and
 * returns its new start ordinal, clamped where both neighbours keep a
 * non-empty cell. A boundary on an empty cell first snaps to the non-empty
 * cell after it, which counts as the first step when moving right.
 */
export function nudgeBoundary(ordinals: ArrayLike<number>, starts: ArrayLike<number>, i: number, steps: number): number {
  const [lo, hi] = boundaryChoices(ordinals, starts, i);
  if (lo > hi || !Number.isInteger(steps)) return starts[i];
  const k = lowerBound(ordinals, starts[i]);
  const onCell = k < ordinals.length && ordinals[k] === starts[i];
  const target = steps > 0 && !onCell ? k + steps - 1 : k + steps;
  return ordinals[Math.min(hi, Math.max(lo, target))];
}

/** shardCounts returns the restaurants and dishes of each range of a layout (starts of length N+1). */
export function shardCounts(sums: CellSums, starts: ArrayLike<number>): { restaurants: number; dishes: number }[] {
  const out: { restaurants: number; dishes: number }[] = [];
  for (let i = 0; i + 1 < starts.length; i++) {
    const s = sums.sum(starts[i], starts[i + 1]);
    out.push({ restaurants: s.restaurants, dishes: s.dishes });
  }
  return out;
}

/**
 * withStarts returns a copy of a file with new range starts (same shard
 * count, names and shard numbers, so routing stays valid), the shard entries'
 * counts recomputed from the cells, and a new hash. starts: length N+1,
 * starts[0] = 0, strictly ascending, starts[N] = CELL_COUNT; throws a
 * RangeError otherwise. The file must have no migration (its moves refer to
 * the old boundaries).
 */
export function withStarts(file: BoundaryFile, starts: ArrayLike<number>, sums: CellSums): BoundaryFile {
  const n = file.numberOfShards;
  if (starts.length !== n + 1 || starts[0] !== 0 || starts[n] !== CELL_COUNT) throw new RangeError(`starts has ${starts.length} entries from ${starts[0]} to ${starts[starts.length - 1]}: expected ${n + 1} from 0 to ${CELL_COUNT}`);
  for (let i = 1; i <= n; i++) if (!(starts[i] > starts[i - 1])) throw new RangeError(`starts[${i}] ${starts[i]} is not after starts[${i - 1}] ${starts[i - 1]}: ranges must not be empty`);
  if (file.migration) throw new RangeError('the file has moves in progress (its migration field): finish that migration before editing its boundaries');
  const counts = shardCounts(sums, starts);
  const { hash: _h, ...rest } = file;
  return withHash({
    ...rest,
    boundaries: Array.from({ length: n - 1 }, (_, k) => tokenOfOrdinal(starts[k + 1])!),
    shards: file.shards.map((s, k) => ({ name: s.name, shard: s.shard, restaurants: counts[k].restaurants, dishes: counts[k].dishes })),
  });
}

/**
 * childOf makes `file` a new version derived from `current`: version =
 * current.version + 1, parent = current's hash, createdAt = `createdAt`
 * (ISO-8601), shard counts recomputed from the cells, `balance` replaced by
 * `note`, new hash (withHash). Returns the file and the validator's problems
 * (empty when it may be saved). Files with a migration are refused: the
 * migration is bound to its base file's hash.
 */
export function childOf(current: BoundaryFile, file: BoundaryFile, sums: CellSums, createdAt: string, note: Record<string, unknown>): { file: BoundaryFile; problems: string[] } {
  if (file.migration) return { file, problems: ['migration: the candidate has moves in progress; a migration is bound to the hash of its base file, so an edited copy cannot keep it (finish or drop the migration first)'] };
  const starts = new ShardTable(file, 'candidate boundary file').starts;
  const counts = shardCounts(sums, starts);
  const { hash: _h, balance: _b, migration: _m, ...rest } = file;
  const out = withHash({
    ...rest,
    version: current.version + 1,
    parent: current.hash,
    createdAt,
    shards: file.shards.map((s, k) => ({ name: s.name, shard: s.shard, restaurants: counts[k].restaurants, dishes: counts[k].dishes })),
    balance: note,
  });
  return { file: out, problems: validateBoundaryFile(out).map((e) => e.message) };
}

/** moveAt returns the move holding an ordinal (moves ascending and disjoint, as diffBoundaries returns them), or null. */
export function moveAt<T extends Pick<BoundaryMove, 'startOrdinal' | 'endOrdinal'>>(moves: readonly T[], ordinal: number): T | null {
  let lo = 0;
  let hi = moves.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = moves[mid];
    if (ordinal < m.startOrdinal) hi = mid - 1;
    else if (ordinal >= m.endOrdinal) lo = mid + 1;
    else return m;
  }
  return null;
}

/**
 * movesTexels packs moves for the diff overlay's shader: a 2-row float
 * texture of width max(1, moves), row 0 the start ordinals, row 1 the end
 * ordinals (exclusive); every ordinal ≤ CELL_COUNT < 2^24, exact in float32.
 * With no moves the one texel is the empty range [CELL_COUNT, CELL_COUNT).
 */
export function movesTexels(moves: readonly Pick<BoundaryMove, 'startOrdinal' | 'endOrdinal'>[]): { data: Float32Array; width: number } {
  const width = Math.max(1, moves.length);
  const data = new Float32Array(2 * width).fill(CELL_COUNT);
  moves.forEach((m, k) => {
    data[k] = m.startOrdinal;
    data[width + k] = m.endOrdinal;
  });
  return { data, width };
}

/** One side of a search evaluated under one file. */
export interface SearchSide {
  /** Key-order indices of the shards asked, ascending. */
  indices: number[];
  names: string[];
  /** The routing string: names in key order, comma-joined. */
  routing: string;
}

/** The radius explorer's current search under the current and the candidate file. */
export interface SearchBoth {
  /** Level-10 cells of the covering (0 in no-location mode). */
  cells: number;
  /** True in no-location mode: every shard of each file is asked. */
  all: boolean;
  before: SearchSide;
  after: SearchSide;
  /** Names asked only before / only after. */
  dropped: string[];
  added: string[];
}

function side(router: ShardTable, indices: number[]): SearchSide {
  const names = indices.map((i) => router.shards[i].name);
  return { indices, names, routing: names.join(',') };
}

/**
 * searchUnderBoth resolves a covering (its level-10 ordinals) to the shards
 * searches read under each file (Router.readIndexOfOrdinal, so moves in
 * progress are honoured), or, with `ordinals` null, a search with no location
 * (every shard).
 */
export function searchUnderBoth(ordinals: ArrayLike<number> | null, current: ShardTable, candidate: ShardTable): SearchBoth {
  const asked = (r: ShardTable) => {
    if (ordinals === null) return Array.from({ length: r.numberOfShards }, (_, i) => i);
    const set = new Set<number>();
    for (let k = 0; k < ordinals.length; k++) set.add(r.readIndexOfOrdinal(ordinals[k]));
    return [...set].sort((a, b) => a - b);
  };
  const before = side(current, asked(current));
  const after = side(candidate, asked(candidate));
  const a = new Set(after.names);
  const b = new Set(before.names);
  return { cells: ordinals?.length ?? 0, all: ordinals === null, before, after, dropped: before.names.filter((x) => !a.has(x)), added: after.names.filter((x) => !b.has(x)) };
}

/** One shard's bar: documents before and after relative to each file's mean (1 = the mean), null where the file lacks the name. */
export interface EvennessRow {
  name: string;
  before: number | null;
  after: number | null;
}

/** evennessRows turns a diff's per-shard documents into ratios to each file's mean, for bars against the mean. */
export function evennessRows(shards: readonly { name: string; before: { documents: number } | null; after: { documents: number } | null }[], meanBefore: number, meanAfter: number): EvennessRow[] {
  const rel = (x: number, mean: number) => (mean > 0 ? x / mean : 0);
  return shards.map((s) => ({ name: s.name, before: s.before ? rel(s.before.documents, meanBefore) : null, after: s.after ? rel(s.after.documents, meanAfter) : null }));
}

/** cellsFromColumns rebuilds a cells list from the columns the review worker sends (tokens joined by commas). */
export function cellsFromColumns(c: { tokens: string; ordinals: Int32Array; restaurants: Float64Array; dishes: Float64Array }): CellWeight[] {
  const tokens = c.tokens.split(',');
  return Array.from(c.ordinals, (ordinal, k) => ({ token: tokens[k], ordinal, restaurants: c.restaurants[k], dishes: c.dishes[k] }));
}

/** savedFileName names a downloaded file after its version and hash: boundaries-v2-3f9c1a2b4d5e.json. */
export function savedFileName(file: BoundaryFile): string {
  return `boundaries-v${file.version}-${file.hash.slice(0, 12)}.json`;
}

/**
 * candidateColors colors the candidate's shards (key order) so that a name
 * keeps its current color; names the current file lacks take the palette's
 * next colors after the current file's N (distinct from all of them for up
 * to 36 shards in all).
 */
export function candidateColors(currentNames: readonly string[], currentColors: readonly RGB[], candidateNames: readonly string[]): RGB[] {
  const byName = new Map(currentNames.map((n, i) => [n, currentColors[i]]));
  let next = currentNames.length;
  return candidateNames.map((n) => byName.get(n) ?? shardColor(next++));
}

/**
 * Diffing two boundary files: which key ranges change owner, how many
 * documents that moves, and how even the shards are before and after.
 *
 * Owners are matched between the files by shard NAME: a range moves when the
 * name of the shard searches read it from differs between the current and the
 * candidate file (a file with moves in progress is read with its read owners,
 * see migration.ts). Names are the routing values, so this is exactly the set
 * of documents whose routing changes. When both files have the same index,
 * number of shards and routing shards, a name means the same OpenSearch shard
 * in both and the moves are the documents to move; otherwise the candidate
 * needs a new index and every document is written again (`reindex` says so),
 * and the moves are the documents that change named shard.
 *
 * Matching by name is the default. `match: 'range'` instead pairs each
 * candidate shard with at most one current shard so that as many documents as
 * possible stay with their pair (the best non-crossing matching of the two
 * key-order lists), as if names were free to choose: the geometric change,
 * useful when a new shard count forces new names. Moves still show both names.
 *
 * Documents are restaurants + dishes: the cell weights the balancer uses.
 */
import { ShardTable, type ReadRange } from './shardTable.ts';
import { tokenOfOrdinal, CELL_COUNT } from './cells.ts';
import { CellSums } from './cellSums.ts';
import { defaultRoutingNumShards } from './routingHash.ts';
import type { BoundaryFile } from './boundaries.ts';
import type { CellWeight } from './build.ts';

/** How even a set of shard weights is. */
export interface Evenness {
  shards: number;
  total: number;
  mean: number;
  heaviest: number;
  lightest: number;
  /** heaviest / mean; 1 is perfectly even, ≥ 1. */
  heaviestOverMean: number;
  /** Coefficient of variation: population standard deviation / mean; 0 is perfectly even. */
  cv: number;
  /** Gini coefficient in [0, 1 − 1/N]; 0 is perfectly even. */
  gini: number;
}

/**
 * evenness measures shard weights (non-negative, at least one). An all-zero
 * list is perfectly even (heaviestOverMean 1, cv 0, gini 0).
 */
export function evenness(weights: ArrayLike<number>): Evenness {
  const n = weights.length;
  if (n === 0) throw new RangeError('weights is empty: evenness needs at least one shard');
  const xs = Array.from(weights);
  xs.forEach((w, i) => {
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`weights[${i}] ${w} is invalid: expected a finite, non-negative number`);
  });
  const total = xs.reduce((a, b) => a + b, 0);
  const mean = total / n;
  const heaviest = Math.max(...xs);
  const lightest = Math.min(...xs);
  if (total === 0) return { shards: n, total, mean, heaviest, lightest, heaviestOverMean: 1, cv: 0, gini: 0 };
  const variance = xs.reduce((a, w) => a + (w - mean) ** 2, 0) / n;
  // Gini from the sorted weights: G = 2·Σ i·x(i) / (n·Σx) − (n + 1)/n, i = 1..n.
  const sorted = [...xs].sort((a, b) => a - b);
  const ranked = sorted.reduce((a, w, i) => a + (i + 1) * w, 0);
  const gini = Math.max(0, (2 * ranked) / (n * total) - (n + 1) / n);
  return { shards: n, total, mean, heaviest, lightest, heaviestOverMean: heaviest / mean, cv: Math.sqrt(variance) / mean, gini };
}

/** One maximal key range whose owner changes. */
export interface BoundaryMove {
  /** Owner in the current file (shard name) and its OpenSearch shard number there. */
  from: string;
  fromShard: number;
  /** Owner in the candidate file and its OpenSearch shard number there. */
  to: string;
  toShard: number;
  /** First level-10 cell of the range, inclusive, as a token (as in boundary files). */
  start: string;
  /** First level-10 cell after the range, exclusive, as a token; null = to the end of the curve. */
  end: string | null;
  /** The same range as ordinals [startOrdinal, endOrdinal), endOrdinal ≤ CELL_COUNT. */
  startOrdinal: number;
  endOrdinal: number;
  /** Non-empty cells of the cells list in the range. */
  cells: number;
  restaurants: number;
  dishes: number;
  /** (restaurants + dishes) / all documents of the cells list, in [0, 1]. */
  share: number;
  /**
   * True when both files have the same layout and the two names route to the
   * same OpenSearch shard: a rename of the routing value, no document moves.
   */
  sameShard: boolean;
}

/** What a diff says about one file. */
export interface DiffFileSummary {
  hash: string;
  version: number;
  index: string;
  numberOfShards: number;
  /** Effective index.number_of_routing_shards (OpenSearch's default when the file omits it). */
  routingNumShards: number;
  /** Moves in progress in the file (0 when it has no migration). */
  movesInProgress: number;
}

/** The documents of one shard in one file. */
export interface ShardSide {
  /** Key-order index in that file. */
  index: number;
  /** OpenSearch shard number in that file. */
  shard: number;
  restaurants: number;
  dishes: number;
  /** restaurants + dishes. */
  documents: number;
}

/** One shard name and what it holds before (current) and after (candidate); null where the file has no shard of that name. */
export interface ShardWeight {
  name: string;
  before: ShardSide | null;
  after: ShardSide | null;
}

/** How diffBoundaries pairs the shards of the two files: by name (default), or by the best overlap of their ranges. */
export type ShardMatch = 'name' | 'range';

/** The result of diffBoundaries. */
export interface BoundaryDiff {
  /** How owners were matched between the files. */
  match: ShardMatch;
  current: DiffFileSummary;
  candidate: DiffFileSummary;
  /** Same index, numberOfShards and routingNumShards: moves can be done in place. */
  sameLayout: boolean;
  /** Why the candidate needs a new index (every document written again), or null when it does not. */
  reindex: string | null;
  /** Maximal ranges whose owner changes, ascending in key order; empty when nothing moves. */
  moves: BoundaryMove[];
  /** Sums over the moves; share = documents / all documents. */
  totals: { moves: number; cells: number; restaurants: number; dishes: number; documents: number; share: number };
  /** Everything the cells list holds. */
  all: { cells: number; restaurants: number; dishes: number; documents: number };
  /** Every shard name of either file: the current file's in key order, then names only the candidate has. */
  shards: ShardWeight[];
  /** Evenness of the documents per shard in each file. */
  evenness: { before: Evenness; after: Evenness };
}

/**
 * overlaps walks two files' read ranges together along the whole curve: each maximal ordinal
 * interval [pos, end) on which one range of each file holds, with those two ranges, in key
 * order. Both lists must cover [0, CELL_COUNT) in order (ShardTable.readRanges does).
 */
function* overlaps(ra: readonly ReadRange[], rb: readonly ReadRange[]): Generator<[ReadRange, ReadRange, number, number]> {
  let i = 0;
  let j = 0;
  let pos = 0;
  while (pos < CELL_COUNT) {
    while (ra[i].end <= pos) i++;
    while (rb[j].end <= pos) j++;
    const end = Math.min(ra[i].end, rb[j].end);
    yield [ra[i], rb[j], pos, end];
    pos = end;
  }
}

/**
 * pairByRange pairs candidate shards with current shards so that the
 * documents in paired overlaps are as many as possible, pairs not crossing in
 * key order (contiguous ranges in the same order never gain from crossing).
 * Returns, per candidate shard, the current shard's index or -1.
 */
function pairByRange(ra: ReadRange[], rb: ReadRange[], n: number, m: number, sums: CellSums): number[] {
  const w = new Float64Array(n * m);
  for (const [a, b, pos, end] of overlaps(ra, rb)) {
    const s = sums.sum(pos, end);
    w[a.index * m + b.index] += s.restaurants + s.dishes;
  }
  // f[x][y]: best total over current shards < x and candidate shards < y.
  const f = new Float64Array((n + 1) * (m + 1));
  const at = (x: number, y: number) => x * (m + 1) + y;
  for (let x = 1; x <= n; x++) {
    for (let y = 1; y <= m; y++) {
      const wxy = w[(x - 1) * m + (y - 1)];
      f[at(x, y)] = Math.max(f[at(x - 1, y)], f[at(x, y - 1)], wxy > 0 ? f[at(x - 1, y - 1)] + wxy : -1);
    }
  }
  const pair = new Array<number>(m).fill(-1);
  for (let x = n, y = m; x > 0 && y > 0; ) {
    const wxy = w[(x - 1) * m + (y - 1)];
    if (wxy > 0 && f[at(x, y)] === f[at(x - 1, y - 1)] + wxy) {
      pair[y - 1] = x - 1;
      x--;
      y--;
    } else if (f[at(x, y)] === f[at(x - 1, y)]) x--;
    else y--;
  }
  return pair;
}

const asTable = (x: BoundaryFile | ShardTable, source: string): ShardTable => (x instanceof ShardTable ? x : new ShardTable(x, source));

function summary(r: ShardTable): DiffFileSummary {
  const f = r.file;
  return {
    hash: f.hash,
    version: f.version,
    index: f.index,
    numberOfShards: f.numberOfShards,
    routingNumShards: f.routingNumShards ?? defaultRoutingNumShards(f.numberOfShards),
    movesInProgress: r.moves.length,
  };
}

/**
 * reindexReason says why a candidate cannot be reached by moving ranges
 * inside the current index (a different index name, number of shards or
 * routing shards), or returns null when it can.
 */
export function reindexReason(current: DiffFileSummary, candidate: DiffFileSummary): string | null {
  const why: string[] = [];
  if (current.index !== candidate.index) why.push(`the index changes ("${current.index}" → "${candidate.index}")`);
  if (current.numberOfShards !== candidate.numberOfShards) why.push(`numberOfShards changes (${current.numberOfShards} → ${candidate.numberOfShards})`);
  else if (current.routingNumShards !== candidate.routingNumShards) why.push(`routingNumShards changes (${current.routingNumShards} → ${candidate.routingNumShards})`);
  if (why.length === 0) return null;
  return `${why.join(' and ')}: OpenSearch cannot change an index's shard count or routing in place, and a name routes to a different shard under a different count, so the candidate needs a new index and every document (100%) is written again`;
}

/**
 * diffBoundaries compares a current and a candidate boundary file (or their
 * ShardTables, a Router among them) over a cells list (non-empty level-10 cells ascending in key order,
 * as parseCellsCsv returns). Invalid files throw a BoundaryFileError naming
 * every problem. A file diffed with itself has no moves.
 */
export function diffBoundaries(current: BoundaryFile | ShardTable, candidate: BoundaryFile | ShardTable, cells: readonly CellWeight[], opts: { match?: ShardMatch } = {}): BoundaryDiff {
  const match = opts.match ?? 'name';
  if (match !== 'name' && match !== 'range') throw new RangeError(`match ${JSON.stringify(match)} is invalid: expected "name" or "range"`);
  const a = asTable(current, 'current boundary file');
  const b = asTable(candidate, 'candidate boundary file');
  const sums = new CellSums(cells);
  const all = sums.total;
  const allDocs = all.restaurants + all.dishes;
  const share = (docs: number) => (allDocs > 0 ? docs / allDocs : 0);
  const cur = summary(a);
  const cand = summary(b);
  const reindex = reindexReason(cur, cand);

  // Walk the union of both read layouts; each piece has one owner in each file.
  const ra = a.readRanges();
  const rb = b.readRanges();
  // Owner identities: by name, or current shard k / the current shard a candidate shard is paired with.
  const idA = match === 'name' ? a.shards.map((s) => s.name) : a.shards.map((s) => `#${s.index}`);
  const idB = match === 'name' ? b.shards.map((s) => s.name) : pairByRange(ra, rb, a.numberOfShards, b.numberOfShards, sums).map((k, j) => (k >= 0 ? `#${k}` : `new ${j}`));
  const moves: BoundaryMove[] = [];
  for (const [rangeA, rangeB, pos, end] of overlaps(ra, rb)) {
    const from = a.shards[rangeA.index];
    const to = b.shards[rangeB.index];
    if (idA[from.index] !== idB[to.index]) {
      const last = moves[moves.length - 1];
      if (last && last.endOrdinal === pos && last.from === from.name && last.to === to.name) last.endOrdinal = end;
      else {
        moves.push({
          from: from.name,
          fromShard: from.shard,
          to: to.name,
          toShard: to.shard,
          start: '',
          end: null,
          startOrdinal: pos,
          endOrdinal: end,
          cells: 0,
          restaurants: 0,
          dishes: 0,
          share: 0,
          sameShard: reindex === null && from.shard === to.shard,
        });
      }
    }
  }
  const totals = { moves: moves.length, cells: 0, restaurants: 0, dishes: 0, documents: 0, share: 0 };
  for (const m of moves) {
    m.start = tokenOfOrdinal(m.startOrdinal)!;
    m.end = tokenOfOrdinal(m.endOrdinal);
    const s = sums.sum(m.startOrdinal, m.endOrdinal);
    m.cells = s.cells;
    m.restaurants = s.restaurants;
    m.dishes = s.dishes;
    m.share = share(s.restaurants + s.dishes);
    totals.cells += s.cells;
    totals.restaurants += s.restaurants;
    totals.dishes += s.dishes;
  }
  totals.documents = totals.restaurants + totals.dishes;
  totals.share = share(totals.documents);

  const sides = (r: ShardTable): ShardSide[] => {
    const out = r.shards.map((s) => ({ index: s.index, shard: s.shard, restaurants: 0, dishes: 0, documents: 0 }));
    for (const rr of r.readRanges()) {
      const s = sums.sum(rr.start, rr.end);
      out[rr.index].restaurants += s.restaurants;
      out[rr.index].dishes += s.dishes;
    }
    for (const s of out) s.documents = s.restaurants + s.dishes;
    return out;
  };
  const before = sides(a);
  const after = sides(b);
  const afterByName = new Map(b.shards.map((s) => [s.name, after[s.index]]));
  const shards: ShardWeight[] = a.shards.map((s) => ({ name: s.name, before: before[s.index], after: afterByName.get(s.name) ?? null }));
  const known = new Set(a.shards.map((s) => s.name));
  for (const s of b.shards) if (!known.has(s.name)) shards.push({ name: s.name, before: null, after: after[s.index] });

  return {
    match,
    current: cur,
    candidate: cand,
    sameLayout: reindex === null,
    reindex,
    moves,
    totals,
    all: { ...all, documents: allDocs },
    shards,
    evenness: { before: evenness(before.map((s) => s.documents)), after: evenness(after.map((s) => s.documents)) },
  };
}

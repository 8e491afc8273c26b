/**
 * The shard table of one boundary file: point, cell, token or curve ordinal → shard, and
 * during a migration each range's read and write owners. Router extends it with circle
 * routing (cover, shardsAsked).
 *
 * Why a class of its own: everything here is a binary search over the file's range starts,
 * with no S2 geometry beyond a point's cell. Code that only looks cells up (the explorer's
 * page, which hands circles to its workers) takes a ShardTable, and so carries none of the
 * covering's S2 classes (cells, caps, the exact predicates): a bundler keeps every method of a
 * class it keeps, so a Router brings them all.
 */
import { cellAt, cellLevel, cellOrdinal, cellToken, parseToken, CELL_COUNT, LEVEL, type CellId } from './cells.ts';
import { assertValidBoundaryFile, type BoundaryFile } from './boundaries.ts';
import { resolveMoves, phaseRouting, type ResolvedMove } from './migration.ts';

/**
 * lastStartAtOrBelow returns the largest i in [0, count) with starts[i] <= ordinal, by binary
 * search. Preconditions: starts ascending, starts[0] <= ordinal (every layout starts at 0).
 */
function lastStartAtOrBelow(starts: Int32Array, count: number, ordinal: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ordinal) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A shard as the router reports it. */
export interface ShardRef {
  /** Position of the shard's range in key order, in [0, N). */
  index: number;
  /** The routing value. */
  name: string;
  /** The OpenSearch shard number the name routes to. */
  shard: number;
}

/** A contiguous run of level-10 ordinals [start, end) and the key-order index of the shard searches read it from. */
export interface ReadRange {
  start: number;
  end: number;
  index: number;
}

/** Documents searches must ignore during a migration: the copies of [start, end) routed with `routing`. */
export interface ReadExclusion {
  /** Ordinals [startOrdinal, endOrdinal) and the same as tokens (end null = end of the curve). */
  startOrdinal: number;
  endOrdinal: number;
  start: string;
  end: string | null;
  /** The shard name whose copy of the range is not the read copy (match it against `_routing`). */
  routing: string;
}

/**
 * ShardTable answers lookups for one boundary file. Construct it with a file; it validates the
 * file first and throws a BoundaryFileError listing every problem, so nothing routes on an
 * invalid file.
 *
 * route, shardOfCell, shardOfToken, indexOfOrdinal and starts describe the file's
 * `boundaries`. When the file has moves in progress (its `migration` field, see migration.ts) a
 * document is written with writeShards (one or two owners) and searches read each range from one
 * owner (readShard, readIndexOfOrdinal). Without a migration, read owner = write owner = the
 * boundaries' owner.
 */
export class ShardTable {
  readonly file: BoundaryFile;
  readonly numberOfShards: number;
  readonly shards: readonly ShardRef[];
  /**
   * starts[i] is the first level-10 ordinal of shard i; starts[N] = CELL_COUNT.
   * Shard i holds ordinals in [starts[i], starts[i+1]).
   */
  readonly starts: Int32Array;
  /** The moves in progress, ascending in key order (empty without a migration). */
  readonly moves: readonly ResolvedMove[];
  /** Read layout: segment k holds ordinals [readStarts[k], readStarts[k+1]) and is read from shard readOwners[k]. */
  protected readonly readStarts: Int32Array;
  protected readonly readOwners: Int32Array;

  constructor(file: unknown, source?: string) {
    assertValidBoundaryFile(file, source);
    this.file = file;
    this.numberOfShards = file.numberOfShards;
    this.shards = file.shards.map((s, index) => Object.freeze({ index, name: s.name, shard: s.shard }));
    this.starts = new Int32Array(this.numberOfShards + 1);
    file.boundaries.forEach((t, i) => (this.starts[i + 1] = cellOrdinal(parseToken(t))));
    this.starts[this.numberOfShards] = CELL_COUNT;
    this.moves = file.migration ? Object.freeze(resolveMoves(file.migration, file.shards.map((s) => s.name))) : [];
    if (this.moves.length === 0) {
      this.readStarts = this.starts;
      this.readOwners = Int32Array.from({ length: this.numberOfShards }, (_, i) => i);
    } else {
      // Cut the curve at every shard start and move end, give each piece its read owner, merge equal neighbours.
      const cuts = [...new Set([...this.starts.subarray(0, this.numberOfShards), ...this.moves.flatMap((m) => [m.startOrdinal, m.endOrdinal])])]
        .filter((o) => o < CELL_COUNT)
        .sort((a, b) => a - b);
      const starts: number[] = [];
      const owners: number[] = [];
      for (const o of cuts) {
        const owner = this.readIndexByMove(o);
        if (owners.length > 0 && owners[owners.length - 1] === owner) continue;
        starts.push(o);
        owners.push(owner);
      }
      starts.push(CELL_COUNT);
      this.readStarts = Int32Array.from(starts);
      this.readOwners = Int32Array.from(owners);
    }
  }

  /** The move holding an ordinal, or undefined. */
  private moveAt(ordinal: number): ResolvedMove | undefined {
    let lo = 0;
    let hi = this.moves.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const m = this.moves[mid];
      if (ordinal < m.startOrdinal) hi = mid - 1;
      else if (ordinal >= m.endOrdinal) lo = mid + 1;
      else return m;
    }
    return undefined;
  }

  private readIndexByMove(ordinal: number): number {
    const m = this.moveAt(ordinal);
    if (!m) return this.indexOfOrdinal(ordinal);
    return phaseRouting(m.phase).reads === 'to' ? m.toIndex : m.fromIndex;
  }

  /** Index of the read segment holding an ordinal (Router.shardsAsked walks the read layout with it). */
  protected segmentOfOrdinal(ordinal: number): number {
    return lastStartAtOrBelow(this.readStarts, this.readOwners.length, ordinal);
  }

  /**
   * readIndexOfOrdinal returns the key-order index of the shard searches read
   * a level-10 ordinal in [0, CELL_COUNT) from: the boundaries' owner, or the
   * move's read owner while the ordinal is in a move.
   */
  readIndexOfOrdinal(ordinal: number): number {
    return this.readOwners[this.segmentOfOrdinal(ordinal)];
  }

  /**
   * writeIndicesOfOrdinal returns the key-order indices of the shards a
   * document at a level-10 ordinal is written to: one, or two (old owner
   * first) while its range is between dual-write and switched.
   */
  writeIndicesOfOrdinal(ordinal: number): number[] {
    const m = this.moves.length > 0 ? this.moveAt(ordinal) : undefined;
    if (!m) return [this.indexOfOrdinal(ordinal)];
    return phaseRouting(m.phase).writes.map((w) => (w === 'from' ? m.fromIndex : m.toIndex));
  }

  /** readShard returns the shard searches read a point's documents from (degrees; throws RangeError on invalid input). */
  readShard(lat: number, lng: number): ShardRef {
    return this.shards[this.readIndexOfOrdinal(cellOrdinal(cellAt(lat, lng)))];
  }

  /**
   * writeShards returns the shards a document at a point is written to, each
   * with its own routing value (its name): one shard, or two (old owner first)
   * while the point's range is being moved. Dishes use their restaurant's point.
   */
  writeShards(lat: number, lng: number): ShardRef[] {
    return this.writeIndicesOfOrdinal(cellOrdinal(cellAt(lat, lng))).map((i) => this.shards[i]);
  }

  /** readRanges lists the read layout: maximal ordinal runs [start, end) read from one shard, ascending, covering the curve. */
  readRanges(): ReadRange[] {
    return Array.from(this.readOwners, (index, k) => ({ start: this.readStarts[k], end: this.readStarts[k + 1], index }));
  }

  /**
   * readExclusions lists, for every move in progress, the copy searches must
   * ignore: documents whose cell is in the move's range and whose `_routing`
   * is the non-reading owner. A search asking both owners of a move would
   * otherwise count the range twice. Empty without a migration. In a query:
   * must_not documents with that `_routing` whose restaurant's level-10 token
   * is in [start, end) (tokens of level-10 cells are six hex digits, so a
   * keyword range on them orders like cell ids); dishes through their parent.
   */
  readExclusions(): ReadExclusion[] {
    return this.moves.map((m) => ({
      startOrdinal: m.startOrdinal,
      endOrdinal: m.endOrdinal,
      start: m.start,
      end: m.end,
      routing: phaseRouting(m.phase).ignores === 'from' ? m.from : m.to,
    }));
  }

  /** indexOfOrdinal returns the key-order index of the shard holding a level-10 ordinal in [0, CELL_COUNT). */
  indexOfOrdinal(ordinal: number): number {
    return lastStartAtOrBelow(this.starts, this.numberOfShards, ordinal);
  }

  /** shardOfCell returns the shard holding a level-10 cell. */
  shardOfCell(id: CellId): ShardRef {
    if (cellLevel(id) !== LEVEL) throw new RangeError(`cell ${cellToken(id)} is level ${cellLevel(id)}: expected a level-${LEVEL} cell`);
    return this.shards[this.indexOfOrdinal(cellOrdinal(id))];
  }

  /** shardOfToken returns the shard holding a level-10 token; throws RangeError on an invalid token. */
  shardOfToken(token: string): ShardRef {
    return this.shards[this.indexOfOrdinal(cellOrdinal(parseToken(token)))];
  }

  /** route returns a point's level-10 token and shard (degrees; throws RangeError on invalid input). */
  route(lat: number, lng: number): { token: string } & ShardRef {
    const id = cellAt(lat, lng);
    return { token: cellToken(id), ...this.shards[this.indexOfOrdinal(cellOrdinal(id))] };
  }

  /** routingString joins shard names, in key order, with commas and no spaces. */
  routingString(indices: Iterable<number>): string {
    return [...new Set(indices)]
      .sort((a, b) => a - b)
      .map((i) => this.shards[i].name)
      .join(',');
  }

  /** allShardsRouting is the routing string of a search with no location: every shard. */
  allShardsRouting(): string {
    return this.shards.map((s) => s.name).join(',');
  }
}

/**
 * The router: point → cell → shard, circle → cells → shards → routing string,
 * all from one validated boundary file.
 */
import { s2 } from 's2js';
import { cellAt, cellOrdinal, parseToken, ordinalRange, CELL_COUNT, LEVEL, type CellId } from './cells';
import { circleCap, coverCircle } from './cover';
import { assertValidBoundaryFile, type BoundaryFile } from './boundaries';

const { cellid } = s2;

/** A shard as the router reports it. */
export interface ShardRef {
  /** Position of the shard's range in key order, in [0, N). */
  index: number;
  /** The routing value. */
  name: string;
  /** The OpenSearch shard number the name routes to. */
  shard: number;
}

/** The shards of a search and how many covering cells each holds. */
export interface ShardCells extends ShardRef {
  cells: number;
}

/** A circle's covering resolved to shards. */
export interface CircleRoute {
  /** The covering, ascending cell ids. */
  cells: CellId[];
  /** For each covering cell, the key-order index of its shard. */
  cellShards: Int32Array;
  /** The shards asked, in key order, with their cell counts. */
  shards: ShardCells[];
  /** The routing string: shard names in key order joined by commas. */
  routing: string;
}

/**
 * Router answers routing questions for one boundary file. Construct it with a
 * file; it validates the file first and throws a BoundaryFileError listing
 * every problem, so nothing routes on an invalid file.
 */
export class Router {
  readonly file: BoundaryFile;
  readonly numberOfShards: number;
  readonly shards: readonly ShardRef[];
  /**
   * starts[i] is the first level-10 ordinal of shard i; starts[N] = CELL_COUNT.
   * Shard i holds ordinals in [starts[i], starts[i+1]).
   */
  readonly starts: Int32Array;

  constructor(file: unknown, source?: string) {
    assertValidBoundaryFile(file, source);
    this.file = file;
    this.numberOfShards = file.numberOfShards;
    this.shards = file.shards.map((s, index) => Object.freeze({ index, name: s.name, shard: s.shard }));
    this.starts = new Int32Array(this.numberOfShards + 1);
    file.boundaries.forEach((t, i) => (this.starts[i + 1] = cellOrdinal(parseToken(t))));
    this.starts[this.numberOfShards] = CELL_COUNT;
  }

  /** indexOfOrdinal returns the key-order index of the shard holding a level-10 ordinal in [0, CELL_COUNT). */
  indexOfOrdinal(ordinal: number): number {
    // Largest i with starts[i] <= ordinal.
    let lo = 0;
    let hi = this.numberOfShards - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= ordinal) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** shardOfCell returns the shard holding a level-10 cell. */
  shardOfCell(id: CellId): ShardRef {
    if (cellid.level(id) !== LEVEL) throw new RangeError(`cell ${cellid.toToken(id)} is level ${cellid.level(id)}: expected a level-${LEVEL} cell`);
    return this.shards[this.indexOfOrdinal(cellOrdinal(id))];
  }

  /** shardOfToken returns the shard holding a level-10 token; throws RangeError on an invalid token. */
  shardOfToken(token: string): ShardRef {
    return this.shards[this.indexOfOrdinal(cellOrdinal(parseToken(token)))];
  }

  /** route returns a point's level-10 token and shard (degrees; throws RangeError on invalid input). */
  route(lat: number, lng: number): { token: string } & ShardRef {
    const id = cellAt(lat, lng);
    return { token: cellid.toToken(id), ...this.shards[this.indexOfOrdinal(cellOrdinal(id))] };
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

  /**
   * coverCircle covers a circle with level-10 cells (the exact RegionCoverer
   * covering) and resolves them to shards. radiusKm in (0, MAX_RADIUS_KM].
   */
  coverCircle(lat: number, lng: number, radiusKm: number): CircleRoute {
    const cells = coverCircle(lat, lng, radiusKm);
    const cellShards = new Int32Array(cells.length);
    const counts = new Map<number, number>();
    cells.forEach((c, k) => {
      const i = this.indexOfOrdinal(cellOrdinal(c));
      cellShards[k] = i;
      counts.set(i, (counts.get(i) ?? 0) + 1);
    });
    const shards = [...counts.keys()].sort((a, b) => a - b).map((i) => ({ ...this.shards[i], cells: counts.get(i)! }));
    return { cells, cellShards, shards, routing: shards.map((s) => s.name).join(',') };
  }

  /**
   * shardsForCircle returns the key-order indices (ascending) of the shards a
   * circle's level-10 covering touches, without listing the cells: the fast
   * path. It walks the cell hierarchy from the six faces and stops descending
   * as soon as a cell's range of level-10 ordinals lies in one shard, lies
   * wholly inside the cap, or can add no shard not yet found. It uses the
   * same cap and the same cap-cell tests as the RegionCoverer, so its result
   * equals the shards of coverCircle (checked on random circles in tests).
   */
  shardsForCircle(lat: number, lng: number, radiusKm: number): number[] {
    const cap = circleCap(lat, lng, radiusKm);
    const found = new Uint8Array(this.numberOfShards);
    let nFound = 0;
    const add = (lo: number, hi: number) => {
      for (let i = lo; i <= hi; i++) if (!found[i]) (found[i] = 1), nFound++;
    };
    const visit = (id: CellId): void => {
      if (nFound === this.numberOfShards) return;
      const cell = s2.Cell.fromCellID(id);
      if (!cap.intersectsCell(cell)) return;
      const [first, last] = ordinalRange(id);
      const lo = this.indexOfOrdinal(first);
      const hi = lo === this.numberOfShards - 1 || this.starts[lo + 1] > last ? lo : this.indexOfOrdinal(last);
      if (lo === hi) return add(lo, lo);
      let missing = false;
      for (let i = lo; i <= hi && !missing; i++) missing = !found[i];
      if (!missing) return;
      if (cap.containsCell(cell)) return add(lo, hi);
      // A level-10 cell lies in one shard, so the recursion stops at level 10.
      for (const child of cellid.children(id)) visit(child);
    };
    for (let face = 0; face < 6; face++) visit(cellid.fromFace(face));
    const out: number[] = [];
    for (let i = 0; i < this.numberOfShards; i++) if (found[i]) out.push(i);
    return out;
  }

  /** circleRouting returns the routing string for a circle via the fast path. */
  circleRouting(lat: number, lng: number, radiusKm: number): string {
    return this.routingString(this.shardsForCircle(lat, lng, radiusKm));
  }
}

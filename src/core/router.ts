/**
 * The router: point → cell → shard, circle → cells → shards → routing string,
 * all from one validated boundary file.
 */
import { coverOrdinals, walkCircle } from './coverWalk.ts';
import { ShardTable, type ShardRef } from './shardTable.ts';

export type { ShardRef, ReadRange, ReadExclusion } from './shardTable.ts';

/** The shards of a search and how many covering cells each holds. */
export interface ShardCells extends ShardRef {
  cells: number;
}

/** A circle's covering resolved to shards. */
export interface CircleRoute {
  /** The covering: level-10 curve ordinals, ascending (cellFromOrdinal gives the cell ids). */
  ordinals: Int32Array;
  /** For each covering cell, the key-order index of the shard searches read it from. */
  cellShards: Int32Array;
  /** The shards asked, in key order, with their cell counts. */
  shards: ShardCells[];
  /** The routing string: shard names in key order joined by commas. */
  routing: string;
}

/**
 * Router answers routing questions for one boundary file: the lookups of its ShardTable
 * (point, cell, token or ordinal → shard; read and write owners during a migration) and circle
 * routing. Construct it with a file; it validates the file first and throws a
 * BoundaryFileError listing every problem, so nothing routes on an invalid file.
 *
 * cover and shardsAsked always resolve cells to read owners (see ShardTable on migrations).
 */
export class Router extends ShardTable {
  /**
   * cover answers "which level-10 cells and shards does this circle touch":
   * the circle of radiusKm around (lat, lng) grown by ENGINE_PAD_DEG (1e-6
   * degrees, cover.ts coveringCap: every cell a document OpenSearch's
   * geo_distance matches can be in, its stored point being rounded to ~1 cm),
   * covered exactly as S2's RegionCoverer covers that cap at level 10 (by the
   * walk in coverWalk.ts), each cell resolved to the shard searches read it
   * from: the plugin's geo_routing_search routes a circle to the same cells. lat in [-90, 90], lng
   * finite, radiusKm in (0, MAX_RADIUS_KM]; throws RangeError naming the value
   * otherwise.
   */
  cover(lat: number, lng: number, radiusKm: number): CircleRoute {
    const ordinals = coverOrdinals(lat, lng, radiusKm);
    const cellShards = new Int32Array(ordinals.length);
    const counts = new Int32Array(this.numberOfShards);
    for (let k = 0; k < ordinals.length; k++) {
      const i = this.readIndexOfOrdinal(ordinals[k]);
      cellShards[k] = i;
      counts[i]++;
    }
    const shards: ShardCells[] = [];
    for (let i = 0; i < this.numberOfShards; i++) if (counts[i] > 0) shards.push({ ...this.shards[i], cells: counts[i] });
    return { ordinals, cellShards, shards, routing: shards.map((s) => s.name).join(',') };
  }

  /**
   * shardsAsked returns the key-order indices (ascending) of the shards a
   * circle's covering touches: cover's shards without listing the cells. The
   * same walk, stopped as soon as a cell's range of ordinals lies in one read
   * segment, or can add no shard not yet found; so it costs a fraction of
   * cover for wide circles. Preconditions as cover.
   */
  shardsAsked(lat: number, lng: number, radiusKm: number): number[] {
    const found = new Uint8Array(this.numberOfShards);
    let nFound = 0;
    const starts = this.readStarts;
    const owners = this.readOwners;
    const segments = (first: number, last: number): [number, number] => {
      const lo = this.segmentOfOrdinal(first);
      return [lo, lo === owners.length - 1 || starts[lo + 1] > last ? lo : this.segmentOfOrdinal(last)];
    };
    const add = (lo: number, hi: number) => {
      for (let k = lo; k <= hi; k++) if (!found[owners[k]]) (found[owners[k]] = 1), nFound++;
    };
    walkCircle(lat, lng, radiusKm, {
      settle: (first, last) => {
        if (nFound === this.numberOfShards) return true;
        const [lo, hi] = segments(first, last);
        if (lo === hi) return add(lo, lo), true;
        for (let k = lo; k <= hi; k++) if (!found[owners[k]]) return false;
        return true;
      },
      take: (first, last) => add(...segments(first, last)),
    });
    const out: number[] = [];
    for (let i = 0; i < this.numberOfShards; i++) if (found[i]) out.push(i);
    return out;
  }
}

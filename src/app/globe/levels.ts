/**
 * Cells of coarser levels, in key order: what the explorer draws for levels
 * 0 to 10 (grids, the Hilbert curve through cell centres).
 *
 * Level L has 6·4^L cells. The k-th of them (0-based, in key order) covers the
 * level-10 ordinals [k·4^(10−L), (k+1)·4^(10−L)): a coarse cell is a contiguous
 * run of the curve.
 */
import { s2 } from 's2js';
import { cellFromOrdinal, cellCenter, LEVEL, type CellId } from '../../core/index';

/** cellsAtLevel returns how many cells level L has: 6·4^L. Precondition: L an integer in [0, 10]. */
export function cellsAtLevel(level: number): number {
  assertLevel(level);
  return 6 * 4 ** level;
}

/** ordinalsPerCell returns how many level-10 cells one level-L cell holds: 4^(10−L). */
export function ordinalsPerCell(level: number): number {
  assertLevel(level);
  return 4 ** (LEVEL - level);
}

/**
 * levelCellId returns the index-th level-L cell in key order. Throws
 * RangeError unless level is an integer in [0, 10] and index an integer in
 * [0, 6·4^level).
 */
export function levelCellId(level: number, index: number): CellId {
  const n = cellsAtLevel(level);
  if (!Number.isInteger(index) || index < 0 || index >= n) {
    throw new RangeError(`index ${index} is out of range: level ${level} has cells 0 to ${n - 1}`);
  }
  return s2.cellid.parent(cellFromOrdinal(index * 4 ** (LEVEL - level)), level);
}

/**
 * levelCellCenters returns the centres of all level-L cells in key order as
 * [lat0, lng0, lat1, lng1, ...] in degrees. Level must be in [0, 8] (level 8
 * already has 393,216 cells; finer levels are too many to list for drawing).
 */
export function levelCellCenters(level: number): Float64Array {
  assertLevel(level);
  if (level > 8) throw new RangeError(`level ${level} has ${cellsAtLevel(level).toLocaleString('en-US')} cells: levelCellCenters lists levels 0 to 8 only`);
  const n = cellsAtLevel(level);
  const out = new Float64Array(2 * n);
  // Walk the level's cells with next(), which is cheaper than rebuilding each id.
  let id = levelCellId(level, 0);
  for (let k = 0; k < n; k++) {
    const c = cellCenter(id);
    out[2 * k] = c.lat;
    out[2 * k + 1] = c.lng;
    id = s2.cellid.next(id);
  }
  return out;
}

function assertLevel(level: number): void {
  if (!Number.isInteger(level) || level < 0 || level > LEVEL) throw new RangeError(`level ${level} is not a drawing level: expected an integer in [0, ${LEVEL}]`);
}

/**
 * Cells of any level (0 to 30), as people paste them: a token read leniently, the run of
 * level-10 cells a cell spans, and the shards of a boundary file that run overlaps.
 *
 * Documents live in level-10 cells (cells.ts). A coarser cell (level < 10) covers a
 * contiguous run of level-10 ordinals, which may cross shard boundaries; a finer cell
 * (level > 10) lies inside exactly one level-10 cell, so inside exactly one shard.
 */
import { s2 } from 's2js';
import { LEVEL, cellOrdinal, type CellId } from './cells.ts';
import type { ShardRef, ShardTable } from './shardTable.ts';

/** A cell of any level, read from a token. */
export interface AnyCell {
  id: CellId;
  /** The canonical token (lower case, trailing zeros dropped). */
  token: string;
  /** The S2 level, 0 (a cube face) to 30 (about 1 cm). */
  level: number;
}

/** HEX_TOKEN is what a token looks like before it is checked: 1 to 16 hex digits, either case. */
export const HEX_TOKEN = /^[0-9a-fA-F]{1,16}$/;

/**
 * parseAnyToken reads an S2 token of any level: 1 to 16 hex digits, either case, trailing
 * zeros allowed (`89C25`, `89c2500` and `89c25` are one cell). Throws a RangeError naming the
 * token and saying why it is not a cell: not hex, a face above 5, or no level marker bit.
 */
export function parseAnyToken(text: string): AnyCell {
  if (typeof text !== 'string' || !HEX_TOKEN.test(text)) {
    throw new RangeError(`${JSON.stringify(text)} is not an S2 token: expected 1 to 16 hex digits such as "89c25" (any level, 0 to 30)`);
  }
  const id = s2.cellid.fromToken(text.toLowerCase());
  if (!s2.cellid.valid(id)) {
    const face = Number(id >> 61n);
    const why = id === 0n ? 'it is all zeros (S2\'s "no cell")' : face > 5 ? `its first digit says cube face ${face} (faces are 0 to 5: the first digit must be 0 to b)` : `its last non-zero digit, ${JSON.stringify(text.replace(/0+$/, '').slice(-1))}, marks no level (a token's last non-zero digit is 1, 3, 4, 5, 7, 9, b, c, d or f)`;
    throw new RangeError(`${JSON.stringify(text)} is not a valid S2 cell token: ${why}`);
  }
  return { id, token: s2.cellid.toToken(id), level: s2.cellid.level(id) };
}

/**
 * level10Span returns the run of level-10 ordinals [first, last] (inclusive) a cell of any
 * level covers: many for a level below 10, the cell itself at level 10, and the one level-10
 * cell that contains it above level 10 (first = last).
 */
export function level10Span(id: CellId): [number, number] {
  const lvl = s2.cellid.level(id);
  if (lvl >= LEVEL) {
    const o = cellOrdinal(lvl === LEVEL ? id : s2.cellid.parent(id, LEVEL));
    return [o, o];
  }
  return [cellOrdinal(s2.cellid.childBeginAtLevel(id, LEVEL)), cellOrdinal(s2.cellid.prev(s2.cellid.childEndAtLevel(id, LEVEL)))];
}

/** level10Parent returns the level-10 cell that contains a cell of level 10 or finer. Precondition: level >= 10. */
export function level10Parent(id: CellId): CellId {
  const lvl = s2.cellid.level(id);
  if (lvl < LEVEL) throw new RangeError(`cell ${s2.cellid.toToken(id)} is level ${lvl}: it spans many level-10 cells, not one`);
  return lvl === LEVEL ? id : s2.cellid.parent(id, LEVEL);
}

/** The shards a cell overlaps, as a boundary file places them. */
export interface CellShards {
  /** Key-order indices of the shards, ascending (one or more). */
  indices: number[];
  /** The same shards' names and OpenSearch shard numbers. */
  shards: ShardRef[];
  /** Level-10 cells of the cell that fall in each shard (same order): they add up to last - first + 1. */
  cells: number[];
  /** The level-10 span of the cell, as level10Span returns it. */
  first: number;
  last: number;
}

/**
 * cellShards returns every shard of the router's boundary file (its `boundaries`, the write
 * owners) whose range overlaps the level-10 span of a cell of any level, with how many of the
 * cell's level-10 cells each one holds.
 */
export function cellShards(router: ShardTable, id: CellId): CellShards {
  const [first, last] = level10Span(id);
  const lo = router.indexOfOrdinal(first);
  const hi = router.indexOfOrdinal(last);
  const indices: number[] = [];
  const cells: number[] = [];
  for (let i = lo; i <= hi; i++) {
    indices.push(i);
    cells.push(Math.min(last + 1, router.starts[i + 1]) - Math.max(first, router.starts[i]));
  }
  return { indices, shards: indices.map((i) => router.shards[i]), cells, first, last };
}

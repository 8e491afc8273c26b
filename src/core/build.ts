/**
 * Cells files and building boundary files from a balanced split.
 *
 * A cells file (data/cells.csv) lists the non-empty level-10 cells in key
 * order with header `token,restaurants,dishes`. A cell's weight is its
 * restaurants + dishes: dishes are what fill the index.
 */
import { parseToken, cellOrdinal } from './cells.ts';
import { pickShardNames } from './names.ts';
import { BOUNDARY_FORMAT, withHash, type BoundaryFile } from './boundaries.ts';
import { splitFromCuts, type Split } from './balance.ts';

/** One non-empty level-10 cell and what it holds. */
export interface CellWeight {
  token: string;
  /** The cell's curve ordinal (see cells.ts). */
  ordinal: number;
  restaurants: number;
  dishes: number;
}

/** The header a cells file starts with. */
export const CELLS_HEADER = 'token,restaurants,dishes';

/**
 * parseCellsCsv reads a cells file. Throws a RangeError naming the line and
 * value on a bad header, a bad token, a count that is not a non-negative
 * integer, or rows not strictly ascending in key order.
 */
export function parseCellsCsv(text: string, source = 'cells file'): CellWeight[] {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== CELLS_HEADER) {
    throw new RangeError(`${source} line 1: header ${JSON.stringify(lines[0] ?? '')} is not "${CELLS_HEADER}"`);
  }
  const out: CellWeight[] = [];
  let prevOrdinal = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const parts = line.split(',');
    const where = `${source} line ${i + 1}`;
    if (parts.length !== 3) throw new RangeError(`${where}: ${JSON.stringify(line)} has ${parts.length} fields: expected token,restaurants,dishes`);
    const ordinal = cellOrdinal(parseToken(parts[0], `${where}: token`));
    const counts = parts.slice(1).map((p, j) => {
      const v = Number(p);
      if (!/^\d+$/.test(p) || !Number.isSafeInteger(v)) {
        throw new RangeError(`${where}: ${j === 0 ? 'restaurants' : 'dishes'} ${JSON.stringify(p)} is not a non-negative integer`);
      }
      return v;
    });
    if (ordinal <= prevOrdinal) {
      throw new RangeError(`${where}: token "${parts[0]}" is not after the previous row's token: rows must ascend in key order, one row per cell`);
    }
    prevOrdinal = ordinal;
    out.push({ token: parts[0], ordinal, restaurants: counts[0], dishes: counts[1] });
  }
  if (out.length === 0) throw new RangeError(`${source}: no cells: expected at least one row after the header`);
  return out;
}

/** cellWeights returns each cell's weight (restaurants + dishes), in the cells' order. */
export function cellWeights(cells: readonly CellWeight[]): Float64Array {
  return Float64Array.from(cells, (c) => c.restaurants + c.dishes);
}

/** Inputs to buildBoundaryFile. */
export interface BuildOptions {
  /** The OpenSearch index name. */
  index: string;
  /** The non-empty cells in key order. */
  cells: readonly CellWeight[];
  /** Cut positions into `cells` (shard j starts at cells[cuts[j-1]]). */
  cuts: number[];
  /** Names in key order; default pickShardNames(k). */
  names?: string[];
  version?: number;
  parent?: string | null;
  /** ISO time; default now. */
  createdAt?: string;
  /** Informative record of how the split was made. */
  balance?: Record<string, unknown>;
}

/**
 * buildBoundaryFile turns a split of the cells into a hashed boundary file:
 * boundaries are the tokens of the first cell of shards 1..k-1, shard i is
 * named so its routing hash lands on OpenSearch shard i, and each shard entry
 * records its restaurants and dishes.
 */
export function buildBoundaryFile(opts: BuildOptions): BoundaryFile {
  const k = opts.cuts.length + 1;
  const names = opts.names ?? pickShardNames(k);
  const restaurants: number[] = new Array(k).fill(0);
  const dishes: number[] = new Array(k).fill(0);
  let j = 0;
  opts.cells.forEach((c, i) => {
    while (j < opts.cuts.length && i >= opts.cuts[j]) j++;
    restaurants[j] += c.restaurants;
    dishes[j] += c.dishes;
  });
  return withHash({
    format: BOUNDARY_FORMAT,
    index: opts.index,
    level: 10,
    numberOfShards: k,
    version: opts.version ?? 1,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    parent: opts.parent ?? null,
    boundaries: opts.cuts.map((c) => opts.cells[c].token),
    shards: names.map((name, i) => ({ name, shard: i, restaurants: restaurants[i], dishes: dishes[i] })),
    ...(opts.balance ? { balance: opts.balance } : {}),
  });
}

/** splitOfFile returns the split a boundary file makes of a list of cells (for reports and diffs). */
export function splitOfFile(file: BoundaryFile, cells: readonly CellWeight[]): Split {
  const starts = file.boundaries.map((t) => cellOrdinal(parseToken(t)));
  const cuts: number[] = [];
  let i = 0;
  for (const s of starts) {
    while (i < cells.length && cells[i].ordinal < s) i++;
    cuts.push(i);
  }
  // Cuts of empty shards can repeat; splitFromCuts handles equal cuts as empty shards.
  return splitFromCuts(cellWeights(cells), cuts);
}

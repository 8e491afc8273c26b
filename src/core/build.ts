/**
 * Cells files and building boundary files from a balanced split.
 *
 * A cells file lists the non-empty level-10 cells, one row per cell, in key
 * order. It has one of two headers:
 *
 *     token,restaurants,dishes          the sample's form (data/cells.csv): a
 *                                       cell's weight is restaurants + dishes
 *     token,docs[,<weight columns>]     the generic form (`geoshard cells`): docs
 *                                       documents in the cell, plus optional
 *                                       named weight columns (the sum of a
 *                                       numeric field over the cell's documents);
 *                                       the weight is docs, or the column the
 *                                       reader is asked for
 */
import { parseToken, cellOrdinal } from './cells.ts';
import { pickShardNames } from './names.ts';
import { BOUNDARY_FORMAT, withHash, type BoundaryFile } from './boundaries.ts';
import { splitFromCuts, type Split } from './balance.ts';

/**
 * One non-empty level-10 cell and what it holds. A generic file's cell has
 * restaurants = docs and dishes = 0 (every document is a top-level one), so
 * every count that adds restaurants + dishes reads its documents.
 */
export interface CellWeight {
  token: string;
  /** The cell's curve ordinal (see cells.ts). */
  ordinal: number;
  restaurants: number;
  dishes: number;
  /**
   * What the balancer evens out for this cell, >= 0; absent means
   * restaurants + dishes (the sample's form, and a generic file read by docs).
   */
  weight?: number;
}

/** The header a cells file of the sample's form starts with. */
export const CELLS_HEADER = 'token,restaurants,dishes';

/** The first two columns of a generic cells file (`geoshard cells` writes it). */
export const DOCS_CELLS_HEADER = 'token,docs';

/** A weight column's name: a field path (parts of letters, digits, `_`, `-` or `@` joined by single dots), at most 255 characters. */
const WEIGHT_COLUMN = /^(?=.{1,255}$)[\w@-]+(\.[\w@-]+)*$/;

/** Options of parseCellsCsv. */
export interface CellsCsvOptions {
  /**
   * The column whose values are the cells' weights: `docs` (the default) or
   * one of a generic file's weight columns. A sample file accepts only `docs`
   * (its weight is restaurants + dishes).
   */
  weight?: string;
}

/**
 * parseCellsCsv reads a cells file of either form (see the top of this file).
 * Throws a RangeError naming the line, the column and the value on a bad
 * header, a bad token, a count that is not a non-negative integer, a weight
 * that is not a finite number >= 0, a row with the wrong number of fields,
 * rows not strictly ascending in key order, or a weight column the file does
 * not have.
 */
export function parseCellsCsv(text: string, source = 'cells file', opts: CellsCsvOptions = {}): CellWeight[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '').trim();
  const columns = header.split(',');
  const sample = header === CELLS_HEADER;
  const bad = (why: string) => new RangeError(`${source} line 1: header ${JSON.stringify(lines[0] ?? '')} ${why}: expected "${CELLS_HEADER}" or "${DOCS_CELLS_HEADER}[,<weight columns>]"`);
  if (!sample) {
    if (columns[0] !== 'token' || columns[1] !== 'docs') throw bad('is not a cells header');
    columns.slice(2).forEach((c, j) => {
      if (!WEIGHT_COLUMN.test(c)) throw bad(`has column ${j + 3} ${JSON.stringify(c)}, not a weight column name (a field path: letters, digits, _, - or @, parts joined by single dots)`);
      if (columns.indexOf(c) !== j + 2 || c === 'docs' || c === 'token') throw bad(`names column ${JSON.stringify(c)} twice`);
    });
  }
  const weightName = opts.weight ?? 'docs';
  const weightAt = weightName === 'docs' ? -1 : sample ? -2 : columns.indexOf(weightName, 2);
  if (weightAt === -2) throw new RangeError(`${source}: weight column ${JSON.stringify(weightName)} is not in a "${CELLS_HEADER}" file: its weight is restaurants + dishes (use weight docs)`);
  if (weightAt < 0 && weightName !== 'docs') throw new RangeError(`${source}: weight column ${JSON.stringify(weightName)} is not in the header "${header}": expected docs${columns.length > 2 ? ` or one of ${columns.slice(2).join(', ')}` : ''}`);
  const out: CellWeight[] = [];
  let prevOrdinal = -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '') continue;
    const parts = line.split(',');
    const where = `${source} line ${i + 1}`;
    if (parts.length !== columns.length) throw new RangeError(`${where}: ${JSON.stringify(line.length > 60 ? line.slice(0, 57) + '...' : line)} has ${parts.length} fields: expected ${columns.length} (${columns.join(',')})`);
    const ordinal = cellOrdinal(parseToken(parts[0], `${where}: token`));
    const count = (j: number) => {
      const p = parts[j];
      const v = Number(p);
      if (!/^\d+$/.test(p) || !Number.isSafeInteger(v)) throw new RangeError(`${where}: ${columns[j]} ${JSON.stringify(p)} is not a non-negative integer`);
      return v;
    };
    const real = (j: number) => {
      const p = parts[j];
      const v = Number(p);
      if (!/^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(p) || !Number.isFinite(v)) throw new RangeError(`${where}: ${columns[j]} ${JSON.stringify(p)} is not a number >= 0 (a weight is a finite decimal such as 12 or 3.5)`);
      return v;
    };
    let cell: CellWeight;
    if (sample) cell = { token: parts[0], ordinal, restaurants: count(1), dishes: count(2) };
    else {
      cell = { token: parts[0], ordinal, restaurants: count(1), dishes: 0 };
      // Every weight column is checked, the one the balancer uses or not: a file is valid or not as a whole.
      for (let j = 2; j < columns.length; j++) {
        const v = real(j);
        if (j === weightAt) cell.weight = v;
      }
    }
    if (ordinal <= prevOrdinal) {
      throw new RangeError(`${where}: token "${parts[0]}" is not after the previous row's token: rows must ascend in key order, one row per cell`);
    }
    prevOrdinal = ordinal;
    out.push(cell);
  }
  if (out.length === 0) throw new RangeError(`${source}: no cells: expected at least one row after the header`);
  return out;
}

/** One row of a generic cells file: a cell, its documents and its weight columns' sums (in the header's order). */
export interface DocsCellRow {
  token: string;
  docs: number;
  weights: readonly number[];
}

/**
 * docsCellsCsv writes a generic cells file: header `token,docs[,<weightColumns>]`,
 * one row per cell in the given order (which must be key order, as
 * parseCellsCsv requires), LF, trailing newline. Weight sums are written as
 * JavaScript writes numbers (parseCellsCsv reads them back exactly).
 */
export function docsCellsCsv(rows: readonly DocsCellRow[], weightColumns: readonly string[] = []): string {
  const out = [[DOCS_CELLS_HEADER, ...weightColumns].join(',')];
  for (const r of rows) out.push(r.weights.length > 0 ? `${r.token},${r.docs},${r.weights.join(',')}` : `${r.token},${r.docs}`);
  return out.join('\n') + '\n';
}

/** cellWeights returns each cell's weight (its `weight`, else restaurants + dishes), in the cells' order. */
export function cellWeights(cells: readonly CellWeight[]): Float64Array {
  return Float64Array.from(cells, (c) => c.weight ?? c.restaurants + c.dishes);
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

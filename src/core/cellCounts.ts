/**
 * Counting documents into their level-10 cells: the density a cells file
 * records (`geoshard cells`). Each point is counted once, in the cell cellAt
 * returns for it; optional weight columns add up a numeric value per cell.
 */
import { cellAt, cellOrdinal, cellFromOrdinal, cellToken, CELL_COUNT } from './cells.ts';
import { DOCS_CELLS_HEADER, type DocsCellRow } from './build.ts';

/**
 * CellCounter tallies points (degrees) per level-10 cell. weightColumns names
 * the weight columns; add() takes one value per column (finite, >= 0).
 */
export class CellCounter {
  private readonly docs = new Map<number, number>();
  private readonly sums = new Map<number, Float64Array>();
  /** Documents counted so far. */
  total = 0;

  constructor(readonly weightColumns: readonly string[] = []) {}

  /**
   * add counts one document at (lat, lng) in degrees, with its weights (one
   * per weight column). Returns the cell's curve ordinal. Throws RangeError
   * naming the value on a latitude outside [-90, 90], a non-finite longitude
   * (any finite longitude wraps), or a weight that is not a finite number >= 0.
   */
  add(lat: number, lng: number, weights: readonly number[] = []): number {
    return this.addToCell(cellOrdinal(cellAt(lat, lng)), weights);
  }

  /**
   * addToCell counts one document in the level-10 cell of curve ordinal
   * `ordinal` (an integer in [0, CELL_COUNT): the caller located it), with its
   * weights as add() takes them. Returns the ordinal.
   */
  addToCell(ordinal: number, weights: readonly number[] = []): number {
    if (!(Number.isInteger(ordinal) && ordinal >= 0 && ordinal < CELL_COUNT)) throw new RangeError(`ordinal ${ordinal} is out of range: expected an integer in [0, ${CELL_COUNT})`);
    const n = this.weightColumns.length;
    if (weights.length !== n) throw new RangeError(`${weights.length} weights given: expected ${n} (${this.weightColumns.join(', ') || 'none'})`);
    for (let j = 0; j < n; j++) {
      if (!(Number.isFinite(weights[j]) && weights[j] >= 0)) throw new RangeError(`${this.weightColumns[j]} ${String(weights[j])} is not a finite number >= 0`);
    }
    this.docs.set(ordinal, (this.docs.get(ordinal) ?? 0) + 1);
    if (n > 0) {
      let s = this.sums.get(ordinal);
      if (!s) this.sums.set(ordinal, (s = new Float64Array(n)));
      for (let j = 0; j < n; j++) s[j] += weights[j];
    }
    this.total++;
    return ordinal;
  }

  /**
   * addCounts counts `docs` documents (an integer >= 1) in the level-10 cell
   * of curve ordinal `ordinal` at once, with the sums of their weights (one
   * per weight column, each finite and >= 0): a cell's bucket as a cluster's
   * aggregation returns it (src/ops/cells/cellsEngine.ts). Returns the ordinal.
   * Throws RangeError as addToCell does, or on a count that is not an integer >= 1.
   */
  addCounts(ordinal: number, docs: number, sums: readonly number[] = []): number {
    if (!(Number.isInteger(docs) && docs >= 1)) throw new RangeError(`document count ${docs} is invalid: expected an integer >= 1`);
    this.addToCell(ordinal, sums);
    this.docs.set(ordinal, this.docs.get(ordinal)! + docs - 1);
    this.total += docs - 1;
    return ordinal;
  }

  /** cells returns the non-empty cells in key order, each with its document count and weight sums. */
  cells(): (DocsCellRow & { ordinal: number })[] {
    const ordinals = Float64Array.from(this.docs.keys()).sort();
    const none = new Float64Array(this.weightColumns.length);
    return Array.from(ordinals, (ordinal) => ({
      token: cellToken(cellFromOrdinal(ordinal)),
      ordinal,
      docs: this.docs.get(ordinal)!,
      weights: Array.from(this.sums.get(ordinal) ?? none),
    }));
  }

  /** The number of non-empty cells so far. */
  get size(): number {
    return this.docs.size;
  }

  /**
   * csv returns the generic cells file (header token,docs[,<weight columns>])
   * in key order, as docsCellsCsv writes cells(), built line by line from
   * the counts (no row objects: a cells file of millions of cells would hold
   * them all at once).
   */
  csv(): string {
    const n = this.weightColumns.length;
    const none = new Float64Array(n);
    const chunks = [[DOCS_CELLS_HEADER, ...this.weightColumns].join(',') + '\n'];
    let lines: string[] = [];
    for (const ordinal of Float64Array.from(this.docs.keys()).sort()) {
      const token = cellToken(cellFromOrdinal(ordinal));
      const docs = this.docs.get(ordinal)!;
      lines.push(n > 0 ? `${token},${docs},${Array.from(this.sums.get(ordinal) ?? none).join(',')}` : `${token},${docs}`);
      if (lines.length === 10_000) {
        chunks.push(lines.join('\n') + '\n');
        lines = [];
      }
    }
    if (lines.length > 0) chunks.push(lines.join('\n') + '\n');
    return chunks.join('');
  }
}

/**
 * Prefix sums of a cells list's restaurants and dishes: the documents in any range of the
 * curve in O(log n). The diff, the editor's splits and merges, and the explorer's ribbon all
 * sum ranges with it.
 */
import type { CellWeight } from './build.ts';

/** Prefix sums over a cells list, for summing any ordinal range in O(log n). */
export class CellSums {
  readonly ordinals: Float64Array;
  private readonly rest: Float64Array;
  private readonly dish: Float64Array;

  /** cells ascend strictly by ordinal (as parseCellsCsv returns them); throws RangeError naming the row otherwise. */
  constructor(cells: readonly CellWeight[]) {
    const n = cells.length;
    this.ordinals = new Float64Array(n);
    this.rest = new Float64Array(n + 1);
    this.dish = new Float64Array(n + 1);
    cells.forEach((c, i) => {
      if (i > 0 && c.ordinal <= cells[i - 1].ordinal) {
        throw new RangeError(`cells[${i}] "${c.token}" is not after cells[${i - 1}] "${cells[i - 1].token}": cells must ascend in key order, one row per cell`);
      }
      this.ordinals[i] = c.ordinal;
      this.rest[i + 1] = this.rest[i] + c.restaurants;
      this.dish[i + 1] = this.dish[i] + c.dishes;
    });
  }

  /** Position of the first cell with ordinal >= o. */
  lowerBound(o: number): number {
    let lo = 0;
    let hi = this.ordinals.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.ordinals[mid] < o) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** sum returns the non-empty cells, restaurants and dishes with ordinals in [start, end). */
  sum(start: number, end: number): { cells: number; restaurants: number; dishes: number } {
    const a = this.lowerBound(start);
    const b = this.lowerBound(end);
    return { cells: b - a, restaurants: this.rest[b] - this.rest[a], dishes: this.dish[b] - this.dish[a] };
  }

  /** All cells. */
  get total(): { cells: number; restaurants: number; dishes: number } {
    const n = this.ordinals.length;
    return { cells: n, restaurants: this.rest[n], dishes: this.dish[n] };
  }
}

/**
 * Balancing: cut the curve of non-empty level-10 cells into contiguous,
 * weight-balanced ranges.
 *
 * Input is a list of cells in key order with a non-negative weight each
 * (restaurants + dishes). A split into k shards is given by k-1 cut positions
 * into that list: shard j holds cells [cut[j-1], cut[j]). Evenness of a split
 * is heaviest shard / mean shard (1 is perfect).
 */

/** A split of n weighted cells into contiguous shards. */
export interface Split {
  /** Number of shards. */
  shards: number;
  /** k-1 strictly ascending cell positions in (0, n) where shards 1..k-1 start. */
  cuts: number[];
  /** Weight of each shard. */
  weights: number[];
  /** Heaviest shard weight. */
  heaviest: number;
  /** heaviest / mean; 1 is perfectly even. */
  evenness: number;
}

/** Result per shard count, both methods side by side. */
export interface BalanceRow {
  shards: number;
  /** The article's greedy fill: best split with exactly this many shards over all targets tried, or null if no target gave this count. */
  greedy: Split | null;
  /** The target size that produced the greedy split. */
  greedyTarget: number | null;
  /** The exact optimum: smallest possible heaviest shard for a contiguous split into this many shards. */
  optimal: Split;
}

/** Options for balance(). */
export interface BalanceOptions {
  /** Smallest shard count tried (default 12). */
  min?: number;
  /** Largest shard count tried (default 36). */
  max?: number;
  /** How many target sizes the greedy method tries (default 4000), spread evenly between total/(max+1) and total/(min-1). */
  targets?: number;
  /** Called with (done, total, phase) as work progresses. */
  onProgress?: (done: number, total: number, phase: 'greedy' | 'optimal') => void;
}

/** The report of balance(): every row and the single most even split. */
export interface BalanceReport {
  rows: BalanceRow[];
  best: { method: 'greedy' | 'optimal'; split: Split };
  total: number;
}

function assertWeights(weights: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (!Number.isFinite(w) || w < 0) throw new RangeError(`weights[${i}] ${w} is invalid: weights must be finite and non-negative`);
    total += w;
  }
  return total;
}

/** splitFromCuts computes shard weights and evenness of a split. cuts must ascend strictly within (0, n). */
export function splitFromCuts(weights: ArrayLike<number>, cuts: number[]): Split {
  const k = cuts.length + 1;
  const sums: number[] = new Array(k).fill(0);
  let j = 0;
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    while (j < cuts.length && i >= cuts[j]) j++;
    sums[j] += weights[i];
    total += weights[i];
  }
  const heaviest = Math.max(...sums);
  return { shards: k, cuts: [...cuts], weights: sums, heaviest, evenness: total > 0 ? heaviest / (total / k) : 1 };
}

/**
 * greedyFill is the article's method for one target size: walk the cells in
 * key order adding each to the current shard, and close the shard as soon as
 * its weight reaches targetWeight (the next cell starts a new shard).
 * Returns the cut positions. targetWeight must be > 0.
 */
export function greedyFill(weights: ArrayLike<number>, targetWeight: number): number[] {
  if (!(targetWeight > 0)) throw new RangeError(`targetWeight ${targetWeight} must be greater than 0`);
  const cuts: number[] = [];
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    acc += weights[i];
    if (acc >= targetWeight && i + 1 < weights.length) {
      cuts.push(i + 1);
      acc = 0;
    }
  }
  return cuts;
}

/** Number of parts the capacity allows in a greedy left-to-right packing, or Infinity if a single weight exceeds it. */
function partsNeeded(weights: ArrayLike<number>, capacity: number): number {
  let parts = 1;
  let acc = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (w > capacity) return Infinity;
    if (acc + w > capacity) {
      parts++;
      acc = w;
    } else acc += w;
  }
  return parts;
}

/**
 * optimalSplit returns a split into exactly k contiguous non-empty shards
 * whose heaviest shard is as light as possible. Weights must be integers (so
 * the binary search on the capacity is exact); 1 <= k <= weights.length.
 * O(n log(total)).
 */
export function optimalSplit(weights: ArrayLike<number>, k: number): Split {
  const n = weights.length;
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`shards ${k} is invalid: expected an integer in [1, ${n}] (the number of non-empty cells)`);
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < n; i++) {
    if (!Number.isInteger(weights[i])) throw new RangeError(`weights[${i}] ${weights[i]} is not an integer`);
    lo = Math.max(lo, weights[i]);
    hi += weights[i];
  }
  // Smallest capacity with partsNeeded <= k.
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (partsNeeded(weights, mid) <= k) hi = mid;
    else lo = mid + 1;
  }
  const capacity = lo;
  // Pack greedily under the capacity, but start a new shard early whenever the
  // cells left are only just enough to give every remaining shard one cell.
  const cuts: number[] = [];
  let acc = 0;
  let shardStart = 0;
  for (let i = 0; i < n; i++) {
    const shardsLeftAfterThis = k - cuts.length - 1;
    const mustCut = i > shardStart && (acc + weights[i] > capacity || n - i <= shardsLeftAfterThis);
    if (mustCut && cuts.length < k - 1) {
      cuts.push(i);
      acc = 0;
      shardStart = i;
    }
    acc += weights[i];
  }
  return splitFromCuts(weights, cuts);
}

/**
 * balance tries every shard count in [min, max] with both methods and returns
 * the rows side by side plus the most even split overall (lowest evenness;
 * ties go to the optimum, then to fewer shards). Weights are integers in key
 * order.
 */
export function balance(weights: ArrayLike<number>, opts: BalanceOptions = {}): BalanceReport {
  const min = opts.min ?? 12;
  const max = opts.max ?? 36;
  const targets = opts.targets ?? 4000;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 1 || max < min) {
    throw new RangeError(`shard count range [${min}, ${max}] is invalid: expected integers with 1 <= min <= max`);
  }
  if (max > weights.length) {
    throw new RangeError(`max ${max} shards is more than the ${weights.length} non-empty cells: every shard needs at least one cell`);
  }
  const total = assertWeights(weights);
  if (total <= 0) throw new RangeError('weights sum to 0: there is nothing to balance');

  // Greedy: targets spread geometrically between the sizes that would give max+1 and min-1 shards.
  const greedyBest = new Map<number, { split: Split; target: number }>();
  const tLo = total / (max + 1);
  const tHi = total / Math.max(min - 1, 0.5);
  for (let t = 0; t < targets; t++) {
    const target = tLo * Math.pow(tHi / tLo, t / Math.max(targets - 1, 1));
    const cuts = greedyFill(weights, target);
    const k = cuts.length + 1;
    if (k >= min && k <= max) {
      const split = splitFromCuts(weights, cuts);
      const prev = greedyBest.get(k);
      if (!prev || split.evenness < prev.split.evenness) greedyBest.set(k, { split, target });
    }
    if (opts.onProgress && (t % 200 === 0 || t === targets - 1)) opts.onProgress(t + 1, targets, 'greedy');
  }

  const rows: BalanceRow[] = [];
  for (let k = min; k <= max; k++) {
    const optimal = optimalSplit(weights, k);
    const g = greedyBest.get(k);
    rows.push({ shards: k, greedy: g?.split ?? null, greedyTarget: g?.target ?? null, optimal });
    opts.onProgress?.(k - min + 1, max - min + 1, 'optimal');
  }
  let best: BalanceReport['best'] = { method: 'optimal', split: rows[0].optimal };
  for (const r of rows) {
    if (r.optimal.evenness < best.split.evenness - 1e-12) best = { method: 'optimal', split: r.optimal };
    if (r.greedy && r.greedy.evenness < best.split.evenness - 1e-12) best = { method: 'greedy', split: r.greedy };
  }
  return { rows, best, total };
}

/**
 * A per-cell result cache, simulated (reference 003: "one warm cache entry
 * absorbs the whole event"): an LRU cache keyed by level-10 cell holding that
 * cell's candidates, so a search whose covering cells are all cached needs
 * no shard for them.
 *
 * The trace: the workload's searches in time order (by timestamp, stable;
 * when any search has no timestamp, file order), each looking up its covering
 * cells in ascending key order. A lookup of a cached cell is a hit and makes
 * it the most recently used; a miss inserts it, evicting the least recently
 * used cell when the cache holds `size` cells. A search's weight scales the
 * count of its lookups (a weight-3 line counts as 3 lookups, hit or miss
 * together); it does not repeat them.
 */
import type { WorkloadSearch } from './workload.ts';

/** The cache at one size. */
export interface CacheRun {
  /** Capacity in cells (≥ 1). */
  size: number;
  /** Weighted lookups and hits; hitRate = hits / lookups, in [0, 1]. */
  lookups: number;
  hits: number;
  hitRate: number;
  /** Searches whose every covering cell was a hit (weighted), and their share. */
  fullHits: number;
  fullHitShare: number;
}

/** One of the most looked-up cells: its ordinal, weighted lookups and hits at each size (same order as runs). */
export interface HotCell {
  ordinal: number;
  lookups: number;
  hits: number[];
}

/** The result of simulateCellCache. */
export interface CacheReport {
  /** 'time' when every search had a timestamp, else 'file'. */
  order: 'time' | 'file';
  searches: number;
  runs: CacheRun[];
  /** The `top` most looked-up cells, most first (ties: lower ordinal). */
  hot: HotCell[];
}

/**
 * An LRU set of at most `size` keys: a doubly linked list over slots (head =
 * least recently used) and a map from key to slot; O(1) per touch.
 */
class Lru {
  private readonly slot = new Map<number, number>();
  private readonly keys: Int32Array;
  private readonly prev: Int32Array;
  private readonly next: Int32Array;
  private head = -1;
  private tail = -1;
  private used = 0;

  constructor(private readonly size: number) {
    const n = Math.min(size, 1 << 24);
    this.keys = new Int32Array(n);
    this.prev = new Int32Array(n);
    this.next = new Int32Array(n);
  }

  private unlink(s: number): void {
    const p = this.prev[s];
    const n = this.next[s];
    if (p >= 0) this.next[p] = n;
    else this.head = n;
    if (n >= 0) this.prev[n] = p;
    else this.tail = p;
  }

  private append(s: number): void {
    this.prev[s] = this.tail;
    this.next[s] = -1;
    if (this.tail >= 0) this.next[this.tail] = s;
    else this.head = s;
    this.tail = s;
  }

  /** touch looks a key up: true (and most recent) when held; else inserts it, evicting the least recent when full, and returns false. */
  touch(key: number): boolean {
    const s = this.slot.get(key);
    if (s !== undefined) {
      if (s !== this.tail) (this.unlink(s), this.append(s));
      return true;
    }
    let t: number;
    if (this.used < Math.min(this.size, this.keys.length)) t = this.used++;
    else {
      t = this.head;
      this.unlink(t);
      this.slot.delete(this.keys[t]);
    }
    this.keys[t] = key;
    this.slot.set(key, t);
    this.append(t);
    return false;
  }
}

/** traceOrder returns the positions of the searches in simulation order (see the file comment). */
export function traceOrder(searches: readonly WorkloadSearch[]): { order: 'time' | 'file'; positions: number[] } {
  const positions = searches.map((_, i) => i);
  if (searches.length === 0 || searches.some((s) => s.time === null)) return { order: 'file', positions };
  positions.sort((a, b) => searches[a].time! - searches[b].time! || a - b);
  return { order: 'time', positions };
}

/**
 * simulateCellCache runs the LRU cache at every size (integers ≥ 1) over the
 * trace and lists the `top` most looked-up cells. coverings =
 * coverWorkload(searches). Throws RangeError naming a bad size.
 */
export function simulateCellCache(searches: readonly WorkloadSearch[], coverings: readonly Int32Array[], sizes: readonly number[], top = 10): CacheReport {
  if (coverings.length !== searches.length) throw new RangeError(`coverings has ${coverings.length} entries for ${searches.length} searches: pass coverWorkload(searches)`);
  if (sizes.length === 0) throw new RangeError('sizes is empty: give at least one cache size in cells');
  sizes.forEach((s, i) => {
    if (!Number.isInteger(s) || s < 1) throw new RangeError(`sizes[${i}] ${s} is invalid: expected a whole number of cells, at least 1`);
  });
  const { order, positions } = traceOrder(searches);
  const lookupsByCell = new Map<number, number>();
  const hitsByCell = sizes.map(() => new Map<number, number>());
  const runs: CacheRun[] = sizes.map((size, k) => {
    const lru = new Lru(size);
    let lookups = 0;
    let hits = 0;
    let fullHits = 0;
    let weight = 0;
    for (const p of positions) {
      const w = searches[p].weight;
      weight += w;
      let all = true;
      for (const o of coverings[p]) {
        lookups += w;
        if (k === 0) lookupsByCell.set(o, (lookupsByCell.get(o) ?? 0) + w);
        if (lru.touch(o)) {
          hits += w;
          hitsByCell[k].set(o, (hitsByCell[k].get(o) ?? 0) + w);
        } else all = false;
      }
      if (all) fullHits += w;
    }
    return { size, lookups, hits, hitRate: lookups > 0 ? hits / lookups : 0, fullHits, fullHitShare: weight > 0 ? fullHits / weight : 0 };
  });
  const hot = [...lookupsByCell.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, Math.max(0, top))
    .map(([ordinal, lookups]) => ({ ordinal, lookups, hits: hitsByCell.map((m) => m.get(ordinal) ?? 0) }));
  return { order, searches: searches.length, runs, hot };
}

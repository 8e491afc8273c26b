/**
 * Tiny seeded, hash-based pseudo-random helpers for the synthetic dataset.
 *
 * Everything in the dataset is a pure function of a fixed seed and of small
 * integers (a restaurant's index, a dish's index, a "stream" number naming the
 * attribute being drawn). No state is shared between restaurants, so any
 * restaurant or dish can be regenerated on its own, in any order, with the same
 * result. `Math.random` is never used.
 *
 * All arithmetic is 32-bit integer arithmetic (`Math.imul`, `>>>`), which is
 * exact and identical on every JavaScript engine.
 */

import { cumulativeWeights, pickWeighted } from '../core/sampling.ts';

/** 2^32 as a float, to scale 32-bit integers to [0, 1). */
const TWO_POW_32 = 4294967296;

/** The golden-ratio increment used by splitmix (⌊2^32 / φ⌋). */
const GOLDEN = 0x9e3779b9;

/**
 * mix32 is a strong 32-bit finaliser (Chris Wellons' "lowbias32"): a bijection
 * on uint32 whose output bits each depend on every input bit. Returns a uint32.
 */
export function mix32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x21f0aaad);
  x ^= x >>> 15;
  x = Math.imul(x, 0x735a2d97);
  x ^= x >>> 15;
  return x >>> 0;
}

/** hash2 hashes two integers (taken modulo 2^32) into a uint32. */
export function hash2(a: number, b: number): number {
  return mix32((mix32(a ^ 0x6a09e667) + Math.imul(b ^ 0x3c6ef372, GOLDEN)) | 0);
}

/** hash3 hashes three integers (taken modulo 2^32) into a uint32. */
export function hash3(a: number, b: number, c: number): number {
  return mix32((hash2(a, b) + Math.imul(c ^ 0x510e527f, GOLDEN)) | 0);
}

/** hash4 hashes four integers (taken modulo 2^32) into a uint32. */
export function hash4(a: number, b: number, c: number, d: number): number {
  return mix32((hash3(a, b, c) + Math.imul(d ^ 0x1f83d9ab, GOLDEN)) | 0);
}

/**
 * hashString hashes a string's UTF-16 code units (FNV-1a, then mix32) into a
 * uint32. Use it to turn names into seeds, e.g. `hashString('geoshard')`.
 */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/**
 * unitFloat maps a uint32 to a float in the open interval (0, 1): never 0 and
 * never 1, so it is safe to pass to `Math.log`.
 */
export function unitFloat(u32: number): number {
  return ((u32 >>> 0) + 0.5) / TWO_POW_32;
}

/**
 * Rng is a splitmix32 stream: a 32-bit counter advanced by the golden ratio
 * and passed through a finaliser. Seed it from a hash of what the stream is
 * for (e.g. `new Rng(hash3(SEED, restaurantIndex, STREAM_NAME))`), draw a few
 * values and throw it away. Period 2^32; plenty for the handful of draws per
 * restaurant or dish.
 */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** next returns the next uint32 of the stream. */
  next(): number {
    this.state = (this.state + GOLDEN) | 0;
    let z = this.state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  }

  /** float returns a uniform float in the open interval (0, 1). */
  float(): number {
    return unitFloat(this.next());
  }

  /** int returns a uniform integer in [lo, hi] (both inclusive). Precondition: lo <= hi, hi - lo < 2^32. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** chance returns true with probability p (0 <= p <= 1). */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** pick returns a uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /**
   * weighted returns an index in [0, weights.length) chosen with probability
   * proportional to its weight (src/core/sampling.ts's pick, from one float of
   * the stream). Weights must be >= 0 with a positive sum.
   */
  weighted(weights: readonly number[]): number {
    return pickWeighted(cumulativeWeights(weights, 'weights'), this.float());
  }

  /**
   * sample returns k distinct elements of items (k clamped to items.length), in
   * the order drawn (a partial Fisher–Yates shuffle on a copy).
   */
  sample<T>(items: readonly T[], k: number): T[] {
    const pool = items.slice();
    const n = Math.min(k, pool.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.float() * (pool.length - i));
      const t = pool[i];
      pool[i] = pool[j];
      pool[j] = t;
    }
    return pool.slice(0, n);
  }

  /** normal returns a standard normal deviate (mean 0, standard deviation 1), by Box–Muller. */
  normal(): number {
    const u = this.float();
    const v = this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

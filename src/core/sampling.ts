/**
 * Sampling: the draws that the data generator (src/data/generator.ts), the synthetic workload
 * (workloadGen.ts) and the fan-out's search workload (searchWorkload.ts) share, written once.
 *
 * - The weighted pick: an index drawn with probability weight / total weight, from cumulative
 *   weights and one uniform number (cumulativeWeights, pickWeighted).
 * - The spread rule: how far from a place its restaurants (and the searches for them) lie, a
 *   2-D Gaussian of sigma spreadKm(population) = clamp(0.01 · √population, 1.5, 25) km,
 *   truncated at MAX_SIGMAS (docs/workloads.md; gaussianAround).
 * - A uniform point in a level-10 cell (pointInCell).
 *
 * Pure and deterministic: every draw takes its uniform numbers from the caller (a seeded PRNG),
 * so the same numbers give the same result everywhere. Degrees and km; the Earth model is
 * earth.ts's.
 */
import { s2 } from 's2js';
import { cellFromOrdinal, type LatLng } from './cells.ts';
import { KM_PER_DEGREE } from './earth.ts';

/**
 * cumulativeWeights returns the running sums of weights (cum[i] = weights[0] + … + weights[i]).
 * Weights must be finite and ≥ 0; throws RangeError naming `${name}[i]` (and what the weight
 * is, e.g. "population") otherwise. The total, cum[length − 1], may be 0: check it before
 * picking.
 */
export function cumulativeWeights(weights: ArrayLike<number>, name: string, what = 'weight'): Float64Array {
  const cum = new Float64Array(weights.length);
  let t = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i];
    if (!(Number.isFinite(w) && w >= 0)) throw new RangeError(`${name}[${i}] ${what} ${w} is invalid: expected a finite, non-negative number`);
    cum[i] = t += w;
  }
  return cum;
}

/**
 * pickWeighted returns the index drawn by a uniform number u in [0, 1) from cumulative weights
 * (cumulativeWeights): the first i with cum[i] > u · total, so index i comes with probability
 * weights[i] / total and a zero weight never. Precondition: cum is non-empty with a positive
 * total.
 */
export function pickWeighted(cum: Float64Array, u: number): number {
  const x = u * cum[cum.length - 1];
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The spread rule: sigma (km) = SPREAD_KM_PER_SQRT_POP · √population, clamped to [SPREAD_MIN_KM, SPREAD_MAX_KM]. */
export const SPREAD_KM_PER_SQRT_POP = 0.01;
export const SPREAD_MIN_KM = 1.5;
export const SPREAD_MAX_KM = 25;

/** Offsets drawn by gaussianAround lie within this many sigmas of the centre. */
export const MAX_SIGMAS = 3;

/** spreadKm returns the spread (km, one standard deviation) of restaurants, and of the searches for them, around a place of this population (≥ 0): clamp(0.01 · √population, 1.5, 25). */
export function spreadKm(population: number): number {
  return Math.min(SPREAD_MAX_KM, Math.max(SPREAD_MIN_KM, SPREAD_KM_PER_SQRT_POP * Math.sqrt(population)));
}

/** 1 − e^(−k²/2): the share of a 2-D standard Gaussian within radius k = MAX_SIGMAS. */
const TRUNCATION = 1 - Math.exp(-(MAX_SIGMAS * MAX_SIGMAS) / 2);

/**
 * gaussianAround returns a point drawn around (lat, lng) (degrees): a 2-D Gaussian of sigmaKm
 * km truncated at MAX_SIGMAS sigmas (the distance by the inverse CDF of the truncated Rayleigh
 * law from rand()'s first number, the direction uniform from its second), on the local
 * tangent plane with KM_PER_DEGREE km per degree (longitude degrees shrink with cos(lat), at most
 * 100-fold near the poles). The result is rounded to `decimals` decimals (6 ≈ 0.1 m, 5 ≈ 1 m)
 * so a point written out reads back the same; latitudes stay within 10^−decimals of the poles,
 * longitudes wrap once into [-180, 180). rand returns uniform numbers in [0, 1).
 */
export function gaussianAround(lat: number, lng: number, sigmaKm: number, rand: () => number, decimals: number): LatLng {
  const r = sigmaKm * Math.sqrt(-2 * Math.log(1 - rand() * TRUNCATION));
  const theta = 2 * Math.PI * rand();
  // The nearest double to the decimal 89.99…9 (`decimals` nines after the point), as a literal would give.
  const maxLat = Number((90 - 10 ** -decimals).toFixed(decimals));
  const scale = 10 ** decimals;
  const la = Math.max(-maxLat, Math.min(maxLat, lat + (r * Math.cos(theta)) / KM_PER_DEGREE));
  let lo = lng + (r * Math.sin(theta)) / (KM_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  if (lo >= 180) lo -= 360;
  if (lo < -180) lo += 360;
  return { lat: Math.round(la * scale) / scale, lng: Math.round(lo * scale) / scale };
}

/** Leaf (level-30) cells per level-10 cell: 4^20 = 2^40. */
const LEAVES_PER_CELL = 2 ** 40;

/**
 * pointInCell returns a point of a level-10 cell (by ordinal) given two
 * uniform numbers in [0, 1): the centre of the leaf cell at that position
 * along the cell's Hilbert range, so uniform in the cell's (s, t) square
 * (which at level 10 is uniform in area to well under 1%). Throws RangeError
 * when u1 or u2 is outside [0, 1).
 */
export function pointInCell(ordinal: number, u1: number, u2: number): LatLng {
  const k = Math.floor(u1 * 2 ** 20) * 2 ** 20 + Math.floor(u2 * 2 ** 20);
  if (!(k >= 0 && k < LEAVES_PER_CELL)) throw new RangeError(`u1 ${u1}, u2 ${u2}: expected numbers in [0, 1)`);
  const leaf = s2.cellid.rangeMin(cellFromOrdinal(ordinal)) + 2n * BigInt(k);
  const ll = s2.cellid.latLng(leaf);
  return { lat: (ll.lat * 180) / Math.PI, lng: (ll.lng * 180) / Math.PI };
}

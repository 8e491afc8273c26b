/**
 * A synthetic workload (workload.ts) for trying boundary files before a real
 * log exists: searches from where people are, plus lunchtime hot spots.
 *
 * - Background searches (1 − hotShare of the lines, weight 1): a place drawn
 *   in proportion to its population, the centre a 2-D Gaussian around it of
 *   sigma spreadKm(population) km (truncated at 3 sigma), a radius from
 *   BACKGROUND_RADII, a time uniform over [start, start + days).
 * - Hot-spot searches (hotShare of the lines, weight hotWeight each: a busy
 *   downtown at lunch): a hot spot drawn in proportion to its population, the
 *   centre within a Gaussian of sigma HOT_SPREAD_KM around it, a radius from
 *   HOTSPOT_RADII, a time on a weekday of the period between 11:30 and 13:30
 *   local time (local offset = round(lng / 15) hours from UTC).
 *
 * Centres are rounded to 5 decimals (about 1 m) and times to the second, so
 * the searches returned are exactly those formatWorkload writes. The same
 * inputs and seed give the same searches.
 */
import { KM_PER_MILE } from './cover.ts';
import { mulberry32 } from './prng.ts';
import type { WorkloadSearch } from './workload.ts';

/** A populated place (degrees; population > 0 to be drawn). */
export interface PopulatedPlace {
  lat: number;
  lng: number;
  population: number;
}

/** A radius of a mix, in miles, and its share of the searches. */
export interface RadiusMixItem {
  mi: number;
  share: number;
}

/** Background radii: mostly neighbourhood searches, a few wide ones. Shares sum to 1. */
export const BACKGROUND_RADII: readonly RadiusMixItem[] = Object.freeze([
  { mi: 2, share: 0.2 },
  { mi: 5, share: 0.35 },
  { mi: 15, share: 0.3 },
  { mi: 25, share: 0.1 },
  { mi: 50, share: 0.05 },
]);

/** Hot-spot radii: walking distance from a downtown office. Shares sum to 1. */
export const HOTSPOT_RADII: readonly RadiusMixItem[] = Object.freeze([
  { mi: 1, share: 0.5 },
  { mi: 2, share: 0.5 },
]);

/** Spread of hot-spot centres around the hot spot, km (one standard deviation). */
export const HOT_SPREAD_KM = 0.8;

/** The default spread of background centres around a place: the dataset's rule for restaurants, clamp(0.01 · √population, 1.5, 25) km. */
export function defaultSpreadKm(population: number): number {
  return Math.min(25, Math.max(1.5, 0.01 * Math.sqrt(population)));
}

/** Options for syntheticWorkload. */
export interface SyntheticOptions {
  /** Number of lines, an integer in [1, 1,000,000]. */
  searches: number;
  /** PRNG seed, an integer (default 1). */
  seed?: number;
  /** Start of the period, ISO-8601 UTC (default 2026-11-23T00:00:00Z, a Monday). */
  start?: string;
  /** Length of the period in days, an integer in [1, 366] (default 7). */
  days?: number;
  /** Share of lines that are hot-spot searches, in [0, 1] (default 0.15; 0 without hot spots). */
  hotShare?: number;
  /** Weight of each hot-spot line, > 0 (default 3). */
  hotWeight?: number;
  /** Spread of background centres, km, from a population (default defaultSpreadKm). */
  spreadKm?: (population: number) => number;
}

const KM_PER_DEGREE = (6371.0088 * Math.PI) / 180;
const DAY_MS = 86_400_000;

function cumulative(weights: readonly number[], what: string): Float64Array {
  const cum = new Float64Array(weights.length);
  let t = 0;
  weights.forEach((w, i) => {
    if (!(Number.isFinite(w) && w >= 0)) throw new RangeError(`${what}[${i}] population ${w} is invalid: expected a finite, non-negative number`);
    cum[i] = t += w;
  });
  return cum;
}

function pick(cum: Float64Array, u: number): number {
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

/**
 * syntheticWorkload draws a workload (see the file comment), sorted by time
 * (ties: draw order). places must hold population; hotspots may be empty
 * (then every line is background). Throws RangeError naming an option out of
 * range or a place with an invalid population.
 */
export function syntheticWorkload(places: readonly PopulatedPlace[], hotspots: readonly PopulatedPlace[], opts: SyntheticOptions): WorkloadSearch[] {
  const n = opts.searches;
  const seed = opts.seed ?? 1;
  const days = opts.days ?? 7;
  const hotShare = hotspots.length > 0 ? (opts.hotShare ?? 0.15) : 0;
  const hotWeight = opts.hotWeight ?? 3;
  const spread = opts.spreadKm ?? defaultSpreadKm;
  const startText = opts.start ?? '2026-11-23T00:00:00Z';
  const start = Date.parse(startText);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new RangeError(`searches ${n} is invalid: expected an integer in [1, 1000000]`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed ${seed} is invalid: expected an integer`);
  if (!Number.isInteger(days) || days < 1 || days > 366) throw new RangeError(`days ${days} is invalid: expected an integer in [1, 366]`);
  if (!(hotShare >= 0 && hotShare <= 1)) throw new RangeError(`hotShare ${hotShare} is invalid: expected a number in [0, 1]`);
  if (!(Number.isFinite(hotWeight) && hotWeight > 0)) throw new RangeError(`hotWeight ${hotWeight} is invalid: expected a number greater than 0`);
  if (!Number.isFinite(start)) throw new RangeError(`start ${JSON.stringify(startText)} is invalid: expected an ISO-8601 date-time such as 2026-11-23T00:00:00Z`);
  const placeCum = cumulative(places.map((p) => p.population), 'places');
  if (!(placeCum.length > 0 && placeCum[placeCum.length - 1] > 0)) throw new RangeError('places hold no population: background centres are drawn in proportion to people');
  const hotCum = cumulative(hotspots.map((p) => p.population), 'hotspots');
  if (hotShare > 0 && !(hotCum[hotCum.length - 1] > 0)) throw new RangeError('hotspots hold no population: hot spots are drawn in proportion to people');
  const bgCum = cumulative(BACKGROUND_RADII.map((r) => r.share), 'radii');
  const hotRadCum = cumulative(HOTSPOT_RADII.map((r) => r.share), 'radii');
  const weekdays: number[] = [];
  for (let d = 0; d < days; d++) {
    const wd = new Date(start + d * DAY_MS).getUTCDay();
    if (wd !== 0 && wd !== 6) weekdays.push(d);
  }
  if (weekdays.length === 0) weekdays.push(0);

  const rand = mulberry32(seed);
  // Gaussian offset of sigma km truncated at 3 sigma (inverse CDF of the truncated Rayleigh law), direction uniform.
  const trunc = 1 - Math.exp(-4.5);
  const around = (lat: number, lng: number, sigma: number) => {
    const r = sigma * Math.sqrt(-2 * Math.log(1 - rand() * trunc));
    const theta = 2 * Math.PI * rand();
    const la = Math.max(-89.99999, Math.min(89.99999, lat + (r * Math.cos(theta)) / KM_PER_DEGREE));
    let lo = lng + (r * Math.sin(theta)) / (KM_PER_DEGREE * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
    if (lo >= 180) lo -= 360;
    if (lo < -180) lo += 360;
    return { lat: Math.round(la * 1e5) / 1e5, lng: Math.round(lo * 1e5) / 1e5 };
  };
  const out: { s: WorkloadSearch; k: number }[] = [];
  for (let k = 0; k < n; k++) {
    const hot = rand() < hotShare;
    let c: { lat: number; lng: number };
    let mi: number;
    let time: number;
    if (hot) {
      const h = hotspots[pick(hotCum, rand())];
      c = around(h.lat, h.lng, HOT_SPREAD_KM);
      mi = HOTSPOT_RADII[pick(hotRadCum, rand())].mi;
      const day = weekdays[Math.floor(rand() * weekdays.length)];
      const localMs = (11.5 + 2 * rand()) * 3_600_000;
      time = start + day * DAY_MS + localMs - Math.round(h.lng / 15) * 3_600_000;
    } else {
      const p = places[pick(placeCum, rand())];
      c = around(p.lat, p.lng, spread(p.population));
      mi = BACKGROUND_RADII[pick(bgCum, rand())].mi;
      time = start + rand() * days * DAY_MS;
    }
    time = Math.floor(time / 1000) * 1000;
    out.push({ s: { lat: c.lat, lng: c.lng, radius: { value: mi, unit: 'mi', km: mi * KM_PER_MILE }, weight: hot ? hotWeight : 1, time }, k });
  }
  out.sort((a, b) => a.s.time! - b.s.time! || a.k - b.k);
  return out.map((o) => o.s);
}

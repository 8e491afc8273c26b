/**
 * A synthetic workload (workload.ts) for trying boundary files before a real
 * log exists: searches from where people are, plus lunchtime hot spots.
 *
 * - Background searches (1 − hotShare of the lines, weight 1): a place drawn
 *   in proportion to its population, the centre a 2-D Gaussian around it of
 *   sigma spreadKm(population) km (truncated at 3 sigma; sampling.ts), a radius from
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
import { cumulativeWeights, pickWeighted, spreadKm, gaussianAround } from './sampling.ts';
import type { PopulatedPlace } from './place.ts';
import type { WorkloadSearch } from './workload.ts';

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
  /** Spread of background centres, km, from a population (default spreadKm, the dataset's rule for restaurants: clamp(0.01 · √population, 1.5, 25) km). */
  spreadKm?: (population: number) => number;
}

const DAY_MS = 86_400_000;

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
  const spread = opts.spreadKm ?? spreadKm;
  const startText = opts.start ?? '2026-11-23T00:00:00Z';
  const start = Date.parse(startText);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new RangeError(`searches ${n} is invalid: expected an integer in [1, 1000000]`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed ${seed} is invalid: expected an integer`);
  if (!Number.isInteger(days) || days < 1 || days > 366) throw new RangeError(`days ${days} is invalid: expected an integer in [1, 366]`);
  if (!(hotShare >= 0 && hotShare <= 1)) throw new RangeError(`hotShare ${hotShare} is invalid: expected a number in [0, 1]`);
  if (!(Number.isFinite(hotWeight) && hotWeight > 0)) throw new RangeError(`hotWeight ${hotWeight} is invalid: expected a number greater than 0`);
  if (!Number.isFinite(start)) throw new RangeError(`start ${JSON.stringify(startText)} is invalid: expected an ISO-8601 date-time such as 2026-11-23T00:00:00Z`);
  const placeCum = cumulativeWeights(places.map((p) => p.population), 'places', 'population');
  if (!(placeCum.length > 0 && placeCum[placeCum.length - 1] > 0)) throw new RangeError('places hold no population: background centres are drawn in proportion to people');
  const hotCum = cumulativeWeights(hotspots.map((p) => p.population), 'hotspots', 'population');
  if (hotShare > 0 && !(hotCum[hotCum.length - 1] > 0)) throw new RangeError('hotspots hold no population: hot spots are drawn in proportion to people');
  const bgCum = cumulativeWeights(BACKGROUND_RADII.map((r) => r.share), 'BACKGROUND_RADII', 'share');
  const hotRadCum = cumulativeWeights(HOTSPOT_RADII.map((r) => r.share), 'HOTSPOT_RADII', 'share');
  const weekdays: number[] = [];
  for (let d = 0; d < days; d++) {
    const wd = new Date(start + d * DAY_MS).getUTCDay();
    if (wd !== 0 && wd !== 6) weekdays.push(d);
  }
  if (weekdays.length === 0) weekdays.push(0);

  const rand = mulberry32(seed);
  // Centres 5 decimals (about 1 m), as formatWorkload writes them.
  const around = (lat: number, lng: number, sigma: number) => gaussianAround(lat, lng, sigma, rand, 5);
  const out: { s: WorkloadSearch; k: number }[] = [];
  for (let k = 0; k < n; k++) {
    const hot = rand() < hotShare;
    let c: { lat: number; lng: number };
    let mi: number;
    let time: number;
    if (hot) {
      const h = hotspots[pickWeighted(hotCum, rand())];
      c = around(h.lat, h.lng, HOT_SPREAD_KM);
      mi = HOTSPOT_RADII[pickWeighted(hotRadCum, rand())].mi;
      const day = weekdays[Math.floor(rand() * weekdays.length)];
      const localMs = (11.5 + 2 * rand()) * 3_600_000;
      time = start + day * DAY_MS + localMs - Math.round(h.lng / 15) * 3_600_000;
    } else {
      const p = places[pickWeighted(placeCum, rand())];
      c = around(p.lat, p.lng, spread(p.population));
      mi = BACKGROUND_RADII[pickWeighted(bgCum, rand())].mi;
      time = start + rand() * days * DAY_MS;
    }
    time = Math.floor(time / 1000) * 1000;
    out.push({ s: { lat: c.lat, lng: c.lng, radius: { value: mi, unit: 'mi', km: mi * KM_PER_MILE }, weight: hot ? hotWeight : 1, time }, k });
  }
  out.sort((a, b) => a.s.time! - b.s.time! || a.k - b.k);
  return out.map((o) => o.s);
}

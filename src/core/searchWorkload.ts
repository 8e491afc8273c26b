/**
 * The seeded search workload of the expected fan-out (expectedFanout.ts; the boundary review,
 * `geoshard diff`, `geoshard check`): `centres` search centres drawn in proportion to
 * restaurants (pick a cell of the cells list with probability restaurants / all restaurants,
 * sampling.ts's weighted pick, then a uniformly random level-30 leaf cell inside it,
 * sampling.ts's pointInCell: uniform in the cell's S2 (s, t) square, which at level 10 is
 * uniform in area to well under 1%), each searched once at every radius of a radius mix. A
 * radius's weight is its share of searches, so the mix is exact rather than sampled. Default
 * mix: 5, 15, 25 and 50 miles, equally often. Degrees and km.
 */
import { mulberry32 } from './prng.ts';
import { CELL_COUNT, type LatLng } from './cells.ts';
import { KM_PER_MILE, assertRadiusKm } from './cover.ts';
import { cumulativeWeights, pickWeighted, pointInCell } from './sampling.ts';
import type { CellWeight } from './build.ts';

/** One radius of a workload's mix: radius in km, relative weight (share of searches) > 0, and a label for reports. */
export interface RadiusShare {
  km: number;
  weight: number;
  label: string;
}

/** The default radius mix: 5, 15, 25 and 50 miles, equally often. */
export const DEFAULT_RADIUS_MIX: readonly RadiusShare[] = Object.freeze([5, 15, 25, 50].map((mi) => Object.freeze({ km: mi * KM_PER_MILE, weight: 1, label: `${mi}mi` })));

/** Options for searchWorkload. */
export interface WorkloadOptions {
  /** Seed of the PRNG (an integer; default 1): the same seed gives the same centres. */
  seed?: number;
  /** Number of search centres, an integer in [1, 1e6] (default 2000); searches = centres × radii. */
  centres?: number;
  /** The radius mix (default DEFAULT_RADIUS_MIX); radii in (0, MAX_RADIUS_KM], weights > 0. */
  radii?: readonly RadiusShare[];
}

/** A seeded search workload. */
export interface Workload {
  seed: number;
  /** Search centres in degrees. */
  centres: LatLng[];
  /** The radius mix with weights normalised to sum to 1. */
  radii: RadiusShare[];
}

/**
 * searchWorkload draws a seeded workload from a cells list (see the file
 * comment). Throws RangeError when the cells hold no restaurant, a cell's
 * ordinal or restaurant count is invalid, or an option is out of range
 * (naming it).
 */
export function searchWorkload(cells: readonly CellWeight[], opts: WorkloadOptions = {}): Workload {
  const seed = opts.seed ?? 1;
  const count = opts.centres ?? 2000;
  if (!Number.isInteger(seed)) throw new RangeError(`seed ${seed} is invalid: expected an integer`);
  if (!Number.isInteger(count) || count < 1 || count > 1e6) throw new RangeError(`centres ${count} is invalid: expected an integer in [1, 1000000]`);
  const radii = opts.radii ?? DEFAULT_RADIUS_MIX;
  if (radii.length === 0) throw new RangeError('radii is empty: give at least one radius');
  radii.forEach((r, i) => {
    assertRadiusKm(r.km, `radii[${i}]`);
    if (!Number.isFinite(r.weight) || r.weight <= 0) throw new RangeError(`radii[${i}].weight ${r.weight} is invalid: expected a number greater than 0`);
  });
  const wsum = radii.reduce((a, r) => a + r.weight, 0);

  cells.forEach((c, i) => {
    if (!(c.ordinal >= 0 && c.ordinal < CELL_COUNT)) throw new RangeError(`cells[${i}].ordinal ${c.ordinal} is out of range [0, ${CELL_COUNT})`);
  });
  const cum = cumulativeWeights(cells.map((c) => c.restaurants), 'cells', 'restaurants');
  if (!(cum[cum.length - 1] > 0)) throw new RangeError('the cells hold no restaurant: search centres are drawn in proportion to restaurants');
  const rand = mulberry32(seed);
  const centres: LatLng[] = [];
  // A cell with probability restaurants / total, then a point in it.
  for (let t = 0; t < count; t++) centres.push(pointInCell(cells[pickWeighted(cum, rand())].ordinal, rand(), rand()));
  return { seed, centres, radii: radii.map((r) => ({ km: r.km, weight: r.weight / wsum, label: r.label })) };
}

/**
 * Fan-out: how many shards searches ask, the one pure module the explorer's
 * fan-out map (its worker), the boundary review and the CLI's `diff` use.
 * Angles are degrees, distances km; no DOM.
 *
 * Two questions, one file:
 * - expectedFanout(router, searchWorkload(cells)): the mean shards a typical search
 *   asks over a seeded workload (the review, `geoshard diff`);
 * - FanoutGridJob / FanoutShareJob (computeFanoutGrid / computeFanoutShare at once):
 *   the count at every pixel of a grid and the weighted one-shard share (the map);
 * - FanoutFieldJob (computeFanoutField): per point, the distances to the nearest
 *   other shards, so the counts at any radius up to a limit are a threshold
 *   (fanoutFieldCounts, fanoutFieldShare): the map follows a radius slider.
 *
 * ## Expected fan-out
 * How many shards a typical search asks under a boundary file, over a seeded workload of searches, beside a hash-sharded index where
 * every search asks all N shards.
 *
 * The workload: `centres` search centres drawn in proportion to restaurants
 * (pick a cell of the cells list with probability restaurants / all
 * restaurants, then a uniformly random level-30 leaf cell inside it: uniform
 * in the cell's S2 (s, t) square, which at level 10 is uniform in area to
 * well under 1%), each searched once at every radius of a radius mix. A
 * radius's weight is its share of searches, so the mix is exact rather than
 * sampled. Default mix: 5, 15, 25 and 50 miles, equally often.
 *
 * Fan-out of a search = the number of shards its level-10 covering touches
 * (Router.shardsAsked, the read owners). Shard-queries per second at a
 * query rate = queries/s × mean shards asked.
 *
 * ## The fan-out map
 * For one search radius, how many shards a search centred
 * at each point of a latitude/longitude grid would ask, and the share of
 * restaurant-weighted searches that ask exactly one shard.
 *
 * ## Exactness
 * Each count equals router.shardsAsked(lat, lng, radiusKm).length, which
 * equals router.cover(...).shards.length. The default method
 * ('blocks') gets there without asking every point: for a block of points
 * with a centre c and every point within dKm of c, the circle around any of
 * them (radius r) lies inside the circle around c of radius r + d and
 * contains the circle around c of radius r − d. Coverings are monotone
 * (a cell that meets the smaller circle meets the larger one), so
 *   shards(c, r − d) ⊆ shards(p, r) ⊆ shards(c, r + d)   for every p in the block,
 * and when both ends have the same size (always when the outer one asks one
 * shard) every point of the block asks that many shards. Otherwise the block
 * is split in two, down to single points, which ask shardsAsked itself.
 * The radii are widened/narrowed by FANOUT_EPS_KM, far above floating-point
 * error, so the sandwich holds for S2's computed coverings, not just on paper.
 * Methods 'fast' (shardsAsked at every point) and 'cover' (the full
 * walk's covering with its shards, Router.cover, at every point) give identical counts and serve as
 * baselines.
 *
 * ## Grid
 * A grid is a bbox (west, south, east, north) cut into cols × rows pixels;
 * a pixel's value is the search centred on the pixel's centre. Counts are
 * row-major with row 0 the southernmost and column 0 the westernmost, which
 * is how a three.js DataTexture with v = latitude reads them. A bbox with
 * west > east crosses the antimeridian (GeoJSON's convention): its width is
 * east − west + 360 and longitudes past 180 wrap to −180. Latitudes may reach
 * ±90; pixel centres never sit on a pole.
 *
 * ## Weights
 * The one-shard share weighs each search centre by where searches come from.
 * The explorer uses the restaurants of each non-empty level-10 cell of
 * data/cells.csv at the cell's centre (weightsFromCells): people search where
 * restaurants are, and it is the same data the shards were balanced on, at
 * 21,905 points rather than ~70 city centres. weightsFromCities (population
 * at each sample city) is the coarse alternative. The share is computed at
 * the weight points themselves, not read off the grid, so it does not depend
 * on the view or its resolution.
 */
import { mulberry32 } from './prng.ts';
import { s2 } from 's2js';
import { cellFromOrdinal, cellCenter, ordinalAt, CELL_COUNT, type LatLng } from './cells.ts';
import { KM_PER_MILE, EARTH_RADIUS_KM, MAX_RADIUS_KM, assertRadiusKm } from './cover.ts';
import type { Router } from './router.ts';
import type { CellWeight } from './build.ts';

/**
 * now is the host's clock in milliseconds (performance.now in browsers, workers and Node, the
 * clock callers take deadlines from), reached through globalThis because the core compiles
 * against ES2022 alone, without DOM or Node types.
 */
const hostPerformance = (globalThis as { performance?: { now(): number } }).performance;
const now: () => number = hostPerformance ? () => hostPerformance.now() : Date.now;

const cellid = s2.cellid;

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

/** Leaf (level-30) cells per level-10 cell: 4^20 = 2^40. */
const LEAVES_PER_CELL = 2 ** 40;

/**
 * pointInCell returns a point of a level-10 cell (by ordinal) given two
 * uniform numbers in [0, 1): the centre of the leaf cell at that position
 * along the cell's Hilbert range, so uniform in the cell's (s, t) square.
 */
export function pointInCell(ordinal: number, u1: number, u2: number): LatLng {
  const k = Math.floor(u1 * 2 ** 20) * 2 ** 20 + Math.floor(u2 * 2 ** 20);
  if (!(k >= 0 && k < LEAVES_PER_CELL)) throw new RangeError(`u1 ${u1}, u2 ${u2}: expected numbers in [0, 1)`);
  const leaf = cellid.rangeMin(cellFromOrdinal(ordinal)) + 2n * BigInt(k);
  const ll = cellid.latLng(leaf);
  return { lat: (ll.lat * 180) / Math.PI, lng: (ll.lng * 180) / Math.PI };
}

/**
 * searchWorkload draws a seeded workload from a cells list (see the file
 * comment). Throws RangeError when the cells hold no restaurant, or an option
 * is out of range (naming it).
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

  const cum = new Float64Array(cells.length);
  let total = 0;
  cells.forEach((c, i) => {
    if (!(c.ordinal >= 0 && c.ordinal < CELL_COUNT)) throw new RangeError(`cells[${i}].ordinal ${c.ordinal} is out of range [0, ${CELL_COUNT})`);
    total += c.restaurants;
    cum[i] = total;
  });
  if (!(total > 0)) throw new RangeError('the cells hold no restaurant: search centres are drawn in proportion to restaurants');
  const rand = mulberry32(seed);
  const centres: LatLng[] = [];
  for (let t = 0; t < count; t++) {
    // First cell whose cumulative count exceeds u: probability restaurants / total.
    const u = rand() * total;
    let lo = 0;
    let hi = cells.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    centres.push(pointInCell(cells[lo].ordinal, rand(), rand()));
  }
  return { seed, centres, radii: radii.map((r) => ({ km: r.km, weight: r.weight / wsum, label: r.label })) };
}

/** Fan-out figures for one radius of the mix. */
export interface RadiusFanout extends RadiusShare {
  meanShards: number;
  oneShardShare: number;
}

/** The expected fan-out of a boundary file over a workload. */
export interface Fanout {
  /** Searches evaluated: centres × radii. */
  searches: number;
  numberOfShards: number;
  /** Mean shards asked per search, weighted by the radius mix; in [1, N]. */
  meanShards: number;
  /** Share of searches asking exactly one shard, in [0, 1]. */
  oneShardShare: number;
  /** The query rate the next figure is for, queries/s. */
  qps: number;
  /** qps × meanShards. */
  shardQueriesPerSecond: number;
  byRadius: RadiusFanout[];
  /** The hash-sharded baseline: every search asks all N shards. */
  hash: { meanShards: number; oneShardShare: number; shardQueriesPerSecond: number };
}

/**
 * fanoutOf evaluates a workload with a function giving the number of shards a
 * circle asks (lat, lng in degrees, radius in km). expectedFanout uses the
 * router's fast path; tests pass full coverings to check it.
 */
export function fanoutOf(numberOfShards: number, workload: Workload, shardsAsked: (lat: number, lng: number, radiusKm: number) => number, qps = 1000): Fanout {
  if (!Number.isFinite(qps) || qps < 0) throw new RangeError(`qps ${qps} is invalid: expected a non-negative number of queries per second`);
  const n = workload.centres.length;
  const byRadius: RadiusFanout[] = workload.radii.map((r) => {
    let shards = 0;
    let one = 0;
    for (const c of workload.centres) {
      const k = shardsAsked(c.lat, c.lng, r.km);
      shards += k;
      if (k === 1) one++;
    }
    return { ...r, meanShards: shards / n, oneShardShare: one / n };
  });
  const meanShards = byRadius.reduce((a, r) => a + r.weight * r.meanShards, 0);
  const oneShardShare = byRadius.reduce((a, r) => a + r.weight * r.oneShardShare, 0);
  return {
    searches: n * workload.radii.length,
    numberOfShards,
    meanShards,
    oneShardShare,
    qps,
    shardQueriesPerSecond: qps * meanShards,
    byRadius,
    hash: { meanShards: numberOfShards, oneShardShare: numberOfShards === 1 ? 1 : 0, shardQueriesPerSecond: qps * numberOfShards },
  };
}

/** expectedFanout evaluates a workload under a router with Router.shardsAsked (the fast path). qps ≥ 0, default 1000. */
export function expectedFanout(router: Router, workload: Workload, qps = 1000): Fanout {
  return fanoutOf(router.numberOfShards, workload, (lat, lng, km) => router.shardsAsked(lat, lng, km).length, qps);
}


// ---------------------------------------------------------------------------
// The fan-out map: grids and the weighted one-shard share.


/** Counts are stored in a Uint8Array: values above this are stored as this. */
export const MAX_COUNT = 255;

/** Most pixels a grid may have (2048 × 2048). */
export const MAX_GRID_POINTS = 2048 * 2048;

/** Most pixels along one side of a grid. */
export const MAX_GRID_SIDE = 4096;

/** Margin, in km, by which the block method widens and narrows its circles (1 mm). */
export const FANOUT_EPS_KM = 1e-6;

const DEG = Math.PI / 180;

/**
 * Speed, not correctness: a block spreading farther than this many radii
 * from its centre is split without trying the sandwich, whose circles would
 * be large, slow to resolve and rarely conclusive (measured: trying wider
 * blocks, or only narrower ones, was no faster on US grids at 15 and 50 mi).
 */
const SANDWICH_MAX_SPREAD = 1;

/** A latitude/longitude box in degrees; west > east means it crosses the antimeridian. */
export interface FanoutBbox {
  /** Degrees in [-180, 180]. */
  west: number;
  /** Degrees in [-90, 90), below north. */
  south: number;
  /** Degrees in [-180, 180]. */
  east: number;
  /** Degrees in (-90, 90], above south. */
  north: number;
}

/** A bbox cut into cols × rows pixels (integers in [1, MAX_GRID_SIDE], cols·rows ≤ MAX_GRID_POINTS). */
export interface FanoutGrid extends FanoutBbox {
  cols: number;
  rows: number;
}

/** How counts are computed: all three give identical counts (see the file comment). */
export type FanoutMethod = 'blocks' | 'fast' | 'cover';

export const FANOUT_METHODS: readonly FanoutMethod[] = ['blocks', 'fast', 'cover'];

/**
 * assertFanoutGrid throws a RangeError naming the field, its value and what
 * is valid, unless grid is a valid FanoutGrid.
 */
export function assertFanoutGrid(grid: unknown): asserts grid is FanoutGrid {
  if (!grid || typeof grid !== 'object') throw new RangeError(`grid ${JSON.stringify(grid)} is not an object { west, south, east, north, cols, rows }`);
  const g = grid as Record<string, unknown>;
  const num = (k: string, lo: number, hi: number, what: string) => {
    const v = g[k];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) throw new RangeError(`grid.${k} ${JSON.stringify(v)} is invalid: expected ${what}`);
    return v;
  };
  const west = num('west', -180, 180, 'a longitude in [-180, 180] degrees');
  const east = num('east', -180, 180, 'a longitude in [-180, 180] degrees');
  const south = num('south', -90, 90, 'a latitude in [-90, 90] degrees');
  const north = num('north', -90, 90, 'a latitude in [-90, 90] degrees');
  if (!(north > south)) throw new RangeError(`grid.north ${north} is not above grid.south ${south}: expected south < north`);
  if (west === east) throw new RangeError(`grid.west and grid.east are both ${west}: the box has no width (use west -180, east 180 for the whole world)`);
  for (const k of ['cols', 'rows']) {
    const v = g[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_GRID_SIDE) throw new RangeError(`grid.${k} ${JSON.stringify(v)} is invalid: expected an integer in [1, ${MAX_GRID_SIDE}]`);
  }
  if ((g.cols as number) * (g.rows as number) > MAX_GRID_POINTS) {
    throw new RangeError(`grid ${g.cols} × ${g.rows} has ${(g.cols as number) * (g.rows as number)} points: at most ${MAX_GRID_POINTS} (coarsen it; the map refines as the view zooms in)`);
  }
}

/** gridWidthDeg returns the bbox's width in degrees of longitude, in (0, 360]; it crosses the antimeridian when west > east. */
export function gridWidthDeg(b: FanoutBbox): number {
  return b.east > b.west ? b.east - b.west : b.east - b.west + 360;
}

/** wrapLng wraps a longitude (degrees) into [-180, 180); longitudes already there come back unchanged. */
export function wrapLng(lng: number): number {
  if (lng >= -180 && lng < 180) return lng;
  const w = (((lng + 180) % 360) + 360) % 360 - 180;
  return Object.is(w, -0) ? 0 : w;
}

/** gridLng returns the longitude of column i's pixel centres, in [-180, 180). */
export function gridLng(grid: FanoutGrid, i: number): number {
  return wrapLng(grid.west + ((i + 0.5) * gridWidthDeg(grid)) / grid.cols);
}

/** gridLat returns the latitude of row j's pixel centres (row 0 southernmost). */
export function gridLat(grid: FanoutGrid, j: number): number {
  return grid.south + ((j + 0.5) * (grid.north - grid.south)) / grid.rows;
}

/**
 * gridForBbox returns the grid over a bbox with pixels of about stepDeg
 * degrees (at least one pixel each way). When that would exceed maxPoints
 * the step grows until it fits. stepDeg must be finite and > 0.
 */
export function gridForBbox(bbox: FanoutBbox, stepDeg: number, maxPoints = 250_000): FanoutGrid {
  if (typeof stepDeg !== 'number' || !Number.isFinite(stepDeg) || stepDeg <= 0) throw new RangeError(`step ${stepDeg} is invalid: expected a positive number of degrees`);
  const w = gridWidthDeg(bbox);
  const h = bbox.north - bbox.south;
  let step = stepDeg;
  const limit = Math.min(maxPoints, MAX_GRID_POINTS);
  while (Math.max(1, Math.ceil(w / step)) * Math.max(1, Math.ceil(h / step)) > limit || Math.ceil(w / step) > MAX_GRID_SIDE || Math.ceil(h / step) > MAX_GRID_SIDE) step *= 1.25;
  const grid = { ...bbox, cols: Math.max(1, Math.ceil(w / step)), rows: Math.max(1, Math.ceil(h / step)) };
  assertFanoutGrid(grid);
  return grid;
}

/** Distance in km between two unit vectors (atan2 form: accurate at every angle). */
function distKm(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by;
  const cy = az * bx - ax * bz;
  const cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz) * EARTH_RADIUS_KM;
}

/** countAt returns one point's count by the per-point method ('fast' or 'cover'). */
function countAt(router: Router, lat: number, lng: number, radiusKm: number, method: FanoutMethod): number {
  return method === 'cover' ? router.cover(lat, lng, radiusKm).shards.length : router.shardsAsked(lat, lng, radiusKm).length;
}

/**
 * sandwich returns the count shared by every point within dKm of (lat, lng)
 * for circles of radiusKm, or 0 when the bounds differ or cannot be taken.
 */
function sandwich(router: Router, lat: number, lng: number, radiusKm: number, dKm: number): number {
  if (dKm > radiusKm * SANDWICH_MAX_SPREAD) return 0;
  const outer = radiusKm + dKm + FANOUT_EPS_KM;
  if (outer > MAX_RADIUS_KM) return 0;
  const hi = router.shardsAsked(lat, lng, outer).length;
  if (hi === 1) return 1;
  const inner = radiusKm - dKm - FANOUT_EPS_KM;
  if (inner <= 0) return 0;
  return router.shardsAsked(lat, lng, inner).length === hi ? hi : 0;
}

/** Pixels (or weight points) by how many shards their search asks: [1, 2, 3, 4 or more]. */
export type FanoutBuckets = [number, number, number, number];

/**
 * FanoutGridJob computes a grid's counts in slices, so a worker can stop
 * between slices to take a newer request. Construct, call step(deadline)
 * until it returns true, then read counts. Throws RangeError on an invalid
 * grid or radius.
 */
export class FanoutGridJob {
  /** Row-major counts, row 0 south, column 0 west, clamped at MAX_COUNT. */
  readonly counts: Uint8Array;
  /** Pixels finished so far. */
  done = 0;
  readonly total: number;
  private readonly lats: Float64Array;
  private readonly lngs: Float64Array;
  private readonly ux: Float64Array;
  private readonly uy: Float64Array;
  private readonly uz: Float64Array;
  private readonly stack: number[] = [];
  private next = 0;

  constructor(
    readonly router: Router,
    readonly grid: FanoutGrid,
    readonly radiusKm: number,
    readonly method: FanoutMethod = 'blocks',
  ) {
    assertFanoutGrid(grid);
    assertRadiusKm(radiusKm);
    if (!FANOUT_METHODS.includes(method)) throw new RangeError(`method ${JSON.stringify(method)} is invalid: expected one of ${FANOUT_METHODS.join(', ')}`);
    const { cols, rows } = grid;
    this.total = cols * rows;
    this.counts = new Uint8Array(this.total);
    this.lats = Float64Array.from({ length: rows }, (_, j) => gridLat(grid, j));
    this.lngs = Float64Array.from({ length: cols }, (_, i) => gridLng(grid, i));
    this.ux = new Float64Array(this.total);
    this.uy = new Float64Array(this.total);
    this.uz = new Float64Array(this.total);
    for (let j = 0; j < rows; j++) {
      const cl = Math.cos(this.lats[j] * DEG);
      const sl = Math.sin(this.lats[j] * DEG);
      for (let i = 0; i < cols; i++) {
        const k = j * cols + i;
        this.ux[k] = cl * Math.cos(this.lngs[i] * DEG);
        this.uy[k] = cl * Math.sin(this.lngs[i] * DEG);
        this.uz[k] = sl;
      }
    }
    if (method === 'blocks') this.stack.push(0, cols, 0, rows);
  }

  /** step works until performance.now() passes deadline (at least one unit of work); returns true when done. */
  step(deadline = Infinity): boolean {
    const { cols } = this.grid;
    if (this.method !== 'blocks') {
      while (this.next < this.total) {
        const k = this.next++;
        this.counts[k] = Math.min(MAX_COUNT, countAt(this.router, this.lats[(k / cols) | 0], this.lngs[k % cols], this.radiusKm, this.method));
        this.done++;
        if ((k & 7) === 7 && now() > deadline) break;
      }
      return this.done === this.total;
    }
    const degPerCol = gridWidthDeg(this.grid) / cols;
    while (this.stack.length > 0) {
      const j1 = this.stack.pop()!;
      const j0 = this.stack.pop()!;
      const i1 = this.stack.pop()!;
      const i0 = this.stack.pop()!;
      const w = i1 - i0;
      const h = j1 - j0;
      if (w * h <= 2) {
        for (let j = j0; j < j1; j++) for (let i = i0; i < i1; i++) this.counts[j * cols + i] = Math.min(MAX_COUNT, countAt(this.router, this.lats[j], this.lngs[i], this.radiusKm, 'fast'));
        this.done += w * h;
      } else {
        let shared = 0;
        // The farthest pixel centre from the block's middle pixel is a corner when the block spans at most 90° of longitude (see blockRadiusKm).
        if ((w - 1) * degPerCol <= 90) {
          const ic = (i0 + i1 - 1) >> 1;
          const jc = (j0 + j1 - 1) >> 1;
          shared = sandwich(this.router, this.lats[jc], this.lngs[ic], this.radiusKm, this.blockRadiusKm(ic, jc, i0, i1, j0, j1));
        }
        if (shared > 0) {
          const v = Math.min(MAX_COUNT, shared);
          for (let j = j0; j < j1; j++) this.counts.fill(v, j * cols + i0, j * cols + i1);
          this.done += w * h;
        } else if (w >= h) {
          const m = (i0 + i1) >> 1;
          this.stack.push(m, i1, j0, j1, i0, m, j0, j1);
        } else {
          const m = (j0 + j1) >> 1;
          this.stack.push(i0, i1, m, j1, i0, i1, j0, m);
        }
      }
      if (now() > deadline) break;
    }
    return this.stack.length === 0;
  }

  /**
   * blockRadiusKm returns the largest distance from pixel (ic, jc) to a pixel
   * centre of the block. Distance to a point has no local maximum on the
   * sphere except its antipode, and along a parallel or a meridian segment
   * within 90° of longitude of the point it only grows away from the point,
   * so over the block's rectangle of pixel centres it peaks at a corner.
   */
  private blockRadiusKm(ic: number, jc: number, i0: number, i1: number, j0: number, j1: number): number {
    const { cols } = this.grid;
    const c = jc * cols + ic;
    let d = 0;
    for (const j of [j0, j1 - 1]) {
      for (const i of [i0, i1 - 1]) {
        const k = j * cols + i;
        d = Math.max(d, distKm(this.ux[c], this.uy[c], this.uz[c], this.ux[k], this.uy[k], this.uz[k]));
      }
    }
    return d;
  }

  /** buckets counts the pixels asking 1, 2, 3 and 4+ shards. Precondition: done. */
  buckets(): FanoutBuckets {
    const b: FanoutBuckets = [0, 0, 0, 0];
    for (const v of this.counts) b[Math.min(4, v) - 1]++;
    return b;
  }
}

/** Search-origin weights: points (degrees) with non-negative weights, best in key order (neighbours adjacent) for speed. */
export interface FanoutWeights {
  lat: Float64Array;
  lng: Float64Array;
  weight: Float64Array;
}

/** weightsFromCells returns each non-empty cell's restaurants at its centre, in the cells' (key) order. */
export function weightsFromCells(cells: readonly CellWeight[]): FanoutWeights {
  const n = cells.length;
  const w: FanoutWeights = { lat: new Float64Array(n), lng: new Float64Array(n), weight: new Float64Array(n) };
  cells.forEach((c, k) => {
    const p = cellCenter(cellFromOrdinal(c.ordinal));
    w.lat[k] = p.lat;
    w.lng[k] = p.lng;
    w.weight[k] = c.restaurants;
  });
  return w;
}

/** weightsFromCities returns each city's population (0 when absent) at its centre, sorted into key order. */
export function weightsFromCities(cities: readonly { lat: number; lng: number; population?: number }[]): FanoutWeights {
  const order = cities.map((c, k) => ({ c, o: ordinalAt(c.lat, c.lng), k })).sort((a, b) => a.o - b.o || a.k - b.k);
  return {
    lat: Float64Array.from(order, (x) => x.c.lat),
    lng: Float64Array.from(order, (x) => x.c.lng),
    weight: Float64Array.from(order, (x) => x.c.population ?? 0),
  };
}

/**
 * assertFanoutWeights throws a RangeError naming the problem unless w has
 * three arrays of equal length with valid points and finite weights >= 0.
 */
export function assertFanoutWeights(w: unknown): asserts w is FanoutWeights {
  const x = w as FanoutWeights;
  if (!x || !(x.lat instanceof Float64Array) || !(x.lng instanceof Float64Array) || !(x.weight instanceof Float64Array)) {
    throw new RangeError('weights must be { lat, lng, weight } as Float64Arrays');
  }
  if (x.lng.length !== x.lat.length || x.weight.length !== x.lat.length) {
    throw new RangeError(`weights have ${x.lat.length} lat, ${x.lng.length} lng and ${x.weight.length} weight values: expected equal lengths`);
  }
  for (let k = 0; k < x.lat.length; k++) {
    if (!(Math.abs(x.lat[k]) <= 90) || !Number.isFinite(x.lng[k])) throw new RangeError(`weights point ${k} (${x.lat[k]}, ${x.lng[k]}) is not a latitude in [-90, 90] and a finite longitude`);
    if (!(x.weight[k] >= 0) || !Number.isFinite(x.weight[k])) throw new RangeError(`weights.weight[${k}] ${x.weight[k]} is invalid: expected a finite number >= 0`);
  }
}

/** The share of weighted searches by fan-out, for one radius. */
export interface FanoutShare {
  radiusKm: number;
  /** Sum of all weights. */
  weightTotal: number;
  /** Fraction of the weight whose search asks 1, 2, 3 and 4+ shards (each in [0, 1], summing to 1; zeros when weightTotal is 0). */
  byFanout: FanoutBuckets;
  /** byFanout[0]: the share of searches that ask exactly one shard. */
  oneShard: number;
}

/**
 * FanoutShareJob computes the count at every weight point (in slices, like
 * FanoutGridJob) by the same sandwich over runs of consecutive points.
 */
export class FanoutShareJob {
  /** Count per weight point, clamped at MAX_COUNT. */
  readonly counts: Uint8Array;
  done = 0;
  readonly total: number;
  private readonly ux: Float64Array;
  private readonly uy: Float64Array;
  private readonly uz: Float64Array;
  private readonly stack: number[] = [];

  constructor(
    readonly router: Router,
    readonly weights: FanoutWeights,
    readonly radiusKm: number,
    readonly method: FanoutMethod = 'blocks',
  ) {
    assertRadiusKm(radiusKm);
    if (!FANOUT_METHODS.includes(method)) throw new RangeError(`method ${JSON.stringify(method)} is invalid: expected one of ${FANOUT_METHODS.join(', ')}`);
    const n = weights.lat.length;
    this.total = n;
    this.counts = new Uint8Array(n);
    this.ux = new Float64Array(n);
    this.uy = new Float64Array(n);
    this.uz = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const cl = Math.cos(weights.lat[k] * DEG);
      this.ux[k] = cl * Math.cos(weights.lng[k] * DEG);
      this.uy[k] = cl * Math.sin(weights.lng[k] * DEG);
      this.uz[k] = Math.sin(weights.lat[k] * DEG);
    }
    if (n > 0) this.stack.push(0, n);
  }

  step(deadline = Infinity): boolean {
    const { lat, lng } = this.weights;
    while (this.stack.length > 0) {
      const b = this.stack.pop()!;
      const a = this.stack.pop()!;
      if (this.method !== 'blocks' || b - a <= 2) {
        for (let k = a; k < b; k++) this.counts[k] = Math.min(MAX_COUNT, countAt(this.router, lat[k], lng[k], this.radiusKm, this.method === 'cover' ? 'cover' : 'fast'));
        this.done += b - a;
      } else {
        const c = (a + b) >> 1;
        let d = 0;
        for (let k = a; k < b; k++) d = Math.max(d, distKm(this.ux[c], this.uy[c], this.uz[c], this.ux[k], this.uy[k], this.uz[k]));
        const shared = sandwich(this.router, lat[c], lng[c], this.radiusKm, d);
        if (shared > 0) {
          this.counts.fill(Math.min(MAX_COUNT, shared), a, b);
          this.done += b - a;
        } else this.stack.push(c, b, a, c);
      }
      if (now() > deadline) break;
    }
    return this.stack.length === 0;
  }

  /** share sums the weights by fan-out. Precondition: done. */
  share(): FanoutShare {
    const sums: FanoutBuckets = [0, 0, 0, 0];
    let total = 0;
    for (let k = 0; k < this.total; k++) {
      const w = this.weights.weight[k];
      total += w;
      sums[Math.min(4, this.counts[k]) - 1] += w;
    }
    const byFanout = sums.map((s) => (total > 0 ? s / total : 0)) as FanoutBuckets;
    return { radiusKm: this.radiusKm, weightTotal: total, byFanout, oneShard: byFanout[0] };
  }
}

/** computeFanoutGrid computes a whole grid at once (see FanoutGridJob): counts row-major, row 0 south. */
export function computeFanoutGrid(router: Router, grid: FanoutGrid, radiusKm: number, method: FanoutMethod = 'blocks'): Uint8Array {
  const job = new FanoutGridJob(router, grid, radiusKm, method);
  job.step();
  return job.counts;
}

/** computeFanoutShare computes the weighted one-shard share at once (see FanoutShareJob). */
export function computeFanoutShare(router: Router, weights: FanoutWeights, radiusKm: number, method: FanoutMethod = 'blocks'): FanoutShare {
  const job = new FanoutShareJob(router, weights, radiusKm, method);
  job.step();
  return job.share();
}


// ---------------------------------------------------------------------------
// The fan-out field: a radius becomes a threshold.
//
// A search of radius r centred at p asks shard s exactly when some level-10
// cell that s is read from meets the circle, that is when the great-circle
// distance from p to the region of s (the union of its cells, 0 inside) is at
// most r: the covering is every level-10 cell whose distance to p is at most
// r (S2's Cap.intersectsCell), and a shard is asked when one of its cells is
// covered. So with d1 ≤ d2 ≤ … the distances from p to the shards, sorted
// (d1 = 0: p's own shard), the count at radius r is #{i : di ≤ r}, for every
// r at once. A field stores d2 … d(FIELD_K+1) per point, up to maxKm; counts
// at any radius up to maxKm are then a comparison per point (fanoutFieldCounts).
//
// The region of a shard is a run of the Hilbert curve, which splits into a
// few dozen aligned cells of levels 0 to 10 (the largest cells a run holds);
// the distance to the region is the least distance to those cells, each a
// convex spherical quadrilateral with great-circle edges (S2 cells are), so
// the distance is 0 inside, else the least distance to an edge arc or a
// vertex. Points are taken in tiles of neighbours: a cell farther from a
// tile's centre than maxKm + the cell's radius + the tile's radius is skipped
// for the whole tile, nearer cells are tried nearest first, and a cell whose
// lower bound exceeds the point's FIELD_K+1'th distance is skipped.

/** Distances a field keeps per point: to the 2nd … (FIELD_K+1)th nearest shard, so counts run 1 … FIELD_K + 1 ("or more"). */
export const FIELD_K = 3;

/** Points per tile of a field: 8 × 8 pixels of a grid, or 64 consecutive weight points. */
const FIELD_TILE = 8;

/** A cell of a shard's region, prepared for point-to-cell distances: unit vectors, 4 edges, centre and radius (radians). */
interface RegionCell {
  shard: number;
  /** Vertices (12), edge unit normals pointing inside (12), arc bounds at each edge's start (12) and end (12). */
  v: Float64Array;
  n: Float64Array;
  ta: Float64Array;
  tb: Float64Array;
  cx: number;
  cy: number;
  cz: number;
  /** Largest angle from the centre to a point of the cell (at a vertex), radians. */
  radius: number;
}

function unitCross(a: Float64Array, i: number, b: Float64Array, j: number, out: Float64Array, k: number): void {
  const x = a[i + 1] * b[j + 2] - a[i + 2] * b[j + 1];
  const y = a[i + 2] * b[j] - a[i] * b[j + 2];
  const z = a[i] * b[j + 1] - a[i + 1] * b[j];
  const l = Math.hypot(x, y, z);
  out[k] = x / l;
  out[k + 1] = y / l;
  out[k + 2] = z / l;
}

function regionCell(id: bigint, shard: number): RegionCell {
  const cell = s2.Cell.fromCellID(id);
  const v = new Float64Array(12);
  for (let k = 0; k < 4; k++) {
    const p = cell.vertex(k);
    const l = Math.hypot(p.x, p.y, p.z);
    v.set([p.x / l, p.y / l, p.z / l], 3 * k);
  }
  const n = new Float64Array(12);
  const ta = new Float64Array(12);
  const tb = new Float64Array(12);
  for (let k = 0; k < 4; k++) {
    const a = 3 * k;
    const b = 3 * ((k + 1) & 3);
    // Vertices run counter-clockwise, so A × B points to the inside.
    unitCross(v, a, v, b, n, a);
    // The foot of the perpendicular from p lies on the arc A→B when p·(n × A) ≥ 0 and p·(B × n) ≥ 0.
    unitCross(n, a, v, a, ta, a);
    unitCross(v, b, n, a, tb, a);
  }
  const c = cell.center();
  const cl = Math.hypot(c.x, c.y, c.z);
  const cx = c.x / cl;
  const cy = c.y / cl;
  const cz = c.z / cl;
  let radius = 0;
  for (let k = 0; k < 12; k += 3) radius = Math.max(radius, angleBetween(cx, cy, cz, v[k], v[k + 1], v[k + 2]));
  // The farthest point of a cell from its centre is a vertex; the margin covers rounding.
  return { shard, v, n, ta, tb, cx, cy, cz, radius: radius + 1e-12 };
}

function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  return distKm(ax, ay, az, bx, by, bz) / EARTH_RADIUS_KM;
}

/** cellAngle returns the angle (radians) from unit vector p to a region cell: 0 inside, else to the nearest edge arc or vertex. */
function cellAngle(px: number, py: number, pz: number, c: RegionCell): number {
  const { v, n, ta, tb } = c;
  let best = Infinity;
  let inside = true;
  for (let a = 0; a < 12; a += 3) {
    const s = px * n[a] + py * n[a + 1] + pz * n[a + 2];
    if (s >= 0) continue;
    inside = false;
    // p is outside this edge's great circle: its nearest point on the edge is the foot of the perpendicular or an end.
    if (px * ta[a] + py * ta[a + 1] + pz * ta[a + 2] >= 0 && px * tb[a] + py * tb[a + 1] + pz * tb[a + 2] >= 0) {
      best = Math.min(best, Math.asin(Math.min(1, -s)));
    } else {
      const b = a === 9 ? 0 : a + 3;
      best = Math.min(best, chordAngle(px - v[a], py - v[a + 1], pz - v[a + 2]), chordAngle(px - v[b], py - v[b + 1], pz - v[b + 2]));
    }
  }
  return inside ? 0 : best;
}

/** The angle (radians) subtended by a chord (dx, dy, dz) between two unit vectors. */
function chordAngle(dx: number, dy: number, dz: number): number {
  return 2 * Math.asin(Math.min(1, Math.hypot(dx, dy, dz) / 2));
}

/**
 * regionCells splits each read range of a router into the largest aligned
 * cells it holds (levels 0 to 10) and prepares them for distances.
 */
function regionCells(router: Router): RegionCell[] {
  const out: RegionCell[] = [];
  for (const r of router.readRanges()) {
    let x = r.start;
    while (x < r.end) {
      // The largest aligned block of 4^m level-10 cells starting at x that fits in the range (at most a face, m = 10).
      let m = 0;
      while (m < 10 && x % 4 ** (m + 1) === 0 && x + 4 ** (m + 1) <= r.end) m++;
      out.push(regionCell(cellid.parent(cellFromOrdinal(x), 10 - m), r.index));
      x += 4 ** m;
    }
  }
  return out;
}

/** Where a field is computed: a grid's pixel centres, or weight points. */
export type FanoutFieldTarget = FanoutGrid | FanoutWeights;

/**
 * A fan-out field: for each point (row-major pixels of a grid, or weight
 * points in order), the great-circle distances in km from the point to the
 * 2nd, 3rd, … (FIELD_K+1)th nearest shard, ascending; Infinity where fewer
 * shards lie within maxKm. dist[FIELD_K·k + i] is point k's (i+2)th.
 */
export interface FanoutField {
  /** The distances kept are those up to this (km); counts are exact for radii up to it. */
  maxKm: number;
  points: number;
  dist: Float64Array;
}

/**
 * FanoutFieldJob computes a field in slices, like FanoutGridJob: construct,
 * call step(deadline) until it returns true, then read field(). maxKm in
 * (0, MAX_RADIUS_KM] (the largest radius the field will answer); throws
 * RangeError on an invalid grid, weights or maxKm, naming it.
 */
export class FanoutFieldJob {
  readonly total: number;
  /** Points finished so far. */
  done = 0;
  readonly dist: Float64Array;
  private readonly ux: Float64Array;
  private readonly uy: Float64Array;
  private readonly uz: Float64Array;
  /** Point indices tile by tile; tile t is order[tileStarts[t] .. tileStarts[t+1]). */
  private readonly order: Int32Array;
  private readonly tileStarts: number[] = [0];
  private tile = 0;
  private readonly cells: RegionCell[];
  private readonly maxAngle: number;

  constructor(
    readonly router: Router,
    readonly target: FanoutFieldTarget,
    readonly maxKm: number,
  ) {
    assertRadiusKm(maxKm, 'maxKm');
    let lats: ArrayLike<number>;
    let lngs: ArrayLike<number>;
    if ('cols' in target) {
      assertFanoutGrid(target);
      const { cols, rows } = target;
      this.total = cols * rows;
      const la = new Float64Array(this.total);
      const ln = new Float64Array(this.total);
      this.order = new Int32Array(this.total);
      let o = 0;
      for (let j0 = 0; j0 < rows; j0 += FIELD_TILE) {
        for (let i0 = 0; i0 < cols; i0 += FIELD_TILE) {
          for (let j = j0; j < Math.min(rows, j0 + FIELD_TILE); j++) for (let i = i0; i < Math.min(cols, i0 + FIELD_TILE); i++) this.order[o++] = j * cols + i;
          this.tileStarts.push(o);
        }
      }
      for (let j = 0; j < rows; j++) for (let i = 0; i < cols; i++) (la[j * cols + i] = gridLat(target, j)), (ln[j * cols + i] = gridLng(target, i));
      lats = la;
      lngs = ln;
    } else {
      assertFanoutWeights(target);
      this.total = target.lat.length;
      this.order = Int32Array.from({ length: this.total }, (_, k) => k);
      for (let o = FIELD_TILE * FIELD_TILE; o < this.total; o += FIELD_TILE * FIELD_TILE) this.tileStarts.push(o);
      if (this.total > 0) this.tileStarts.push(this.total);
      lats = target.lat;
      lngs = target.lng;
    }
    this.ux = new Float64Array(this.total);
    this.uy = new Float64Array(this.total);
    this.uz = new Float64Array(this.total);
    for (let k = 0; k < this.total; k++) {
      const cl = Math.cos(lats[k] * DEG);
      this.ux[k] = cl * Math.cos(lngs[k] * DEG);
      this.uy[k] = cl * Math.sin(lngs[k] * DEG);
      this.uz[k] = Math.sin(lats[k] * DEG);
    }
    this.dist = new Float64Array(FIELD_K * this.total).fill(Infinity);
    this.cells = regionCells(router);
    this.maxAngle = maxKm / EARTH_RADIUS_KM;
  }

  /** step works until performance.now() passes deadline (at least one tile); returns true when done. */
  step(deadline = Infinity): boolean {
    const K = FIELD_K + 1;
    const bs = new Int32Array(K);
    const bd = new Float64Array(K);
    const near: { c: RegionCell; lb: number }[] = [];
    while (this.tile < this.tileStarts.length - 1) {
      const a = this.tileStarts[this.tile];
      const b = this.tileStarts[this.tile + 1];
      this.tile++;
      // The tile's centre (mean direction) and radius (its farthest point).
      let tx = 0;
      let ty = 0;
      let tz = 0;
      for (let o = a; o < b; o++) {
        const k = this.order[o];
        tx += this.ux[k];
        ty += this.uy[k];
        tz += this.uz[k];
      }
      const tl = Math.hypot(tx, ty, tz);
      let tileRadius = Math.PI;
      if (tl > 1e-9) {
        tx /= tl;
        ty /= tl;
        tz /= tl;
        tileRadius = 0;
        for (let o = a; o < b; o++) {
          const k = this.order[o];
          tileRadius = Math.max(tileRadius, angleBetween(tx, ty, tz, this.ux[k], this.uy[k], this.uz[k]));
        }
      }
      // Cells that may lie within maxKm of some point of the tile, nearest (by lower bound) first.
      near.length = 0;
      for (const c of this.cells) {
        const lb = angleBetween(tx, ty, tz, c.cx, c.cy, c.cz) - c.radius - tileRadius;
        if (lb <= this.maxAngle) near.push({ c, lb });
      }
      // Per shard, an upper bound of its distance from every point of the tile (the nearest of its
      // cells from the tile's centre, plus the tile's radius): a cell whose lower bound is above
      // its shard's bound, or above the K-th least shard bound, is never needed in this tile.
      const ub = new Map<number, number>();
      for (const x of near) {
        const u = cellAngle(tx, ty, tz, x.c) + tileRadius;
        if (!(ub.get(x.c.shard)! <= u)) ub.set(x.c.shard, u);
      }
      const bounds = [...ub.values()].sort((x, y) => x - y);
      const kth = bounds.length >= K ? bounds[K - 1] : Infinity;
      let kept = 0;
      for (const x of near) if (x.lb <= ub.get(x.c.shard)! && x.lb <= kth) near[kept++] = x;
      near.length = kept;
      near.sort((x, y) => x.lb - y.lb);
      // A tile whose near cells all belong to one shard is far from every other: nothing to keep.
      let shards = near.length > 0 ? 1 : 0;
      for (const { c } of near) if (c.shard !== near[0].c.shard) shards = 2;
      if (shards < 2) {
        for (let o = a; o < b; o++) this.dist.fill(Infinity, FIELD_K * this.order[o], FIELD_K * this.order[o] + FIELD_K);
        this.done += b - a;
        if (now() > deadline) break;
        continue;
      }
      for (let o = a; o < b; o++) {
        const k = this.order[o];
        const px = this.ux[k];
        const py = this.uy[k];
        const pz = this.uz[k];
        let m = 0; // shards kept in bs/bd, ascending distance
        for (let q = 0; q < near.length; q++) {
          const { c, lb } = near[q];
          // Every later cell's bound for this point is at least its tile bound (sorted): stop once it cannot enter.
          if (m === K && lb > bd[K - 1]) break;
          const cutoff = m === K ? bd[K - 1] : this.maxAngle;
          // A lower bound for this point (acos is within 1e-7 of the angle; the margin keeps the bound below it).
          const plb = Math.acos(Math.min(1, px * c.cx + py * c.cy + pz * c.cz)) - c.radius - 1e-7;
          if (plb > cutoff) continue;
          let at = -1;
          for (let i = 0; i < m; i++) if (bs[i] === c.shard) at = i;
          // This cell cannot bring its shard nearer than it is already.
          if (at >= 0 && plb >= bd[at]) continue;
          const d = cellAngle(px, py, pz, c);
          if (d > cutoff) continue;
          // Keep each shard's least distance, the K least overall, sorted.
          if (at >= 0) {
            if (d >= bd[at]) continue;
          } else if (m < K) at = m++;
          else at = K - 1;
          while (at > 0 && bd[at - 1] > d) {
            bd[at] = bd[at - 1];
            bs[at] = bs[at - 1];
            at--;
          }
          bd[at] = d;
          bs[at] = c.shard;
        }
        for (let i = 1; i < K; i++) this.dist[FIELD_K * k + i - 1] = i < m ? bd[i] * EARTH_RADIUS_KM : Infinity;
      }
      this.done += b - a;
      if (now() > deadline) break;
    }
    return this.done === this.total;
  }

  /** field returns the computed field. Precondition: done. */
  field(): FanoutField {
    return { maxKm: this.maxKm, points: this.total, dist: this.dist };
  }
}

/** computeFanoutField computes a whole field at once (see FanoutFieldJob). */
export function computeFanoutField(router: Router, target: FanoutFieldTarget, maxKm: number): FanoutField {
  const job = new FanoutFieldJob(router, target, maxKm);
  job.step();
  return job.field();
}

/**
 * fanoutFieldCounts returns, for each point of a field, how many shards a
 * search of radiusKm centred there asks, as min(count, FIELD_K + 1): the
 * counts of the core's covering at that radius, capped. radiusKm in
 * (0, field.maxKm]; throws RangeError naming it otherwise. Writes into out
 * when given (length ≥ field.points).
 */
export function fanoutFieldCounts(field: FanoutField, radiusKm: number, out: Uint8Array = new Uint8Array(field.points)): Uint8Array {
  assertRadiusKm(radiusKm);
  if (radiusKm > field.maxKm) throw new RangeError(`radius ${radiusKm} km is beyond the field's maxKm ${field.maxKm}: compute a field with a larger maxKm, or the grid itself`);
  const d = field.dist;
  for (let k = 0, o = 0; k < field.points; k++, o += FIELD_K) {
    let c = 1;
    for (let i = 0; i < FIELD_K; i++) if (d[o + i] <= radiusKm) c++;
    out[k] = c;
  }
  return out;
}

/** fanoutFieldShare sums a weights field's counts at radiusKm into the weighted share, as FanoutShareJob.share does (buckets 1, 2, 3, 4+). */
export function fanoutFieldShare(field: FanoutField, weights: FanoutWeights, radiusKm: number): FanoutShare {
  if (weights.weight.length !== field.points) throw new RangeError(`weights have ${weights.weight.length} points and the field ${field.points}: compute the field on these weights`);
  const counts = fanoutFieldCounts(field, radiusKm);
  const sums: FanoutBuckets = [0, 0, 0, 0];
  let total = 0;
  for (let k = 0; k < field.points; k++) {
    const w = weights.weight[k];
    total += w;
    sums[Math.min(4, counts[k]) - 1] += w;
  }
  const byFanout = sums.map((s) => (total > 0 ? s / total : 0)) as FanoutBuckets;
  return { radiusKm, weightTotal: total, byFanout, oneShard: byFanout[0] };
}

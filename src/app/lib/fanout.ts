/**
 * The fan-out map: for one search radius, how many shards a search centred
 * at each point of a latitude/longitude grid would ask, and the share of
 * restaurant-weighted searches that ask exactly one shard.
 *
 * Pure computation on the routing core (no DOM, no three), plus the message
 * protocol of the Web Worker that runs it (fanout.worker.ts) and a client
 * for the main thread. All angles are degrees, distances km.
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
 * is split in two, down to single points, which ask Router.shardsAsked itself.
 * The radii are widened/narrowed by FANOUT_EPS_KM, far above floating-point
 * error, so the sandwich holds for S2's computed coverings, not just on paper.
 * Methods 'fast' (Router.shardsAsked at every point) and 'cover' (the full
 * RegionCoverer covering at every point) give identical counts and serve as
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
import { Router, MAX_RADIUS_KM, EARTH_RADIUS_KM, assertRadiusKm, cellCenter, cellFromOrdinal, ordinalAt, type BoundaryFile, type CellWeight } from '../../core/index';

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

/** wrapLng maps any longitude to [-180, 180). */
export function wrapLng(lng: number): number {
  const x = (((lng + 180) % 360) + 360) % 360 - 180;
  return x === -0 ? 0 : x;
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
        if ((k & 7) === 7 && performance.now() > deadline) break;
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
      if (performance.now() > deadline) break;
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
      if (performance.now() > deadline) break;
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
// Worker protocol. The main thread sends 'init' once, then 'grid' and 'share'
// requests with increasing ids; a newer request of the same kind supersedes
// an unfinished one (answered 'cancelled'), and 'cancel' drops one by id.
// The worker runs grid requests before share requests, in slices of
// SLICE_MS, reading its messages between slices.

/** Milliseconds of work between looks at the message queue (the cancellation latency). */
export const SLICE_MS = 25;

/** Messages to the worker. */
export type FanoutRequest =
  | { type: 'init'; file: BoundaryFile; weights?: FanoutWeights }
  | { type: 'grid'; id: number; radiusKm: number; grid: FanoutGrid; method?: FanoutMethod }
  | { type: 'share'; id: number; radiusKm: number; method?: FanoutMethod }
  | { type: 'cancel'; id: number };

/** A computed grid as the worker posts it (counts' buffer is transferred). */
export interface FanoutGridResult {
  id: number;
  radiusKm: number;
  grid: FanoutGrid;
  method: FanoutMethod;
  /** Row-major, row 0 south, column 0 west; values 1..255 (255 = 255 or more). */
  counts: Uint8Array;
  /** Pixels asking 1, 2, 3, 4+ shards. */
  pixels: FanoutBuckets;
  /** Compute time in the worker, ms (excluding time spent waiting between slices). */
  ms: number;
}

/** Messages from the worker. */
export type FanoutResponse =
  | { type: 'ready'; numberOfShards: number; hash: string; weightPoints: number }
  | { type: 'progress'; id: number; done: number; total: number }
  | ({ type: 'grid' } & FanoutGridResult)
  | { type: 'share'; id: number; share: FanoutShare; ms: number; cached: boolean }
  | { type: 'cancelled'; id: number }
  | { type: 'error'; id: number | null; message: string };

/** What serveFanout needs of a worker's global scope (or a test double). */
export interface FanoutScope {
  postMessage(message: FanoutResponse, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: FanoutRequest }) => void): void;
}

/**
 * serveFanout answers FanoutRequests on a worker scope until the worker
 * ends. Errors (an invalid boundary file, grid or radius, a request before
 * 'init') are posted as { type: 'error', id, message } naming the problem.
 * The share of a radius is cached (the last 32 radii), so zooming does not
 * recompute it.
 */
export function serveFanout(scope: FanoutScope, yieldToEvents: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0))): void {
  let router: Router | null = null;
  let weights: FanoutWeights | null = null;
  const shareCache = new Map<string, FanoutShare>();
  type Running<J> = { id: number; job: J; ms: number };
  let gridRun: Running<FanoutGridJob> | null = null;
  let shareRun: Running<FanoutShareJob> | null = null;
  let looping = false;

  const fail = (id: number | null, e: unknown) => scope.postMessage({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });

  const loop = async () => {
    if (looping) return;
    looping = true;
    try {
      while (gridRun || shareRun) {
        const t0 = performance.now();
        const deadline = t0 + SLICE_MS;
        if (gridRun) {
          const run = gridRun;
          let finished = false;
          try {
            finished = run.job.step(deadline);
          } catch (e) {
            gridRun = null;
            fail(run.id, e);
            continue;
          }
          run.ms += performance.now() - t0;
          if (finished) {
            gridRun = null;
            const j = run.job;
            scope.postMessage({ type: 'grid', id: run.id, radiusKm: j.radiusKm, grid: j.grid, method: j.method, counts: j.counts, pixels: j.buckets(), ms: run.ms }, [j.counts.buffer]);
          } else scope.postMessage({ type: 'progress', id: run.id, done: run.job.done, total: run.job.total });
        } else if (shareRun) {
          const run = shareRun;
          let finished = false;
          try {
            finished = run.job.step(deadline);
          } catch (e) {
            shareRun = null;
            fail(run.id, e);
            continue;
          }
          run.ms += performance.now() - t0;
          if (finished) {
            shareRun = null;
            const share = run.job.share();
            shareCache.set(`${run.job.method}:${run.job.radiusKm}`, share);
            if (shareCache.size > 32) shareCache.delete(shareCache.keys().next().value!);
            scope.postMessage({ type: 'share', id: run.id, share, ms: run.ms, cached: false });
          } else scope.postMessage({ type: 'progress', id: run.id, done: run.job.done, total: run.job.total });
        }
        await yieldToEvents();
      }
    } finally {
      looping = false;
    }
  };

  scope.addEventListener('message', (e) => {
    const m = e.data;
    const id = m && typeof m === 'object' && 'id' in m && typeof m.id === 'number' ? m.id : null;
    try {
      switch (m?.type) {
        case 'init': {
          if (m.weights !== undefined) assertFanoutWeights(m.weights);
          router = new Router(m.file, 'boundary file');
          weights = m.weights ?? null;
          shareCache.clear();
          for (const run of [gridRun, shareRun]) if (run) scope.postMessage({ type: 'cancelled', id: run.id });
          gridRun = shareRun = null;
          scope.postMessage({ type: 'ready', numberOfShards: router.numberOfShards, hash: router.file.hash, weightPoints: weights?.lat.length ?? 0 });
          return;
        }
        case 'grid': {
          if (!router) throw new Error('grid request before init: send { type: "init", file } first');
          const job = new FanoutGridJob(router, m.grid, m.radiusKm, m.method ?? 'blocks');
          if (gridRun) scope.postMessage({ type: 'cancelled', id: gridRun.id });
          gridRun = { id: m.id, job, ms: 0 };
          void loop();
          return;
        }
        case 'share': {
          if (!router) throw new Error('share request before init: send { type: "init", file } first');
          if (!weights) throw new Error('share request without weights: send them with init ({ type: "init", file, weights })');
          const method = m.method ?? 'blocks';
          const job = new FanoutShareJob(router, weights, m.radiusKm, method);
          if (shareRun) scope.postMessage({ type: 'cancelled', id: shareRun.id });
          shareRun = null;
          const hit = shareCache.get(`${method}:${m.radiusKm}`);
          if (hit) {
            scope.postMessage({ type: 'share', id: m.id, share: hit, ms: 0, cached: true });
            return;
          }
          shareRun = { id: m.id, job, ms: 0 };
          void loop();
          return;
        }
        case 'cancel': {
          if (gridRun?.id === m.id) gridRun = null;
          else if (shareRun?.id === m.id) shareRun = null;
          else return;
          scope.postMessage({ type: 'cancelled', id: m.id });
          return;
        }
        default:
          throw new Error(`unknown request ${JSON.stringify((m as { type?: unknown })?.type)}: expected init, grid, share or cancel`);
      }
    } catch (err) {
      fail(id, err);
    }
  });
}

/** What createFanoutClient needs of a Worker (or a test double). */
export interface FanoutWorkerLike {
  postMessage(message: FanoutRequest, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: FanoutResponse }) => void): void;
  terminate?(): void;
}

/** The main thread's handle on a fan-out worker. */
export interface FanoutClient {
  /** Sends the boundary file (and the weights for shares); resolves when the worker has validated it. */
  init(file: BoundaryFile, weights?: FanoutWeights): Promise<{ numberOfShards: number; hash: string; weightPoints: number }>;
  /** Computes a grid; resolves null if a later grid() or cancel() made it stale. Rejects with the worker's message on bad input. */
  grid(radiusKm: number, grid: FanoutGrid, opts?: { method?: FanoutMethod; onProgress?: (done: number, total: number) => void }): Promise<FanoutGridResult | null>;
  /** Computes the weighted one-shard share for a radius; resolves null if a later share() or cancel() made it stale. */
  share(radiusKm: number, opts?: { method?: FanoutMethod }): Promise<FanoutShare | null>;
  /** Drops every pending request (their promises resolve null). */
  cancel(): void;
  /** cancel(), then terminates the worker. */
  dispose(): void;
}

/**
 * createFanoutClient wraps a fan-out worker, e.g.
 *   createFanoutClient(new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }))
 * Only the latest grid and the latest share request are kept: starting a new
 * one resolves the previous one with null at once, and the worker drops it.
 */
export function createFanoutClient(worker: FanoutWorkerLike): FanoutClient {
  let nextId = 1;
  type Pending = { kind: 'grid' | 'share'; resolve: (v: never) => void; reject: (e: Error) => void; onProgress?: (done: number, total: number) => void };
  const pending = new Map<number, Pending>();
  let ready: { resolve: (v: { numberOfShards: number; hash: string; weightPoints: number }) => void; reject: (e: Error) => void } | null = null;

  const settleStale = (kind: 'grid' | 'share') => {
    for (const [id, p] of pending) {
      if (p.kind !== kind) continue;
      pending.delete(id);
      worker.postMessage({ type: 'cancel', id });
      (p.resolve as (v: null) => void)(null);
    }
  };

  worker.addEventListener('message', (e) => {
    const m = e.data;
    if (m.type === 'ready') {
      ready?.resolve({ numberOfShards: m.numberOfShards, hash: m.hash, weightPoints: m.weightPoints });
      ready = null;
      return;
    }
    if (m.type === 'error' && m.id === null) {
      if (ready) {
        ready.reject(new Error(m.message));
        ready = null;
      }
      return;
    }
    const id = m.id as number;
    const p = pending.get(id);
    if (!p) return; // stale: already settled
    if (m.type === 'progress') return p.onProgress?.(m.done, m.total);
    pending.delete(id);
    if (m.type === 'error') p.reject(new Error(m.message));
    else if (m.type === 'cancelled') (p.resolve as (v: null) => void)(null);
    else if (m.type === 'grid') {
      const { type: _t, ...result } = m;
      void _t;
      (p.resolve as (v: FanoutGridResult) => void)(result);
    } else if (m.type === 'share') (p.resolve as (v: FanoutShare) => void)(m.share);
  });

  return {
    init(file, weights) {
      return new Promise((resolve, reject) => {
        ready?.reject(new Error('superseded by a later init'));
        ready = { resolve, reject };
        worker.postMessage({ type: 'init', file, ...(weights ? { weights } : {}) });
      });
    },
    grid(radiusKm, grid, opts = {}) {
      settleStale('grid');
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { kind: 'grid', resolve: resolve as (v: never) => void, reject, onProgress: opts.onProgress });
        worker.postMessage({ type: 'grid', id, radiusKm, grid, ...(opts.method ? { method: opts.method } : {}) });
      });
    },
    share(radiusKm, opts = {}) {
      settleStale('share');
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { kind: 'share', resolve: resolve as (v: never) => void, reject });
        worker.postMessage({ type: 'share', id, radiusKm, ...(opts.method ? { method: opts.method } : {}) });
      });
    },
    cancel() {
      settleStale('grid');
      settleStale('share');
    },
    dispose() {
      this.cancel();
      worker.terminate?.();
    },
  };
}

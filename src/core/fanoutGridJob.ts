/**
 * The fan-out map's counts at one radius: how many shards a search centred at each pixel of a
 * grid (fanoutGrid.ts) would ask, computed in slices by the sandwich of fanoutSandwich.ts, so a
 * worker can stop between slices to take a newer request.
 */
import { assertRadiusKm } from './cover.ts';
import { RAD_PER_DEG as DEG, unitDistanceKm as distKm } from './earth.ts';
import { hostNow as now } from './clock.ts';
import { assertFanoutGrid, gridLat, gridLng, gridWidthDeg, type FanoutGrid } from './fanoutGrid.ts';
import { MAX_COUNT, FANOUT_METHODS, countAt, sandwich, type FanoutMethod, type FanoutBuckets } from './fanoutSandwich.ts';
import type { Router } from './router.ts';

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

/** computeFanoutGrid computes a whole grid at once (see FanoutGridJob): counts row-major, row 0 south. */
export function computeFanoutGrid(router: Router, grid: FanoutGrid, radiusKm: number, method: FanoutMethod = 'blocks'): Uint8Array {
  const job = new FanoutGridJob(router, grid, radiusKm, method);
  job.step();
  return job.counts;
}

/**
 * The fan-out field: a radius becomes a threshold, so the explorer's fan-out map follows a radius
 * slider without recomputing.
 *
 * A search of radius r centred at p asks shard s exactly when some level-10
 * cell that s is read from meets the circle, that is when the great-circle
 * distance from p to the region of s (the union of its cells, 0 inside) is at
 * most r: the covering is every level-10 cell whose distance to p is at most
 * r (S2's Cap.intersectsCell), and a shard is asked when one of its cells is
 * covered. So with d1 ≤ d2 ≤ … the distances from p to the shards, sorted
 * (d1 = 0: p's own shard), the count at radius r is #{i : di ≤ r}, for every
 * r at once. A field stores d2 … d(FIELD_K+1) per point, up to maxKm; counts
 * at any radius up to maxKm are then a comparison per point (fanoutFieldCounts).
 *
 * The distances to a shard's region are shardRegions.ts's. Points are taken in tiles of
 * neighbours: a cell farther from a tile's centre than maxKm + the cell's radius + the tile's
 * radius is skipped for the whole tile, nearer cells are tried nearest first, and a cell whose
 * lower bound exceeds the point's FIELD_K+1'th distance is skipped.
 */
import { assertRadiusKm } from './cover.ts';
import { EARTH_RADIUS_KM, RAD_PER_DEG as DEG } from './earth.ts';
import { hostNow as now } from './clock.ts';
import { assertFanoutGrid, gridLat, gridLng, type FanoutGrid } from './fanoutGrid.ts';
import { assertFanoutWeights, type FanoutWeights } from './fanoutWeights.ts';
import type { FanoutBuckets } from './fanoutSandwich.ts';
import type { FanoutShare } from './fanoutShare.ts';
import { angleBetween, cellAngle, regionCells, type RegionCell } from './shardRegions.ts';
import type { Router } from './router.ts';

/** Distances a field keeps per point: to the 2nd … (FIELD_K+1)th nearest shard, so counts run 1 … FIELD_K + 1 ("or more"). */
export const FIELD_K = 3;

/** Points per tile of a field: 8 × 8 pixels of a grid, or 64 consecutive weight points. */
const FIELD_TILE = 8;

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

/**
 * The fan-out map's weighted one-shard share at one radius: the count at every weight point
 * (fanoutWeights.ts), by the sandwich of fanoutSandwich.ts over runs of consecutive points, summed
 * by weight into the share of searches asking 1, 2, 3 and 4+ shards.
 */
import { assertRadiusKm } from './cover.ts';
import { RAD_PER_DEG as DEG, unitDistanceKm as distKm } from './earth.ts';
import { hostNow as now } from './clock.ts';
import { MAX_COUNT, FANOUT_METHODS, countAt, sandwich, type FanoutMethod, type FanoutBuckets } from './fanoutSandwich.ts';
import type { FanoutWeights } from './fanoutWeights.ts';
import type { Router } from './router.ts';

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

  /** step works until the host clock passes deadline (ms, performance.now's; at least one run of points); returns true when done. */
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


/** computeFanoutShare computes the weighted one-shard share at once (see FanoutShareJob). */
export function computeFanoutShare(router: Router, weights: FanoutWeights, radiusKm: number, method: FanoutMethod = 'blocks'): FanoutShare {
  const job = new FanoutShareJob(router, weights, radiusKm, method);
  job.step();
  return job.share();
}

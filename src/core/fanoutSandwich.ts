/**
 * The fan-out counts' shared method: for one search radius, how many shards a search centred at
 * a point asks, found for a whole block of points at once where it can be.
 *
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
 * is split in two, down to single points, which ask shardsAsked itself
 * (FanoutGridJob over a grid's pixels, FanoutShareJob over weight points).
 * The radii are widened/narrowed by FANOUT_EPS_KM, far above floating-point
 * error, so the sandwich holds for S2's computed coverings, not just on paper.
 * Methods 'fast' (shardsAsked at every point) and 'cover' (the full
 * walk's covering with its shards, Router.cover, at every point) give identical counts and serve as
 * baselines.
 */
import { MAX_RADIUS_KM } from './cover.ts';
import type { Router } from './router.ts';

/** Counts are stored in a Uint8Array: values above this are stored as this. */
export const MAX_COUNT = 255;

/** Margin, in km, by which the block method widens and narrows its circles (1 mm). */
export const FANOUT_EPS_KM = 1e-6;

/**
 * Speed, not correctness: a block spreading farther than this many radii
 * from its centre is split without trying the sandwich, whose circles would
 * be large, slow to resolve and rarely conclusive (measured: trying wider
 * blocks, or only narrower ones, was no faster on US grids at 15 and 50 mi).
 */
const SANDWICH_MAX_SPREAD = 1;

/** How counts are computed: all three give identical counts (see the file comment). */
export type FanoutMethod = 'blocks' | 'fast' | 'cover';

export const FANOUT_METHODS: readonly FanoutMethod[] = ['blocks', 'fast', 'cover'];

/** countAt returns one point's count by the per-point method ('fast' or 'cover'); for the jobs of fanoutGridJob.ts and fanoutShare.ts. */
export function countAt(router: Router, lat: number, lng: number, radiusKm: number, method: FanoutMethod): number {
  return method === 'cover' ? router.cover(lat, lng, radiusKm).shards.length : router.shardsAsked(lat, lng, radiusKm).length;
}

/**
 * sandwich returns the count shared by every point within dKm of (lat, lng)
 * for circles of radiusKm, or 0 when the bounds differ or cannot be taken.
 * For the jobs of fanoutGridJob.ts and fanoutShare.ts; dKm ≥ 0.
 */
export function sandwich(router: Router, lat: number, lng: number, radiusKm: number, dKm: number): number {
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

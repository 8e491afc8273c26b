/**
 * Region paint: the one way to color the globe's regions (shard ranges) by
 * something other than their shard, and to mark some of them. A paint gives
 * every shard, in key order, a color and a mark; the surface shader reads it
 * from one small texture (one RGBA texel per shard: the color, alpha 255 for
 * an unmarked region and 0 for a marked one, drawn with red stripes). With no
 * paint the surface uses the shard palette, as it always did.
 *
 * What a region is colored by (the `ColorBy` modes) is decided by the
 * feature that knows it: nodes/regionColors.ts computes the paint and
 * nodes/regionPaintDriver.ts puts it in the store (the view slice's
 * setRegionPaint); FrameDriver uploads it into its canvas's uniforms
 * (writeRegionPaint). Nothing else writes it.
 */
import * as THREE from 'three';
import type { RGB } from '../shell/palette';
import { nearest, type SceneUniforms } from './uniforms';

/**
 * What the regions are colored by: their shard (the palette), the node that
 * holds their primary, whether their shard has a started copy, or their
 * shard's recent search latency.
 */
export type ColorBy = 'shard' | 'node' | 'no-copy' | 'latency';
export const COLOR_BY: readonly ColorBy[] = ['shard', 'node', 'no-copy', 'latency'];

/** A paint: per shard in key order, its color and whether it is marked (its documents are missing from the current answer). */
export interface RegionPaint {
  colors: readonly RGB[];
  marked: readonly boolean[];
}

/** regionTexels returns a paint as RGBA bytes, one texel per shard: sRGB color, alpha 255 unmarked, 0 marked. `colors` and `marked` must have the same length. */
export function regionTexels(paint: RegionPaint): Uint8Array {
  const n = paint.colors.length;
  if (paint.marked.length !== n) throw new RangeError(`region paint has ${n} colours but ${paint.marked.length} marks: give one of each per shard`);
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const c = paint.colors[i];
    for (let k = 0; k < 3; k++) out[4 * i + k] = Math.round(Math.min(1, Math.max(0, c[k])) * 255);
    out[4 * i + 3] = paint.marked[i] ? 0 : 255;
  }
  return out;
}

/** writeRegionPaint uploads a paint into a canvas's uniforms for the surface shader, or (null) goes back to the shard palette with nothing marked. */
export function writeRegionPaint(uniforms: SceneUniforms, paint: RegionPaint | null): void {
  uniforms.uRegion.value?.dispose();
  if (!paint || paint.colors.length === 0) {
    uniforms.uRegion.value = null;
    uniforms.uRegionOn.value = 0;
    return;
  }
  uniforms.uRegion.value = nearest(new THREE.DataTexture(regionTexels(paint), paint.colors.length, 1, THREE.RGBAFormat, THREE.UnsignedByteType));
  uniforms.uRegionOn.value = 1;
}

/** The most moving ranges the surface shader hatches at once (its uniform arrays' length). */
export const MAX_MOVING_RANGES = 8;

/**
 * checkMovingRanges checks key ranges to hatch on the surface: `ranges` holds
 * pairs of level-10 ordinals [start, end) in key order (start < end ≤
 * CELL_COUNT), at most MAX_MOVING_RANGES pairs (throws RangeError naming the
 * count otherwise); an empty array removes the hatching. The view slice's
 * setMovingRanges checks them; FrameDriver writes them (writeMovingRanges).
 */
export function checkMovingRanges(ranges: Int32Array): void {
  const n = ranges.length / 2;
  if (!Number.isInteger(n) || n > MAX_MOVING_RANGES) throw new RangeError(`moving ranges: ${ranges.length} ordinals is not at most ${MAX_MOVING_RANGES} [start, end) pairs`);
}

/** writeMovingRanges writes checked moving ranges (checkMovingRanges) into a canvas's uniforms. */
export function writeMovingRanges(uniforms: SceneUniforms, ranges: Int32Array): void {
  const n = ranges.length / 2;
  for (let i = 0; i < MAX_MOVING_RANGES; i++) {
    uniforms.uMovingStart.value[i] = i < n ? ranges[2 * i] : 0;
    uniforms.uMovingEnd.value[i] = i < n ? ranges[2 * i + 1] : 0;
  }
  uniforms.uMovingCount.value = n;
}

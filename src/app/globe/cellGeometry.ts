/**
 * Typed arrays for drawing cells (globe/cellLayer.ts): fills (two triangles
 * per cell) and outlines (four segments per cell), in the vertex layout of the
 * scene's line shader (lineMaterial.ts, the same as typedArrays.ts
 * SegmentArrays): per vertex the unit vector (computed here in float64: the
 * GPU's sin and cos may err by hundreds of metres), (lat, lng) radians, the
 * same two for the vertex that tears with it in a flat layout, and the cell's
 * level-10 ordinal (the shader colors by its shard). A cell is any quad given
 * by its four corners: a level-10 S2 cell (cellCorners) or a run of a pixel
 * grid (the fan-out map). Written into caller-owned arrays, so the scene can
 * update its buffers in place.
 */

import { cellFromOrdinal } from '../../core/index';
import { cellVertices } from '../../core/cells';

const RAD = Math.PI / 180;

/** cellCorners returns the corners of level-10 cells given by ordinal: 8 floats per cell, (lat, lng) radians of corners 0..3 in cellVertices order (what writeCells reads). */
export function cellCorners(ordinals: ArrayLike<number>): Float32Array {
  const corners = new Float32Array(8 * ordinals.length);
  for (let k = 0; k < ordinals.length; k++) {
    const v = cellVertices(cellFromOrdinal(ordinals[k]));
    for (let j = 0; j < 4; j++) {
      corners[8 * k + 2 * j] = v[j].lat * RAD;
      corners[8 * k + 2 * j + 1] = v[j].lng * RAD;
    }
  }
  return corners;
}

/** Vertices per cell of the fill (two triangles, not indexed). */
export const FILL_VERTS = 6;
/** Vertices per cell of the outline (four segments). */
export const OUTLINE_VERTS = 8;

/** Buffers for a number of vertices: xyz and otherXyz 3 floats each, ll and other 2, ordinal 1. */
export interface CellBuffers {
  xyz: Float32Array;
  ll: Float32Array;
  other: Float32Array;
  otherXyz: Float32Array;
  ordinal: Float32Array;
}

/** cellBuffers allocates buffers for up to `cells` cells with `perCell` vertices each. */
export function cellBuffers(cells: number, perCell: number): CellBuffers {
  const v = cells * perCell;
  return { xyz: new Float32Array(3 * v), ll: new Float32Array(2 * v), other: new Float32Array(2 * v), otherXyz: new Float32Array(3 * v), ordinal: new Float32Array(v) };
}

// Fill: triangles (0,1,2) and (0,2,3) of the quad; each corner tears with its diagonal
// opposite, so a cell cut by the map's seam hides whole rather than streaking.
const FILL_CORNERS = [0, 1, 2, 0, 2, 3];
const DIAGONAL = [2, 3, 0, 1];
// Outline: edges 0-1, 1-2, 2-3, 3-0; each end tears with the other end (vertex j ^ 1).
const OUTLINE_CORNERS = [0, 1, 1, 2, 2, 3, 3, 0];

/** The unit vectors of the four corners of the cell being written (float64). */
const unit = new Float64Array(12);

function put(b: CellBuffers, v: number, corners: Float32Array, c: number, a: number, o: number, ord: number): void {
  b.ll[2 * v] = corners[c + 2 * a];
  b.ll[2 * v + 1] = corners[c + 2 * a + 1];
  b.other[2 * v] = corners[c + 2 * o];
  b.other[2 * v + 1] = corners[c + 2 * o + 1];
  for (let i = 0; i < 3; i++) {
    b.xyz[3 * v + i] = unit[3 * a + i];
    b.otherXyz[3 * v + i] = unit[3 * o + i];
  }
  b.ordinal[v] = ord;
}

/**
 * writeCell writes cell k (corners 8k..8k+7: (lat, lng) radians of corners
 * 0..3 around the quad, as cellVertices orders them) with its ordinal into
 * slot `fillAt` of `fill` and slot `outlineAt` of `outline` (either may be null).
 */
export function writeCell(corners: Float32Array, k: number, ordinal: number, fill: CellBuffers | null, fillAt: number, outline: CellBuffers | null, outlineAt: number): void {
  const c = 8 * k;
  for (let j = 0; j < 4; j++) {
    const lat = corners[c + 2 * j];
    const lng = corners[c + 2 * j + 1];
    const cl = Math.cos(lat);
    unit[3 * j] = cl * Math.cos(lng);
    unit[3 * j + 1] = cl * Math.sin(lng);
    unit[3 * j + 2] = Math.sin(lat);
  }
  if (fill) for (let j = 0; j < FILL_VERTS; j++) put(fill, fillAt * FILL_VERTS + j, corners, c, FILL_CORNERS[j], DIAGONAL[FILL_CORNERS[j]], ordinal);
  if (outline) for (let j = 0; j < OUTLINE_VERTS; j++) put(outline, outlineAt * OUTLINE_VERTS + j, corners, c, OUTLINE_CORNERS[j], OUTLINE_CORNERS[j ^ 1], ordinal);
}

/**
 * writeCells fills `fill` and `outline` (each with room for at least n
 * cells; either may be null) from the first n cells' corners (8 floats per
 * cell, see writeCell) and ordinals (null: 0, for quads that are no S2
 * cell), cell k in slot k. Returns n.
 */
export function writeCells(corners: Float32Array, ordinals: ArrayLike<number> | null, fill: CellBuffers | null, outline: CellBuffers | null, n = corners.length / 8): number {
  for (let k = 0; k < n; k++) writeCell(corners, k, ordinals ? ordinals[k] : 0, fill, k, outline, k);
  return n;
}

/** capacityFor returns the cell capacity to allocate for n cells: the next power of two, at least 1,024 (regrowing rarely). */
export function capacityFor(n: number): number {
  let c = 1024;
  while (c < n) c *= 2;
  return c;
}

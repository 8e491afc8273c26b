/**
 * Core results → flat typed arrays the scene uploads to the GPU once.
 *
 * Points go to the GPU as (lat, lng) in radians; the vertex shaders place them
 * on the globe, the map or the unfolded cube. Lines are drawn as separate
 * segments (pairs of vertices) and every vertex also carries the other end of
 * its segment, so a shader can hide a segment that a flat layout cuts (the
 * map's date line, a gap between faces of the cube net).
 */
import { geoDistance, geoInterpolate } from 'd3-geo';
import { mesh } from 'topojson-client';
import type * as TopoJSON from 'topojson-specification';
import type { RGB } from '../shell/palette';

const RAD = Math.PI / 180;

/**
 * Line segments: 2 vertices each. Per vertex: ll = (lat, lng) radians, xyz = the unit vector
 * (computed here in float64: GPU sin and cos may err by 1e-4, hundreds of metres), the same
 * two for the other end of its segment, and a level-10 ordinal (or −1).
 */
export interface SegmentArrays {
  ll: Float32Array;
  xyz: Float32Array;
  other: Float32Array;
  otherXyz: Float32Array;
  ordinal: Float32Array;
  /** Number of vertices (2 per segment). */
  count: number;
}

/**
 * startsTexel returns the range starts as float32 texels for the shader's
 * binary search. Every start is < 2^24, so float32 holds it exactly; throws a
 * RangeError otherwise.
 */
export function startsTexels(starts: Int32Array): Float32Array {
  const out = Float32Array.from(starts);
  starts.forEach((v, i) => {
    if (out[i] !== v) throw new RangeError(`starts[${i}] = ${v} is not exact in float32: expected an ordinal below 2^24`);
  });
  return out;
}

/** paletteTexels returns colors as RGBA bytes (alpha 255), one texel per shard. */
export function paletteTexels(colors: readonly RGB[]): Uint8Array {
  const out = new Uint8Array(colors.length * 4);
  colors.forEach((c, i) => {
    for (let k = 0; k < 3; k++) out[4 * i + k] = Math.round(Math.min(1, Math.max(0, c[k])) * 255);
    out[4 * i + 3] = 255;
  });
  return out;
}

/** slerpLatLng returns the point a fraction f along the great circle from a to b (degrees in, degrees out; d3-geo's geoInterpolate). */
export function slerpLatLng(aLat: number, aLng: number, bLat: number, bLng: number, f: number): [number, number] {
  const [lng, lat] = geoInterpolate([aLng, aLat], [bLng, bLat])(f);
  return [lat, lng];
}

function toXYZ(lat: number, lng: number): [number, number, number] {
  const c = Math.cos(lat * RAD);
  return [c * Math.cos(lng * RAD), c * Math.sin(lng * RAD), Math.sin(lat * RAD)];
}

/** angleDeg returns the great-circle angle between two points, in degrees (d3-geo's geoDistance). */
export function angleDeg(aLat: number, aLng: number, bLat: number, bLng: number): number {
  return geoDistance([aLng, aLat], [bLng, bLat]) / RAD;
}

/**
 * hilbertSegments turns the centres of a level's cells, in key order
 * ([lat, lng, ...] degrees, from the core's levelCellCenters), into the
 * segments of the Hilbert curve. Each step between consecutive centres is
 * split along its great circle into pieces of at most maxStepDeg, so coarse
 * levels bend with the sphere instead of cutting through it. Each vertex
 * carries the middle level-10 ordinal of the cell it is nearer to (cell k of
 * level L covers ordinals [k·4^(10−L), (k+1)·4^(10−L))), so the shader colors
 * the curve by shard and the color changes halfway between two centres.
 */
export function hilbertSegments(centres: Float64Array, level: number, maxStepDeg = 2): SegmentArrays {
  const n = centres.length / 2;
  const per = 4 ** (10 - level);
  const pieces: number[] = [];
  let total = 0;
  for (let k = 0; k + 1 < n; k++) {
    const p = Math.max(1, Math.ceil(angleDeg(centres[2 * k], centres[2 * k + 1], centres[2 * k + 2], centres[2 * k + 3]) / maxStepDeg));
    pieces.push(p);
    total += p;
  }
  const out = allocSegments(total);
  let v = 0;
  for (let k = 0; k + 1 < n; k++) {
    const [aLat, aLng, bLat, bLng] = [centres[2 * k], centres[2 * k + 1], centres[2 * k + 2], centres[2 * k + 3]];
    const p = pieces[k];
    let prev: [number, number] = [aLat, aLng];
    for (let q = 1; q <= p; q++) {
      const next = q === p ? ([bLat, bLng] as [number, number]) : slerpLatLng(aLat, aLng, bLat, bLng, q / p);
      const ordA = ((q - 1) / p < 0.5 ? k : k + 1) * per + per / 2;
      const ordB = (q / p <= 0.5 ? k : k + 1) * per + per / 2;
      putSegment(out, v, prev, next, ordA, ordB);
      v += 2;
      prev = next;
    }
  }
  return out;
}

/** A TopoJSON topology as world-atlas ships it (decoded by topojson-client). */
export type Topology = TopoJSON.Topology;

/**
 * coastlineSegments decodes every arc of a world-atlas land topology into
 * segments (topojson-client's mesh: every arc once, dequantized). Edges that
 * Natural Earth adds to close polygons (along the date line and along the
 * south pole) are not coastline and are dropped. Throws a RangeError naming
 * the field if the input is not a topology.
 */
export function coastlineSegments(topology: Topology): SegmentArrays {
  if (!topology || topology.type !== 'Topology' || !Array.isArray(topology.arcs)) {
    throw new RangeError(`land topology: type ${JSON.stringify(topology?.type)} with ${Array.isArray(topology?.arcs) ? 'arcs' : 'no arcs'}: expected a TopoJSON Topology such as world-atlas/land-50m.json`);
  }
  const segs: number[] = [];
  for (const line of mesh(topology).coordinates) {
    for (let k = 1; k < line.length; k++) {
      const [aLng, aLat] = line[k - 1];
      const [bLng, bLat] = line[k];
      if (!isClosingEdge(aLat, aLng, bLat, bLng)) segs.push(aLat, aLng, bLat, bLng);
    }
  }
  const out = allocSegments(segs.length / 4);
  for (let s = 0; s < segs.length / 4; s++) putSegment(out, 2 * s, [segs[4 * s], segs[4 * s + 1]], [segs[4 * s + 2], segs[4 * s + 3]], -1, -1);
  return out;
}

/**
 * segmentArraysOf turns flat segments [aLat, aLng, bLat, bLng, ...] (degrees) into segment
 * arrays with no ordinal (−1), as the line material draws them.
 */
export function segmentArraysOf(flat: ArrayLike<number>): SegmentArrays {
  const n = Math.floor(flat.length / 4);
  const out = allocSegments(n);
  for (let s = 0; s < n; s++) putSegment(out, 2 * s, [flat[4 * s], flat[4 * s + 1]], [flat[4 * s + 2], flat[4 * s + 3]], -1, -1);
  return out;
}

function isClosingEdge(aLat: number, aLng: number, bLat: number, bLng: number): boolean {
  const onDateLine = Math.abs(aLng) > 179.99 && Math.abs(bLng) > 179.99;
  const onPole = aLat < -89.9 && bLat < -89.9;
  return onDateLine || onPole;
}

function allocSegments(n: number): SegmentArrays {
  return { ll: new Float32Array(4 * n), xyz: new Float32Array(6 * n), other: new Float32Array(4 * n), otherXyz: new Float32Array(6 * n), ordinal: new Float32Array(2 * n), count: 2 * n };
}

function putSegment(out: SegmentArrays, v: number, a: [number, number], b: [number, number], ordA: number, ordB: number): void {
  const pa = toXYZ(a[0], a[1]);
  const pb = toXYZ(b[0], b[1]);
  out.ll.set([a[0] * RAD, a[1] * RAD, b[0] * RAD, b[1] * RAD], 2 * v);
  out.xyz.set([...pa, ...pb], 3 * v);
  out.other.set([b[0] * RAD, b[1] * RAD, a[0] * RAD, a[1] * RAD], 2 * v);
  out.otherXyz.set([...pb, ...pa], 3 * v);
  out.ordinal[v] = ordA;
  out.ordinal[v + 1] = ordB;
}

/** A surface mesh: a vertex parameter per vertex (3 floats) and triangle indices. */
export interface SurfaceArrays {
  params: Float32Array;
  index: Uint32Array;
}

/**
 * latLngGrid returns the map/globe surface: a grid of (relative longitude,
 * latitude, 0) in radians, relative longitude in [−π, π] (the shader adds the
 * view's centre longitude, so the map's edge is always the antimeridian of the
 * centre), latitude in [−π/2, π/2].
 */
export function latLngGrid(nLng: number, nLat: number): SurfaceArrays {
  const params = new Float32Array((nLng + 1) * (nLat + 1) * 3);
  let p = 0;
  for (let j = 0; j <= nLat; j++) {
    for (let i = 0; i <= nLng; i++) {
      params[p++] = -Math.PI + (2 * Math.PI * i) / nLng;
      params[p++] = -Math.PI / 2 + (Math.PI * j) / nLat;
      params[p++] = 0;
    }
  }
  return { params, index: gridIndex(nLng, nLat, 0) };
}

/** cubePatches returns the unfolded-cube surface: six n×n grids of (face, s, t), s and t in [0, 1]. */
export function cubePatches(n: number): SurfaceArrays {
  const perFace = (n + 1) * (n + 1);
  const params = new Float32Array(6 * perFace * 3);
  const index = new Uint32Array(6 * n * n * 6);
  let p = 0;
  for (let f = 0; f < 6; f++) {
    for (let j = 0; j <= n; j++) {
      for (let i = 0; i <= n; i++) {
        params[p++] = f;
        params[p++] = i / n;
        params[p++] = j / n;
      }
    }
    index.set(gridIndex(n, n, f * perFace), f * n * n * 6);
  }
  return { params, index };
}

function gridIndex(nx: number, ny: number, base: number): Uint32Array {
  const index = new Uint32Array(nx * ny * 6);
  let k = 0;
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const a = base + j * (nx + 1) + i;
      const b = a + 1;
      const c = a + nx + 1;
      const d = c + 1;
      index.set([a, b, d, a, d, c], k);
      k += 6;
    }
  }
  return index;
}

/**
 * ribbonBins sums the weights of the cells whose ordinals lie in [from, to)
 * into `bins` equal stretches of that range: bin b holds ordinals
 * [from + b·(to−from)/bins, from + (b+1)·(to−from)/bins). ordinals and weights
 * are parallel arrays; cells outside the range are skipped.
 */
export function ribbonBins(ordinals: ArrayLike<number>, weights: ArrayLike<number>, bins: number, from: number, to: number): Float64Array {
  const out = new Float64Array(bins);
  const span = to - from;
  for (let k = 0; k < ordinals.length; k++) {
    const o = ordinals[k];
    if (o < from || o >= to) continue;
    out[Math.min(bins - 1, Math.floor(((o - from) * bins) / span))] += weights[k];
  }
  return out;
}

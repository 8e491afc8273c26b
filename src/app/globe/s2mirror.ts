/**
 * A JavaScript mirror of the point → shard half of S2_GLSL (s2glsl.ts), so unit
 * tests can check the shader's logic against the routing core on many points
 * without a GPU. It mirrors 6 of the shader's 11 functions, each line for line:
 * sinCos, s2Face, s2FaceUV, s2UVToST, s2Ordinal, shardOfOrdinal (ordinalOfLatLng
 * composes them as the fragment shader does, with s2FaceST inlined). Not
 * mirrored: the way back from (s, t) to a point (s2STToUV, s2FaceUVToXYZ) and the
 * unfolded cube's layout (netLayout, netST), which draw rather than route.
 * The app itself never routes with this: hover, readouts and tests' expected
 * values come from the core. Float precision differs (float64 here, float32 on
 * the GPU, except sinCos, which runs in float32 here too); the e2e test reads
 * back real pixels for that.
 */

import { hilbertLookup } from './s2glsl';

const LOOKUP = hilbertLookup();

/** sinCos mirrors the GLSL: [sin x, cos x] by reduction to [−π/4, π/4] and Taylor series (run here in float32). */
export function sinCos(x: number): [number, number] {
  const f = Math.fround;
  const k = Math.floor(f(x * 0.6366197723675814) + 0.5);
  const r = f(f(x - f(k * 1.5707963705062866)) - f(k * -4.371139006309477e-8));
  const r2 = f(r * r);
  const s = f(r + f(f(r * r2) * f(-0.16666666666666666 + f(r2 * f(0.008333333333333333 + f(r2 * f(-0.0001984126984126984 + f(r2 * 2.7557319223985893e-6))))))));
  const c = f(1 + f(r2 * f(-0.5 + f(r2 * f(0.041666666666666664 + f(r2 * f(-0.001388888888888889 + f(r2 * 2.48015873015873e-5))))))));
  const q = k & 3;
  return q === 0 ? [s, c] : q === 1 ? [c, -s] : q === 2 ? [-s, -c] : [-c, s];
}

/** s2Face mirrors the GLSL: the cube face (0..5) of a non-zero vector. */
export function s2Face(p: [number, number, number]): number {
  const a = p.map(Math.abs);
  const f = a[0] > a[1] ? (a[0] > a[2] ? 0 : 2) : a[1] > a[2] ? 1 : 2;
  return p[f] < 0 ? f + 3 : f;
}

/** s2FaceUV mirrors the GLSL: (u, v) of a vector on its face. */
export function s2FaceUV(f: number, [x, y, z]: [number, number, number]): [number, number] {
  switch (f) {
    case 0: return [y / x, z / x];
    case 1: return [-x / y, z / y];
    case 2: return [-x / z, -y / z];
    case 3: return [z / x, y / x];
    case 4: return [z / y, -x / y];
    default: return [-y / z, -x / z];
  }
}

/** s2UVToST mirrors the GLSL quadratic transform. */
export function s2UVToST(u: number): number {
  return u >= 0 ? 0.5 * Math.sqrt(1 + 3 * u) : 1 - 0.5 * Math.sqrt(1 - 3 * u);
}

/** s2Ordinal mirrors the GLSL: the level-10 ordinal of (face, s, t), two table lookups of five levels each. */
export function s2Ordinal(f: number, s: number, t: number): number {
  const i = Math.min(1023, Math.max(0, Math.floor(s * 1024)));
  const j = Math.min(1023, Math.max(0, Math.floor(t * 1024)));
  const hi = LOOKUP[(j >> 5) * 128 + (((f & 1) << 5) | (i >> 5))];
  const lo = LOOKUP[(j & 31) * 128 + (((hi & 3) << 5) | (i & 31))];
  return (f << 20) | ((hi >> 2) << 10) | (lo >> 2);
}

/** shardOfOrdinal mirrors the GLSL binary search over range starts (starts[0] = 0). */
export function shardOfOrdinal(starts: ArrayLike<number>, shardCount: number, ordinal: number): number {
  let lo = 0;
  let hi = shardCount - 1;
  for (let k = 0; k < 11; k++) {
    if (lo >= hi) break;
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ordinal) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** ordinalOfLatLng runs the whole shader pipeline on a point in degrees. */
export function ordinalOfLatLng(lat: number, lng: number): number {
  const la = (lat * Math.PI) / 180;
  const lo = (lng * Math.PI) / 180;
  const p: [number, number, number] = [Math.cos(la) * Math.cos(lo), Math.cos(la) * Math.sin(lo), Math.sin(la)];
  const f = s2Face(p);
  const [u, v] = s2FaceUV(f, p);
  return s2Ordinal(f, s2UVToST(u), s2UVToST(v));
}

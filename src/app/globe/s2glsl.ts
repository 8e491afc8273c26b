/**
 * S2 on the GPU: a GLSL ES 3.00 port of the steps from a point on the sphere
 * to its level-10 cell ordinal and shard, so the globe can color every pixel
 * by the shard that owns it.
 *
 * Why a shader and not geometry: there are 6,291,456 level-10 cells. Polygons
 * per cell cannot be drawn, and polygons of a coarser level would have to
 * guess at the cells that a boundary splits. Computing the cell per pixel
 * needs no geometry at all, is exact at every zoom (a coarse cell that
 * straddles a boundary shows both shards' areas), and also yields the grid of
 * any level (a cell's edges are lines of constant s or t) and shard outlines.
 *
 * The steps follow S2 (s2geometry.io, golang/geo): face = the largest
 * component of the unit vector (+3 if negative); (u, v) = the other two
 * components divided by it, per face; (s, t) = the quadratic transform of
 * (u, v); (i, j) = floor(1024 · (s, t)) at level 10; the position along the
 * face's Hilbert curve from a lookup table built from S2's orientation tables,
 * five levels per lookup (two texture reads; walking the ten levels one by one
 * cost about twice as much in software WebGL); the ordinal = face · 4^10 +
 * position, the same number as the core's cellOrdinal. The shard is the last
 * range start <= ordinal, a binary search in a 1-row float texture of the range
 * starts (Router.starts; every value < 2^24, so exact in float32).
 * s2mirror.ts repeats this code line by line in JavaScript for unit tests; the
 * e2e test reads back real pixels (debug=ordinal) and checks them against the core.
 */

/** Most shards the shader's binary search handles: 2^11 > MAX_SHARDS (1024). */
export const SHADER_SEARCH_STEPS = 11;

/** Side of one face in the unfolded cube, in world units: four faces span 2π, like the map. */
export const NET_FACE_SIDE = Math.PI / 2;

/**
 * hilbertLookup returns the table s2Ordinal reads (S2's own technique, with 5 bits of i and j
 * per lookup instead of 4): for each orientation o (0..3) and 5-bit i5, j5, the texel at
 * (32·o + i5, j5) of a 128×32 table holds pos·4 + o', where pos (0..1023) is the position of
 * (i5, j5) along the five-level curve of orientation o and o' the orientation after it.
 * Built from S2's kIJtoPos and kPosToOrientation tables.
 */
export function hilbertLookup(): Float32Array {
  const ijToPos = [180, 156, 30, 54];
  const out = new Float32Array(128 * 32);
  for (let o0 = 0; o0 < 4; o0++) {
    for (let i5 = 0; i5 < 32; i5++) {
      for (let j5 = 0; j5 < 32; j5++) {
        let o = o0;
        let pos = 0;
        for (let k = 4; k >= 0; k--) {
          const ij = (((i5 >> k) & 1) << 1) | ((j5 >> k) & 1);
          const p = (ijToPos[o] >> (2 * ij)) & 3;
          pos = (pos << 2) | p;
          o ^= (193 >> (2 * p)) & 3;
        }
        out[j5 * 128 + o0 * 32 + i5] = pos * 4 + o;
      }
    }
  }
  return out;
}

/** The GLSL functions (uniforms they read: uHilbert, uStarts, uShardCount). */
export const S2_GLSL = /* glsl */ `
// sin and cos to float32 precision (about 1e-7). GLSL's built-ins may err by up to 1e-4 in
// software renderers (Vulkan's bound), which is hundreds of metres on the Earth. Reduce by the
// nearest multiple of pi/2 (pi/2 in two parts), then Taylor series to r^9 on [-pi/4, pi/4].
vec2 sinCos(float x) {
  float k = floor(x * 0.6366197723675814 + 0.5);
  float r = (x - k * 1.5707963705062866) - k * -4.371139006309477e-8;
  float r2 = r * r;
  float s = r + r * r2 * (-0.16666666666666666 + r2 * (0.008333333333333333 + r2 * (-0.0001984126984126984 + r2 * 2.7557319223985893e-6)));
  float c = 1.0 + r2 * (-0.5 + r2 * (0.041666666666666664 + r2 * (-0.001388888888888889 + r2 * 2.48015873015873e-5)));
  int q = int(k) & 3;
  return q == 0 ? vec2(s, c) : q == 1 ? vec2(c, -s) : q == 2 ? vec2(-s, -c) : vec2(-c, s);
}

int s2Face(vec3 p) {
  vec3 a = abs(p);
  int f = a.x > a.y ? (a.x > a.z ? 0 : 2) : (a.y > a.z ? 1 : 2);
  float c = f == 0 ? p.x : (f == 1 ? p.y : p.z);
  return c < 0.0 ? f + 3 : f;
}

vec2 s2FaceUV(int f, vec3 p) {
  if (f == 0) return vec2(p.y / p.x, p.z / p.x);
  if (f == 1) return vec2(-p.x / p.y, p.z / p.y);
  if (f == 2) return vec2(-p.x / p.z, -p.y / p.z);
  if (f == 3) return vec2(p.z / p.x, p.y / p.x);
  if (f == 4) return vec2(p.z / p.y, -p.x / p.y);
  return vec2(-p.y / p.z, -p.x / p.z);
}

float s2UVToST(float u) {
  return u >= 0.0 ? 0.5 * sqrt(1.0 + 3.0 * u) : 1.0 - 0.5 * sqrt(1.0 - 3.0 * u);
}

float s2STToUV(float s) {
  return s >= 0.5 ? (4.0 * s * s - 1.0) / 3.0 : (1.0 - 4.0 * (1.0 - s) * (1.0 - s)) / 3.0;
}

vec3 s2FaceUVToXYZ(int f, vec2 uv) {
  float u = uv.x;
  float v = uv.y;
  if (f == 0) return vec3(1.0, u, v);
  if (f == 1) return vec3(-u, 1.0, v);
  if (f == 2) return vec3(-u, -v, 1.0);
  if (f == 3) return vec3(-1.0, -v, -u);
  if (f == 4) return vec3(v, -1.0, -u);
  return vec3(v, u, -1.0);
}

vec2 s2FaceST(int f, vec3 p) {
  vec2 uv = s2FaceUV(f, p);
  return vec2(s2UVToST(uv.x), s2UVToST(uv.y));
}

// The level-10 ordinal of (face, s, t): face * 4^10 + the Hilbert position of (i, j), five
// levels per lookup in uHilbert (see hilbertLookup: texel (32·orientation + i5, j5) holds
// the 10-bit position of the five levels and the orientation after them, as pos·4 + orient).
int s2Ordinal(int f, vec2 st) {
  int i = clamp(int(floor(st.x * 1024.0)), 0, 1023);
  int j = clamp(int(floor(st.y * 1024.0)), 0, 1023);
  int hi = int(texelFetch(uHilbert, ivec2(((f & 1) << 5) | (i >> 5), j >> 5), 0).r);
  int lo = int(texelFetch(uHilbert, ivec2(((hi & 3) << 5) | (i & 31), j & 31), 0).r);
  return (f << 20) | ((hi >> 2) << 10) | (lo >> 2);
}

// The key-order index of the shard holding an ordinal: the last i with starts[i] <= ordinal.
int shardOfOrdinal(int ordinal) {
  int lo = 0;
  int hi = uShardCount - 1;
  for (int k = 0; k < ${SHADER_SEARCH_STEPS}; k++) {
    if (lo >= hi) break;
    int mid = (lo + hi + 1) >> 1;
    if (int(texelFetch(uStarts, ivec2(mid, 0), 0).r) <= ordinal) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// The unfolded cube: faces 4, 0, 1, 3 in a row west to east along the equator, 2 (north)
// above 0 and 5 (south) below 0, each turned so that neighbouring faces meet edge to edge.
vec2 netLayout(int f, vec2 st) {
  vec2 q = st - 0.5;
  vec2 c = f == 0 ? vec2(0.0, 0.0) : f == 1 ? vec2(1.0, 0.0) : f == 2 ? vec2(0.0, 1.0) : f == 3 ? vec2(2.0, 0.0) : f == 4 ? vec2(-1.0, 0.0) : vec2(0.0, -1.0);
  vec2 r = (f == 3 || f == 4) ? vec2(q.y, -q.x) : (f == 2 ? vec2(-q.y, q.x) : q);
  return (c + r) * ${NET_FACE_SIDE.toFixed(10)};
}

// The inverse of netLayout on a known face: (s, t) of a net position q (world units).
vec2 netST(int f, vec2 q) {
  vec2 c = f == 0 ? vec2(0.0, 0.0) : f == 1 ? vec2(1.0, 0.0) : f == 2 ? vec2(0.0, 1.0) : f == 3 ? vec2(2.0, 0.0) : f == 4 ? vec2(-1.0, 0.0) : vec2(0.0, -1.0);
  vec2 g = q / ${NET_FACE_SIDE.toFixed(10)} - c;
  vec2 r = (f == 3 || f == 4) ? vec2(-g.y, g.x) : (f == 2 ? vec2(g.y, -g.x) : g);
  return clamp(r + 0.5, 0.0, 1.0);
}
`;

/**
 * The scene's GLSL: the shard surface (one fragment shader colors every
 * pixel by its level-10 cell's shard, draws the grid of the chosen level and
 * the shard outlines) and the lines (Hilbert curve, coastlines), all placed on
 * the globe, the map or the cube net by the same morph.
 */
import { S2_GLSL } from './s2glsl';

/** Uniforms every scene shader reads (see uniforms.ts). */
const COMMON = /* glsl */ `
uniform mat3 uRot;          // Earth (S2 xyz) -> view
uniform float uMorph;       // 0 globe .. 1 flat (eased)
uniform int uFlat;          // 0 map, 1 cube net
uniform vec2 uCenter;       // view centre (lat, lng) radians
uniform vec2 uNetCenter;    // net position at the view centre
uniform sampler2D uStarts;  // range start per shard (float texels), 1 row
uniform sampler2D uHilbert; // S2 Hilbert lookup, 128 x 32 (globe/s2glsl.ts hilbertLookup)
uniform int uShardCount;
uniform sampler2D uPalette; // color per shard (sRGB bytes), 1 row
uniform int uHighlight;     // shard index or -1
uniform vec2 uBrush;        // [first, last] ordinals, x < 0 for none
uniform vec3 uBg;           // page background (sRGB)
${S2_GLSL}

vec3 llToXYZ(vec2 ll) {
  float c = cos(ll.x);
  return vec3(c * cos(ll.y), c * sin(ll.y), sin(ll.x));
}

// Where a point sits in the current flat layout, relative to the view centre.
vec2 flatOf(vec2 ll, vec3 xyz) {
  if (uFlat == 0) {
    float d = ll.y - uCenter.y;
    d -= 6.283185307179586 * floor((d + 3.141592653589793) / 6.283185307179586);
    return vec2(d, ll.x - uCenter.x);
  }
  int f = s2Face(xyz);
  return netLayout(f, s2FaceST(f, xyz)) - uNetCenter;
}

// How much a shard/ordinal recedes: other shards while one is highlighted, the curve outside a brush.
float dimOf(int shard, int ordinal) {
  float d = 0.0;
  if (uHighlight >= 0 && shard != uHighlight) d = 0.72;
  if (uBrush.x >= 0.0 && (float(ordinal) < uBrush.x || float(ordinal) > uBrush.y)) d = max(d, 0.78);
  return d;
}
`;

export const SURFACE_VERTEX = /* glsl */ `
${COMMON}
uniform int uSurfaceNet;    // 1: the six face patches of the cube net; 0: the lat/lng grid of the map
out vec3 vParam;
flat out int vFace;

void main() {
  vec3 xyz;
  vec2 flatPos;
  if (uSurfaceNet == 1) {
    int f = int(position.x + 0.5);
    vec2 st = position.yz;
    xyz = normalize(s2FaceUVToXYZ(f, vec2(s2STToUV(st.x), s2STToUV(st.y))));
    flatPos = netLayout(f, st) - uNetCenter;
    vParam = vec3(st, 0.0);
    vFace = f;
  } else {
    float lat = position.y;
    float lng = uCenter.y + position.x;
    xyz = llToXYZ(vec2(lat, lng));
    flatPos = vec2(position.x, lat - uCenter.x);
    vParam = vec3(lat, lng, 0.0);
    vFace = 0;
  }
  vec3 p = mix(uRot * xyz, vec3(flatPos, 0.0), uMorph);
  gl_Position = projectionMatrix * viewMatrix * vec4(p, 1.0);
}
`;

export const SURFACE_FRAGMENT = /* glsl */ `
${COMMON}
uniform int uSurfaceNet;
uniform int uLevel;         // grid level 0..10
uniform float uShowShards;  // 1 = shard colors, 0 = neutral
uniform float uShowGrid;
uniform float uHilbertOn;   // dims the fill so the curve reads
uniform int uHoverCell;     // index of the hovered cell at uLevel, or -1
uniform int uDebug;         // 1 = write the level-10 ordinal as RGB bytes (tests)
uniform vec3 uNeutral;
uniform sampler2D uRegion;  // region paint (globe/regionPaint.ts): rgb per shard, alpha 0 = marked
uniform int uRegionOn;      // 1: color by uRegion; 0: by the shard palette, nothing marked
uniform int uMovingStart[8]; // key ranges moving in a live migration (globe/regionPaint.ts setMovingRanges):
uniform int uMovingEnd[8];   // level-10 ordinals [start, end), hatched amber
uniform int uMovingCount;
uniform vec2 uBuffer;       // drawing buffer size, device pixels
uniform vec2 uPxPerUnit;    // device pixels per world unit (x, y)
uniform mat3 uRotT;         // view -> Earth (transpose of uRot)
uniform vec4 uCenterTrig;   // cos, sin of the map centre's lat, then lng (computed in float64)

// The map point at offset d (radians of lng, lat) from the centre, by angle addition with
// sinCos (exact centre values from float64 uniforms, small offsets), so it stays exact when zoomed in.
vec3 mapPoint(vec2 d) {
  vec2 ty = sinCos(d.y);
  vec2 tx = sinCos(d.x);
  float cy = ty.y;
  float sy = ty.x;
  float cx = tx.y;
  float sx = tx.x;
  float clat = uCenterTrig.x * cy - uCenterTrig.y * sy;
  float slat = uCenterTrig.y * cy + uCenterTrig.x * sy;
  float clng = uCenterTrig.z * cx - uCenterTrig.w * sx;
  float slng = uCenterTrig.w * cx + uCenterTrig.z * sx;
  return vec3(clat * clng, clat * slng, slat);
}
in vec3 vParam;
flat in int vFace;

void main() {
  int f;
  vec2 st;
  float limb = 1.0;
  // The exact point under this pixel's centre, from gl_FragCoord rather than interpolated
  // varyings: the rasteriser snaps vertices to a sub-pixel grid, which would shift the
  // sampled point by a fraction of a pixel (many level-10 cells near the globe's rim).
  vec2 xy = (gl_FragCoord.xy - 0.5 * uBuffer) / uPxPerUnit;
  if (uMorph <= 0.0) {
    // On the globe, the orthographic ray meets the unit sphere at (x, y, sqrt(1 - x² - y²)).
    float r2 = dot(xy, xy);
    if (r2 > 1.0) discard;
    limb = sqrt(1.0 - r2);
    vec3 p = uRotT * vec3(xy, limb);
    f = s2Face(p);
    st = s2FaceST(f, p);
  } else if (uMorph >= 1.0 && uSurfaceNet == 1) {
    f = vFace;
    st = netST(f, xy + uNetCenter);
  } else if (uMorph >= 1.0) {
    vec3 p = mapPoint(xy);
    f = s2Face(p);
    st = s2FaceST(f, p);
  } else if (uSurfaceNet == 1) {
    // Mid-morph: the surface is curved and moving; the interpolated parameters are close enough.
    f = vFace;
    st = clamp(vParam.xy, 0.0, 1.0);
  } else {
    vec3 p = llToXYZ(vParam.xy);
    f = s2Face(p);
    st = s2FaceST(f, p);
  }
  int ordinal = s2Ordinal(f, st);
  if (uDebug == 1) {
    gl_FragColor = vec4(float((ordinal >> 16) & 255), float((ordinal >> 8) & 255), float(ordinal & 255), 255.0) / 255.0;
    return;
  }
  int shard = shardOfOrdinal(ordinal);
  vec4 region = uRegionOn == 1 ? texelFetch(uRegion, ivec2(shard, 0), 0) : vec4(0.0, 0.0, 0.0, 1.0);
  vec3 col = uShowShards > 0.5 ? (uRegionOn == 1 ? region.rgb : texelFetch(uPalette, ivec2(shard, 0), 0).rgb) : uNeutral;
  // A marked region (its documents are missing from the current answer): red stripes, in screen space.
  if (region.a < 0.5) col = mix(col, vec3(0.86, 0.08, 0.12), 0.75 * step(0.5, fract((gl_FragCoord.x + gl_FragCoord.y) / 12.0)));
  // A range moving in a live migration: amber hatching the other way, in screen space.
  for (int i = 0; i < 8; i++) {
    if (i >= uMovingCount) break;
    if (ordinal >= uMovingStart[i] && ordinal < uMovingEnd[i]) col = mix(col, vec3(1.0, 0.72, 0.05), 0.8 * step(0.5, fract((gl_FragCoord.x - gl_FragCoord.y) / 10.0)));
  }
  if (uHilbertOn > 0.5) col = mix(col, uBg, 0.5);

  // Grid of the chosen level: cell edges are lines of constant s or t.
  float scale = exp2(float(uLevel));
  vec2 g = st * scale;
  vec2 fw = max(fwidth(g), vec2(1e-7));
  vec2 fwst = max(fwidth(st), vec2(1e-9));
  int shift = 2 * (10 - uLevel);
  if (uHoverCell >= 0 && (ordinal >> shift) == uHoverCell) col = mix(col, vec3(1.0), 0.28);
  col = mix(col, uBg, dimOf(shard, ordinal));
  // Shard outlines: where the shard differs within a 2x2 pixel block.
  if (uShowShards > 0.5 && fwidth(float(shard)) > 0.0) col = mix(col, vec3(0.04, 0.05, 0.08), 0.6);
  if (uShowGrid > 0.5) {
    vec2 dpx = abs(fract(g - 0.5) - 0.5) / fw;
    float line = 1.0 - smoothstep(0.35, 1.1, min(dpx.x, dpx.y));
    float cellPx = 1.0 / max(fw.x, fw.y);
    col = mix(col, vec3(0.05, 0.06, 0.1), line * 0.5 * smoothstep(2.5, 7.0, cellPx));
    vec2 edge = min(st, 1.0 - st) / fwst;
    float faceLine = 1.0 - smoothstep(0.9, 1.9, min(edge.x, edge.y));
    col = mix(col, vec3(0.96, 0.97, 1.0), faceLine * 0.85);
  }
  if (uMorph <= 0.0) col *= 0.62 + 0.38 * sqrt(limb);
  gl_FragColor = vec4(col, 1.0);
}
`;

export const LINE_VERTEX = /* glsl */ `
${COMMON}

attribute vec2 aLL;
attribute vec2 aOther;
attribute vec3 aOtherXYZ;
attribute float aOrd;
uniform float uLift;
uniform vec3 uColor;
uniform float uByShard;
uniform float uAlpha;
flat out vec4 vColor;

void main() {
  vec3 a = position;
  vec2 fa = flatOf(aLL, a);
  vec3 p = mix(uRot * a * (1.0 + uLift), vec3(fa, uLift), uMorph);
  gl_Position = projectionMatrix * viewMatrix * vec4(p, 1.0);
  if (uMorph > 0.0) {
    // A segment that the flat layout tears apart (the map's edge, a gap in the net) is hidden.
    vec2 fb = flatOf(aOther, aOtherXYZ);
    if (distance(fa, fb) > 0.5) gl_Position = vec4(2.0, 2.0, 2.0, 1.0);
  }
  vec3 col = uColor;
  float alpha = uAlpha;
  if (uByShard > 0.5) {
    int ordinal = int(aOrd);
    int shard = shardOfOrdinal(ordinal);
    col = texelFetch(uPalette, ivec2(shard, 0), 0).rgb;
    alpha *= 1.0 - dimOf(shard, ordinal);
  }
  vColor = vec4(col, alpha);
}
`;

export const LINE_FRAGMENT = /* glsl */ `
flat in vec4 vColor;
void main() {
  gl_FragColor = vColor;
}
`;

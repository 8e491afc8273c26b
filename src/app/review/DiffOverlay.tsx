/**
 * DiffOverlay: during a boundary review, the areas whose owner changes,
 * hatched and outlined over the shard surface on the globe, the map and the
 * cube net.
 *
 * The same per-pixel method as the shard surface (see globe/s2glsl.ts): each
 * pixel finds its level-10 ordinal, then looks it up in the moves (a 2-row
 * float texture of [start, end) ordinals, review/review.ts movesTexels) by binary
 * search. Pixels in a move get white diagonal stripes in screen space; pixels where
 * "in a move" changes within a 2×2 block get a solid outline, so a move's
 * edge is exact at level 10 however far one zooms. Its own meshes and
 * material, drawn after the surface; the shared uniforms (view, morph,
 * Hilbert table) are its canvas's (globe/uniforms.ts useUniforms), its own
 * (the moves, the hatch) are made with the component.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import { latLngGrid, cubePatches, type SurfaceArrays } from '../globe/typedArrays';
import { movesTexels } from './review';
import { S2_GLSL } from '../globe/s2glsl';
import { SURFACE_VERTEX } from '../globe/shaders';
import { floatTexture, useUniforms, type SceneUniforms } from '../globe/uniforms';
import { withFixedBounds } from '../globe/lineMaterial';

/** Most moves the shader's binary search handles: 2^12 (a diff has at most N + M − 1 ≤ 2,047 moves). */
const MOVE_SEARCH_STEPS = 12;

/** The hatch color (sRGB): white, lighter than every shard color (the palette's lightness tops out at OKLCH 0.91). */
const HATCH_RGB: [number, number, number] = [1.0, 1.0, 1.0];

const FRAGMENT = /* glsl */ `
uniform mat3 uRot;
uniform float uMorph;
uniform int uFlat;
uniform vec2 uCenter;
uniform vec2 uNetCenter;
uniform sampler2D uStarts;
uniform sampler2D uHilbert;
uniform int uShardCount;
uniform vec2 uBuffer;
uniform vec2 uPxPerUnit;
uniform mat3 uRotT;
uniform vec4 uCenterTrig;
uniform sampler2D uMoves;   // row 0: move start ordinals, row 1: end ordinals (exclusive)
uniform int uMoveCount;
uniform vec3 uHatch;
uniform float uStripePx;    // stripe period in device pixels
${S2_GLSL}

vec3 llToXYZ(vec2 ll) {
  float c = cos(ll.x);
  return vec3(c * cos(ll.y), c * sin(ll.y), sin(ll.x));
}

vec3 mapPoint(vec2 d) {
  vec2 ty = sinCos(d.y);
  vec2 tx = sinCos(d.x);
  float clat = uCenterTrig.x * ty.y - uCenterTrig.y * ty.x;
  float slat = uCenterTrig.y * ty.y + uCenterTrig.x * ty.x;
  float clng = uCenterTrig.z * tx.y - uCenterTrig.w * tx.x;
  float slng = uCenterTrig.w * tx.y + uCenterTrig.z * tx.x;
  return vec3(clat * clng, clat * slng, slat);
}

// The move holding an ordinal, or -1: the last start <= ordinal, then its end.
int moveOf(int ordinal) {
  if (uMoveCount <= 0) return -1;
  int lo = 0;
  int hi = uMoveCount - 1;
  for (int k = 0; k < ${MOVE_SEARCH_STEPS}; k++) {
    if (lo >= hi) break;
    int mid = (lo + hi + 1) >> 1;
    if (int(texelFetch(uMoves, ivec2(mid, 0), 0).r) <= ordinal) lo = mid;
    else hi = mid - 1;
  }
  int a = int(texelFetch(uMoves, ivec2(lo, 0), 0).r);
  int b = int(texelFetch(uMoves, ivec2(lo, 1), 0).r);
  return (a <= ordinal && ordinal < b) ? lo : -1;
}

in vec3 vParam;
flat in int vFace;

void main() {
  int f;
  vec2 st;
  vec2 xy = (gl_FragCoord.xy - 0.5 * uBuffer) / uPxPerUnit;
  if (uMorph <= 0.0) {
    float r2 = dot(xy, xy);
    if (r2 > 1.0) discard;
    vec3 p = uRotT * vec3(xy, sqrt(1.0 - r2));
    f = s2Face(p);
    st = s2FaceST(f, p);
  } else if (uMorph >= 1.0) {
#ifdef SURFACE_NET
    f = vFace;
    st = netST(f, xy + uNetCenter);
#else
    vec3 p = mapPoint(xy);
    f = s2Face(p);
    st = s2FaceST(f, p);
#endif
  } else {
#ifdef SURFACE_NET
    f = vFace;
    st = clamp(vParam.xy, 0.0, 1.0);
#else
    vec3 p = llToXYZ(vParam.xy);
    f = s2Face(p);
    st = s2FaceST(f, p);
#endif
  }
  int ordinal = s2Ordinal(f, st);
  float inside = moveOf(ordinal) >= 0 ? 1.0 : 0.0;
  float edge = fwidth(inside);
  if (edge > 0.0) {
    // The outline: dark core, hatch-colored where inside, so it reads on any shard color.
    gl_FragColor = vec4(inside > 0.5 ? uHatch : vec3(0.05, 0.04, 0.08), 1.0);
    return;
  }
  if (inside < 0.5) discard;
  // Thin white stripes over the shard colors, which stay readable between them.
  float s = fract((gl_FragCoord.x + gl_FragCoord.y) / uStripePx);
  if (s >= 0.3) discard;
  gl_FragColor = vec4(uHatch, 1.0);
}
`;

function surfaceGeometry(a: SurfaceArrays): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(a.params, 3));
  g.setIndex(new THREE.BufferAttribute(a.index, 1));
  return withFixedBounds(g);
}

/** The overlay's own uniforms (one set per overlay, shared by its two meshes). */
function ownUniforms() {
  return {
    uMoves: { value: null as THREE.DataTexture | null },
    uMoveCount: { value: 0 },
    uHatch: { value: new THREE.Vector3(...HATCH_RGB) },
    uStripePx: { value: 9 },
  };
}
type OwnUniforms = ReturnType<typeof ownUniforms>;

function overlayMaterial(uniforms: SceneUniforms, own: OwnUniforms, net: boolean): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { ...uniforms, ...own },
    vertexShader: SURFACE_VERTEX,
    fragmentShader: FRAGMENT,
    defines: net ? { SURFACE_NET: '' } : {},
    side: THREE.DoubleSide,
    transparent: true,
    depthTest: false,
    depthWrite: false,
  });
}

/** uploadMoves puts a diff's moves into the overlay's texture. */
function uploadMoves(own: OwnUniforms, moves: readonly { startOrdinal: number; endOrdinal: number }[]) {
  const { data, width } = movesTexels(moves);
  own.uMoves.value?.dispose();
  own.uMoves.value = floatTexture(data, width, 2);
  own.uMoveCount.value = moves.length;
}

export function DiffOverlay() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const mapMesh = useRef<THREE.Mesh>(null);
  const netMesh = useRef<THREE.Mesh>(null);
  const own = useMemo(ownUniforms, []);
  const parts = useMemo(
    () => ({
      map: { geometry: surfaceGeometry(latLngGrid(180, 90)), material: overlayMaterial(uniforms, own, false) },
      net: { geometry: surfaceGeometry(cubePatches(48)), material: overlayMaterial(uniforms, own, true) },
    }),
    [uniforms, own],
  );
  useEffect(() => {
    const sync = () => {
      const d = appStore.getState().reviewDiff;
      uploadMoves(own, d ? d.moves : []);
      frame.invalidate();
    };
    sync();
    const unsubscribe = appStore.subscribe((s) => s.reviewDiff, sync);
    return () => {
      unsubscribe();
      Object.values(parts).forEach((x) => (x.geometry.dispose(), x.material.dispose()));
      own.uMoves.value?.dispose();
    };
  }, [parts, own]);

  useFrame((state) => {
    const s = appStore.getState();
    const on = !!s.candidate && !!s.reviewDiff && s.reviewDiff.moves.length > 0 && uniforms.uDebug.value !== 1;
    own.uStripePx.value = 10 * state.viewport.dpr;
    if (mapMesh.current) mapMesh.current.visible = on && frame.view.flat === 'map';
    if (netMesh.current) netMesh.current.visible = on && frame.view.flat === 'net';
  });

  return (
    <>
      <mesh ref={mapMesh} geometry={parts.map.geometry} material={parts.map.material} frustumCulled={false} renderOrder={0.8} visible={false} />
      <mesh ref={netMesh} geometry={parts.net.geometry} material={parts.net.material} frustumCulled={false} renderOrder={0.8} visible={false} />
    </>
  );
}

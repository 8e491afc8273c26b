/**
 * The uniforms every scene material shares (one object each, so one write per
 * frame reaches every material), and the data textures built from the loaded
 * boundary file. They belong to the canvas that draws them: GlobeCanvas makes
 * one set (createUniforms) and hands it to its scene through UniformsContext
 * (useUniforms); no module holds them. FrameDriver writes the per-frame ones
 * and the region paint; ShardSurface uploads the boundary file's textures.
 */
import * as THREE from 'three';
import { createContext, useContext } from 'react';
import { startsTexels, paletteTexels } from './typedArrays';
import { hilbertLookup } from './s2glsl';
import type { RGB } from '../shell/palette';

/** The page background (sRGB), also what dimmed areas fade toward. */
export const BACKGROUND: RGB = [0.043, 0.063, 0.106];
/** The fill when the shards layer is off. */
export const NEUTRAL: RGB = [0.2, 0.24, 0.32];

/** createUniforms returns a new set of scene uniforms; `debug` makes the surface write each pixel's level-10 ordinal (?debug=ordinal). */
export function createUniforms({ debug }: { debug: boolean }) {
  return {
    uRot: { value: new THREE.Matrix3() },
    uRotT: { value: new THREE.Matrix3() },
    uCenterTrig: { value: new THREE.Vector4(1, 0, 1, 0) },
    uBuffer: { value: new THREE.Vector2(1, 1) },
    uPxPerUnit: { value: new THREE.Vector2(1, 1) },
    uMorph: { value: 0 },
    uFlat: { value: 0 },
    uCenter: { value: new THREE.Vector2() },
    uNetCenter: { value: new THREE.Vector2() },
    uStarts: { value: null as THREE.DataTexture | null },
    uHilbert: { value: floatTexture(hilbertLookup(), 128, 32) },
    uShardCount: { value: 1 },
    uPalette: { value: null as THREE.DataTexture | null },
    /** Region paint (globe/regionPaint.ts): color and mark per shard; used when uRegionOn is 1. */
    uRegion: { value: null as THREE.DataTexture | null },
    uRegionOn: { value: 0 },
    /** Key ranges moving in a live migration (globe/regionPaint.ts setMovingRanges): up to 8, ordinals [start, end). */
    uMovingStart: { value: new Array<number>(8).fill(0) },
    uMovingEnd: { value: new Array<number>(8).fill(0) },
    uMovingCount: { value: 0 },
    uHighlight: { value: -1 },
    uBrush: { value: new THREE.Vector2(-1, -1) },
    uBg: { value: new THREE.Vector3(...BACKGROUND) },
    uLevel: { value: 4 },
    uShowShards: { value: 1 },
    uShowGrid: { value: 1 },
    uHilbertOn: { value: 0 },
    uHoverCell: { value: -1 },
    uDebug: { value: debug ? 1 : 0 },
    uNeutral: { value: new THREE.Vector3(...NEUTRAL) },
  };
}

/** A canvas's scene uniforms (createUniforms). */
export type SceneUniforms = ReturnType<typeof createUniforms>;

/** The uniforms of the canvas a scene component is drawn in (GlobeCanvas provides them). */
export const UniformsContext = createContext<SceneUniforms | null>(null);

/** useUniforms returns the scene uniforms of the canvas this component is drawn in. */
export function useUniforms(): SceneUniforms {
  const u = useContext(UniformsContext);
  if (!u) throw new Error('useUniforms: a scene component is drawn outside GlobeCanvas (no UniformsContext)');
  return u;
}

/** floatTexture wraps one float per texel (R32F) in a nearest-sampled data texture. */
export function floatTexture(data: Float32Array, width: number, height: number): THREE.DataTexture {
  const t = new THREE.DataTexture(data, width, height, THREE.RedFormat, THREE.FloatType);
  t.internalFormat = 'R32F';
  return nearest(t);
}

/** nearest makes a data texture a lookup table: nearest sampling, no mipmaps, no color-space conversion; marks it for upload. */
export function nearest(t: THREE.DataTexture): THREE.DataTexture {
  t.minFilter = THREE.NearestFilter;
  t.magFilter = THREE.NearestFilter;
  t.generateMipmaps = false;
  t.colorSpace = THREE.NoColorSpace;
  t.needsUpdate = true;
  return t;
}

/** setShardData uploads the range starts and colors of a boundary file into a canvas's uniforms. */
export function setShardData(uniforms: SceneUniforms, starts: Int32Array, colors: readonly RGB[]): void {
  uniforms.uStarts.value?.dispose();
  uniforms.uPalette.value?.dispose();
  uniforms.uStarts.value = floatTexture(startsTexels(starts), starts.length, 1);
  uniforms.uPalette.value = nearest(new THREE.DataTexture(paletteTexels(colors), colors.length, 1, THREE.RGBAFormat, THREE.UnsignedByteType));
  uniforms.uShardCount.value = starts.length - 1;
}

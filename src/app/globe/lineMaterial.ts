/** The material of the scene's lines (Hilbert curve, coastlines, the search's circle and covering, fan-out, requests): its canvas's shared uniforms plus a few of its own. */
import * as THREE from 'three';
import { LINE_VERTEX, LINE_FRAGMENT } from './shaders';
import type { SceneUniforms } from './uniforms';
import type { SegmentArrays } from './typedArrays';

export interface LineStyle {
  /** Height above the surface (unit-sphere radii), so lines draw over it. */
  lift: number;
  /** sRGB color when not colored by shard. */
  color: [number, number, number];
  /** Color each segment by the shard of its ordinal attribute. */
  byShard: boolean;
  alpha: number;
}

/** lineMaterial returns a new line material reading a canvas's uniforms (useUniforms); the caller disposes it. */
export function lineMaterial(uniforms: SceneUniforms, style: LineStyle): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: {
      ...uniforms,
      uLift: { value: style.lift },
      uColor: { value: new THREE.Vector3(...style.color) },
      uByShard: { value: style.byShard ? 1 : 0 },
      uAlpha: { value: style.alpha },
    },
    vertexShader: LINE_VERTEX,
    fragmentShader: LINE_FRAGMENT,
    transparent: true,
    depthWrite: false,
  });
}

/** The per-vertex buffers the line shader reads (SegmentArrays and the covering's CellBuffers have them). */
export type LineBuffers = Pick<SegmentArrays, 'xyz' | 'll' | 'other' | 'otherXyz' | 'ordinal'>;

/** The line shader's attributes and the buffer behind each, with its size. */
const LINE_ATTRIBUTES: [name: string, key: keyof LineBuffers, size: number][] = [
  ['position', 'xyz', 3],
  ['aLL', 'll', 2],
  ['aOther', 'other', 2],
  ['aOtherXYZ', 'otherXyz', 3],
  ['aOrd', 'ordinal', 1],
];

/**
 * lineGeometry wraps line-shader buffers in a geometry with fixed bounds:
 * position = the unit vector. `vertices` limits the draw range (default: all);
 * `dynamic` marks the buffers as rewritten in place.
 */
export function lineGeometry(b: LineBuffers, opts: { vertices?: number; dynamic?: boolean } = {}): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  for (const [name, key, size] of LINE_ATTRIBUTES) {
    const a = new THREE.BufferAttribute(b[key], size);
    g.setAttribute(name, opts.dynamic ? a.setUsage(THREE.DynamicDrawUsage) : a);
  }
  if (opts.vertices !== undefined) g.setDrawRange(0, opts.vertices);
  return withFixedBounds(g);
}

/** segmentGeometry wraps segment arrays (globe/typedArrays.ts) in a geometry: position = the unit vector. */
export function segmentGeometry(s: SegmentArrays): THREE.BufferGeometry {
  return lineGeometry(s);
}

/**
 * withFixedBounds gives a geometry whose `position` holds shader parameters (not positions)
 * bounds that contain every layout, so three.js never derives bounds from it.
 */
export function withFixedBounds(g: THREE.BufferGeometry): THREE.BufferGeometry {
  g.boundingSphere = new THREE.Sphere(new THREE.Vector3(), 100);
  g.boundingBox = new THREE.Box3(new THREE.Vector3(-100, -100, -100), new THREE.Vector3(100, 100, 100));
  return g;
}

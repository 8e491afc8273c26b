/** The material of the scene's lines (Hilbert curve, coastlines): shared uniforms plus a few of its own. */
import * as THREE from 'three';
import { LINE_VERTEX, LINE_FRAGMENT } from './shaders';
import { uniforms } from './uniforms';
import type { SegmentArrays } from './typedArrays';

export interface LineStyle {
  /** Height above the surface (unit-sphere radii), so lines draw over it. */
  lift: number;
  /** sRGB colour when not coloured by shard. */
  color: [number, number, number];
  /** Colour each segment by the shard of its ordinal attribute. */
  byShard: boolean;
  alpha: number;
}

/** lineMaterial returns a new line material; the caller disposes it. */
export function lineMaterial(style: LineStyle): THREE.ShaderMaterial {
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

/** segmentGeometry wraps segment arrays (globe/typedArrays.ts) in a geometry: position = the unit vector. */
export function segmentGeometry(s: SegmentArrays): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(s.xyz, 3));
  g.setAttribute('aLL', new THREE.BufferAttribute(s.ll, 2));
  g.setAttribute('aOther', new THREE.BufferAttribute(s.other, 2));
  g.setAttribute('aOtherXYZ', new THREE.BufferAttribute(s.otherXyz, 3));
  g.setAttribute('aOrd', new THREE.BufferAttribute(s.ordinal, 1));
  return withFixedBounds(g);
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

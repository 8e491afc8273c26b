/**
 * SearchVeil: while a search circle is shown, a translucent layer of the page
 * background over the shard surface (under the covering, the coastlines and
 * the curve), so the covering's cells stand out in their shards' colors
 * and the rest of the map recedes: asked lit, the others dimmed, as in the
 * shard bar. A disc the size of the globe, or a plane the size of the map;
 * hidden mid-morph and on the cube net (their outlines are not simple shapes;
 * the covering still draws there).
 */
import { useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import { useUniforms, type SceneUniforms } from '../globe/uniforms';

/** How far the veil fades the surface toward the background, 0..1. */
const VEIL_ALPHA = 0.5;

const VERTEX = /* glsl */ `
uniform vec2 uCenter;
uniform float uMapMode;
void main() {
  // The map plane moves with the map's centre latitude (uCenter.x); the disc sits at the origin.
  vec2 p = position.xy - vec2(0.0, uMapMode * uCenter.x);
  gl_Position = projectionMatrix * viewMatrix * vec4(p, 0.0, 1.0);
}
`;

const FRAGMENT = /* glsl */ `
uniform vec3 uBg;
uniform float uAlpha;
void main() {
  gl_FragColor = vec4(uBg, uAlpha);
}
`;

function veilMaterial(uniforms: SceneUniforms, mapMode: boolean): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { uCenter: uniforms.uCenter, uBg: uniforms.uBg, uAlpha: { value: VEIL_ALPHA }, uMapMode: { value: mapMode ? 1 : 0 } },
    vertexShader: VERTEX,
    fragmentShader: FRAGMENT,
    transparent: true,
    depthTest: false,
    depthWrite: false,
  });
}

export function SearchVeil() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const disc = useRef<THREE.Mesh>(null);
  const plane = useRef<THREE.Mesh>(null);
  const parts = useMemo(
    () => ({
      disc: { geometry: new THREE.CircleGeometry(1, 192), material: veilMaterial(uniforms, false) },
      plane: { geometry: new THREE.PlaneGeometry(2 * Math.PI, Math.PI), material: veilMaterial(uniforms, true) },
    }),
    [],
  );
  useFrame(() => {
    const s = appStore.getState();
    const on = !!s.searchCentre && !s.noLocation && !!s.covering;
    const v = frame.view;
    if (disc.current) disc.current.visible = on && v.morph === 0;
    if (plane.current) plane.current.visible = on && v.morph === 1 && v.flat === 'map';
  });
  return (
    <>
      <mesh ref={disc} geometry={parts.disc.geometry} material={parts.disc.material} frustumCulled={false} visible={false} renderOrder={0.5} />
      <mesh ref={plane} geometry={parts.plane.geometry} material={parts.plane.material} frustumCulled={false} visible={false} renderOrder={0.5} />
    </>
  );
}

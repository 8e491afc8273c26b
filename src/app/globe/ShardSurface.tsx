/**
 * ShardSurface: the globe's surface, colored per pixel by the shard that owns
 * the level-10 cell under it (see SURFACE_FRAGMENT and globe/s2glsl.ts for why a
 * shader). Two meshes share one set of uniforms: a latitude/longitude grid
 * that morphs into the equirectangular map, and six face patches that morph
 * into the unfolded cube. Only the one for the current flat layout is drawn.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useFrame } from '@react-three/fiber';
import * as THREE from 'three';
import { latLngGrid, cubePatches, type SurfaceArrays } from './typedArrays';
import { SURFACE_VERTEX, SURFACE_FRAGMENT } from './shaders';
import { useUniforms, setShardData, type SceneUniforms } from './uniforms';
import { withFixedBounds } from './lineMaterial';
import type { RGB } from '../shell/palette';
import { useAppStore } from '../shell/store';

export interface ShardSurfaceProps {
  /** Range starts by shard (ShardTable.starts). */
  starts: Int32Array;
  /** Colors by shard, key order. */
  colors: RGB[];
}

function surfaceGeometry(a: SurfaceArrays): THREE.BufferGeometry {
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(a.params, 3));
  g.setIndex(new THREE.BufferAttribute(a.index, 1));
  return withFixedBounds(g);
}

/**
 * Both surfaces use one shader program (a uniform, not a define, tells them apart), so
 * flattening into the net never compiles a program mid-animation.
 */
function surfaceMaterial(uniforms: SceneUniforms, net: boolean): THREE.ShaderMaterial {
  return new THREE.ShaderMaterial({
    uniforms: { ...uniforms, uSurfaceNet: { value: net ? 1 : 0 } },
    vertexShader: SURFACE_VERTEX,
    fragmentShader: SURFACE_FRAGMENT,
    side: THREE.DoubleSide,
  });
}

export function ShardSurface({ starts, colors }: ShardSurfaceProps) {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const uniforms = useUniforms();
  const mapMesh = useRef<THREE.Mesh>(null);
  const netMesh = useRef<THREE.Mesh>(null);
  const parts = useMemo(
    () => ({
      map: { geometry: surfaceGeometry(latLngGrid(180, 90)), material: surfaceMaterial(uniforms, false) },
      net: { geometry: surfaceGeometry(cubePatches(48)), material: surfaceMaterial(uniforms, true) },
    }),
    [uniforms],
  );
  useEffect(() => () => Object.values(parts).forEach((p) => (p.geometry.dispose(), p.material.dispose())), [parts]);
  useMemo(() => setShardData(uniforms, starts, colors), [uniforms, starts, colors]);

  useFrame(() => {
    if (mapMesh.current) mapMesh.current.visible = frame.view.flat === 'map';
    if (netMesh.current) netMesh.current.visible = frame.view.flat === 'net';
  });

  return (
    <>
      <mesh ref={mapMesh} geometry={parts.map.geometry} material={parts.map.material} frustumCulled={false} renderOrder={0} />
      <mesh ref={netMesh} geometry={parts.net.geometry} material={parts.net.material} frustumCulled={false} renderOrder={0} visible={false} />
    </>
  );
}

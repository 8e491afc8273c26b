/**
 * Coastlines: Natural Earth's 1:50m land outlines (world-atlas), decoded in
 * the worker and drawn as one set of line segments over the shard colours.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import landUrl from 'world-atlas/land-50m.json?url';
import { appStore, useApp } from '../shell/store';
import { loadLand } from './geometryClient';
import { lineMaterial, segmentGeometry, withFixedBounds } from './lineMaterial';
import { markLoaded } from './frame';

const emptyGeometry = withFixedBounds(new THREE.BufferGeometry());

export function Coastlines() {
  const frame = appStore.getState().frame;
  const on = useApp((s) => s.layers.land);
  const ref = useRef<THREE.LineSegments>(null);
  const loaded = useRef(false);
  const land = useRef<THREE.BufferGeometry | null>(null);
  useEffect(() => () => land.current?.dispose(), []);
  const material = useMemo(() => lineMaterial({ lift: 0.002, color: [0.05, 0.07, 0.12], byShard: false, alpha: 0.85 }), []);
  useEffect(() => () => material.dispose(), [material]);

  useEffect(() => {
    if (!on || loaded.current) {
      if (ref.current) ref.current.visible = on && loaded.current;
      return;
    }
    loaded.current = true;
    loadLand(landUrl).then((segs) => {
      if (!ref.current) return;
      land.current = segmentGeometry(segs);
      ref.current.geometry = land.current;
      ref.current.visible = appStore.getState().layers.land;
      markLoaded(frame, 'land');
    });
  }, [on]);

  return <lineSegments ref={ref} material={material} geometry={emptyGeometry} frustumCulled={false} visible={false} renderOrder={1} />;
}


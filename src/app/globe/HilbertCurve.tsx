/**
 * HilbertCurve: the curve through the centres of the chosen level's cells in
 * key order (levels above 7 draw the level-7 curve), colored by shard. The
 * segments come from the worker; geometries are kept per level, so going back
 * to a level swaps a geometry and uploads nothing.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { useApp } from '../shell/store';
import { hilbertCurve } from './geometryWorker';
import { lineMaterial, segmentGeometry, withFixedBounds } from './lineMaterial';
import { useUniforms } from './uniforms';

/** The finest level the curve is drawn at (98,304 cells). */
export const MAX_CURVE_LEVEL = 7;

const geometries = new Map<number, THREE.BufferGeometry>();

const emptyGeometry = withFixedBounds(new THREE.BufferGeometry());

export function HilbertCurve() {
  const uniforms = useUniforms();
  const frame = useApp((st) => st.frame);
  const on = useApp((s) => s.layers.hilbert);
  const level = useApp((s) => Math.min(s.level, MAX_CURVE_LEVEL));
  const ref = useRef<THREE.LineSegments>(null);
  const material = useMemo(() => lineMaterial(uniforms, { lift: 0.004, color: [1, 1, 1], byShard: true, alpha: 1 }), []);
  useEffect(() => () => material.dispose(), [material]);

  useEffect(() => {
    if (!on) return;
    let live = true;
    const show = (g: THREE.BufferGeometry) => {
      if (!live || !ref.current) return;
      ref.current.geometry = g;
      ref.current.visible = true;
      frame.invalidate();
    };
    const cached = geometries.get(level);
    if (cached) show(cached);
    else
      hilbertCurve(level).then((segs) => {
        const g = segmentGeometry(segs);
        geometries.set(level, g);
        show(g);
      });
    return () => {
      live = false;
    };
  }, [on, level]);

  useEffect(() => {
    if (ref.current && !on) ref.current.visible = false;
  }, [on]);

  return <lineSegments ref={ref} material={material} geometry={emptyGeometry} frustumCulled={false} visible={false} renderOrder={2} />;
}

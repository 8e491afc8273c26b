/**
 * PastedCell: the S2 cell pasted into the search box (searchSlice `pastedCell`, any level),
 * drawn as a bright outline over the covering with the scene's line shader, so it follows the
 * globe, the map and the net. Rebuilt only when the pasted cell changes; renders no React.
 * Test hook: body[data-pasted-cell] is the token outlined (empty for none).
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import { lineGeometry, lineMaterial, withFixedBounds } from '../globe/lineMaterial';
import { useUniforms } from '../globe/uniforms';
import { parseAnyToken } from '../../core/anyCell';
import { cellOutlineSegments } from './pastedCellGeometry';

/** Amber, apart from the circle's white and every shard color's fill under it. */
const OUTLINE: [number, number, number] = [1, 0.78, 0.1];

export function PastedCell() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const ref = useRef<THREE.LineSegments>(null);
  const material = useMemo(() => lineMaterial(uniforms, { lift: 0.001, color: OUTLINE, byShard: false, alpha: 1 }), []);
  const empty = useMemo(() => withFixedBounds(new THREE.BufferGeometry()), []);
  useEffect(() => () => material.dispose(), [material]);
  useEffect(() => {
    const show = (token: string | null) => {
      const lines = ref.current;
      if (!lines) return;
      if (lines.geometry !== empty) lines.geometry.dispose();
      lines.geometry = token ? lineGeometry(cellOutlineSegments(parseAnyToken(token).id)) : empty;
      lines.visible = !!token;
      // Test hook: the cell outlined now (empty for none).
      document.body.dataset.pastedCell = token ?? '';
      frame.invalidate();
    };
    const pick = (s: ReturnType<typeof appStore.getState>) => s.pastedCell?.token ?? null;
    show(pick(appStore.getState()));
    return appStore.subscribe(pick, show);
  }, []);
  return <lineSegments ref={ref} material={material} geometry={empty} frustumCulled={false} visible={false} renderOrder={3.5} />;
}

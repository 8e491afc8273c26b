/**
 * CoveringCells: the current search's covering, every level-10 cell filled
 * with its shard's colour and outlined: one mesh and one set of line
 * segments for all cells (a 100-mile covering has ~1,250 cells), drawn with
 * the scene's line shader so they follow the globe, the map and the net.
 * Buffers are allocated with room to spare and updated in place when a new
 * covering arrives (at most one per animation frame, see search/search.ts);
 * nothing here re-renders React.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import type { SearchCovering } from './searchSlice';
import { lineGeometry, lineMaterial, withFixedBounds } from '../globe/lineMaterial';
import { useUniforms } from '../globe/uniforms';
import { cellBuffers, writeCells, capacityFor, FILL_VERTS, OUTLINE_VERTS, type CellBuffers } from '../globe/coveringGeometry';

/** Heights above the surface (unit-sphere radii): fills just above it, outlines above the fills. */
const FILL_LIFT = 0.0004;
const OUTLINE_LIFT = 0.0006;

function geometryOf(b: CellBuffers): THREE.BufferGeometry {
  return lineGeometry(b, { vertices: 0, dynamic: true });
}

/** Marks the first `vertices` vertices of every attribute for upload. */
function touch(g: THREE.BufferGeometry, vertices: number): void {
  for (const a of Object.values(g.attributes) as THREE.BufferAttribute[]) {
    a.clearUpdateRanges();
    a.addUpdateRange(0, vertices * a.itemSize);
    a.needsUpdate = true;
  }
  g.setDrawRange(0, vertices);
}

export function CoveringCells() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const fillRef = useRef<THREE.Mesh>(null);
  const lineRef = useRef<THREE.LineSegments>(null);
  const materials = useMemo(
    () => ({
      // Both windings: a cell's triangles face either way once projected.
      fill: Object.assign(lineMaterial(uniforms, { lift: FILL_LIFT, color: [1, 1, 1], byShard: true, alpha: 0.94 }), { side: THREE.DoubleSide }),
      line: lineMaterial(uniforms, { lift: OUTLINE_LIFT, color: [0.03, 0.04, 0.07], byShard: false, alpha: 0.55 }),
    }),
    [],
  );
  useEffect(() => () => Object.values(materials).forEach((m) => m.dispose()), [materials]);
  const empty = useMemo(() => ({ fill: withFixedBounds(new THREE.BufferGeometry()), line: withFixedBounds(new THREE.BufferGeometry()) }), []);

  useEffect(() => {
    let capacity = 0;
    let fill: CellBuffers | null = null;
    let outline: CellBuffers | null = null;
    let shown: SearchCovering | null | undefined;
    const show = (c: SearchCovering | null) => {
      if (c === shown) return;
      shown = c;
      const fillMesh = fillRef.current;
      const lines = lineRef.current;
      if (!fillMesh || !lines) return;
      if (!c) {
        fillMesh.visible = lines.visible = false;
        frame.invalidate();
        return;
      }
      const n = c.ordinals.length;
      if (n > capacity || !fill || !outline) {
        // Grow: new buffers (a GPU buffer cannot grow in place); the old geometries are freed.
        capacity = capacityFor(n);
        fill = cellBuffers(capacity, FILL_VERTS);
        outline = cellBuffers(capacity, OUTLINE_VERTS);
        fillMesh.geometry.dispose();
        lines.geometry.dispose();
        fillMesh.geometry = geometryOf(fill);
        lines.geometry = geometryOf(outline);
      }
      writeCells(c.corners, c.ordinals, fill, outline);
      touch(fillMesh.geometry, n * FILL_VERTS);
      touch(lines.geometry, n * OUTLINE_VERTS);
      fillMesh.visible = lines.visible = n > 0;
      frame.invalidate();
    };
    const pick = (s: ReturnType<typeof appStore.getState>) => (s.noLocation || !s.searchCentre ? null : s.covering);
    show(pick(appStore.getState()));
    return appStore.subscribe(pick, show);
  }, []);

  return (
    <>
      <mesh ref={fillRef} material={materials.fill} geometry={empty.fill} frustumCulled={false} visible={false} renderOrder={0.6} />
      <lineSegments ref={lineRef} material={materials.line} geometry={empty.line} frustumCulled={false} visible={false} renderOrder={0.7} />
    </>
  );
}

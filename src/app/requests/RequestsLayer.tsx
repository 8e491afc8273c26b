/**
 * RequestsLayer: the Requests layer in the scene (issue 15): every level-10
 * cell a workload's searches cover, filled with its rate bucket's colour
 * (requests.ts; a grey-violet lightness scale apart from the shard palette),
 * and the cells of the hot ranges outlined. Drawn as FanoutMap draws its
 * buckets: one mesh per bucket and one set of line segments, with the
 * scene's line shader, so the layer follows the globe, the map, the net and
 * the morph between them as the covering does. Geometry is rebuilt only when
 * the workload, the hot ranges or the file change; the layer toggle sets
 * `visible`. Nothing here re-renders React.
 *
 * Test hook on <body>: data-requests-drawn = "<buckets> <hot cells>" once the
 * layer's geometry for the shown workload and hot ranges is in place.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import type { AppState } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { lineGeometry, lineMaterial, withFixedBounds } from '../globe/lineMaterial';
import { useUniforms } from '../globe/uniforms';
import { cellBuffers, writeCells, FILL_VERTS, OUTLINE_VERTS } from '../globe/coveringGeometry';
import { bucketCells, hotCells, HOT_RGB, type BucketCells } from './requests';
import { shallow } from 'zustand/shallow';

/** Heights above the surface (unit-sphere radii): over the shards and the fan-out map, under the covering (0.0004). */
const FILL_LIFT = 0.0003;
const OUTLINE_LIFT = 0.00035;


function fillGeometry(c: BucketCells): THREE.BufferGeometry {
  const n = c.ordinals.length;
  const fill = cellBuffers(n, FILL_VERTS);
  writeCells(c.corners, c.ordinals, fill, null);
  return lineGeometry(fill, { vertices: n * FILL_VERTS });
}

function outlineGeometry(c: BucketCells): THREE.BufferGeometry {
  const n = c.ordinals.length;
  // writeCells always writes a fill too: a scratch one, dropped.
  const outline = cellBuffers(n, OUTLINE_VERTS);
  const scratch = cellBuffers(n, FILL_VERTS);
  writeCells(c.corners, c.ordinals, scratch, outline);
  return lineGeometry(outline, { vertices: n * OUTLINE_VERTS });
}

type Inputs = Pick<AppState, 'requestWorkload' | 'requestHotspots' | 'data'>;
const inputsOf = (s: AppState): Inputs => ({ requestWorkload: s.requestWorkload, requestHotspots: s.requestHotspots, data: s.data });

export function RequestsLayer() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const group = useRef<THREE.Group>(null);
  const hot = useRef<THREE.LineSegments>(null);
  const empty = useMemo(() => withFixedBounds(new THREE.BufferGeometry()), []);
  const hotMaterial = useMemo(() => lineMaterial(uniforms, { lift: OUTLINE_LIFT, color: HOT_RGB, byShard: false, alpha: 1 }), []);
  const fills = useRef<{ meshes: THREE.Mesh[]; materials: THREE.ShaderMaterial[] }>({ meshes: [], materials: [] });

  useEffect(() => {
    const clear = () => {
      const g = group.current;
      for (const m of fills.current.meshes) {
        g?.remove(m);
        m.geometry.dispose();
      }
      fills.current.materials.forEach((m) => m.dispose());
      fills.current = { meshes: [], materials: [] };
    };
    let shown: Inputs | null = null;
    const show = (s: AppState) => {
      const inputs = inputsOf(s);
      if (shown && shallow(inputs, shown)) return;
      const workloadChanged = !shown || shown.requestWorkload !== inputs.requestWorkload;
      shown = inputs;
      const w = s.requestWorkload;
      const g = group.current;
      if (!g || !hot.current) return;
      if (workloadChanged) {
        clear();
        if (w) {
          const cells = bucketCells(w.ordinals, w.rates, w.corners, w.scale);
          cells.forEach((c, b) => {
            if (c.ordinals.length === 0) return;
            const material = Object.assign(lineMaterial(uniforms, { lift: FILL_LIFT, color: w.scale.colors[b], byShard: false, alpha: 1 }), { side: THREE.DoubleSide });
            const mesh = new THREE.Mesh(fillGeometry(c), material);
            mesh.frustumCulled = false;
            mesh.renderOrder = 0.57;
            fills.current.meshes.push(mesh);
            fills.current.materials.push(material);
            g.add(mesh);
          });
        }
      }
      const data = readyData(s);
      const h = s.requestHotspots;
      if (hot.current.geometry !== empty) hot.current.geometry.dispose();
      let hotCount = 0;
      if (w && data && h && h.hash === data.file.hash && h.hotspots.length > 0) {
        const c = hotCells(w.ordinals, w.corners, (o) => data.router.indexOfOrdinal(o), new Set(h.hotspots.map((x) => x.index)));
        hotCount = c.ordinals.length;
        hot.current.geometry = hotCount > 0 ? outlineGeometry(c) : empty;
      } else hot.current.geometry = empty;
      if (w) document.body.dataset.requestsDrawn = `${fills.current.meshes.length} ${h && data && h.hash === data.file.hash ? hotCount : '-'}`;
      else delete document.body.dataset.requestsDrawn;
      frame.invalidate();
    };
    const visible = (on: boolean) => {
      if (group.current) group.current.visible = on;
      frame.invalidate();
    };
    show(appStore.getState());
    visible(appStore.getState().layers.requests);
    const unsubscribe = appStore.subscribe(inputsOf, () => show(appStore.getState()), { equalityFn: shallow });
    const unsubscribeLayer = appStore.subscribe((s) => s.layers.requests, visible);
    return () => {
      unsubscribe();
      unsubscribeLayer();
      clear();
      hotMaterial.dispose();
      delete document.body.dataset.requestsDrawn;
    };
  }, [empty, hotMaterial]);

  return (
    <group ref={group} visible={false}>
      <lineSegments ref={hot} material={hotMaterial} geometry={empty} frustumCulled={false} renderOrder={0.58} />
    </group>
  );
}

/**
 * FanoutMap: the fan-out map layer: where a search of the current radius
 * would ask 2, 3 or 4+ shards, over the world grid and, when zoomed in, the
 * finer grid of the view (fanout/fanoutLayer.ts computes both in a worker).
 *
 * Drawn as geometry rather than as a texture sampled in a shader: each
 * pixel (runs of equal pixels merged) is a quad placed with float64 unit
 * vectors by the scene's line shader, so the layer follows the globe, the
 * map, the net and the morph between them exactly as the covering does,
 * with no per-pixel inverse projection (and the GPU's imprecise trig) to
 * duplicate for each layout. Pixels asking one shard are not drawn.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import { lineGeometry, lineMaterial, withFixedBounds } from '../globe/lineMaterial';
import { useUniforms } from '../globe/uniforms';
import { FANOUT_COLORS } from './fanoutColors';
import type { FanoutState } from './fanoutSlice';
import { useAppStore } from '../shell/store';
import { fanoutQuads, type BucketQuads } from './fanoutGeometry';
import { FILL_VERTS } from '../globe/coveringGeometry';

function geometryOf(q: BucketQuads): THREE.BufferGeometry {
  return lineGeometry(q.buffers, { vertices: q.quads * FILL_VERTS });
}

export function FanoutMap() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const world = useRef<(THREE.Mesh | null)[]>([]);
  const detail = useRef<(THREE.Mesh | null)[]>([]);
  const materials = useMemo(
    () => FANOUT_COLORS.slice(1).map((c) => Object.assign(lineMaterial(uniforms, { lift: 0.0002, color: c.rgb, byShard: false, alpha: c.alpha }), { side: THREE.DoubleSide })),
    [],
  );
  const empty = useMemo(() => withFixedBounds(new THREE.BufferGeometry()), []);
  useEffect(() => () => materials.forEach((m) => m.dispose()), [materials]);

  useEffect(() => {
    let shown: { world: unknown; detail: unknown } = { world: undefined, detail: undefined };
    const put = (meshes: (THREE.Mesh | null)[], quads: BucketQuads[] | null) => {
      meshes.forEach((m, b) => {
        if (!m) return;
        if (m.geometry !== empty) m.geometry.dispose();
        m.geometry = quads && quads[b].quads > 0 ? geometryOf(quads[b]) : empty;
        m.visible = m.geometry !== empty;
      });
    };
    const show = (f: FanoutState) => {
      if (f.world === shown.world && f.detail === shown.detail) return;
      shown = { world: f.world, detail: f.detail };
      const d = f.detail && f.detail.radiusKm === f.radiusKm ? f.detail : null;
      put(world.current, f.world ? fanoutQuads(f.world.grid, f.world.counts, d?.grid ?? null) : null);
      put(detail.current, d ? fanoutQuads(d.grid, d.counts) : null);
      frame.invalidate();
      // Test and benchmark hook: what the map now draws (radius, the view's grid or null, pixels per bucket) and how many times it was rebuilt.
      const b = document.body.dataset;
      b.fanoutDrawn = JSON.stringify({ radiusKm: f.radiusKm, view: d ? d.grid : null, viewPixels: d ? d.pixels : null, worldPixels: f.world ? f.world.pixels : null });
      b.fanoutDraws = String(Number(b.fanoutDraws ?? 0) + 1);
    };
    show(appStore.getState().fanoutLayer);
    return appStore.subscribe((s) => s.fanoutLayer, show);
  }, [empty]);

  return (
    <>
      {materials.map((m, b) => (
        <mesh key={`w${b}`} ref={(el) => void (world.current[b] = el)} material={m} geometry={empty} frustumCulled={false} visible={false} renderOrder={0.55} />
      ))}
      {materials.map((m, b) => (
        <mesh key={`d${b}`} ref={(el) => void (detail.current[b] = el)} material={m} geometry={empty} frustumCulled={false} visible={false} renderOrder={0.56} />
      ))}
    </>
  );
}

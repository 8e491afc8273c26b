/**
 * Coastlines: the basemap, with level of detail by zoom (basemap.ts): Natural Earth's 1:50m land
 * outlines (world-atlas) at every zoom; country and US state borders from BORDERS_ZOOM; from
 * DETAIL_ZOOM, the 1:10m outlines and the US lake shores of a region around the view in place of
 * the 1:50m ones. Every file is fetched (never bundled) when its tier is first shown, and decoded
 * and cut in the geometry worker, so the main thread only swaps geometries.
 */
import { useEffect, useMemo, useRef } from 'react';
import * as THREE from 'three';
import landUrl from 'world-atlas/land-50m.json?url';
import land10Url from 'world-atlas/land-10m.json?url';
import countriesUrl from 'world-atlas/countries-50m.json?url';
import statesUrl from 'us-atlas/states-10m.json?url';
import { useAppStore } from '../shell/store';
import { loadLand, loadBorders, loadDetail } from './geometryWorker';
import { lineMaterial, segmentGeometry, withFixedBounds } from './lineMaterial';
import { useUniforms } from './uniforms';
import { markLoaded } from './frame';
import { pixelsPerUnit } from './view';
import { BORDERS_ZOOM, DETAIL_ZOOM, needsRegion, regionFor, viewRadiusDeg, type Region } from './basemap';
import type { SegmentArrays } from './typedArrays';

const emptyGeometry = withFixedBounds(new THREE.BufferGeometry());

export function Coastlines() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const world = useRef<THREE.LineSegments>(null);
  const borders = useRef<THREE.LineSegments>(null);
  const detail = useRef<THREE.LineSegments>(null);
  const materials = useMemo(
    () => ({
      coast: lineMaterial(uniforms, { lift: 0.002, color: [0.05, 0.07, 0.12], byShard: false, alpha: 0.85 }),
      borders: lineMaterial(uniforms, { lift: 0.0019, color: [0.12, 0.14, 0.2], byShard: false, alpha: 0.5 }),
    }),
    [],
  );
  useEffect(() => () => (materials.coast.dispose(), materials.borders.dispose()), [materials]);

  useEffect(() => {
    // What is loaded or on its way, and the region of detail drawn (or asked).
    const st = { world: false, worldShown: false, borders: false, bordersShown: false, region: null as Region | null, asking: false, detailShown: false };
    const geometries: THREE.BufferGeometry[] = [];
    const swap = (ref: React.RefObject<THREE.LineSegments | null>, segs: SegmentArrays) => {
      if (!ref.current) return;
      const g = segmentGeometry(segs);
      const old = ref.current.geometry;
      ref.current.geometry = g;
      if (old !== emptyGeometry) old.dispose();
      geometries.push(g);
    };
    const update = () => {
      const s = appStore.getState();
      const v = frame.view;
      const show = s.layers.land;
      const viewDeg = viewRadiusDeg(v.width, v.height, pixelsPerUnit({ ...v, zoom: s.zoom }));
      const wantDetail = show && s.zoom >= DETAIL_ZOOM;
      const wantBorders = show && s.zoom >= BORDERS_ZOOM;
      if (show && !st.world) {
        st.world = true;
        void loadLand(landUrl).then((segs) => {
          swap(world, segs);
          st.worldShown = true;
          update();
          markLoaded(frame, 'land');
        });
      }
      if (wantBorders && !st.borders) {
        st.borders = true;
        void loadBorders(countriesUrl, statesUrl).then((segs) => {
          swap(borders, segs);
          st.bordersShown = true;
          update();
          markLoaded(frame, 'borders');
        });
      }
      if (wantDetail && !st.asking && needsRegion(st.region, s.camera.lat, s.camera.lng, viewDeg)) {
        const r = regionFor(s.camera.lat, s.camera.lng, viewDeg);
        st.asking = true;
        void loadDetail(land10Url, statesUrl, r.lat, r.lng, r.radiusDeg)
          .then((segs) => {
            swap(detail, segs);
            st.region = r;
            st.detailShown = true;
            markLoaded(frame, 'detail');
          })
          .finally(() => {
            st.asking = false;
            update();
          });
      }
      const detailOn = wantDetail && st.detailShown;
      if (world.current) world.current.visible = show && st.worldShown && !detailOn;
      if (borders.current) borders.current.visible = wantBorders && st.bordersShown;
      if (detail.current) detail.current.visible = detailOn;
      frame.invalidate();
    };
    update();
    // Checked when the land layer or a tier changes, and at detail zoom when the view moved by
    // about a fortieth of its width or zoomed by a fourth of a doubling.
    const unsubscribe = appStore.subscribe(
      (s) => [s.layers.land, s.zoom >= BORDERS_ZOOM, s.zoom >= DETAIL_ZOOM ? `${Math.round(Math.log2(s.zoom) * 4)} ${Math.round((s.camera.lat * s.zoom) / 30)} ${Math.round((s.camera.lng * s.zoom) / 30)}` : ''] as const,
      update,
      { equalityFn: (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] },
    );
    return () => {
      unsubscribe();
      for (const g of geometries) g.dispose();
    };
  }, [frame]);

  return (
    <>
      <lineSegments ref={world} material={materials.coast} geometry={emptyGeometry} frustumCulled={false} visible={false} renderOrder={1} />
      <lineSegments ref={borders} material={materials.borders} geometry={emptyGeometry} frustumCulled={false} visible={false} renderOrder={1} />
      <lineSegments ref={detail} material={materials.coast} geometry={emptyGeometry} frustumCulled={false} visible={false} renderOrder={1} />
    </>
  );
}

/**
 * SearchCircle: the search circle (great-circle distance = radius, the
 * covering's own model) as a closed line over the covering, and a pin on its
 * centre (a DOM element placed every frame). Follows the slider at once,
 * from the store, without waiting for the covering; rebuilt only when the
 * centre or radius changes, in place.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import * as THREE from 'three';
import { useAppStore } from '../shell/store';
import { lineGeometry, lineMaterial } from '../globe/lineMaterial';
import { useUniforms } from '../globe/uniforms';
import { circleOutline } from './searchGeometry';
import { projectLatLng } from '../globe/view';
import { takePendingFit } from './search';
import '../ui/radius.css';

/** Points on the circle: smooth at any zoom the circle fits in. */
const POINTS = 360;

export function SearchCircle() {
  const appStore = useAppStore();
  const uniforms = useUniforms();
  const frame = appStore.getState().frame;
  const ref = useRef<THREE.LineSegments>(null);
  const el = useThree((s) => s.gl.domElement);
  const pin = useRef<HTMLDivElement | null>(null);
  const parts = useMemo(() => {
    // One segment per pair of neighbouring points, in the line shader's layout (lineMaterial.ts).
    const points = new Float32Array(2 * POINTS);
    const b = { xyz: new Float32Array(6 * POINTS), ll: new Float32Array(4 * POINTS), other: new Float32Array(4 * POINTS), otherXyz: new Float32Array(6 * POINTS) };
    return { points, b, geometry: lineGeometry({ ...b, ordinal: new Float32Array(2 * POINTS) }, { dynamic: true }), material: lineMaterial(uniforms, { lift: 0.0009, color: [1, 1, 1], byShard: false, alpha: 0.95 }), key: '' };
  }, []);
  useEffect(() => () => (parts.geometry.dispose(), parts.material.dispose()), [parts]);

  useEffect(() => {
    const div = document.createElement('div');
    div.className = 'search-pin';
    div.setAttribute('aria-hidden', 'true');
    div.dataset.testid = 'search-pin';
    el.parentElement?.appendChild(div);
    pin.current = div;
    return () => div.remove();
  }, [el]);

  useFrame(() => {
    const s = appStore.getState();
    takePendingFit(appStore);
    const c = s.searchCentre;
    const on = !!c && !s.noLocation;
    if (ref.current) ref.current.visible = on;
    if (pin.current) pin.current.style.display = 'none';
    if (!c || !on) return;
    const km = s.searchRadius.km;
    const key = `${c.lat},${c.lng},${km}`;
    if (key !== parts.key) {
      parts.key = key;
      const pts = circleOutline(c.lat, c.lng, km, POINTS, parts.points);
      const { b } = parts;
      const unit = (i: number, out: Float32Array, at: number) => {
        const cl = Math.cos(pts[2 * i]);
        out[at] = cl * Math.cos(pts[2 * i + 1]);
        out[at + 1] = cl * Math.sin(pts[2 * i + 1]);
        out[at + 2] = Math.sin(pts[2 * i]);
      };
      for (let i = 0; i < POINTS; i++) {
        const j = (i + 1) % POINTS;
        b.ll.set([pts[2 * i], pts[2 * i + 1], pts[2 * j], pts[2 * j + 1]], 4 * i);
        b.other.set([pts[2 * j], pts[2 * j + 1], pts[2 * i], pts[2 * i + 1]], 4 * i);
        unit(i, b.xyz, 6 * i);
        unit(j, b.xyz, 6 * i + 3);
        unit(j, b.otherXyz, 6 * i);
        unit(i, b.otherXyz, 6 * i + 3);
      }
      for (const name of ['position', 'aLL', 'aOther', 'aOtherXYZ']) parts.geometry.getAttribute(name).needsUpdate = true;
    }
    const p = projectLatLng(frame.view, c.lat, c.lng);
    if (pin.current && p.visible) {
      pin.current.style.display = 'block';
      pin.current.style.transform = `translate(${p.x.toFixed(1)}px, ${p.y.toFixed(1)}px)`;
    }
  });

  return <lineSegments ref={ref} geometry={parts.geometry} material={parts.material} frustumCulled={false} visible={false} renderOrder={3} />;
}

/**
 * FrameDriver advances everything that moves (spin, inertia, glides, the
 * flatten morph), writes its canvas's uniforms (the view, the layers, the
 * region paint and the moving ranges from the store) and the camera once per frame,
 * draws the label overlay, and announces readiness after the first frame.
 * It renders nothing. Frames are drawn on demand: a store change or a running
 * animation asks for the next one.
 */
import { useEffect, useRef } from 'react';
import { useFrame, useThree } from '@react-three/fiber';
import type { OrthographicCamera } from 'three';
import { useAppStore } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { panBy } from './frame';
import { useUniforms } from './uniforms';
import { writeMovingRanges, writeRegionPaint, type RegionPaint } from './regionPaint';
import { rotation, pixelsPerUnit, netCentreOf, clampFlatCentre, unprojectScreen } from './view';
import { drawLabels } from './labels';
import { hoverAt, viewKey } from './hover';

const RAD = Math.PI / 180;
const MORPH_MS = 900;
const FLY_MS = 800;
const SPIN_DEG_PER_S = 4;
const ease = (t: number) => t * t * (3 - 2 * t);

export interface FrameDriverProps {
  /** The canvas that labels are drawn on (sized like the WebGL canvas). */
  labels: React.RefObject<HTMLCanvasElement | null>;
}

export function FrameDriver({ labels }: FrameDriverProps) {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const uniforms = useUniforms();
  /** The region paint uploaded last (undefined: none yet). */
  const paintShown = useRef<RegionPaint | null | undefined>(undefined);
  const invalidate = useThree((s) => s.invalidate);
  useEffect(() => {
    frame.invalidate = invalidate;
    const unsubscribe = appStore.subscribe(() => invalidate());
    return unsubscribe;
  }, [invalidate]);

  useFrame((state, delta) => {
    const s = appStore.getState();
    const data = readyData(s);
    if (!data) return;
    const dtMs = Math.min(100, delta * 1000);
    const now = performance.now();
    // Time since the previous frame if it was part of the same motion, else one nominal frame.
    const elapsedMs = frame.wasMoving ? Math.min(1000, now - frame.lastFrameAt) : 16;
    frame.lastFrameAt = now;
    let moving = false;
    const v = frame.view;
    v.width = state.size.width;
    v.height = state.size.height;

    // Flatten: morph back to the globe before switching between map and net.
    const wantFlat = s.flatten === 'globe' ? v.flat : s.flatten;
    if (frame.morphT === 0 && wantFlat !== v.flat) {
      v.flat = wantFlat;
      if (v.flat === 'net') frame.netWanted = netCentreOf(s.camera.lat, s.camera.lng);
    }
    const target = s.flatten === 'globe' || wantFlat !== v.flat ? 0 : 1;
    if (!frame.started) {
      // A link that opens flat starts flat, with no morph.
      frame.started = true;
      frame.morphT = target;
    }
    if (frame.morphT !== target) {
      // Wall-clock time, so the morph takes the same time however slow the frames are.
      const step = elapsedMs / MORPH_MS;
      frame.morphT = target > frame.morphT ? Math.min(target, frame.morphT + step) : Math.max(target, frame.morphT - step);
      moving = true;
    }
    v.morph = ease(frame.morphT);

    // Glide to a point.
    if (s.flyTarget) {
      const to = s.flyTarget;
      frame.fly = { from: { lat: s.camera.lat, lng: s.camera.lng, net: [...v.net] }, to: { ...to, net: netCentreOf(to.lat, to.lng) }, t0: now };
      frame.velocity = [0, 0];
      appStore.setState({ flyTarget: null });
    }
    if (frame.fly) {
      const { from, to, t0 } = frame.fly;
      const t = Math.min(1, (now - t0) / FLY_MS);
      const e = ease(t);
      const dLng = ((((to.lng - from.lng) % 360) + 540) % 360) - 180;
      s.setCamera(from.lat + (to.lat - from.lat) * e, from.lng + dLng * e);
      frame.netWanted = [from.net[0] + (to.net[0] - from.net[0]) * e, from.net[1] + (to.net[1] - from.net[1]) * e];
      if (t >= 1) frame.fly = null;
      moving = true;
    }

    // Inertia after a drag; slow spin on the globe.
    if (!frame.dragging && !frame.fly && Math.hypot(frame.velocity[0], frame.velocity[1]) > 0.005) {
      const [vx, vy] = frame.velocity;
      panBy(appStore.getState(), vx * dtMs, vy * dtMs);
      const decay = Math.exp(-dtMs / 320);
      frame.velocity = [vx * decay, vy * decay];
      moving = true;
    }
    const cam = appStore.getState().camera;
    if (s.layers.spin && !frame.dragging && !frame.fly && v.morph === 0) {
      s.setCamera(cam.lat, cam.lng + SPIN_DEG_PER_S * (dtMs / 1000));
      moving = true;
    }

    // The view geometry of this frame.
    const c = appStore.getState().camera;
    v.lat = c.lat;
    v.lng = c.lng;
    v.zoom = s.zoom;
    const flat = clampFlatCentre(v, c.lat, frame.netWanted);
    v.mapLat = flat.mapLat;
    v.net = flat.net;

    // Uniforms.
    const m = rotation(v.lat, v.lng);
    uniforms.uRot.value.set(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
    uniforms.uRotT.value.set(m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]);
    uniforms.uMorph.value = v.morph;
    uniforms.uFlat.value = v.flat === 'map' ? 0 : 1;
    uniforms.uCenter.value.set(v.mapLat * RAD, v.lng * RAD);
    uniforms.uCenterTrig.value.set(Math.cos(v.mapLat * RAD), Math.sin(v.mapLat * RAD), Math.cos(v.lng * RAD), Math.sin(v.lng * RAD));
    uniforms.uNetCenter.value.set(v.net[0], v.net[1]);
    uniforms.uLevel.value = s.level;
    uniforms.uShowShards.value = s.layers.shards ? 1 : 0;
    uniforms.uShowGrid.value = s.layers.grid ? 1 : 0;
    uniforms.uHilbertOn.value = s.layers.hilbert ? 1 : 0;
    uniforms.uHighlight.value = s.highlight;
    uniforms.uBrush.value.set(s.brush ? s.brush[0] : -1, s.brush ? s.brush[1] : -1);
    // The region paint (uploaded when it changes) and the moving ranges; their drivers put them in the store.
    if (s.regionPaint !== paintShown.current) {
      writeRegionPaint(uniforms, s.regionPaint);
      paintShown.current = s.regionPaint;
    }
    writeMovingRanges(uniforms, s.movingRanges);

    // Keep the readout true under a still pointer whenever the view changed (a glide, spin,
    // inertia, but also a wheel zoom, a key press or a resize, which are not animations).
    const hoverView = viewKey(v);
    if (hoverView !== frame.hoverView) {
      frame.hoverView = hoverView;
      if (frame.pointer.inside && !frame.dragging) s.setHover(hoverAt(data.router, unprojectScreen(v, frame.pointer.x, frame.pointer.y)));
    }
    const hover = appStore.getState().hover;
    uniforms.uHoverCell.value = hover ? hover.ordinal >> (2 * (10 - s.level)) : -1;

    const camera = state.camera as OrthographicCamera;
    const ppu = pixelsPerUnit(v);
    if (camera.zoom !== ppu || camera.position.z !== 10) {
      camera.zoom = ppu;
      camera.position.set(0, 0, 10);
      camera.near = 0.1;
      camera.far = 100;
      camera.updateProjectionMatrix();
    }

    drawLabels(labels.current, v, s.layers.labels ? s.cities : [], data.router, data.colors);
    // The shader maps gl_FragCoord to the view with these.
    const buffer = state.gl.getDrawingBufferSize(uniforms.uBuffer.value);
    uniforms.uPxPerUnit.value.set((ppu * buffer.x) / v.width, (ppu * buffer.y) / v.height);
    frame.wasMoving = moving || frame.dragging;
    if (moving) invalidate();
    // Hooks for tests and scripted demos, set once the frame is drawn (right after this callback):
    // ready after the first frame; view = the settled layout; frame = frames drawn so far;
    // loaded = the late parts (cells, cities, land) drawn so far.
    const settled = frame.morphT === 0 ? 'globe' : frame.morphT === 1 ? v.flat : 'morphing';
    frame.count++;
    const count = frame.count;
    const arrived = frame.arrived.splice(0);
    setTimeout(() => {
      const d = document.body.dataset;
      if (arrived.length) d.loaded = [...new Set([...(d.loaded ?? '').split(' ').filter(Boolean), ...arrived])].sort().join(' ');
      if (d.ready !== 'true') {
        d.ready = 'true';
        performance.mark('geoshard-ready');
        // Compile the materials not drawn yet (cube net, curve, search layers) in the
        // background now, rather than stalling the main thread when they are first shown; in a
        // task of its own, after what the frame's microtasks show (shell/lazy.ts afterFirstFrame).
        setTimeout(() => void state.gl.compileAsync(state.scene, state.camera), 0);
      }
      if (d.view !== settled) d.view = settled;
      d.frame = String(count);
    }, 0);
  });
  return null;
}

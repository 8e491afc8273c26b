/**
 * PointerControls: drag to rotate (globe) or pan (map, net) with inertia,
 * wheel and pinch to zoom, double-click to glide to a point, arrow keys and
 * +/−, and the hover readout. Listeners write the store and the per-frame
 * state directly; nothing here causes a React render. Renders nothing.
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { useAppStore } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { panBy } from './frame';
import { unprojectScreen } from './view';
import { hoverAt } from './hover';
import { listen } from '../shell/listen';

export function PointerControls() {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);

  useEffect(() => {
    const pointers = new Map<number, { x: number; y: number }>();
    let last = { x: 0, y: 0, t: 0 };
    let moved = 0;
    let pinch = 0;
    const local = (e: { clientX: number; clientY: number }) => {
      const r = el.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const updateHover = (x: number, y: number) => {
      const data = readyData(appStore.getState());
      if (!data) return;
      appStore.getState().setHover(hoverAt(data.router, unprojectScreen(frame.view, x, y)));
    };
    const pinchDistance = () => {
      const [a, b] = [...pointers.values()];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };

    const down = (e: PointerEvent) => {
      if (e.button !== 0) return;
      el.setPointerCapture(e.pointerId);
      el.focus({ preventScroll: true });
      const p = local(e);
      pointers.set(e.pointerId, p);
      frame.dragging = true;
      frame.fly = null;
      frame.velocity = [0, 0];
      last = { ...p, t: performance.now() };
      moved = 0;
      if (pointers.size === 2) pinch = pinchDistance();
    };
    const move = (e: PointerEvent) => {
      const p = local(e);
      frame.pointer = { ...p, inside: true };
      if (!pointers.has(e.pointerId)) return updateHover(p.x, p.y);
      pointers.set(e.pointerId, p);
      if (pointers.size === 2) {
        const d = pinchDistance();
        if (pinch > 0 && d > 0) appStore.getState().zoomBy(d / pinch);
        pinch = d;
        return;
      }
      const now = performance.now();
      const dx = p.x - last.x;
      const dy = p.y - last.y;
      moved += Math.abs(dx) + Math.abs(dy);
      if (moved > 3 && appStore.getState().layers.spin) appStore.getState().setLayer('spin', false);
      panBy(appStore.getState(), dx, dy);
      const dt = Math.max(1, now - last.t);
      // Smoothed velocity, so a flick keeps its speed after release.
      frame.velocity = [0.6 * (dx / dt) + 0.4 * frame.velocity[0], 0.6 * (dy / dt) + 0.4 * frame.velocity[1]];
      last = { ...p, t: now };
    };
    const up = (e: PointerEvent) => {
      if (!pointers.delete(e.pointerId)) return;
      if (pointers.size === 0) {
        frame.dragging = false;
        if (performance.now() - last.t > 80) frame.velocity = [0, 0];
        frame.invalidate();
      }
      pinch = pointers.size === 2 ? pinchDistance() : 0;
    };
    const leave = () => {
      frame.pointer.inside = false;
      if (!frame.dragging) appStore.getState().setHover(null);
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const px = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaMode === 2 ? e.deltaY * 400 : e.deltaY;
      appStore.getState().zoomBy(Math.exp(-px * 0.0015));
    };
    const dblclick = (e: MouseEvent) => {
      const p = local(e);
      const ll = unprojectScreen(frame.view, p.x, p.y);
      if (ll) appStore.getState().flyTo(ll.lat, ll.lng);
    };
    const key = (e: KeyboardEvent) => {
      const s = appStore.getState();
      const step = 60;
      const actions: Record<string, () => void> = {
        ArrowLeft: () => panBy(appStore.getState(), step, 0),
        ArrowRight: () => panBy(appStore.getState(), -step, 0),
        ArrowUp: () => panBy(appStore.getState(), 0, step),
        ArrowDown: () => panBy(appStore.getState(), 0, -step),
        '+': () => s.zoomBy(1.25),
        '=': () => s.zoomBy(1.25),
        '-': () => s.zoomBy(0.8),
      };
      const act = actions[e.key];
      if (!act) return;
      e.preventDefault();
      s.setLayer('spin', false);
      act();
    };

    el.tabIndex = 0;
    el.setAttribute('aria-label', 'Shard globe: drag to rotate, wheel to zoom, double-click to centre, arrow keys to move');
    return listen(el, { pointerdown: down, pointermove: move, pointerup: up, pointercancel: up, pointerleave: leave, wheel, dblclick, keydown: key }, { wheel: { passive: false } });
  }, [el]);
  return null;
}

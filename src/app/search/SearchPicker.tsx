/**
 * SearchPicker: while the radius panel is open, a click on the globe (or the
 * map, or the net) makes the point under it the search centre. A click is a
 * press and release within CLICK_PX and CLICK_MS, so dragging to rotate never
 * picks; it is acted on after DOUBLE_MS unless a second press follows, so a
 * double-click still just centres the view. Renders nothing.
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { appStore } from '../shell/store';
import { unprojectScreen } from '../globe/view';
import { chooseCentre, clickPicks } from './search';
import { formatLatLng } from '../shell/format';

/** Largest pointer travel (CSS px) and press length (ms) that still count as a click. */
const CLICK_PX = 4;
const CLICK_MS = 500;
/** How long to wait for the second click of a double-click (ms). */
const DOUBLE_MS = 280;

export function SearchPicker() {
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);
  useEffect(() => {
    let press: { x: number; y: number; t: number; id: number } | null = null;
    let pending: ReturnType<typeof setTimeout> | null = null;
    const local = (e: PointerEvent) => {
      const r = el.getBoundingClientRect();
      return { x: e.clientX - r.left, y: e.clientY - r.top };
    };
    const down = (e: PointerEvent) => {
      if (pending) {
        // The second press of a double-click: leave it to the double-click.
        clearTimeout(pending);
        pending = null;
        press = null;
        return;
      }
      press = e.button === 0 && e.isPrimary ? { ...local(e), t: performance.now(), id: e.pointerId } : null;
    };
    const up = (e: PointerEvent) => {
      const p = press;
      press = null;
      if (!p || p.id !== e.pointerId || !clickPicks(appStore.getState())) return;
      const q = local(e);
      if (Math.hypot(q.x - p.x, q.y - p.y) > CLICK_PX || performance.now() - p.t > CLICK_MS) return;
      pending = setTimeout(() => {
        pending = null;
        const ll = unprojectScreen(frame.view, q.x, q.y);
        if (ll) chooseCentre(appStore, ll.lat, ll.lng, formatLatLng(ll.lat, ll.lng));
      }, DOUBLE_MS);
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointerup', up);
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointerup', up);
      if (pending) clearTimeout(pending);
    };
  }, [el]);
  return null;
}

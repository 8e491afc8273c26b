/**
 * listenClicks: the globe's one notion of a click, for every feature that
 * picks a point (the radius search's centre, Write mode's restaurant). A
 * click is a primary-button press and release within CLICK_PX and CLICK_MS,
 * so dragging to rotate never picks; it is acted on after DOUBLE_MS unless a
 * second press follows, so a double-click still just centres the view.
 */
import type { ViewGeometry } from './view';
import { unprojectScreen } from './view';

/** Largest pointer travel (CSS px) and press length (ms) that still count as a click. */
export const CLICK_PX = 4;
export const CLICK_MS = 500;
/** How long to wait for the second click of a double-click (ms). */
export const DOUBLE_MS = 280;

/**
 * listenClicks calls `onPoint(lat, lng)` (degrees) for each click on `el`
 * that lands on the globe (or the map, or the net) while `wanted()` is true,
 * unprojecting with the view `view()` returns at that moment. Returns the
 * function that removes the listeners (and drops a click still waiting).
 */
export function listenClicks(el: HTMLElement, view: () => ViewGeometry, wanted: () => boolean, onPoint: (lat: number, lng: number) => void): () => void {
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
    if (!p || p.id !== e.pointerId || !wanted()) return;
    const q = local(e);
    if (Math.hypot(q.x - p.x, q.y - p.y) > CLICK_PX || performance.now() - p.t > CLICK_MS) return;
    pending = setTimeout(() => {
      pending = null;
      const ll = unprojectScreen(view(), q.x, q.y);
      if (ll) onPoint(ll.lat, ll.lng);
    }, DOUBLE_MS);
  };
  el.addEventListener('pointerdown', down);
  el.addEventListener('pointerup', up);
  return () => {
    el.removeEventListener('pointerdown', down);
    el.removeEventListener('pointerup', up);
    if (pending) clearTimeout(pending);
  };
}

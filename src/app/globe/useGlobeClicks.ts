/**
 * useGlobeClicks: inside the globe's canvas, calls `onPoint` with the point
 * under a click (globe/clicks.ts: a drag never clicks, a double-click centres
 * the view) while `wanted()` says so. The one way a feature picks points on
 * the globe (the radius search's centre, Write mode's restaurant).
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { useAppStore } from '../shell/store';
import { listenClicks } from './clicks';

export function useGlobeClicks(wanted: () => boolean, onPoint: (lat: number, lng: number) => void): void {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);
  // The callbacks read the store when a click comes, so the listener is set once per canvas.
  useEffect(() => listenClicks(el, () => frame.view, wanted, onPoint), [el, frame]);
}

/**
 * WritePicker: while Write mode is on (writing(s)), a click on the globe (or
 * the map, or the net) places a restaurant draft at the point under it
 * (globe/clicks.ts: a drag never places, a double-click centres the view).
 * Renders nothing.
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { appStore } from '../shell/store';
import { listenClicks } from '../globe/clicks';
import { writing } from './availability';
import { placeAt } from './writeActions';

export function WritePicker() {
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);
  useEffect(
    () =>
      listenClicks(
        el,
        () => frame.view,
        () => writing(appStore.getState()),
        (lat, lng) => placeAt(appStore, lat, lng),
      ),
    [el, frame],
  );
  return null;
}

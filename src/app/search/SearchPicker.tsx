/**
 * SearchPicker: while the radius panel is open, a click on the globe (or the
 * map, or the net) makes the point under it the search centre (a click as
 * globe/clicks.ts defines it: a drag never picks, a double-click centres the
 * view). Renders nothing.
 */
import { useEffect } from 'react';
import { useThree } from '@react-three/fiber';
import { appStore } from '../shell/store';
import { listenClicks } from '../globe/clicks';
import { chooseCentre, clickPicks } from './search';
import { formatLatLng } from '../shell/format';

export function SearchPicker() {
  const frame = appStore.getState().frame;
  const el = useThree((s) => s.gl.domElement);
  useEffect(
    () =>
      listenClicks(
        el,
        () => frame.view,
        () => clickPicks(appStore.getState()),
        (lat, lng) => chooseCentre(appStore, lat, lng, formatLatLng(lat, lng)),
      ),
    [el, frame],
  );
  return null;
}

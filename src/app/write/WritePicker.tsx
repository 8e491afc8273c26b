/**
 * WritePicker: while Write mode is on (writing(s)), a click on the globe (or
 * the map, or the net) places a restaurant draft at the point under it
 * (globe/clicks.ts: a drag never places, a double-click centres the view).
 * Renders nothing.
 */
import { useAppStore } from '../shell/store';
import { useGlobeClicks } from '../globe/useGlobeClicks';
import { writing } from './availability';
import { placeAt } from './writeActions';

export function WritePicker() {
  const appStore = useAppStore();
  useGlobeClicks(
    () => writing(appStore.getState()),
    (lat, lng) => placeAt(appStore, lat, lng),
  );
  return null;
}

/**
 * SearchPicker: while the radius panel is open, a click on the globe (or the
 * map, or the net) makes the point under it the search centre (a click as
 * globe/clicks.ts defines it: a drag never picks, a double-click centres the
 * view). Renders nothing.
 */
import { useAppStore } from '../shell/store';
import { useGlobeClicks } from '../globe/useGlobeClicks';
import { chooseCentre, clickPicks } from './search';
import { formatLatLng } from '../shell/format';

export function SearchPicker() {
  const appStore = useAppStore();
  useGlobeClicks(
    () => clickPicks(appStore.getState()),
    (lat, lng) => chooseCentre(appStore, lat, lng, formatLatLng(lat, lng)),
  );
  return null;
}

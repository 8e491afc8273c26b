/** flyToShard glides the view to a shard's heaviest cell (or the middle of its range before the cells file has loaded). */
import type { AppStore } from './types';
import { readyData } from './dataSlice';
import { cellCenter, cellFromOrdinal } from '../../core/index';

export function flyToShard(store: AppStore, index: number): void {
  const s = store.getState();
  const data = readyData(s);
  if (!data) return;
  const lo = data.router.starts[index];
  const hi = data.router.starts[index + 1];
  let best = Math.floor((lo + hi) / 2);
  if (s.cells) {
    let w = -1;
    const { ordinals, weights } = s.cells;
    for (let k = 0; k < ordinals.length; k++) {
      if (ordinals[k] >= lo && ordinals[k] < hi && weights[k] > w) [w, best] = [weights[k], ordinals[k]];
    }
  }
  const c = cellCenter(cellFromOrdinal(best));
  s.flyTo(c.lat, c.lng);
}

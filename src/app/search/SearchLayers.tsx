/**
 * SearchLayers: the radius explorer's parts of the scene, in drawing order
 * after the shard surface: the veil that dims what the search does not ask,
 * the fan-out map, the covering's cells, the circle with its centre pin, and
 * click-to-pick. GlobeCanvas mounts this once, after FrameDriver (whose frame
 * callback must run first).
 */
import { SearchVeil } from './SearchVeil';
import { FanoutMap } from '../fanout/FanoutMap';
import { CoveringCells } from './CoveringCells';
import { SearchCircle } from './SearchCircle';
import { SearchPicker } from './SearchPicker';

export function SearchLayers() {
  return (
    <>
      <SearchVeil />
      <FanoutMap />
      <CoveringCells />
      <SearchCircle />
      <SearchPicker />
    </>
  );
}

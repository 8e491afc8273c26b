/**
 * CoveringCells: the current search's covering, every level-10 cell filled
 * with its shard's color and outlined, drawn by the kit's cell layer
 * (globe/CellLayer.tsx), which owns the buffers (a 100-mile covering has
 * ~1,250 cells; they grow in place) and draws each new covering (at most one
 * per animation frame, see search/search.ts) without a React render.
 */
import type { AppState } from '../shell/types';
import { useWatched } from '../shell/store';
import { CellLayer, type CellLayerStyle } from '../globe/CellLayer';
import type { SearchCovering } from './searchSlice';

/** The covering drawn: none without a circle. */
const shown = (s: AppState): SearchCovering | null => (s.noLocation || !s.searchCentre ? null : s.covering);

/** Fills just above the surface in their shard's color; dark outlines above the fills (heights in unit-sphere radii). */
const STYLE: CellLayerStyle<SearchCovering> = {
  getCells: (c) => c,
  fill: { color: 'shard', opacity: 0.94, lift: 0.0004, renderOrder: 0.6 },
  outline: { color: [0.03, 0.04, 0.07], opacity: 0.55, lift: 0.0006, renderOrder: 0.7 },
};

export function CoveringCells() {
  const covering = useWatched(shown);
  return <CellLayer data={covering} {...STYLE} />;
}

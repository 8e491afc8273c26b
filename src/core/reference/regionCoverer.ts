/**
 * The reference covering: S2's RegionCoverer (s2js) with minLevel = maxLevel
 * = 10 and no cell limit, of the cap a circle is covered with (cover.ts
 * coveringCap: the circle padded by ENGINE_PAD_DEG). Tests compare the core's walk (Router.cover,
 * Router.shardsAsked) against it; nothing else uses it, and it is not part of
 * the public entry (too slow for production: about 11 s at 1,000 km).
 */
import { s2 } from 's2js';
import { LEVEL, type CellId } from '../cells.ts';
import { coveringCap } from '../cover.ts';

/** regionCovererCells returns the RegionCoverer's level-10 covering of a circle's padded cap (coveringCap), ascending cell ids. Preconditions as circleCap. */
export function regionCovererCells(lat: number, lng: number, radiusKm: number): CellId[] {
  const cap = coveringCap(lat, lng, radiusKm);
  const coverer = new s2.RegionCoverer({ minLevel: LEVEL, maxLevel: LEVEL, maxCells: Number.MAX_SAFE_INTEGER });
  const cells = [...coverer.covering(cap)];
  cells.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return cells;
}

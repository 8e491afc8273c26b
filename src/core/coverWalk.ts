/**
 * The one walk that answers "which level-10 cells and shards does this circle
 * touch": a top-down walk of the cell hierarchy over the circle's S2 cap.
 *
 * The cap is the circle grown by ENGINE_PAD_DEG (cover.ts coveringCap: what
 * the engine can match, as the plugin covers it). The walk yields exactly the
 * covering S2's RegionCoverer gives for that cap with minLevel = maxLevel = 10
 * and no cell limit (the reference in reference/regionCoverer.ts, compared on
 * seeded random circles in tests), in time linear in the number of
 * cells. Why not the RegionCoverer itself: s2js's coverer grows faster than its
 * output (about 20 ms at 100 miles, 11 s at the 1,000 km maximum, Node 20),
 * too slow for an explorer that lets people type any radius. The walk uses the
 * same cap and the same cap-cell tests (s2js Cap.intersectsCell / containsCell)
 * and starts, like the coverer, from the cells bounding the cap; what it saves
 * is the candidate queue and the per-cell test inside regions the cap wholly
 * contains. A caller that only needs the shard set can also stop descending
 * early (see CapVisitor.settle).
 *
 * Internal: the public verbs are Router.cover and Router.shardsAsked.
 */
import { s2 } from 's2js';
import { ordinalRange, LEVEL, type CellId } from './cells.ts';
import { coveringCap } from './cover.ts';

/** What a walk does with the cells it meets. Ordinals are level-10 curve ordinals, ranges inclusive. */
export interface CapVisitor {
  /**
   * settle is asked about every cell that meets the cap, before its
   * containment is tested; returning true ends the walk below that cell
   * (the visitor has learnt all it needs from [first, last]).
   */
  settle(first: number, last: number): boolean;
  /** take receives a run [first, last] of ordinals that all lie in the covering. */
  take(first: number, last: number): void;
}

/**
 * walkCircle walks the level-10 covering of the circle of radiusKm around
 * (lat, lng), padded (coveringCap). lat in [-90, 90], lng finite, radiusKm in (0, MAX_RADIUS_KM];
 * throws the core's RangeError naming the value otherwise. Runs may arrive
 * out of order and, where two bounding cells share a level-10 parent, twice.
 */
export function walkCircle(lat: number, lng: number, radiusKm: number, v: CapVisitor): void {
  const cap = coveringCap(lat, lng, radiusKm);
  const visit = (id: CellId): void => {
    const cell = s2.Cell.fromCellID(id);
    if (!cap.intersectsCell(cell)) return;
    const [first, last] = ordinalRange(id);
    if (v.settle(first, last)) return;
    // A level-10 cell that meets the cap is in the covering; so is every level-10 cell below one the cap contains.
    if (s2.cellid.level(id) === LEVEL || cap.containsCell(cell)) return v.take(first, last);
    for (const child of s2.cellid.children(id)) visit(child);
  };
  const starts = new Set<CellId>();
  const bound = cap.cellUnionBound();
  for (const id of bound.length > 0 ? bound : [0, 1, 2, 3, 4, 5].map((f) => s2.cellid.fromFace(f))) starts.add(s2.cellid.level(id) > LEVEL ? s2.cellid.parent(id, LEVEL) : id);
  for (const id of starts) visit(id);
}

/**
 * coverOrdinals returns the level-10 covering of a circle as ascending,
 * distinct curve ordinals. Preconditions as walkCircle.
 */
export function coverOrdinals(lat: number, lng: number, radiusKm: number): Int32Array {
  const out: number[] = [];
  walkCircle(lat, lng, radiusKm, {
    settle: () => false,
    take: (first, last) => {
      for (let o = first; o <= last; o++) out.push(o);
    },
  });
  const ordinals = Int32Array.from(out).sort();
  let n = 0;
  for (let k = 0; k < ordinals.length; k++) if (k === 0 || ordinals[k] !== ordinals[k - 1]) ordinals[n++] = ordinals[k];
  return ordinals.slice(0, n);
}

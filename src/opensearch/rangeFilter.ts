/**
 * Which documents of an index are in a range of the curve, as a query the
 * cluster answers: the one place geoshard selects "the documents of cells
 * [start, end)" for an index of any shape. Used by `geoshard migrate` (the
 * copy, the per-document checks and the delete of one owner's copy of a
 * range: src/ops/migrate/cutover.ts) and by searches while a range is moved (the
 * other owner's copy is excluded: search.ts routedRequest and the live API).
 *
 * An index stamped with the sample's `cell` field (a level-10 token, keyword)
 * is filtered by a keyword range on it. Any other index is filtered by a
 * Painless script query (RANGE_SCRIPT) that computes each document's
 * level-10 cell from the fields its routing pipeline reads, with the same S2
 * (painless.ts PAINLESS_S2): so the cluster's answer is the core's
 * (ordinalAt) for every point, and the team's documents need no extra field.
 * A script query runs per document the query's other filters leave, so the
 * script comes with a prefilter the index answers from its BKD tree: the
 * range is cut into the fewest S2 cells (levels 0–10) whose union it is
 * (rangeCells), and each cell's latitude/longitude bounding box (s2js
 * Cell.rectBound, which contains every point of the cell), padded by 1e-6°,
 * becomes a geo_bounding_box on the located fields. The boxes hold every
 * document of the range; the script then keeps exactly those.
 *
 * Pure TypeScript (no Node types).
 */
import { s2 } from 's2js';
import { CELL_COUNT, LEVEL, cellFromOrdinal, cellOrdinal, parseToken, type CellId } from '../core/cells.ts';
import { PAINLESS_S2 } from './painless.ts';

/** A range of the curve: [start, end) level-10 tokens (end null: the end of the curve). */
export interface CellRange {
  start: string;
  end: string | null;
}

/**
 * The fields a range is read from: `location`, the geo_point of a parent or
 * of a flat index's document; `childLocation`, a join child's copy of its
 * parent's point (null: no join); `stamp`, the documents carry the sample's
 * `cell` token (and `shard`). The routing pipeline's PipelineFields.
 */
export interface RangeFields {
  location: string;
  childLocation: string | null;
  stamp: boolean;
}

/**
 * The range filter of an unstamped index: true when the document's level-10
 * ordinal is in [params.lo, params.hi). The document is located as the
 * routing pipeline locates it: by `params.location`, else by `params.child`
 * (null: no join); a document with neither is in no range. The point is read
 * from doc values (s2QuantizedOrdinal); a doc value whose centimetre box
 * straddles a cell edge, or a field holding several points, is read exactly
 * from `_source` (its first point).
 */
export const RANGE_SCRIPT = `${PAINLESS_S2}
String f = params.location;
if (!doc.containsKey(f) || doc[f].size() == 0) {
  f = params.child;
  if (f == null || !doc.containsKey(f) || doc[f].size() == 0) return false;
}
def g = doc[f];
int o = -1;
if (g.size() == 1) o = s2QuantizedOrdinal(g.getLat(), g.getLon());
if (o < 0) {
  double[] p = s2SourcePoint(s2At(params._source, f));
  if (p == null) return false;
  o = s2Ordinal(p[0], p[1]);
}
return o >= params.lo && o < params.hi;`;

/** ordinalsOf returns a range as level-10 curve ordinals [lo, hi), hi at most CELL_COUNT. Throws RangeError for a token that is not a level-10 cell. */
export function ordinalsOf(r: CellRange): { lo: number; hi: number } {
  return { lo: cellOrdinal(parseToken(r.start, 'start')), hi: r.end === null ? CELL_COUNT : cellOrdinal(parseToken(r.end, 'end')) };
}

/**
 * rangeCells returns the fewest S2 cells (levels 0 to 10) whose level-10
 * descendants are exactly the ordinals [lo, hi) (0 <= lo <= hi <= CELL_COUNT):
 * a block of 4^k ordinals aligned on 4^k is one cell of level 10 - k. At most
 * about 6 + 2 · 3 · 10 cells.
 */
export function rangeCells(lo: number, hi: number): CellId[] {
  const out: CellId[] = [];
  for (let o = lo; o < hi; ) {
    let k = 0;
    while (k < LEVEL && o % 4 ** (k + 1) === 0 && o + 4 ** (k + 1) <= hi) k++;
    out.push(s2.cellid.parent(cellFromOrdinal(o), LEVEL - k));
    o += 4 ** k;
  }
  return out;
}

/** A latitude/longitude box in degrees; `west > east` when it crosses the antimeridian. */
export interface LatLngBox {
  south: number;
  west: number;
  north: number;
  east: number;
}

/** The padding of a cell's box, degrees: well above geo_point's quantization (~1e-7°). */
const BOX_PAD = 1e-6;

/** cellBox returns a cell's bounding box (s2js Cell.rectBound: it contains every point of the cell), padded by BOX_PAD. */
export function cellBox(id: CellId): LatLngBox {
  const r = s2.Cell.fromCellID(id).rectBound();
  const deg = 180 / Math.PI;
  const south = Math.max(-90, r.lat.lo * deg - BOX_PAD);
  const north = Math.min(90, r.lat.hi * deg + BOX_PAD);
  if (r.lng.isFull() || south <= -90 || north >= 90) return { south, west: -180, north, east: 180 };
  const wrap = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  return { south, west: wrap(r.lng.lo * deg - BOX_PAD), north, east: wrap(r.lng.hi * deg + BOX_PAD) };
}

/** The prefilter of a range on geo_point fields: a document with a point of one of them in one of the range's cell boxes. */
function boxesOf(fields: readonly string[], r: CellRange): Record<string, unknown> {
  const { lo, hi } = ordinalsOf(r);
  const boxes = rangeCells(lo, hi).map(cellBox);
  const should = fields.flatMap((f) => boxes.map((b) => ({ geo_bounding_box: { [f]: { top_left: { lat: b.north, lon: b.west }, bottom_right: { lat: b.south, lon: b.east } } } })));
  return { bool: { should, minimum_should_match: 1 } };
}

/**
 * cellRangeFilter returns the filter of the documents located in a range:
 * a keyword range on `cell` for a stamped index (which holds the parents'
 * cells only: the sample's dishes are found through has_parent), else the
 * script query over `location` and `childLocation` (parents and children alike),
 * behind the cells' boxes.
 */
export function cellRangeFilter(fields: RangeFields, r: CellRange): Record<string, unknown> {
  if (fields.stamp) return { range: { cell: r.end === null ? { gte: r.start } : { gte: r.start, lt: r.end } } };
  const script = { script: { script: { lang: 'painless', source: RANGE_SCRIPT, params: { location: fields.location, child: fields.childLocation, ...ordinalsOf(r) } } } };
  return { bool: { filter: [boxesOf([fields.location, ...(fields.childLocation ? [fields.childLocation] : [])], r), script] } };
}

/**
 * exclusionFilters returns the must_not clauses that leave out the copies of
 * moving ranges that are not their read copy (Router.readExclusions: the
 * routing whose copy to leave out, and the range): every document with that
 * `_routing` located in the range (cellRangeFilter; `stamp` absent: an
 * unstamped index, whose documents are located by their points). On a
 * stamped index (the sample) that is its parents: the caller leaves out their
 * children through has_parent.
 */
export function exclusionFilters(fields: Omit<RangeFields, 'stamp'> & { stamp?: boolean }, exclusions: readonly (CellRange & { routing: string })[]): Record<string, unknown>[] {
  return exclusions.map((e) => ({ bool: { filter: [{ term: { _routing: e.routing } }, cellRangeFilter({ ...fields, stamp: fields.stamp ?? false }, e)] } }));
}

/**
 * Which documents of an index are in a range of the curve, as a query the
 * cluster answers: the one place geoshard selects "the documents of cells
 * [start, end)" for an index of any shape. Used by `geoshard migrate` (the
 * copy, the per-document checks and the delete of one owner's copy of a
 * range: src/ops/migrate/cutover.ts) and by searches while a range is moved (the
 * other owner's copy is excluded: search.ts routedRequest, the live API, and
 * the plugin's geo_routing_search, whose jar holds RANGE_SCRIPT generated
 * from here by scripts/plugin-fixtures.ts).
 *
 * An index stamped with the sample's `cell` field (a level-10 token, keyword)
 * is filtered by a keyword range on it. Any other index is filtered by a
 * Painless script (RANGE_SCRIPT) that computes each document's level-10 cell
 * from the fields its routing pipeline reads, with the same S2 (painless.ts
 * PAINLESS_S2): so the cluster's answer is the pipeline's for every point,
 * and the team's documents need no extra field.
 *
 * Which cell a document is in was decided when it was written: the routing
 * pipeline read the exact point from `_source`. The index stores the point
 * rounded down to ~1 cm (geo_point doc values), so a doc value decides the
 * cell only when its centimetre box lies in one cell; a point on or within
 * ~1 cm of a cell edge (a cell corner, say) must be read from `_source` as
 * the pipeline read it. A `script` query cannot do that (its script sees
 * `doc` only: params._source is absent on 2.19 and 3.8), so the script runs
 * as a `script_score` query with `min_score` 1 (its script sees `doc` and
 * `params._source`, and returns 1 for a document of the range, else 0),
 * wrapped in a `constant_score` (whose inner query is always weighed with
 * boost 1, so a boost of 0 around the filter cannot zero the script's score
 * below min_score). The script reads `_source` only for those few
 * ambiguous documents.
 *
 * A script runs per document the query's other filters leave, so the
 * script_score's inner query is a prefilter the index answers from its BKD
 * tree: the range is cut into the fewest S2 cells (levels 0–10) whose union
 * it is (rangeCells), and each cell's latitude/longitude bounding box (s2js
 * Cell.rectBound, which contains every point of the cell), padded by 1e-6°,
 * becomes a geo_bounding_box on the located fields. The boxes hold every
 * document of the range (a stored point is within 1e-7° of its exact one);
 * the script then keeps exactly those.
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
 * The range script of an unstamped index, a `script_score` script: 1 when the
 * document's level-10 ordinal is in [params.lo, params.hi), else 0. The
 * document is located as the routing pipeline locates it: by
 * `params.location`, else by `params.child` (null: no join); a document with
 * neither is in no range. The point is read from doc values
 * (s2QuantizedOrdinal) when its centimetre box lies in one cell; otherwise
 * (a point on or within ~1 cm of a cell edge), or when the field holds
 * several points, the exact point is read from `_source` (its first point),
 * as the pipeline read it when it placed the document. A `_source` without a
 * readable point there (disabled, or the field excluded from it) leaves the
 * stored point's own cell: the same answer for every copy of the document,
 * so the copy, the checks, the delete and the exclusions of a move agree.
 */
export const RANGE_SCRIPT = `${PAINLESS_S2}
String f = params.location;
if (!doc.containsKey(f) || doc[f].size() == 0) {
  f = params.child;
  if (f == null || !doc.containsKey(f) || doc[f].size() == 0) return 0.0;
}
def g = doc[f];
int o = g.size() == 1 ? s2QuantizedOrdinal(g.getLat(), g.getLon()) : -1;
if (o < 0) {
  double[] p = s2SourcePoint(s2At(params._source, f));
  o = p != null ? s2Ordinal(p[0], p[1]) : s2Ordinal(g.getLat(), g.getLon());
}
return o >= params.lo && o < params.hi ? 1.0 : 0.0;`;

/** The min_score of the range's script_score: a document whose script answers 1 is in the range, 0 is not. */
export const RANGE_MIN_SCORE = 1;

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
 * rangeScriptQuery returns the script_score query that keeps the documents of
 * the range among those `prefilter` finds (RANGE_SCRIPT, min_score
 * RANGE_MIN_SCORE), wrapped in constant_score: a filter whatever the context
 * (see this file's comment).
 */
export function rangeScriptQuery(fields: Omit<RangeFields, 'stamp'>, r: CellRange, prefilter: Record<string, unknown> = { match_all: {} }): Record<string, unknown> {
  const script = { lang: 'painless', source: RANGE_SCRIPT, params: { location: fields.location, child: fields.childLocation, ...ordinalsOf(r) } };
  return { constant_score: { filter: { script_score: { query: prefilter, script, min_score: RANGE_MIN_SCORE } } } };
}

/**
 * cellRangeFilter returns the filter of the documents located in a range:
 * a keyword range on `cell` for a stamped index (which holds the parents'
 * cells only: the sample's dishes are found through has_parent), else the
 * range script over `location` and `childLocation` (parents and children
 * alike), run behind the cells' boxes (rangeScriptQuery).
 */
export function cellRangeFilter(fields: RangeFields, r: CellRange): Record<string, unknown> {
  if (fields.stamp) return { range: { cell: r.end === null ? { gte: r.start } : { gte: r.start, lt: r.end } } };
  return rangeScriptQuery(fields, r, boxesOf([fields.location, ...(fields.childLocation ? [fields.childLocation] : [])], r));
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

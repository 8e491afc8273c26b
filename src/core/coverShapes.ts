/**
 * Level-10 coverings of the three geo queries OpenSearch runs on a geo_point field, as the
 * engine matches them: every level-10 cell that can hold a document the query matches.
 *
 *   geo_distance      a circle: the S2 cap of angle radiusKm / EARTH_RADIUS_KM around the centre
 *   geo_bounding_box  a latitude/longitude box (top_left, bottom_right; left > right crosses the
 *                     antimeridian): S2's LatLngRect, whose edges are parallels and meridians
 *   geo_polygon       a ring of points, PLANAR in (lng, lat) degrees as Lucene's Polygon is (its
 *                     edges are straight lines of the lat/lng plane, not great circles: an edge
 *                     along a parallel stays on it), inside by the even-odd rule
 *
 * Why pad. A document is placed by its exact point (the ingest pipeline reads `_source`), but the
 * engine matches the point it stored in its doc values and BKD tree: the point rounded down to
 * 180/2^32 degrees of latitude and 360/2^32 of longitude (about 1 cm), and geo_distance measures
 * with Lucene's earth radius (6,371,008.7714 m, 3 cm below the core's 6,371,008.8), so a
 * document up to about 1.5 cm outside a shape can match, and its cell must be in the covering.
 * Every shape is therefore grown by ENGINE_PAD_DEG (1e-6 degrees, 11 cm of latitude, the same
 * pad as rangeFilter.ts's cell boxes): a circle's angle by 1e-6 degrees, a box by 1e-6 degrees on
 * each side (latitude clamped to [-90, 90], longitude wrapping), a polygon's boundary by a band of
 * such padded boxes. Router.cover (the explorer's circle, routedSearch) pads a circle by the same
 * angle (cover.ts coveringAngle), so circleOrdinals equals its cells: client and engine-side
 * router (the plugin's geo_routing_search) route every circle alike.
 *
 * How each is found (independent of the plugin, which uses Google's S2 for Java):
 *   circle  a top-down walk of the cell tree with s2js Cap.intersectsCell / containsCell: the
 *           set S2's RegionCoverer (minLevel = maxLevel = 10, no cell limit) gives for the cap;
 *   box     the same walk over the padded s2js Rect (Rect.intersectsCell is exact: a cell whose
 *           bounding rectangle meets the box but which does not is left out);
 *   polygon the band: each edge cut into pieces at most POLYGON_PIECE_DEG long on each axis, each
 *           piece's lat/lng bounding box padded by ENGINE_PAD_DEG and walked as a box (the planar
 *           edge lies in its endpoints' box, so the band holds the whole boundary); then the
 *           interior: a cell holding no band cell holds no boundary point, so it is wholly inside
 *           or wholly outside, and its centre says which (even-odd test in the lat/lng plane).
 *
 * Units: degrees for points, km for radii; ordinals are level-10 curve ordinals (cells.ts).
 * Pure TypeScript: no DOM or Node imports.
 */
import { r1, s1, s2 } from 's2js';
import { LEVEL, ordinalRange, cellCenter, type CellId, type LatLng } from './cells.ts';
import { EARTH_RADIUS_KM } from './earth.ts';
import { ENGINE_PAD_DEG, coveringAngle } from './cover.ts';

/** The pad every shape is grown by, in degrees (an angle for circles): well above geo_point's ~1e-7° quantization (cover.ts). */
export { ENGINE_PAD_DEG };

/** A polygon edge is cut into pieces at most this long in latitude and in longitude (degrees; 1/32, exact in binary). */
export const POLYGON_PIECE_DEG = 1 / 32;

/**
 * The largest area of a level-10 cell, steradians: S2's kMaxArea derivative (2.635799256963161491)
 * / 4^10. A shape of area A holds at least A / MAX_CELL_AREA cells, which bounds a covering from
 * below before it is computed.
 */
export const MAX_CELL_AREA_SR = 2.635799256963161491 / 4 ** LEVEL;

const RAD = Math.PI / 180;

/** A geo_distance circle: centre in degrees (lat in [-90, 90], lng in [-180, 180]), radius in km (> 0). */
export interface CircleShape {
  kind: 'circle';
  lat: number;
  lng: number;
  radiusKm: number;
}

/**
 * A geo_bounding_box: top >= bottom in [-90, 90]; left, right in [-180, 180]; left > right
 * crosses the antimeridian (the box runs east from left, over 180, to right).
 */
export interface BoxShape {
  kind: 'box';
  top: number;
  left: number;
  bottom: number;
  right: number;
}

/** A geo_polygon: at least 3 distinct points (lat in [-90, 90], lng in [-180, 180]); closed or not (the last point may repeat the first). */
export interface PolygonShape {
  kind: 'polygon';
  points: LatLng[];
}

export type GeoShape = CircleShape | BoxShape | PolygonShape;

/** The region operations a walk needs (s2js Cap and Rect have them). */
interface CellRegion {
  intersectsCell(c: s2.Cell): boolean;
  containsCell(c: s2.Cell): boolean;
}

const FACES: CellId[] = [0, 1, 2, 3, 4, 5].map((f) => s2.cellid.fromFace(f));

/**
 * walkRegion calls take(first, last) for runs of level-10 ordinals meeting the region, top-down
 * from `starts` (cells that together cover the region; default the six faces, and runs then
 * ascend). The set found does not depend on the starts.
 */
function walkRegion(region: CellRegion, take: (first: number, last: number) => void, starts: readonly CellId[] = FACES): void {
  const visit = (id: CellId): void => {
    const cell = s2.Cell.fromCellID(id);
    if (!region.intersectsCell(cell)) return;
    const [first, last] = ordinalRange(id);
    if (s2.cellid.level(id) === LEVEL || region.containsCell(cell)) return take(first, last);
    for (const child of s2.cellid.children(id)) visit(child);
  };
  for (const f of starts) visit(f);
}

function collect(region: CellRegion): Int32Array {
  const out: number[] = [];
  walkRegion(region, (first, last) => {
    for (let o = first; o <= last; o++) out.push(o);
  });
  return Int32Array.from(out);
}

function checkPoint(lat: number, lng: number, what: string): void {
  if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) throw new RangeError(`${what}.lat ${String(lat)} is not a latitude: expected a number of degrees in [-90, 90]`);
  if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180) throw new RangeError(`${what}.lng ${String(lng)} is not a longitude: expected a number of degrees in [-180, 180]`);
}

/** The padded cap of a circle: angle radiusKm / EARTH_RADIUS_KM + ENGINE_PAD_DEG (radians), at most pi. */
export function paddedCap(c: CircleShape): s2.Cap {
  checkPoint(c.lat, c.lng, 'circle');
  if (typeof c.radiusKm !== 'number' || !Number.isFinite(c.radiusKm) || c.radiusKm <= 0) throw new RangeError(`circle.radiusKm ${String(c.radiusKm)} is not a radius: expected a number of km above 0`);
  const angle = coveringAngle(c.radiusKm);
  return s2.Cap.fromCenterAngle(s2.Point.fromLatLng(s2.LatLng.fromDegrees(c.lat, c.lng)), angle);
}

/**
 * lngInterval returns the longitude interval [west, east] (degrees, east < west: over the
 * antimeridian) as an S1 interval, full when it spans 360 degrees or more. Preconditions: finite.
 */
function lngInterval(west: number, east: number, crosses: boolean): s1.Interval {
  const span = (crosses ? east + 360 : east) - west;
  if (span >= 360) return s1.Interval.fullInterval();
  const wrap = (x: number) => (x > 180 ? x - 360 : x < -180 ? x + 360 : x);
  return s1.Interval.fromEndpoints(wrap(west) * RAD, wrap(east) * RAD);
}

/**
 * paddedRect returns the S2 rectangle of latitudes [south - pad, north + pad] (clamped to
 * [-90, 90]) and longitudes [west - pad, east + pad] (wrapping; `crosses`: the box runs east from
 * west over the antimeridian to east).
 */
function paddedRect(south: number, north: number, west: number, east: number, crosses: boolean): s2.Rect {
  const lat = new r1.Interval(Math.max(-90, south - ENGINE_PAD_DEG) * RAD, Math.min(90, north + ENGINE_PAD_DEG) * RAD);
  return new s2.Rect(lat, lngInterval(west - ENGINE_PAD_DEG, east + ENGINE_PAD_DEG, crosses));
}

/** The padded S2 rectangle of a box (see paddedRect). Throws RangeError naming a bad corner or top < bottom. */
export function paddedBoxRect(b: BoxShape): s2.Rect {
  checkPoint(b.top, b.left, 'box.top_left');
  checkPoint(b.bottom, b.right, 'box.bottom_right');
  if (b.top < b.bottom) throw new RangeError(`box.top_left.lat ${b.top} is below box.bottom_right.lat ${b.bottom}: the top must be at or above the bottom`);
  return paddedRect(b.bottom, b.top, b.left, b.right, b.left > b.right);
}

/** circleOrdinals returns the padded covering of a circle: ascending level-10 ordinals. Throws RangeError for a bad circle. */
export function circleOrdinals(c: CircleShape): Int32Array {
  return collect(paddedCap(c));
}

/** boxOrdinals returns the padded covering of a geo_bounding_box: ascending level-10 ordinals. Throws RangeError for a bad box. */
export function boxOrdinals(b: BoxShape): Int32Array {
  return collect(paddedBoxRect(b));
}

/**
 * polygonRing returns the ring's points without a closing repeat, checked: at least 3 distinct
 * points, each a valid point. Throws RangeError naming the point.
 */
export function polygonRing(p: PolygonShape): LatLng[] {
  if (!Array.isArray(p.points)) throw new RangeError(`polygon.points ${String(p.points)} is not an array of points`);
  p.points.forEach((q, i) => checkPoint(q?.lat, q?.lng, `polygon.points[${i}]`));
  const ring = p.points.slice();
  if (ring.length > 1 && ring[0].lat === ring[ring.length - 1].lat && ring[0].lng === ring[ring.length - 1].lng) ring.pop();
  if (ring.length < 3) throw new RangeError(`polygon.points has ${ring.length} distinct point(s): a polygon needs at least 3`);
  return ring;
}

/**
 * polygonBandRects returns the padded boxes that hold the ring's planar boundary: each edge cut
 * into n = max(1, ceil(max(|dlat|, |dlng|) / POLYGON_PIECE_DEG)) pieces, piece k from
 * a + (b - a) * k / n to a + (b - a) * (k + 1) / n, each piece's lat/lng box padded (paddedRect).
 * As [south, north, west, east] in degrees, unpadded, for the plugin's differential tests.
 */
export function polygonPieces(ring: readonly LatLng[]): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(b.lat - a.lat), Math.abs(b.lng - a.lng)) / POLYGON_PIECE_DEG));
    for (let k = 0; k < n; k++) {
      const lat0 = a.lat + ((b.lat - a.lat) * k) / n;
      const lng0 = a.lng + ((b.lng - a.lng) * k) / n;
      const lat1 = k + 1 === n ? b.lat : a.lat + ((b.lat - a.lat) * (k + 1)) / n;
      const lng1 = k + 1 === n ? b.lng : a.lng + ((b.lng - a.lng) * (k + 1)) / n;
      out.push([Math.min(lat0, lat1), Math.max(lat0, lat1), Math.min(lng0, lng1), Math.max(lng0, lng1)]);
    }
  }
  return out;
}

/** insideRing: the even-odd test of a point in the ring, in the (lng, lat) plane (degrees). */
export function insideRing(ring: readonly LatLng[], lat: number, lng: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const yi = ring[i].lat;
    const yj = ring[j].lat;
    if (yi > lat !== yj > lat) {
      const xi = ring[i].lng;
      const xj = ring[j].lng;
      if (lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** polygonOrdinals returns the padded covering of a geo_polygon (see this file's comment): ascending level-10 ordinals. Throws RangeError for a bad ring. */
export function polygonOrdinals(p: PolygonShape): Int32Array {
  const ring = polygonRing(p);
  const band = new Set<number>();
  for (const [south, north, west, east] of polygonPieces(ring)) {
    const rect = paddedRect(south, north, west, east, false);
    // A piece is small: start from the few cells bounding it (each at most level 10) instead of the faces.
    const starts = [...new Set(rect.cellUnionBound().map((id) => (s2.cellid.level(id) > LEVEL ? s2.cellid.parent(id, LEVEL) : id)))];
    walkRegion(rect, (first, last) => {
      for (let o = first; o <= last; o++) band.add(o);
    }, starts);
  }
  const bandSorted = Int32Array.from(band).sort();
  // Is any band ordinal in [first, last]?
  const anyBand = (first: number, last: number): boolean => {
    let lo = 0;
    let hi = bandSorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (bandSorted[mid] < first) lo = mid + 1;
      else hi = mid;
    }
    return lo < bandSorted.length && bandSorted[lo] <= last;
  };
  const out: number[] = [];
  const visit = (id: CellId): void => {
    const [first, last] = ordinalRange(id);
    if (anyBand(first, last)) {
      if (s2.cellid.level(id) === LEVEL) return void out.push(first);
      for (const child of s2.cellid.children(id)) visit(child);
      return;
    }
    const c = cellCenter(id);
    if (insideRing(ring, c.lat, c.lng)) for (let o = first; o <= last; o++) out.push(o);
  };
  for (const f of FACES) visit(f);
  return Int32Array.from(out);
}

/** shapeOrdinals returns the padded covering of any shape: ascending level-10 ordinals. Throws RangeError for a bad shape. */
export function shapeOrdinals(shape: GeoShape): Int32Array {
  switch (shape.kind) {
    case 'circle':
      return circleOrdinals(shape);
    case 'box':
      return boxOrdinals(shape);
    case 'polygon':
      return polygonOrdinals(shape);
  }
}

/**
 * minCellsOf returns a lower bound on the number of cells of a circle's or a box's covering (its
 * area over MAX_CELL_AREA_SR, rounded down), so a router can refuse an oversized shape before
 * covering it; 0 for a polygon (its walk counts as it goes). Preconditions: a valid shape.
 */
export function minCellsOf(shape: GeoShape): number {
  if (shape.kind === 'circle') {
    const angle = Math.min(Math.PI, shape.radiusKm / EARTH_RADIUS_KM);
    return Math.floor((2 * Math.PI * (1 - Math.cos(angle))) / MAX_CELL_AREA_SR);
  }
  if (shape.kind === 'box') {
    const dlng = (shape.left > shape.right ? shape.right + 360 : shape.right) - shape.left;
    return Math.floor(((Math.sin(shape.top * RAD) - Math.sin(shape.bottom * RAD)) * dlng * RAD) / MAX_CELL_AREA_SR);
  }
  return 0;
}

/**
 * Exports of a search's covering and of the worked-searches table: GeoJSON
 * (RFC 7946) and CSV (RFC 4180) text, built from the router's answers.
 *
 * Cell polygons are the four corners of cellVertices joined by straight
 * lines in longitude/latitude. A level-10 cell is about 10 km across, so the
 * straight line departs from the cell's true (geodesic) edge by metres at
 * most; fine for a map, not for deciding which cell holds a point (use
 * Router.route for that).
 *
 * Antimeridian: S2's cube puts the antimeridian on cell edges at every level
 * from 1 down (it is the u = 0 line of face 3 and an axis of the polar faces
 * 2 and 5), so no level-10 cell straddles it; cells beside it have an edge on
 * it. Their corners are unwrapped to continuous longitudes, so that edge is
 * written as 180 for a cell west of the line and -180 for a cell east of it,
 * and no ring ever spans 360°. For a cell that does straddle (a level-0
 * face), RFC 7946 §3.1.9's rule applies: the ring is clipped at ±180 and its
 * far piece shifted by 360°, giving a MultiPolygon of two rings. Every
 * longitude written is in [-180, 180].
 *
 * Poles: no level-10 cell contains a pole, but eight of them have one as a
 * corner, where longitude is undefined. That corner becomes two corners at
 * latitude ±90, at the longitudes of its neighbours, so the ring in
 * longitude/latitude covers the cell (as a flat map draws it) instead of
 * folding into a sliver.
 *
 * Rings are closed (last position = first) and counter-clockwise in
 * (longitude east, latitude north), as RFC 7946 §3.1.6 asks for exterior
 * rings. Coordinates are degrees rounded to 7 decimals (about 1 cm).
 */
import { cellToken, cellVertices, cellFromOrdinal, type CellId } from './cells.ts';
import { formatRadius, type Radius } from './cover.ts';
import type { CircleRoute } from './router.ts';
import type { ShardTable } from './shardTable.ts';
import { formatShardCount, type WorkedSearch } from './searches.ts';

/** A GeoJSON position: [longitude, latitude] in degrees. */
export type GeoJsonPosition = [number, number];

/** A closed linear ring: at least four positions, last equal to first. */
export type GeoJsonRing = GeoJsonPosition[];

const round7 = (x: number): number => Math.round(x * 1e7) / 1e7 + 0; // + 0 turns -0 into 0

/** Latitudes within this of ±90° are a pole (s2 returns 89.99999999999… there). */
const POLE_EPS = 1e-7;

/** Twice the signed area of an open ring in (lng, lat); positive when counter-clockwise. */
function signedArea2(ring: readonly GeoJsonPosition[]): number {
  let a = 0;
  for (let i = 0; i < ring.length; i++) {
    const [x1, y1] = ring[i];
    const [x2, y2] = ring[(i + 1) % ring.length];
    a += x1 * y2 - x2 * y1;
  }
  return a;
}

/** clip keeps the part of an open ring with sign·(lng − bound) ≤ 0 (Sutherland–Hodgman, one edge). */
function clip(ring: readonly GeoJsonPosition[], bound: number, sign: 1 | -1): GeoJsonPosition[] {
  const inside = (p: GeoJsonPosition) => sign * (p[0] - bound) <= 0;
  const out: GeoJsonPosition[] = [];
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const ia = inside(a);
    const ib = inside(b);
    if (ia) out.push(a);
    if (ia !== ib) {
      const t = (bound - a[0]) / (b[0] - a[0]);
      out.push([bound, a[1] + t * (b[1] - a[1])]);
    }
  }
  return out;
}

/** finish rounds, drops repeated positions, orients counter-clockwise and closes a ring; null if degenerate. */
function finish(open: readonly GeoJsonPosition[]): GeoJsonRing | null {
  const pts: GeoJsonPosition[] = [];
  for (const [x, y] of open) {
    const p: GeoJsonPosition = [round7(x), round7(y)];
    const last = pts[pts.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) pts.push(p);
  }
  while (pts.length > 1 && pts[0][0] === pts[pts.length - 1][0] && pts[0][1] === pts[pts.length - 1][1]) pts.pop();
  if (pts.length < 3) return null;
  const area = signedArea2(pts);
  // A sliver below ~1e-12 deg² is rounding noise of a cell that only touches ±180.
  if (Math.abs(area) < 1e-12) return null;
  if (area < 0) pts.reverse();
  pts.push([pts[0][0], pts[0][1]]);
  return pts;
}

/**
 * cellRings returns a cell's outline as one or two closed, counter-clockwise
 * rings in [lng, lat] degrees with every longitude in [-180, 180]: two when
 * the cell straddles the antimeridian (see the file comment), else one.
 * Intended for level-10 cells; works for any level except the two polar
 * faces at level 0, which contain their pole (no lng/lat ring outlines them).
 */
export function cellRings(id: CellId): GeoJsonRing[] {
  const v = cellVertices(id);
  const isPole = v.map((p) => Math.abs(p.lat) > 90 - POLE_EPS);
  // Unwrap longitudes so consecutive non-pole corners differ by at most 180°.
  const lng: number[] = v.map((p) => p.lng);
  let prev: number | null = null;
  for (let k = 0; k < 4; k++) {
    if (isPole[k]) continue;
    if (prev !== null) {
      while (lng[k] - prev > 180) lng[k] -= 360;
      while (lng[k] - prev < -180) lng[k] += 360;
    }
    prev = lng[k];
  }
  const open: GeoJsonPosition[] = [];
  for (let k = 0; k < 4; k++) {
    if (!isPole[k]) {
      open.push([lng[k], v[k].lat]);
      continue;
    }
    // The pole as two corners, at the longitudes of the corners before and after it.
    const lat = v[k].lat > 0 ? 90 : -90;
    let before = (k + 3) % 4;
    let after = (k + 1) % 4;
    if (isPole[before]) before = (before + 3) % 4;
    if (isPole[after]) after = (after + 1) % 4;
    open.push([lng[before], lat], [lng[after], lat]);
  }
  const xs = open.map((p) => p[0]);
  const max = Math.max(...xs);
  const min = Math.min(...xs);
  const pieces: GeoJsonPosition[][] = [];
  if (max > 180 + 1e-9) {
    pieces.push(clip(open, 180, 1), clip(open, 180, -1).map(([x, y]) => [x - 360, y] as GeoJsonPosition));
  } else if (min < -180 - 1e-9) {
    pieces.push(clip(open, -180, -1), clip(open, -180, 1).map(([x, y]) => [x + 360, y] as GeoJsonPosition));
  } else {
    pieces.push(open.map(([x, y]) => [Math.min(180, Math.max(-180, x)), y] as GeoJsonPosition));
  }
  return pieces.map(finish).filter((r): r is GeoJsonRing => r !== null);
}

/** A GeoJSON geometry of a cell: a Polygon, or a MultiPolygon when split at the antimeridian. */
export type CellGeometry = { type: 'Polygon'; coordinates: GeoJsonRing[] } | { type: 'MultiPolygon'; coordinates: GeoJsonRing[][] };

/** cellGeometry returns cellRings as a GeoJSON geometry. */
export function cellGeometry(id: CellId): CellGeometry {
  const rings = cellRings(id);
  return rings.length === 1 ? { type: 'Polygon', coordinates: rings } : { type: 'MultiPolygon', coordinates: rings.map((r) => [r]) };
}

/** cellWkt returns cellRings as WKT: POLYGON((lng lat, ...)) or MULTIPOLYGON(((...)),((...))). */
export function cellWkt(id: CellId): string {
  const ring = (r: GeoJsonRing) => `(${r.map(([x, y]) => `${x} ${y}`).join(', ')})`;
  const rings = cellRings(id);
  return rings.length === 1 ? `POLYGON(${ring(rings[0])})` : `MULTIPOLYGON(${rings.map((r) => `(${ring(r)})`).join(', ')})`;
}

/** The search a covering belongs to, recorded in exports when given. */
export interface SearchCentre {
  /** Degrees. */
  lat: number;
  lng: number;
  radius: Radius;
}

/** Properties of each cell feature in coveringGeoJson. */
export interface CellFeatureProperties {
  /** The level-10 token. */
  token: string;
  /** The shard's name (its routing value). */
  shard: string;
  /** The OpenSearch shard number the name routes to. */
  shardNumber: number;
  /** The shard's key-order index in [0, N). */
  shardIndex: number;
}

/** The FeatureCollection coveringGeoJson returns; `geoshard` is an RFC 7946 foreign member. */
export interface CoveringGeoJson {
  type: 'FeatureCollection';
  geoshard: {
    index: string;
    boundaryHash: string;
    boundaryVersion: number;
    cells: number;
    shardCount: string;
    routing: string;
    search?: { lat: number; lng: number; radius: string; radiusKm: number };
  };
  features: { type: 'Feature'; id: string; properties: CellFeatureProperties; geometry: CellGeometry }[];
}

/**
 * coveringGeoJson returns a covering (from router.cover) as a GeoJSON
 * FeatureCollection: one feature per cell, in key order, with its token and
 * shard; the collection records the routing string, "k / N", the boundary
 * file's hash and, when given, the search centre and radius. Precondition:
 * `route` came from this router.
 */
export function coveringGeoJson(router: ShardTable, route: CircleRoute, search?: SearchCentre): CoveringGeoJson {
  return {
    type: 'FeatureCollection',
    geoshard: {
      index: router.file.index,
      boundaryHash: router.file.hash,
      boundaryVersion: router.file.version,
      cells: route.ordinals.length,
      shardCount: formatShardCount(route.shards.length, router.numberOfShards),
      routing: route.routing,
      ...(search ? { search: { lat: search.lat, lng: search.lng, radius: formatRadius(search.radius), radiusKm: search.radius.km } } : {}),
    },
    features: Array.from(route.ordinals, (ordinal, k) => {
      const id = cellFromOrdinal(ordinal);
      const s = router.shards[route.cellShards[k]];
      const token = cellToken(id);
      return { type: 'Feature', id: token, properties: { token, shard: s.name, shardNumber: s.shard, shardIndex: s.index }, geometry: cellGeometry(id) };
    }),
  };
}

/** csvField quotes a CSV field when it holds a comma, a quote or a line break (RFC 4180). */
export function csvField(v: string | number): string {
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvLine = (fields: (string | number)[]) => fields.map(csvField).join(',') + '\r\n';

/** The header of coveringCsv. */
export const COVERING_CSV_HEADER = 'token,shard,shard_number,shard_index,polygon_wkt';

/**
 * coveringCsv returns a covering as CSV (RFC 4180, CRLF line ends): header
 * COVERING_CSV_HEADER, then one row per cell in key order: level-10 token,
 * shard name, OpenSearch shard number, key-order index, and the cell's
 * outline as WKT in lng/lat degrees (see cellWkt).
 */
export function coveringCsv(router: ShardTable, route: CircleRoute): string {
  let out = COVERING_CSV_HEADER + '\r\n';
  route.ordinals.forEach((ordinal, k) => {
    const id = cellFromOrdinal(ordinal);
    const s = router.shards[route.cellShards[k]];
    out += csvLine([cellToken(id), s.name, s.shard, s.index, cellWkt(id)]);
  });
  return out;
}

/** The header of workedSearchesCsv. */
export const WORKED_SEARCHES_CSV_HEADER = 'city,state,lat,lng,radius,radius_km,cells,shards_asked,number_of_shards,shard_count,routing';

/**
 * workedSearchesCsv returns the worked-searches table as CSV (RFC 4180,
 * CRLF line ends): header WORKED_SEARCHES_CSV_HEADER, one row per search in
 * the order given. radius is written as "15mi"; radius_km to 6 decimals.
 */
export function workedSearchesCsv(rows: readonly WorkedSearch[]): string {
  let out = WORKED_SEARCHES_CSV_HEADER + '\r\n';
  for (const r of rows) {
    out += csvLine([r.city, r.state, r.lat, r.lng, formatRadius(r.radius), Number(r.radius.km.toFixed(6)), r.cells, r.shardsAsked, r.numberOfShards, formatShardCount(r.shardsAsked, r.numberOfShards), r.routing]);
  }
  return out;
}

/**
 * Covering a search circle with level-10 cells.
 *
 * A search circle is an S2 cap centred on the point with angle
 * radiusKm / EARTH_RADIUS_KM (circleCap). Its covering is the cells of the
 * circle grown by ENGINE_PAD_DEG (coveringCap: the angle plus 1e-6 degrees,
 * 11 cm), exactly what S2's RegionCoverer returns for that padded cap with
 * minLevel = maxLevel = 10 and no cell limit: every level-10 cell it
 * intersects. Coverings deliberately overshoot the circle; the search's own
 * distance filter decides what is inside. The covering itself is found by the
 * walk in coverWalk.ts (Router.cover); this file holds the circle's units,
 * limits and caps.
 *
 * Why the pad. A document is placed by its exact point (the routing pipeline
 * reads `_source`), but OpenSearch matches the point it stored: rounded down
 * to 180/2^32 degrees of latitude and 360/2^32 of longitude (about 1 cm), and
 * geo_distance measures with Lucene's earth radius (3 cm below
 * EARTH_RADIUS_KM). A document up to ~1.5 cm outside the circle can therefore
 * match, and when the circle passes that close to the edge of a cell it does
 * not reach, the document's cell (and perhaps its shard) is outside the
 * unpadded covering: a routed search would miss a document every shard
 * answers (src/opensearch/circlePad.live.test.ts finds such documents on a
 * real node). The pad is the one the plugin's geo_routing_search and
 * coverShapes.ts grow every shape by, so client and cluster route a circle
 * identically. It adds a cell to about 1 circle in 1,700 (12 of 20,000
 * random circles of 0.5 to 500 km, none of them a shard: docs/plugin.md).
 */
import { s2 } from 's2js';
import { assertLatLng } from './cells.ts';
import { EARTH_RADIUS_KM, RAD_PER_DEG } from './earth.ts';

/**
 * The pad a covering grows every shape by, in degrees (an angle for a circle): well above
 * geo_point's ~1e-7 degree quantization and Lucene's 3 cm shorter earth radius (coverShapes.ts
 * pads boxes and polygons by it, the plugin every shape).
 */
export const ENGINE_PAD_DEG = 1e-6;

/**
 * coveringAngle returns the angle (radians) of the cap a circle of radiusKm is covered with:
 * radiusKm / EARTH_RADIUS_KM + ENGINE_PAD_DEG, at most pi. The one formula of Router.cover and
 * coverShapes.ts circleOrdinals (the plugin's fixtures): the same double for the same radius.
 */
export function coveringAngle(radiusKm: number): number {
  return Math.min(Math.PI, radiusKm / EARTH_RADIUS_KM + ENGINE_PAD_DEG * RAD_PER_DEG);
}

/** Kilometres per international mile. */
export const KM_PER_MILE = 1.609344;

/**
 * Largest search radius the core accepts, in km. A 1,000 km circle covers
 * 38,000 to 47,000 level-10 cells (measured: 38,633 at 60° N 10° E, 39,360 at
 * 0° 0°, 46,709 over Kansas, where level-10 cells are smaller); beyond that a
 * search is not local and should go to every shard.
 */
export const MAX_RADIUS_KM = 1000;

/** A radius unit: miles or kilometres. */
export type RadiusUnit = 'mi' | 'km';

/** A parsed radius: the value as written, its unit, and the same in km. */
export interface Radius {
  value: number;
  unit: RadiusUnit;
  km: number;
}

/**
 * assertRadiusKm throws a RangeError naming the value unless radiusKm is a
 * finite number in (0, MAX_RADIUS_KM].
 */
export function assertRadiusKm(radiusKm: number, field = 'radius'): void {
  if (typeof radiusKm !== 'number' || !Number.isFinite(radiusKm) || radiusKm <= 0 || radiusKm > MAX_RADIUS_KM + 1e-9) {
    throw new RangeError(`${field} ${String(radiusKm)} km is out of range: it must be greater than 0 and at most ${MAX_RADIUS_KM} km (${(MAX_RADIUS_KM / KM_PER_MILE).toFixed(1)} mi)`);
  }
}

/**
 * parseRadius reads a radius such as "15mi", "25 km", "15" (defaultUnit) or a
 * number (defaultUnit). Throws a RangeError naming the input when it is not a
 * positive number with an optional unit `mi` or `km`, or is out of range.
 */
export function parseRadius(input: string | number, defaultUnit: RadiusUnit = 'mi', field = 'radius'): Radius {
  let value: number;
  let unit: RadiusUnit = defaultUnit;
  if (typeof input === 'number') {
    value = input;
  } else {
    const m = /^\s*([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(mi|km|miles?|kms?)?\s*$/i.exec(String(input));
    if (!m) {
      throw new RangeError(`${field} ${JSON.stringify(input)} is not a radius: write a positive number with an optional unit, such as "15mi" or "25km"`);
    }
    value = Number(m[1]);
    if (m[2]) unit = m[2].toLowerCase().startsWith('k') ? 'km' : 'mi';
  }
  const km = unit === 'mi' ? value * KM_PER_MILE : value;
  if (!Number.isFinite(value) || value <= 0 || km > MAX_RADIUS_KM + 1e-9) {
    throw new RangeError(`${field} ${JSON.stringify(input)} is out of range: it must be greater than 0 and at most ${MAX_RADIUS_KM} km (${(MAX_RADIUS_KM / KM_PER_MILE).toFixed(1)} mi)`);
  }
  return { value, unit, km };
}

/** formatRadius writes a radius as the URL and CLI read it: "15mi", "25km". */
export function formatRadius(r: Pick<Radius, 'value' | 'unit'>): string {
  return `${Number(r.value.toFixed(6))}${r.unit}`;
}

/**
 * circleCap returns the S2 cap of a search circle itself (angle radiusKm /
 * EARTH_RADIUS_KM). lat in [-90, 90], lng any finite value, radiusKm in
 * (0, MAX_RADIUS_KM]; throws RangeError otherwise.
 */
export function circleCap(lat: number, lng: number, radiusKm: number): s2.Cap {
  assertLatLng(lat, lng);
  assertRadiusKm(radiusKm);
  const center = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng));
  return s2.Cap.fromCenterAngle(center, (radiusKm / EARTH_RADIUS_KM));
}

/**
 * coveringCap returns the cap a search circle is covered with: circleCap's
 * centre, angle coveringAngle(radiusKm) (the circle grown by ENGINE_PAD_DEG).
 * Router.cover's cells are exactly RegionCoverer's level-10 covering of it.
 * Preconditions and errors as circleCap.
 */
export function coveringCap(lat: number, lng: number, radiusKm: number): s2.Cap {
  assertLatLng(lat, lng);
  assertRadiusKm(radiusKm);
  const center = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng));
  return s2.Cap.fromCenterAngle(center, coveringAngle(radiusKm));
}

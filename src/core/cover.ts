/**
 * Covering a search circle with level-10 cells.
 *
 * A search circle is an S2 cap centred on the point with angle
 * radiusKm / EARTH_RADIUS_KM. Its covering is exactly what S2's RegionCoverer
 * returns with minLevel = maxLevel = 10 and no cell limit: every level-10 cell
 * the cap intersects. Coverings deliberately overshoot the circle; the search's
 * own distance filter decides what is inside. The covering itself is found by
 * the walk in coverWalk.ts (Router.cover); this file holds the circle's units,
 * limits and cap.
 */
import { s2 } from 's2js';
import { assertLatLng } from './cells.ts';
import { EARTH_RADIUS_KM } from './earth.ts';

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
 * circleCap returns the S2 cap of a search circle. lat in [-90, 90], lng any
 * finite value, radiusKm in (0, MAX_RADIUS_KM]; throws RangeError otherwise.
 */
export function circleCap(lat: number, lng: number, radiusKm: number): s2.Cap {
  assertLatLng(lat, lng);
  assertRadiusKm(radiusKm);
  const center = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng));
  return s2.Cap.fromCenterAngle(center, (radiusKm / EARTH_RADIUS_KM));
}

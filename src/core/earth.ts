/**
 * The Earth model: a sphere of the mean radius, the one every distance, covering and offset in
 * geoshard uses (the covering's cap in cover.ts, the data generator's and the workload
 * generator's offsets in sampling.ts, the fan-out's distances). Angles are degrees unless a name
 * says radians, distances km.
 */

/** Mean Earth radius in km (IUGG), the radius the covering uses. */
export const EARTH_RADIUS_KM = 6371.0088;

/** Kilometres per degree of latitude (and of longitude on the equator): EARTH_RADIUS_KM · π / 180, about 111.195. */
export const KM_PER_DEGREE = (EARTH_RADIUS_KM * Math.PI) / 180;

/** Radians per degree. */
export const RAD_PER_DEG = Math.PI / 180;

/** wrapLng wraps a longitude (degrees) into [-180, 180); longitudes already there come back unchanged. */
export function wrapLng(lng: number): number {
  if (lng >= -180 && lng < 180) return lng;
  const w = (((lng + 180) % 360) + 360) % 360 - 180;
  return Object.is(w, -0) ? 0 : w;
}

/**
 * unitDistanceKm returns the great-circle distance in km between two unit vectors (a and b, the
 * points' directions from the Earth's centre), in [0, π · EARTH_RADIUS_KM]; the atan2 form is
 * accurate at every angle, near 0 and near π alike.
 */
export function unitDistanceKm(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  const cx = ay * bz - az * by;
  const cy = az * bx - ax * bz;
  const cz = ax * by - ay * bx;
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz) * EARTH_RADIUS_KM;
}

/**
 * distanceKm returns the great-circle distance in km between two points in degrees (lat in
 * [-90, 90], any finite lng), on EARTH_RADIUS_KM: unitDistanceKm of their directions.
 */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a1 = lat1 * RAD_PER_DEG;
  const b1 = lng1 * RAD_PER_DEG;
  const a2 = lat2 * RAD_PER_DEG;
  const b2 = lng2 * RAD_PER_DEG;
  return unitDistanceKm(Math.cos(a1) * Math.cos(b1), Math.cos(a1) * Math.sin(b1), Math.sin(a1), Math.cos(a2) * Math.cos(b2), Math.cos(a2) * Math.sin(b2), Math.sin(a2));
}

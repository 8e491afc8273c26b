/**
 * Geometry of the radius explorer that is not S2: the search circle's
 * outline, the zoom at which it fills the view, and the name of a centre.
 * Degrees and km unless named Rad.
 */
import { geoRotation } from 'd3-geo';
import { EARTH_RADIUS_KM } from '../../core/index';
import { baseScale, type FlatKind } from '../globe/view';
import { MIN_ZOOM, MAX_ZOOM } from '../shell/url';

const RAD = Math.PI / 180;

/**
 * circleOutline returns n points on the circle of radiusKm around (lat, lng)
 * (great-circle distance on the sphere of EARTH_RADIUS_KM, the covering's
 * own model), as (lat, lng) radians, 2 floats per point, starting due north
 * and going clockwise. n ≥ 3. d3-geo's rotations do the spherical work: a
 * ring of colatitude radiusKm around the north pole, carried to the centre.
 */
export function circleOutline(lat: number, lng: number, radiusKm: number, n: number, out = new Float32Array(2 * n)): Float32Array {
  const toCentre = geoRotation([-lng, -lat]); // its inverse carries (0, 0) to the centre
  const poleToOrigin = geoRotation([0, 90]); // its inverse carries the north pole to (0, 0)
  const colat = 90 - radiusKm / EARTH_RADIUS_KM / RAD;
  for (let i = 0; i < n; i++) {
    // Around the pole, bearing b (clockwise from north, seen from the centre) is longitude 180 − b.
    const [pLng, pLat] = toCentre.invert(poleToOrigin.invert([180 - (360 * i) / n, colat]));
    out[2 * i] = pLat * RAD;
    out[2 * i + 1] = pLng * RAD;
  }
  return out;
}

/** The share of the view's smaller side the circle's diameter takes when fitted. */
export const FIT_FRACTION = 0.72;

/**
 * fitZoom returns the zoom factor at which a circle of radiusKm spans
 * FIT_FRACTION of the smaller side of a width × height canvas (CSS px) on
 * the globe or a flat layout, within [MIN_ZOOM, MAX_ZOOM] (a circle under
 * about 1.3 miles stays smaller than that at the deepest zoom).
 */
export function fitZoom(radiusKm: number, kind: 'globe' | FlatKind, width: number, height: number): number {
  const angle = radiusKm / EARTH_RADIUS_KM;
  // World units the radius spans: sin(angle) on the unit sphere seen from afar; on the map a
  // radian of latitude is one unit; the net's faces are NET_FACE_SIDE = π/2 units per 90°.
  const units = kind === 'globe' ? Math.sin(Math.min(angle, Math.PI / 2)) : angle;
  const want = (FIT_FRACTION / 2) * Math.min(width, height);
  const zoom = want / (baseScale(kind, width, height) * Math.max(units, 1e-12));
  return Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
}

/** A place with a name, as data/cities.json lists it. */


/**
 * S2's projection of the unit sphere onto the six faces of a cube, and its coordinate systems
 * (golang/geo's stuv.go): a point (x, y, z) on the sphere; a face 0..5 and (u, v) in [-1, 1] on
 * it; (s, t) in [0, 1] after S2's quadratic transform; (i, j) leaf-cell coordinates, integers in
 * [0, MAX_SIZE); (si, ti) in [0, 2·MAX_SIZE], which also name cell centres and edges.
 *
 * Why the core has its own copy of these formulas: they are s2js's (the same operations in the
 * same order, so every result is bit-identical; stuv.test.ts checks that against s2js on seeded
 * random points), written as functions on plain numbers. Reaching them through s2js means its
 * `Point` class, and `Point` is an S2 region: its methods name caps, rectangles and the exact
 * predicates with their big-float arithmetic, and a bundler keeps every method of a class it
 * keeps. With these, the explorer's page turns points into cells without any of that (about
 * 18 KB gzip of its first screen); the cell-id arithmetic itself stays s2js's `cellid`.
 */

/** A point in 3-space, not necessarily of unit length: [x, y, z]. */
export type XYZ = [number, number, number];

/** Leaf cells along one edge of a face: 2^30. */
export const MAX_SIZE = 2 ** 30;

/** The largest si or ti value: 2^31 (si = 2·i + 1 is a leaf centre, an even si an edge). */
export const MAX_SITI = 2 ** 31;

/** S2's degree, as s2js writes it: angles in radians are degrees times this. */
const DEGREE = Math.PI / 180;

/**
 * pointOfDegrees returns the unit vector of a latitude and longitude in degrees (any finite
 * values; no range check, as s2js's `Point.fromLatLng(LatLng.fromDegrees(lat, lng))`).
 */
export function pointOfDegrees(lat: number, lng: number): XYZ {
  const phi = lat * DEGREE;
  const theta = lng * DEGREE;
  const cosphi = Math.cos(phi);
  return [Math.cos(theta) * cosphi, Math.sin(theta) * cosphi, Math.sin(phi)];
}

/**
 * latLngRadOfPoint returns the latitude in [-π/2, π/2] and longitude in [-π, π] of a point, in
 * radians; the point need not be of unit length (s2js's `LatLng.fromPoint`).
 */
export function latLngRadOfPoint(p: XYZ): { lat: number; lng: number } {
  return { lat: Math.atan2(p[2], Math.sqrt(p[0] * p[0] + p[1] * p[1])), lng: Math.atan2(p[1], p[0]) };
}

/** normalize returns the point scaled to unit length, as r3.Vector.normalize (the zero vector stays zero). */
export function normalize(p: XYZ): XYZ {
  const n2 = p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
  if (n2 === 0) return [0, 0, 0];
  const s = 1 / Math.sqrt(n2);
  return [p[0] * s, p[1] * s, p[2] * s];
}

/** faceOfPoint returns the face 0..5 a point lies on: its largest component's axis, +3 when negative (ties as S2 breaks them). */
export function faceOfPoint(p: XYZ): number {
  const [ax, ay, az] = [Math.abs(p[0]), Math.abs(p[1]), Math.abs(p[2])];
  const axis = ax > ay ? (ax > az ? 0 : 2) : ay > az ? 1 : 2;
  return p[axis] < 0 ? axis + 3 : axis;
}

/** faceUVOfPoint returns [face, u, v] of a non-zero point: the face it lies on and its (u, v) there, in [-1, 1]. */
export function faceUVOfPoint(p: XYZ): [number, number, number] {
  const [x, y, z] = p;
  const face = faceOfPoint(p);
  switch (face) {
    case 0:
      return [face, y / x, z / x];
    case 1:
      return [face, -x / y, z / y];
    case 2:
      return [face, -x / z, -y / z];
    case 3:
      return [face, z / x, y / x];
    case 4:
      return [face, z / y, -x / y];
    default:
      return [face, -y / z, -x / z];
  }
}

/** pointOfFaceUV returns the (not unit-length) point at (u, v) on a face 0..5. */
export function pointOfFaceUV(face: number, u: number, v: number): XYZ {
  switch (face) {
    case 0:
      return [1, u, v];
    case 1:
      return [-u, 1, v];
    case 2:
      return [-u, -v, 1];
    case 3:
      return [-1, -v, -u];
    case 4:
      return [v, -1, -u];
    default:
      return [v, u, -1];
  }
}

/** stOfUV maps u (or v) in [-1, 1] to s (or t) in [0, 1]: S2's quadratic transform. */
export function stOfUV(u: number): number {
  if (u >= 0) return 0.5 * Math.sqrt(1 + 3 * u);
  return 1 - 0.5 * Math.sqrt(1 - 3 * u);
}

/** uvOfST is the inverse of stOfUV: s in [0, 1] to u in [-1, 1]. */
export function uvOfST(s: number): number {
  if (s >= 0.5) return (1 / 3) * (4 * s * s - 1);
  return (1 / 3) * (1 - 4 * (1 - s) * (1 - s));
}

/** ijOfST returns the leaf coordinate i in [0, MAX_SIZE) of s (clamped: s outside [0, 1) gives the edge leaf). */
export function ijOfST(s: number): number {
  const i = Math.floor(MAX_SIZE * s);
  return i < 0 ? 0 : i > MAX_SIZE - 1 ? MAX_SIZE - 1 : i;
}

/** stOfSiTi returns s of an si value in [0, MAX_SITI] (capped at 1 above it). */
export function stOfSiTi(si: number): number {
  if (si > MAX_SITI) return 1.0;
  return si / MAX_SITI;
}

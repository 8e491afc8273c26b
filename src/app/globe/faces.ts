/**
 * Cube-face coordinates: where a point sits on S2's cube, for drawing.
 *
 * S2 projects the sphere onto the six faces of a cube (face 0: +x, lng 0 on
 * the equator; 1: +y, lng 90; 2: +z, the north pole; 3: −x, lng 180;
 * 4: −y, lng −90; 5: −z, the south pole) and, on each face, uses the
 * quadratic (s, t) coordinates in [0, 1] in which every level-L cell is a
 * square of side 2^−L. The explorer lays the faces out flat in these
 * coordinates (the "unfolded cube"); this file maps points there and back
 * with the core (cells.ts, stuv.ts) and s2js's cell ids, so no S2 arithmetic lives outside the core.
 *
 * All latitudes and longitudes are in degrees.
 */
import { s2 } from 's2js';
import { assertLatLng, cellCenter, type LatLng } from '../../core/index';
import { leafCellAt } from '../../core/cells';
import { ijOfST, stOfSiTi } from '../../core/stuv';

/** A point's cube face (0..5) and its (s, t) coordinates on that face, each in [0, 1]. */
export interface FaceST {
  face: number;
  s: number;
  t: number;
}

/**
 * faceSTAt returns the cube face and (s, t) of a point, to leaf-cell
 * precision (about 1 cm). Throws RangeError on an invalid latitude/longitude.
 */
export function faceSTAt(lat: number, lng: number): FaceST {
  assertLatLng(lat, lng);
  const leaf = leafCellAt(lat, lng);
  const { face, si, ti } = s2.cellid.faceSiTi(leaf);
  return { face, s: stOfSiTi(si), t: stOfSiTi(ti) };
}

/**
 * latLngOfFaceST is the inverse of faceSTAt: the point at (s, t) on a face,
 * to leaf-cell precision. face must be an integer in [0, 5]; s and t are
 * clamped to [0, 1]. Throws RangeError on a bad face.
 */
export function latLngOfFaceST(face: number, s: number, t: number): LatLng {
  if (!Number.isInteger(face) || face < 0 || face > 5) throw new RangeError(`face ${face} is not a cube face: expected an integer in [0, 5]`);
  const ij = (x: number) => ijOfST(Number.isFinite(x) ? x : 0);
  return cellCenter(s2.cellid.fromFaceIJ(face, ij(s), ij(t)));
}

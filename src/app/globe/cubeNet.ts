/**
 * The unfolded cube ("net") layout the globe flattens into: faces 4, 0, 1, 3
 * in a row west to east along the equator, face 2 (north) above face 0 and
 * face 5 (south) below it, each turned so that neighbouring faces meet edge to
 * edge. Positions are in world units (a face is NET_FACE_SIDE wide); this is
 * the same layout as netLayout in s2glsl.ts. Points map to (face, s, t) with
 * the core's faceSTAt and back with latLngOfFaceST.
 */
import { NET_FACE_SIDE } from './s2glsl';

const CENTRES: readonly [number, number][] = [[0, 0], [1, 0], [0, 1], [2, 0], [-1, 0], [0, -1]];

/** netPosition returns the net position of (face, s, t); face in 0..5, s and t in [0, 1]. */
export function netPosition(face: number, s: number, t: number): [number, number] {
  const qx = s - 0.5;
  const qy = t - 0.5;
  const [cx, cy] = CENTRES[face];
  const [rx, ry] = face === 3 || face === 4 ? [qy, -qx] : face === 2 ? [-qy, qx] : [qx, qy];
  return [(cx + rx) * NET_FACE_SIDE, (cy + ry) * NET_FACE_SIDE];
}

/** netFaceAt returns the face and (s, t) at a net position, or null where the net has no face. */
export function netFaceAt(x: number, y: number): { face: number; s: number; t: number } | null {
  const gx = x / NET_FACE_SIDE;
  const gy = y / NET_FACE_SIDE;
  const face = CENTRES.findIndex(([cx, cy]) => Math.abs(gx - cx) <= 0.5 && Math.abs(gy - cy) <= 0.5);
  if (face < 0) return null;
  const rx = gx - CENTRES[face][0];
  const ry = gy - CENTRES[face][1];
  // Invert the turn applied in netPosition.
  const [qx, qy] = face === 3 || face === 4 ? [-ry, rx] : face === 2 ? [ry, -rx] : [rx, ry];
  return { face, s: qx + 0.5, t: qy + 0.5 };
}

/** NET_BOUNDS is the net's extent in world units: [minX, minY, maxX, maxY]. */
export const NET_BOUNDS: readonly [number, number, number, number] = [-1.5 * NET_FACE_SIDE, -1.5 * NET_FACE_SIDE, 2.5 * NET_FACE_SIDE, 1.5 * NET_FACE_SIDE];

/**
 * The outline of a pasted S2 cell of any level, in the scene's line-shader layout
 * (lineMaterial.ts LineBuffers): each of the cell's four edges (geodesics, as S2's cell edges
 * are) split into pieces along its great circle (d3-geo's geoInterpolate, via slerpLatLng), so
 * a face-sized cell bends with the sphere instead of cutting through it. Degrees in; the
 * buffers hold (lat, lng) radians and unit vectors computed in float64.
 */
import { cellCenter, type CellId, type LatLng } from '../../core/index';
import { cellVertices } from '../../core/cells';
import { angleDeg, slerpLatLng } from '../globe/typedArrays';
import type { LineBuffers } from '../globe/lineMaterial';
import { EARTH_RADIUS_KM } from '../../core/index';

const RAD = Math.PI / 180;

/** The longest piece of an edge, degrees: smooth at the globe's widest view. */
export const MAX_PIECE_DEG = 1;

/** cellOutlineSegments returns the cell's outline as line segments (2 vertices each), ordinal −1 (a plain color). */
export function cellOutlineSegments(id: CellId): LineBuffers & { count: number } {
  const corners = cellVertices(id);
  const points: LatLng[] = [];
  for (let k = 0; k < 4; k++) {
    const a = corners[k];
    const b = corners[(k + 1) % 4];
    const pieces = Math.max(1, Math.ceil(angleDeg(a.lat, a.lng, b.lat, b.lng) / MAX_PIECE_DEG));
    for (let j = 0; j < pieces; j++) {
      const [lat, lng] = j === 0 ? [a.lat, a.lng] : slerpLatLng(a.lat, a.lng, b.lat, b.lng, j / pieces);
      points.push({ lat, lng });
    }
  }
  const n = points.length;
  const b = { xyz: new Float32Array(6 * n), ll: new Float32Array(4 * n), other: new Float32Array(4 * n), otherXyz: new Float32Array(6 * n), ordinal: new Float32Array(2 * n).fill(-1), count: 2 * n };
  const unit = (p: LatLng, out: Float32Array, at: number) => {
    const cl = Math.cos(p.lat * RAD);
    out[at] = cl * Math.cos(p.lng * RAD);
    out[at + 1] = cl * Math.sin(p.lng * RAD);
    out[at + 2] = Math.sin(p.lat * RAD);
  };
  for (let i = 0; i < n; i++) {
    const p = points[i];
    const q = points[(i + 1) % n];
    b.ll.set([p.lat * RAD, p.lng * RAD, q.lat * RAD, q.lng * RAD], 4 * i);
    b.other.set([q.lat * RAD, q.lng * RAD, p.lat * RAD, p.lng * RAD], 4 * i);
    unit(p, b.xyz, 6 * i);
    unit(q, b.xyz, 6 * i + 3);
    unit(q, b.otherXyz, 6 * i);
    unit(p, b.otherXyz, 6 * i + 3);
  }
  return b;
}

/** cellExtentKm returns the great-circle distance from the cell's centre to its farthest corner, km (the radius a view must fit). */
export function cellExtentKm(id: CellId): number {
  const c = cellCenter(id);
  return Math.max(...cellVertices(id).map((v) => angleDeg(c.lat, c.lng, v.lat, v.lng))) * RAD * EARTH_RADIUS_KM;
}

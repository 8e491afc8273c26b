/**
 * Shard regions for distances: the region a shard is read from (Router.readRanges) is a run of
 * the Hilbert curve, which splits into a few dozen aligned cells of levels 0 to 10 (the largest
 * cells a run holds); the distance from a point to the region is the least distance to those
 * cells, each a convex spherical quadrilateral with great-circle edges (S2 cells are), so
 * the distance is 0 inside, else the least distance to an edge arc or a vertex. Points and
 * cells are unit vectors; angles are radians (× EARTH_RADIUS_KM for km). For the fan-out
 * field (fanoutField.ts).
 */
import { s2 } from 's2js';
import { cellFromOrdinal } from './cells.ts';
import { EARTH_RADIUS_KM, unitDistanceKm as distKm } from './earth.ts';
import type { Router } from './router.ts';

/** A cell of a shard's region, prepared for point-to-cell distances: unit vectors, 4 edges, centre and radius (radians). */
export interface RegionCell {
  shard: number;
  /** Vertices (12), edge unit normals pointing inside (12), arc bounds at each edge's start (12) and end (12). */
  v: Float64Array;
  n: Float64Array;
  ta: Float64Array;
  tb: Float64Array;
  cx: number;
  cy: number;
  cz: number;
  /** Largest angle from the centre to a point of the cell (at a vertex), radians. */
  radius: number;
}

function unitCross(a: Float64Array, i: number, b: Float64Array, j: number, out: Float64Array, k: number): void {
  const x = a[i + 1] * b[j + 2] - a[i + 2] * b[j + 1];
  const y = a[i + 2] * b[j] - a[i] * b[j + 2];
  const z = a[i] * b[j + 1] - a[i + 1] * b[j];
  const l = Math.hypot(x, y, z);
  out[k] = x / l;
  out[k + 1] = y / l;
  out[k + 2] = z / l;
}

function regionCell(id: bigint, shard: number): RegionCell {
  const cell = s2.Cell.fromCellID(id);
  const v = new Float64Array(12);
  for (let k = 0; k < 4; k++) {
    const p = cell.vertex(k);
    const l = Math.hypot(p.x, p.y, p.z);
    v.set([p.x / l, p.y / l, p.z / l], 3 * k);
  }
  const n = new Float64Array(12);
  const ta = new Float64Array(12);
  const tb = new Float64Array(12);
  for (let k = 0; k < 4; k++) {
    const a = 3 * k;
    const b = 3 * ((k + 1) & 3);
    // Vertices run counter-clockwise, so A × B points to the inside.
    unitCross(v, a, v, b, n, a);
    // The foot of the perpendicular from p lies on the arc A→B when p·(n × A) ≥ 0 and p·(B × n) ≥ 0.
    unitCross(n, a, v, a, ta, a);
    unitCross(v, b, n, a, tb, a);
  }
  const c = cell.center();
  const cl = Math.hypot(c.x, c.y, c.z);
  const cx = c.x / cl;
  const cy = c.y / cl;
  const cz = c.z / cl;
  let radius = 0;
  for (let k = 0; k < 12; k += 3) radius = Math.max(radius, angleBetween(cx, cy, cz, v[k], v[k + 1], v[k + 2]));
  // The farthest point of a cell from its centre is a vertex; the margin covers rounding.
  return { shard, v, n, ta, tb, cx, cy, cz, radius: radius + 1e-12 };
}


/** angleBetween returns the angle (radians, in [0, π]) between two unit vectors. */
export function angleBetween(ax: number, ay: number, az: number, bx: number, by: number, bz: number): number {
  return distKm(ax, ay, az, bx, by, bz) / EARTH_RADIUS_KM;
}

/** cellAngle returns the angle (radians) from unit vector p to a region cell: 0 inside, else to the nearest edge arc or vertex. */
export function cellAngle(px: number, py: number, pz: number, c: RegionCell): number {
  const { v, n, ta, tb } = c;
  let best = Infinity;
  let inside = true;
  for (let a = 0; a < 12; a += 3) {
    const s = px * n[a] + py * n[a + 1] + pz * n[a + 2];
    if (s >= 0) continue;
    inside = false;
    // p is outside this edge's great circle: its nearest point on the edge is the foot of the perpendicular or an end.
    if (px * ta[a] + py * ta[a + 1] + pz * ta[a + 2] >= 0 && px * tb[a] + py * tb[a + 1] + pz * tb[a + 2] >= 0) {
      best = Math.min(best, Math.asin(Math.min(1, -s)));
    } else {
      const b = a === 9 ? 0 : a + 3;
      best = Math.min(best, chordAngle(px - v[a], py - v[a + 1], pz - v[a + 2]), chordAngle(px - v[b], py - v[b + 1], pz - v[b + 2]));
    }
  }
  return inside ? 0 : best;
}

/** The angle (radians) subtended by a chord (dx, dy, dz) between two unit vectors. */
function chordAngle(dx: number, dy: number, dz: number): number {
  return 2 * Math.asin(Math.min(1, Math.hypot(dx, dy, dz) / 2));
}

/**
 * regionCells splits each read range of a router into the largest aligned
 * cells it holds (levels 0 to 10) and prepares them for distances.
 */
export function regionCells(router: Router): RegionCell[] {
  const out: RegionCell[] = [];
  for (const r of router.readRanges()) {
    let x = r.start;
    while (x < r.end) {
      // The largest aligned block of 4^m level-10 cells starting at x that fits in the range (at most a face, m = 10).
      let m = 0;
      while (m < 10 && x % 4 ** (m + 1) === 0 && x + 4 ** (m + 1) <= r.end) m++;
      out.push(regionCell(s2.cellid.parent(cellFromOrdinal(x), 10 - m), r.index));
      x += 4 ** m;
    }
  }
  return out;
}


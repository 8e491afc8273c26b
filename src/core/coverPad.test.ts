/**
 * Router.cover covers a circle grown by ENGINE_PAD_DEG (cover.ts coveringCap), as the plugin's
 * geo_routing_search and coverShapes.ts do:
 *   - its cells are coverShapes.ts circleOrdinals (the covering the plugin's Java tests are held
 *     to) on seeded circles, those through cell corners, over the antimeridian and at the poles
 *     included;
 *   - they are RegionCoverer's level-10 covering of the padded cap (the reference), on circles
 *     whose boundary passes within the pad of a cell it does not reach (where padded and unpadded
 *     differ);
 *   - why: a document placed a hair outside a circle, across a cell edge from it, whose point as
 *     OpenSearch stores it (rounded down to 180/2^32° of latitude and 360/2^32° of longitude,
 *     Lucene's GeoEncodingUtils) lies inside the circle: the engine's geo_distance matches it, so
 *     its cell must be in the covering; the unpadded cap does not reach that cell. The live twin,
 *     src/opensearch/circlePad.live.test.ts, shows such documents matched by every shard.
 */
import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { Router } from './router.ts';
import { circleCap, coveringCap, ENGINE_PAD_DEG } from './cover.ts';
import { circleOrdinals } from './coverShapes.ts';
import { cellFromOrdinal, cellOrdinal, cellVertexPoints, cellVertices, ordinalAt, CELL_COUNT } from './cells.ts';
import { EARTH_RADIUS_KM } from './earth.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { fileWithCuts, mulberry32 } from './testutil.ts';

const router = new Router(fileWithCuts(Array.from({ length: 14 }, (_, i) => Math.round(((i + 1) * CELL_COUNT) / 15))));
const RAD = Math.PI / 180;
type V = [number, number, number];
const norm = (a: V): V => {
  const n = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / n, a[1] / n, a[2] / n];
};
const cross = (a: V, b: V): V => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const plus = (a: V, b: V, k: number): V => [a[0] + k * b[0], a[1] + k * b[1], a[2] + k * b[2]];
const latLng = (p: V) => ({ lat: Math.atan2(p[2], Math.hypot(p[0], p[1])) / RAD, lng: Math.atan2(p[1], p[0]) / RAD });
const vec = (lat: number, lng: number): V => {
  const v = s2.Point.fromLatLng(s2.LatLng.fromDegrees(lat, lng)).vector;
  return [v.x, v.y, v.z];
};
const angle = (a: V, b: V) => Math.atan2(Math.hypot(...cross(a, b)), dot(a, b));
/** Lucene's stored point (GeoEncodingUtils encode then decode: rounded down to the grid). */
const stored = (lat: number, lng: number) => ({ lat: Math.floor(lat / (180 / 2 ** 32)) * (180 / 2 ** 32), lng: Math.floor(lng / (360 / 2 ** 32)) * (360 / 2 ** 32) });

/**
 * Near-edge documents: for cells C and D sharing an edge, a document 0.3 to 2 mm inside D whose
 * stored point falls at least 2 mm inside C, and a circle 2 km across C whose boundary passes
 * 0.5 mm beyond that stored point (so the circle holds the stored point but stops short of D).
 */
function nearEdge(pairs: [number, number][], max: number) {
  const out: { c: number; d: number; doc: { lat: number; lng: number }; circle: { lat: number; lng: number; radiusKm: number } }[] = [];
  for (const [c, d] of pairs) {
    const vs = (o: number): V[] => {
      const p = cellVertexPoints(cellFromOrdinal(o));
      return [0, 3, 6, 9].map((k) => [p[k], p[k + 1], p[k + 2]] as V);
    };
    const vc = vs(c);
    const vd = vs(d);
    const shared = vc.filter((p) => vd.some((q) => Math.abs(p[0] - q[0]) + Math.abs(p[1] - q[1]) + Math.abs(p[2] - q[2]) < 1e-15));
    if (shared.length !== 2) continue;
    let n = norm(cross(shared[0], shared[1]));
    if (dot(n, norm(vc.reduce((s, p) => plus(s, p, 1), [0, 0, 0] as V))) < 0) n = [-n[0], -n[1], -n[2]];
    for (let t = 0.3; t <= 0.7 && out.length < max; t += 0.0137) {
      const e = norm(plus(shared[0], plus(shared[1], shared[0], -1), t));
      for (const mm of [0.3, 0.6, 1, 1.5, 2]) {
        const doc = latLng(norm(plus(e, n, -mm / 1e6 / EARTH_RADIUS_KM)));
        if (ordinalAt(doc.lat, doc.lng) !== d) continue;
        const st = stored(doc.lat, doc.lng);
        const sv = vec(st.lat, st.lng);
        if (ordinalAt(st.lat, st.lng) !== c || Math.asin(dot(sv, n)) * EARTH_RADIUS_KM * 1e6 < 2) continue;
        const centre = latLng(norm(plus(sv, n, 2 / EARTH_RADIUS_KM)));
        out.push({ c, d, doc, circle: { ...centre, radiusKm: angle(vec(centre.lat, centre.lng), sv) * EARTH_RADIUS_KM + 0.5e-6 } });
        break;
      }
    }
  }
  return out;
}

describe('the padded circle covering (Router.cover)', () => {
  it("is coverShapes.ts circleOrdinals, the plugin's covering, on seeded circles (through cell corners, the antimeridian, the poles)", () => {
    const rand = mulberry32(38);
    for (let k = 0; k < 400; k++) {
      const lat = k % 50 === 0 ? (k % 100 === 0 ? 89.99 : -89.99) : Math.asin(2 * rand() - 1) / RAD;
      const lng = k % 25 === 1 ? 179.999 : rand() * 360 - 180;
      let radiusKm = 0.5 + rand() * 150;
      if (k % 3 === 0) {
        // Through a vertex of the centre's cell.
        const v = cellVertices(cellFromOrdinal(ordinalAt(lat, lng)))[k % 4];
        radiusKm = Math.max(0.001, angle(vec(lat, lng), vec(v.lat, v.lng)) * EARTH_RADIUS_KM);
      }
      expect(Array.from(router.cover(lat, lng, radiusKm).ordinals), `${lat},${lng} ${radiusKm} km`).toEqual(Array.from(circleOrdinals({ kind: 'circle', lat, lng, radiusKm })));
    }
  });

  it("is RegionCoverer's covering of the padded cap where the pad adds a cell, and holds the cell of a document the engine matches there", () => {
    const rand = mulberry32(7);
    const pairs: [number, number][] = Array.from({ length: 40 }, () => {
      const o = 1 + Math.floor(rand() * (CELL_COUNT - 2));
      return rand() < 0.5 ? [o - 1, o] : [o, o - 1];
    });
    const cases = nearEdge(pairs, 12);
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const { c, d, doc, circle } of cases) {
      const label = `document ${doc.lat},${doc.lng} (cell ${d}), circle ${circle.lat},${circle.lng} ${circle.radiusKm} km`;
      const cells = Array.from(router.cover(circle.lat, circle.lng, circle.radiusKm).ordinals);
      // The reference: RegionCoverer over the padded cap.
      expect(cells, label).toEqual(regionCovererCells(circle.lat, circle.lng, circle.radiusKm).map(cellOrdinal));
      // The stored point is inside the circle itself (the engine's geo_distance matches the document)...
      const st = stored(doc.lat, doc.lng);
      const inside = angle(vec(circle.lat, circle.lng), vec(st.lat, st.lng)) * EARTH_RADIUS_KM;
      expect(inside, label).toBeLessThan(circle.radiusKm);
      // ...the document's own cell, where the pipeline placed it, is not reached by the unpadded cap...
      expect(circleCap(circle.lat, circle.lng, circle.radiusKm).intersectsCell(s2.Cell.fromCellID(cellFromOrdinal(d))), label).toBe(false);
      // ...and is in the covering, as the stored point's cell is.
      expect(cells, label).toContain(d);
      expect(cells, label).toContain(c);
      expect(coveringCap(circle.lat, circle.lng, circle.radiusKm).radius() - circleCap(circle.lat, circle.lng, circle.radiusKm).radius()).toBeCloseTo(ENGINE_PAD_DEG * RAD, 15);
    }
  });
});

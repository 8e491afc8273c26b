import { describe, it, expect } from 'vitest';
import { s2 } from 's2js';
import { cellRings, cellGeometry, cellWkt, coveringGeoJson, coveringCsv, workedSearchesCsv, csvField, COVERING_CSV_HEADER, WORKED_SEARCHES_CSV_HEADER, type GeoJsonRing } from './exports.ts';
import { workedSearches, parseRadii } from './searches.ts';
import { Router } from './router.ts';
import { cellAt, cellCenter, cellOrdinal, cellToken, parseToken, cellFromOrdinal } from './cells.ts';
import { parseRadius } from './cover.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

const sf = cellOrdinal(parseToken('808581'));
const router = new Router(fileWithCuts([sf - 40, sf + 3, 2_000_000, 4_000_000]));

/** Twice the signed area in (lng, lat) of a closed ring; > 0 when counter-clockwise. */
function area2(ring: GeoJsonRing): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return a;
}

/** Even-odd point-in-polygon in (lng, lat). */
function inside(ring: GeoJsonRing, x: number, y: number): boolean {
  let c = false;
  for (let i = 0, j = ring.length - 2; i < ring.length - 1; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/** A minimal RFC 4180 reader: fields, quotes with doubled quotes, CRLF records. */
function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let f = '';
  let q = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (q) {
      if (ch === '"' && text[i + 1] === '"') (f += '"'), i++;
      else if (ch === '"') q = false;
      else f += ch;
    } else if (ch === '"') q = true;
    else if (ch === ',') row.push(f), (f = '');
    else if (ch === '\r' && text[i + 1] === '\n') row.push(f), rows.push(row), (row = []), (f = ''), i++;
    else f += ch;
  }
  if (f !== '' || row.length) row.push(f), rows.push(row);
  return rows;
}

function expectGoodRing(ring: GeoJsonRing) {
  expect(ring.length).toBeGreaterThanOrEqual(4);
  expect(ring[ring.length - 1]).toEqual(ring[0]);
  expect(area2(ring)).toBeGreaterThan(0);
  for (const [lng, lat] of ring) {
    expect(lng).toBeGreaterThanOrEqual(-180);
    expect(lng).toBeLessThanOrEqual(180);
    expect(Math.abs(lat)).toBeLessThanOrEqual(90);
  }
}

describe('cellRings', () => {
  it('outlines random level-10 cells with one closed counter-clockwise ring holding the cell centre', () => {
    const rand = mulberry32(21);
    for (let t = 0; t < 1000; t++) {
      const p = randomPoint(rand);
      if (t % 4 === 1) p.lng = 180 - rand() * 0.3 * (rand() < 0.5 ? 1 : -1); // beside the antimeridian
      if (t % 4 === 2) p.lat = (rand() < 0.5 ? -1 : 1) * (89 + rand()); // near a pole
      const id = cellAt(p.lat, Math.max(-180, Math.min(180, p.lng)));
      const rings = cellRings(id);
      expect(rings).toHaveLength(1);
      expectGoodRing(rings[0]);
      const c = cellCenter(id);
      // The centre's longitude can be written as ±180 on the ring's side of the line.
      const xs = rings[0].map((q) => q[0]);
      const lng = c.lng < Math.min(...xs) ? c.lng + 360 : c.lng > Math.max(...xs) ? c.lng - 360 : c.lng;
      expect(inside(rings[0], lng, c.lat)).toBe(true);
      // A level-10 cell spans well under a degree of latitude, and far less than 180° of longitude.
      const ys = rings[0].map((q) => q[1]);
      expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(0.2);
      expect(Math.max(...xs) - Math.min(...xs)).toBeLessThan(180);
    }
  });

  it('keeps cells beside the antimeridian on their own side: 180 for the west cell, -180 for the east', () => {
    const west = cellRings(cellAt(10, 179.99))[0];
    const east = cellRings(cellAt(10, -179.99))[0];
    expect(Math.max(...west.map((p) => p[0]))).toBe(180);
    expect(Math.min(...west.map((p) => p[0]))).toBeGreaterThan(179);
    expect(Math.min(...east.map((p) => p[0]))).toBe(-180);
    expect(Math.max(...east.map((p) => p[0]))).toBeLessThan(-179);
  });

  it('splits a cell that straddles the antimeridian into two rings that meet at ±180', () => {
    // Face 3 (a level-0 cell) is centred on longitude 180 and spans 135°E to 135°W.
    const rings = cellRings(s2.cellid.fromFace(3));
    expect(rings).toHaveLength(2);
    rings.forEach(expectGoodRing);
    const [a, b] = rings;
    expect(Math.min(...a.map((p) => p[0]))).toBeCloseTo(135, 6);
    expect(Math.max(...a.map((p) => p[0]))).toBe(180);
    expect(Math.min(...b.map((p) => p[0]))).toBe(-180);
    expect(Math.max(...b.map((p) => p[0]))).toBeCloseTo(-135, 6);
    // Both pieces end on the line at the same latitudes.
    const onLine = (r: GeoJsonRing, x: number) => r.slice(0, -1).filter((p) => p[0] === x).map((p) => p[1]).sort((m, n) => m - n);
    expect(onLine(a, 180)).toEqual(onLine(b, -180));
    expect(cellGeometry(s2.cellid.fromFace(3)).type).toBe('MultiPolygon');
    expect(cellWkt(s2.cellid.fromFace(3))).toMatch(/^MULTIPOLYGON\(\(\(135 .*\)\), \(\(-180 .*\)\)\)$/);
  });

  it('draws a cell with a corner at a pole with two corners on the pole line', () => {
    for (const pole of [90, -90]) {
      for (const lng of [-135, -45, 45, 135]) {
        const ring = cellRings(cellAt(pole * 0.99999, lng))[0];
        expectGoodRing(ring);
        const onPole = ring.slice(0, -1).filter((p) => p[1] === pole);
        expect(onPole).toHaveLength(2);
        expect(Math.abs(onPole[0][0] - onPole[1][0])).toBeCloseTo(90, 6);
      }
    }
  });
});

describe('coveringGeoJson', () => {
  it('has one feature per covering cell, in key order, with its token and shard', () => {
    const radius = parseRadius('25mi');
    const route = router.cover(37.7749, -122.4194, radius.km);
    const gj = coveringGeoJson(router, route, { lat: 37.7749, lng: -122.4194, radius });
    expect(gj.type).toBe('FeatureCollection');
    expect(gj.features.map((f) => f.id)).toEqual(Array.from(route.ordinals, (o) => cellToken(cellFromOrdinal(o))));
    for (const f of gj.features) {
      const s = router.shardOfToken(f.properties.token);
      expect(f.properties).toEqual({ token: f.id, shard: s.name, shardNumber: s.shard, shardIndex: s.index });
      expect(f.geometry.type).toBe('Polygon');
      expect(f.geometry.coordinates).toEqual(cellRings(parseToken(f.id)));
    }
    expect(new Set(gj.features.map((f) => f.properties.shard)).size).toBe(route.shards.length);
    expect(gj.geoshard).toEqual({
      index: 'test',
      boundaryHash: router.file.hash,
      boundaryVersion: 1,
      cells: route.ordinals.length,
      shardCount: `${route.shards.length} / 5`,
      routing: route.routing,
      search: { lat: 37.7749, lng: -122.4194, radius: '25mi', radiusKm: radius.km },
    });
    expect(JSON.parse(JSON.stringify(gj))).toEqual(gj);
  });

  it('leaves out the search when none is given', () => {
    const gj = coveringGeoJson(router, router.cover(0, 0, 5));
    expect(gj.geoshard.search).toBeUndefined();
  });
});

describe('coveringCsv', () => {
  it('writes one row per cell: token, shard name, shard number, key-order index and its outline', () => {
    const route = router.cover(37.7749, -122.4194, 30);
    const rows = readCsv(coveringCsv(router, route));
    expect(rows[0].join(',')).toBe(COVERING_CSV_HEADER);
    expect(rows).toHaveLength(route.ordinals.length + 1);
    rows.slice(1).forEach((r, k) => {
      const s = router.shardOfCell(cellFromOrdinal(route.ordinals[k]));
      expect(r.slice(0, 4)).toEqual([cellToken(cellFromOrdinal(route.ordinals[k])), s.name, String(s.shard), String(s.index)]);
      const ring = cellRings(cellFromOrdinal(route.ordinals[k]))[0];
      expect(r[4]).toBe(`POLYGON((${ring.map((p) => p.join(' ')).join(', ')}))`);
    });
  });
});

describe('workedSearchesCsv', () => {
  it('writes the table with the routing string quoted as one field', () => {
    const rows = workedSearches(router, [{ name: 'San Francisco', state: 'CA', lat: 37.7749, lng: -122.4194 }], parseRadii('5,50'));
    const csv = readCsv(workedSearchesCsv(rows));
    expect(csv[0].join(',')).toBe(WORKED_SEARCHES_CSV_HEADER);
    expect(csv.slice(1)).toEqual(
      rows.map((r) => ['San Francisco', 'CA', '37.7749', '-122.4194', `${r.radius.value}mi`, String(Number(r.radius.km.toFixed(6))), String(r.cells), String(r.shardsAsked), '5', `${r.shardsAsked} / 5`, r.routing]),
    );
    expect(rows.some((r) => r.routing.includes(','))).toBe(true);
  });

  it('quotes fields holding commas, quotes or line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('x\ny')).toBe('"x\ny"');
    expect(csvField('plain')).toBe('plain');
    expect(readCsv(['a,b', 'say "hi"', 'x\ny'].map(csvField).join(',') + '\r\n')).toEqual([['a,b', 'say "hi"', 'x\ny']]);
  });
});

/**
 * The golden fixtures of the OpenSearch plugin (plugin/): what the TypeScript core answers, written
 * as files the plugin's Java tests read and compare with Google's S2 for Java (an independent
 * implementation). Run `npx tsx scripts/plugin-fixtures.ts` to write them; pluginFixtures.test.ts
 * fails when they are not what the core gives now.
 *
 *   plugin/src/test/resources/fixtures/coverings.json   seeded random circles, boxes and polygons
 *       (a third touching level-10 cell corners, the antimeridian or a pole) and their padded
 *       level-10 coverings (src/core/coverShapes.ts), as runs of curve ordinals
 *   plugin/src/test/resources/fixtures/points.json      points and their level-10 ordinals
 *       (src/core/cells.ts ordinalAt): random, and a hair either side of cell corners and edges
 *   plugin/src/test/resources/fixtures/routing.json     index `_meta` objects (the bundled boundary
 *       file settled, then at every step of a two-range move) with the routing strings of shapes
 *       (src/core/shapeRoute.ts), points' read and write owners, the read exclusions and their
 *       must_not filters (src/opensearch/rangeFilter.ts exclusionFilters)
 *   plugin/src/main/resources/org/geoshard/opensearch/range-script.painless
 *       rangeFilter.ts RANGE_SCRIPT, the Painless of a mid-move exclusion (not a hand copy)
 *
 * Everything is computed here from a fixed seed: no clock, no randomness from outside.
 */
import { readFileSync } from 'node:fs';
import { s2 } from 's2js';
import { mulberry32 } from '../src/core/prng.ts';
import { cellFromOrdinal, cellOrdinal, cellVertices, ordinalAt, parseToken, cellToken, CELL_COUNT, type LatLng } from '../src/core/cells.ts';
import { EARTH_RADIUS_KM } from '../src/core/earth.ts';
import { shapeOrdinals, type GeoShape } from '../src/core/coverShapes.ts';
import { routeShape } from '../src/core/shapeRoute.ts';
import { Router } from '../src/core/router.ts';
import { withHash, type BoundaryFile } from '../src/core/boundaries.ts';
import { plan } from '../src/core/plan.ts';
import { advance, intermediateFile, startState, MOVE_STEPS, type MigrationState } from '../src/core/migrationState.ts';
import { exclusionFilters, RANGE_SCRIPT } from '../src/opensearch/rangeFilter.ts';

/** The files, by path relative to the repository root. */
export type FixtureFiles = Record<string, string>;

const SEED = 38_2026;
const RAD = Math.PI / 180;

/** runs writes ascending ordinals as [first, last] runs. */
export function runs(ordinals: ArrayLike<number>): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < ordinals.length; k++) {
    const o = ordinals[k];
    const last = out[out.length - 1];
    if (last && last[1] === o - 1) last[1] = o;
    else out.push([o, o]);
  }
  return out;
}

/** Angle (radians) between two points in degrees, by the unit vectors (as s2js measures). */
function angleBetween(a: LatLng, b: LatLng): number {
  const p = s2.Point.fromLatLng(s2.LatLng.fromDegrees(a.lat, a.lng));
  const q = s2.Point.fromLatLng(s2.LatLng.fromDegrees(b.lat, b.lng));
  return p.vector.angle(q.vector);
}

function shapes(rand: () => number): { label: string; shape: GeoShape }[] {
  const out: { label: string; shape: GeoShape }[] = [];
  const lat = () => Math.asin(2 * rand() - 1) / RAD;
  const lng = () => rand() * 360 - 180;
  const round = (x: number, d = 6) => Number(x.toFixed(d));
  const randomCell = () => cellFromOrdinal(Math.floor(rand() * CELL_COUNT));
  const corner = (): LatLng => {
    const v = cellVertices(randomCell())[Math.floor(rand() * 4)];
    return { lat: v.lat, lng: v.lng };
  };
  const km = () => Math.exp(Math.log(0.5) + rand() * (Math.log(300) - Math.log(0.5)));
  // Circles: random; through a cell corner (radius = the corner's distance); over the antimeridian or a pole.
  for (let i = 0; i < 60; i++) out.push({ label: `circle random ${i}`, shape: { kind: 'circle', lat: round(lat()), lng: round(lng()), radiusKm: round(km(), 3) } });
  for (let i = 0; i < 20; i++) {
    const v = corner();
    const c = { lat: Math.max(-90, Math.min(90, v.lat + (rand() - 0.5) * 0.5)), lng: Math.max(-180, Math.min(180, v.lng + (rand() - 0.5) * 0.5)) };
    out.push({ label: `circle through a cell corner ${i}`, shape: { kind: 'circle', lat: c.lat, lng: c.lng, radiusKm: angleBetween(c, v) * EARTH_RADIUS_KM } });
  }
  for (let i = 0; i < 10; i++) out.push({ label: `circle over the antimeridian ${i}`, shape: { kind: 'circle', lat: round(lat() * 0.8), lng: round((rand() < 0.5 ? -1 : 1) * (179.5 + rand() * 0.5)), radiusKm: round(20 + rand() * 200, 3) } });
  for (let i = 0; i < 10; i++) out.push({ label: `circle at a pole ${i}`, shape: { kind: 'circle', lat: i % 3 === 0 ? (i % 2 ? 90 : -90) : round((i % 2 ? 1 : -1) * (89 + rand())), lng: round(lng()), radiusKm: round(5 + rand() * 150, 3) } });
  // Boxes: random; edges on a cell corner; crossing the antimeridian; touching a pole.
  const box = (top: number, left: number, bottom: number, right: number): GeoShape => ({ kind: 'box', top, left, bottom, right });
  for (let i = 0; i < 60; i++) {
    const c = { lat: lat() * 0.95, lng: lng() };
    const h = 0.02 + rand() * 2;
    const w = 0.02 + rand() * 3;
    const left = round(c.lng - w / 2);
    let right = round(c.lng + w / 2);
    if (right > 180) right = round(right - 360);
    out.push({ label: `box random ${i}`, shape: box(round(Math.min(90, c.lat + h / 2)), left < -180 ? round(left + 360) : left, round(Math.max(-90, c.lat - h / 2)), right) });
  }
  for (let i = 0; i < 20; i++) {
    const v = corner();
    const h = 0.05 + rand();
    const w = 0.05 + rand();
    const top = i % 2 ? v.lat : Math.min(90, v.lat + h);
    const bottom = i % 2 ? Math.max(-90, v.lat - h) : v.lat;
    const left = i % 4 < 2 ? v.lng : v.lng - w < -180 ? v.lng - w + 360 : v.lng - w;
    const right = i % 4 < 2 ? (v.lng + w > 180 ? v.lng + w - 360 : v.lng + w) : v.lng;
    out.push({ label: `box edged on a cell corner ${i}`, shape: box(top, left, bottom, right) });
  }
  for (let i = 0; i < 10; i++) {
    const c = lat() * 0.9;
    const h = 0.1 + rand() * 2;
    out.push({ label: `box over the antimeridian ${i}`, shape: box(round(c + h / 2), round(178 + rand() * 2), round(c - h / 2), round(-180 + rand() * 2)) });
  }
  for (let i = 0; i < 10; i++) {
    const north = i % 2 === 0;
    const edge = round(88 + rand() * 1.5);
    const left = round(lng());
    const right = i % 5 === 0 ? round(left + 0.5 > 180 ? left - 359.5 : left + 0.5) : round(Math.min(180, left + 20 + rand() * 60));
    out.push({ label: `box touching a pole ${i}`, shape: north ? box(90, left, edge, right) : box(-edge, left, -90, right) });
  }
  // Polygons: random small rings; vertices on cell corners; touching the antimeridian; a vertex at a pole.
  const ring = (c: LatLng, n: number, r: number): LatLng[] =>
    Array.from({ length: n }, (_, k) => {
      const a = (2 * Math.PI * k) / n + rand() * 0.3;
      const rr = r * (0.4 + 0.6 * rand());
      return { lat: round(Math.max(-90, Math.min(90, c.lat + rr * Math.sin(a)))), lng: round(Math.max(-180, Math.min(180, c.lng + rr * Math.cos(a)))) };
    });
  for (let i = 0; i < 40; i++) out.push({ label: `polygon random ${i}`, shape: { kind: 'polygon', points: ring({ lat: lat() * 0.9, lng: lng() * 0.98 }, 3 + Math.floor(rand() * 6), 0.05 + rand() * 0.8) } });
  for (let i = 0; i < 12; i++) {
    const cell = randomCell();
    const vs = cellVertices(cell);
    const far = cellVertices(s2.cellid.parent(cell, 8));
    // A triangle and a quadrilateral with vertices exactly on level-10 and level-8 cell corners.
    const points = i % 2 ? [vs[0], vs[2], far[Math.floor(rand() * 4)]] : [vs[0], vs[1], far[2], far[3]];
    out.push({ label: `polygon on cell corners ${i}`, shape: { kind: 'polygon', points: points.map((p) => ({ lat: p.lat, lng: Math.max(-180, Math.min(180, p.lng)) })) } });
  }
  for (let i = 0; i < 8; i++) {
    const c = round(lat() * 0.8);
    const side = i % 2 ? 180 : -180;
    const inner = side - Math.sign(side) * round(0.2 + rand());
    const h = round(0.2 + rand());
    out.push({ label: `polygon touching the antimeridian ${i}`, shape: { kind: 'polygon', points: [{ lat: c, lng: side }, { lat: c + h, lng: side }, { lat: round(c + h / 2), lng: inner }] } });
  }
  for (let i = 0; i < 8; i++) {
    const s = i % 2 ? 1 : -1;
    const l = round(lng() * 0.9);
    out.push({ label: `polygon with a vertex at a pole ${i}`, shape: { kind: 'polygon', points: [{ lat: s * 90, lng: l }, { lat: s * round(88.5 + rand()), lng: l }, { lat: s * round(88.5 + rand()), lng: round(l + 1 + rand() * 5) }] } });
  }
  return out;
}

/** Points a hair either side of cell corners and edge midpoints, and random points. */
function points(rand: () => number): { lat: number; lng: number; ordinal: number }[] {
  const out: LatLng[] = [];
  for (let i = 0; i < 500; i++) out.push({ lat: Math.asin(2 * rand() - 1) / RAD, lng: rand() * 360 - 180 });
  const nudges = [0, 1e-13, -1e-13, 1e-11, -1e-11, 1e-9, -1e-9];
  for (let i = 0; i < 150; i++) {
    const vs = cellVertices(cellFromOrdinal(Math.floor(rand() * CELL_COUNT)));
    const v = vs[i % 4];
    const w = vs[(i + 1) % 4];
    const mid = { lat: (v.lat + w.lat) / 2, lng: (v.lng + w.lng) / 2 };
    for (const p of [v, mid]) {
      const dLat = nudges[Math.floor(rand() * nudges.length)];
      const dLng = nudges[Math.floor(rand() * nudges.length)];
      const q = { lat: Math.max(-90, Math.min(90, p.lat + dLat)), lng: Math.max(-180, Math.min(180, p.lng + dLng)) };
      out.push(q, { lat: Math.max(-90, Math.min(90, p.lat - dLat)), lng: Math.max(-180, Math.min(180, p.lng - dLng)) });
    }
  }
  out.push({ lat: 90, lng: 0 }, { lat: -90, lng: 0 }, { lat: 0, lng: 180 }, { lat: 0, lng: -180 }, { lat: 45, lng: 45 }, { lat: 35.264389682754654, lng: 45 });
  return out.map((p) => ({ ...p, ordinal: ordinalAt(p.lat, p.lng) }));
}

/** The candidate of the fixtures' move: boundaries[3] moved back 20,000 ordinals and boundaries[9] back 3,000. */
function candidateOf(base: BoundaryFile): BoundaryFile {
  const boundaries = [...base.boundaries];
  const shift = (i: number, by: number) => (boundaries[i] = cellToken(cellFromOrdinal(cellOrdinal(parseToken(base.boundaries[i])) + by)));
  shift(3, -20_000);
  shift(9, -3_000);
  const { hash: _h, ...rest } = base;
  return withHash({ ...rest, version: base.version + 1, parent: base.hash, boundaries });
}

/** The `_meta` states of the routing fixtures: settled, then each step of each move. */
function metaStates(base: BoundaryFile): { label: string; meta: Record<string, unknown>; state: MigrationState | null }[] {
  const candidate = candidateOf(base);
  const p = plan(base, candidate, []);
  let state = startState(base, candidate, p.moves, '2026-12-01T00:00:00.000Z');
  const meta = (s: MigrationState | null, fields?: unknown) => ({ app: 'geoshard', hash: base.hash, version: base.version, index: base.index, numberOfShards: base.numberOfShards, file: base, ...(s ? { migration: s } : {}), ...(fields ? { fields } : {}) });
  const out: { label: string; meta: Record<string, unknown>; state: MigrationState | null }[] = [{ label: 'settled', meta: meta(null), state: null }];
  out.push({ label: 'settled, fields of another shape', meta: meta(null, { location: 'place.point', childLocation: null, stamp: false }), state: null });
  out.push({ label: `move 0 pending`, meta: meta(state), state });
  for (let k = 0; k < state.moves.length; k++) {
    for (const to of MOVE_STEPS.slice(1)) {
      const patch = to === 'verified' ? { verified: { from: { restaurants: 1, dishes: 2 }, to: { restaurants: 1, dishes: 2 } } } : {};
      state = advance(state, k, to, '2026-12-01T00:00:00.000Z', patch);
      out.push({ label: `move ${k} ${to}`, meta: meta(state), state });
    }
  }
  return out;
}

/** The located fields of a fixture `_meta` (the sample's when it names none), as exclusionFilters takes them. */
function fieldsOf(meta: Record<string, unknown>): { location: string; childLocation: string | null } {
  const f = meta.fields as { location: string; childLocation: string | null } | undefined;
  return f ? { location: f.location, childLocation: f.childLocation } : { location: 'location', childLocation: 'restaurant_location' };
}

/** buildFixtures computes every fixture file (see the top of this file). */
export function buildFixtures(root = new URL('..', import.meta.url).pathname): FixtureFiles {
  const rand = mulberry32(SEED);
  const all = shapes(rand);
  const source = '// Generated by scripts/plugin-fixtures.ts from the TypeScript core (seed ' + SEED + '): do not edit.';
  const coverings = all.map(({ label, shape }) => ({ label, shape, runs: runs(shapeOrdinals(shape)) }));
  const pts = points(rand);
  const base = JSON.parse(readFileSync(`${root}/data/boundaries.json`, 'utf8')) as BoundaryFile;
  const routedShapes = all.filter((_, i) => i % 4 === 0);
  const routedPoints = pts.filter((_, i) => i % 5 === 0);
  const states = metaStates(base).map(({ label, meta, state }) => {
    const router = new Router(state ? intermediateFile(base, state) : base);
    return {
      label,
      meta,
      shapes: routedShapes.map(({ label: l, shape }) => ({ label: l, shape, routing: routeShape(router, shape).routing })),
      points: routedPoints.map((p) => {
        const o = p.ordinal;
        return { lat: p.lat, lng: p.lng, read: router.shards[router.readIndexOfOrdinal(o)].name, write: router.writeIndicesOfOrdinal(o).map((i) => router.shards[i].name) };
      }),
      exclusions: router.readExclusions().map((e) => ({ start: e.start, end: e.end, routing: e.routing })),
      // The must_not clauses routedRequest adds (rangeFilter.ts exclusionFilters), the script's source written as "RANGE_SCRIPT".
      filters: JSON.parse(JSON.stringify(exclusionFilters(fieldsOf(meta), router.readExclusions())).replaceAll(JSON.stringify(RANGE_SCRIPT), '"RANGE_SCRIPT"')),
    };
  });
  const json = (what: string, body: unknown) => JSON.stringify({ comment: `${source} ${what}`, ...(body as object) }) + '\n';
  return {
    'plugin/src/test/resources/fixtures/coverings.json': json('Padded level-10 coverings (src/core/coverShapes.ts shapeOrdinals) as [first, last] runs of curve ordinals; radiusKm in km, points in degrees.', { shapes: coverings }),
    'plugin/src/test/resources/fixtures/points.json': json('Level-10 curve ordinals of points (src/core/cells.ts ordinalAt, s2js): random, and a hair either side of cell corners and edge midpoints.', { points: pts }),
    'plugin/src/test/resources/fixtures/routing.json': json(
      'Index _meta states (data/boundaries.json settled, then a two-range move step by step, src/core/migrationState.ts) with routing strings of padded coverings (src/core/shapeRoute.ts routeShape), read/write owners of points (Router.readIndexOfOrdinal, writeIndicesOfOrdinal) and read exclusions (Router.readExclusions) with their must_not filters (src/opensearch/rangeFilter.ts exclusionFilters; the Painless source as "RANGE_SCRIPT").',
      { states },
    ),
    'plugin/src/main/resources/org/geoshard/opensearch/range-script.painless': `${RANGE_SCRIPT}\n`,
  };
}

/** Seeded randomness for the core's property tests (not part of the public entry). */

import { mulberry32 } from './prng.ts';
export { mulberry32 };

/** randomPoint returns a point uniformly distributed on the sphere, in degrees. */
export function randomPoint(rand: () => number): { lat: number; lng: number } {
  const z = 2 * rand() - 1;
  return { lat: (Math.asin(z) * 180) / Math.PI, lng: 360 * rand() - 180 };
}

import { withHash, BOUNDARY_FORMAT, type BoundaryFile } from './boundaries.ts';
import { pickShardNames } from './names.ts';
import { cellFromOrdinal, cellToken, cellOrdinal, parseToken, tokenAt, CELL_COUNT } from './cells.ts';
import { Router } from './router.ts';
import type { FanoutGrid } from './fanoutGrid.ts';
import type { CellWeight } from './build.ts';

/** fileWithCuts returns a valid, hashed boundary file cutting the curve at the given ordinals (deduplicated, sorted, 0 dropped). */
export function fileWithCuts(ordinals: number[], index = 'test'): BoundaryFile {
  const sorted = [...new Set(ordinals)].sort((a, b) => a - b).filter((o) => o > 0 && o < CELL_COUNT);
  const n = sorted.length + 1;
  return withHash({
    format: BOUNDARY_FORMAT,
    index,
    level: 10,
    numberOfShards: n,
    version: 1,
    createdAt: '2026-11-30T00:00:00.000Z',
    parent: null,
    boundaries: sorted.map((o) => cellToken(cellFromOrdinal(o))),
    shards: pickShardNames(n).map((name, shard) => ({ name, shard })),
  });
}

/**
 * fastPathCases runs `count` seeded random circles (1 to 500 km, log-uniform, so
 * most are local; centres uniform plus poles, antimeridian and cube-face edges),
 * each against a boundary file with cuts near the circle so boundaries cross it,
 * and calls check(slow, fast, label). Returns how many circles asked more than one shard.
 */
export function fastPathCases(seed: number, count: number, check: (slow: number[], fast: number[], label: string) => void): number {
  const rand = mulberry32(seed);
  let multi = 0;
  for (let t = 0; t < count; t++) {
    const kind = t % 6;
    let { lat, lng } = randomPoint(rand);
    if (kind === 1) lat = (rand() < 0.5 ? -1 : 1) * (85 + 5 * rand());
    if (kind === 2) lng = 180 - rand() * 2 * (rand() < 0.5 ? 1 : -1);
    if (kind === 3) lng = [45, 135, -45, -135][Math.floor(rand() * 4)] + (rand() - 0.5) * 0.2;
    if (kind === 4) lat = (rand() < 0.5 ? -1 : 1) * 35.26 + (rand() - 0.5) * 0.5;
    const radiusKm = Math.exp(rand() * Math.log(500));
    const centre = cellOrdinal(BigInt('0x' + tokenAt(lat, lng).padEnd(16, '0')));
    const spread = Math.ceil(radiusKm * radiusKm * 0.5);
    const cuts = [
      ...Array.from({ length: 20 }, () => Math.floor(rand() * CELL_COUNT)),
      ...Array.from({ length: 16 }, () => Math.min(CELL_COUNT - 1, Math.max(1, centre + Math.round((rand() - 0.5) * 2 * spread)))),
    ];
    const r = new Router(fileWithCuts(cuts));
    const slow = r.cover(lat, lng, radiusKm).shards.map((s) => s.index);
    const fast = r.shardsAsked(lat, lng, radiusKm);
    check(slow, fast, `circle ${lat},${lng} r=${radiusKm} km`);
    if (slow.length > 1) multi++;
  }
  return multi;
}

/** The pixel centre as the grid's doc comment defines it: row 0 south, column 0 west, longitudes wrapped to [-180, 180). */
export function gridPixel(g: FanoutGrid, i: number, j: number) {
  const width = g.east > g.west ? g.east - g.west : g.east - g.west + 360;
  let lng = g.west + ((i + 0.5) * width) / g.cols;
  if (lng >= 180) lng -= 360;
  return { lat: g.south + ((j + 0.5) * (g.north - g.south)) / g.rows, lng };
}

/** The count at every pixel, from the full covering (independent of the fan-out code). */
export function expectedGridCounts(router: Router, g: FanoutGrid, radiusKm: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < g.rows; j++) {
    for (let i = 0; i < g.cols; i++) {
      const p = gridPixel(g, i, j);
      out.push(Math.min(255, router.cover(p.lat, p.lng, radiusKm).shards.length));
    }
  }
  return out;
}

/** routerNear returns a router whose boundaries cut the curve near a point (12 cuts within spread ordinals, one anywhere), so circles there straddle several shards. */
export function routerNear(lat: number, lng: number, rand: () => number, spread: number): Router {
  const o = cellOrdinal(parseToken(tokenAt(lat, lng)));
  const cuts = Array.from({ length: 12 }, () => Math.min(CELL_COUNT - 1, Math.max(1, o + Math.round((rand() - 0.5) * 2 * spread))));
  return new Router(fileWithCuts([...cuts, Math.floor(rand() * CELL_COUNT)]));
}

/** cityCells returns cells around five US cities, in key order, with seeded restaurant and dish counts (some 0). */
export function cityCells(): CellWeight[] {
  const rand = mulberry32(3);
  const cities = [
    [37.7749, -122.4194],
    [40.7128, -74.006],
    [41.8781, -87.6298],
    [29.7604, -95.3698],
    [47.6062, -122.3321],
  ];
  const byOrdinal = new Map<number, CellWeight>();
  for (const [lat, lng] of cities) {
    for (let k = 0; k < 40; k++) {
      const token = tokenAt(lat + (rand() - 0.5) * 0.8, lng + (rand() - 0.5) * 0.8);
      const ordinal = cellOrdinal(parseToken(token));
      byOrdinal.set(ordinal, { token, ordinal, restaurants: Math.floor(rand() * 4), dishes: Math.floor(rand() * 300) });
    }
  }
  return [...byOrdinal.values()].sort((a, b) => a.ordinal - b.ordinal);
}

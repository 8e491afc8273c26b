import { describe, it, expect } from 'vitest';
import { coverOrdinals as coverCircleOrdinals } from './coverWalk.ts';
import { Router } from './router.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellOrdinal, cellFromOrdinal } from './cells.ts';
import { mulberry32, randomPoint, fileWithCuts } from './testutil.ts';

/** The RegionCoverer's covering as ordinals: the reference. */
const reference = (lat: number, lng: number, km: number) => regionCovererCells(lat, lng, km).map(cellOrdinal);

describe('covering by walking the cell hierarchy', () => {
  it('equals the RegionCoverer covering on seeded random circles from 0.5 to 150 km', () => {
    const rand = mulberry32(20261130);
    for (let i = 0; i < 150; i++) {
      const p = randomPoint(rand);
      const km = 0.5 * Math.pow(300, rand());
      expect(Array.from(coverCircleOrdinals(p.lat, p.lng, km)), `circle ${i}: ${p.lat}, ${p.lng}, ${km} km`).toEqual(reference(p.lat, p.lng, km));
    }
  });

  it('equals it at the poles, across the antimeridian, on cube-face edges and corners, and for a few wide circles', () => {
    const cases: [number, number, number][] = [
      [90, 0, 40],
      [-90, 0, 120],
      [89.9, 45, 60],
      [0, 180, 80],
      [0, -179.99, 30],
      [45, 45, 50], // a cube-face edge
      [35.26438968, 45, 70], // a cube corner
      [0, 45, 5],
      [40.7143, -74.006, 400],
      [-33.8688, 151.2093, 250],
    ];
    for (const [lat, lng, km] of cases) expect(Array.from(coverCircleOrdinals(lat, lng, km)), `${lat}, ${lng}, ${km} km`).toEqual(reference(lat, lng, km));
  });

  it('covers a circle smaller than a cell with the one cell or few cells it touches', () => {
    expect(Array.from(coverCircleOrdinals(37.7749, -122.4194, 0.01))).toEqual(reference(37.7749, -122.4194, 0.01));
    expect(coverCircleOrdinals(37.7749, -122.4194, 0.01).length).toBeGreaterThanOrEqual(1);
  });

  it('refuses what the RegionCoverer path refuses, with the same message', () => {
    expect(() => coverCircleOrdinals(91, 0, 5)).toThrow(/lat/);
    expect(() => coverCircleOrdinals(0, 0, 1001)).toThrow('radius 1001 km is out of range');
    expect(() => coverCircleOrdinals(0, 0, 0)).toThrow(RangeError);
  });
});

describe('the walk resolved to shards', () => {
  it('gives, from Router.cover, the reference covering’s cells, each cell’s own shard, the shard counts and the routing string on circles across cuts', () => {
    const rand = mulberry32(7);
    for (let i = 0; i < 40; i++) {
      const p = randomPoint(rand);
      const km = 1 + rand() * 100;
      const here = reference(p.lat, p.lng, km);
      // Cut the curve inside the covering, so the circle straddles shards.
      const router = new Router(fileWithCuts([here[0] + 1, here[Math.floor(here.length / 2)], here[here.length - 1]]));
      const got = router.cover(p.lat, p.lng, km);
      // Expected: each reference cell looked up on its own with shardOfToken; counts and names from that.
      const owners = here.map((o) => router.shardOfCell(cellFromOrdinal(o)).index);
      const asked = [...new Set(owners)].sort((a, b) => a - b);
      expect(Array.from(got.ordinals)).toEqual(here);
      expect(Array.from(got.cellShards)).toEqual(owners);
      expect(got.shards).toEqual(asked.map((i) => ({ ...router.shards[i], cells: owners.filter((x) => x === i).length })));
      expect(got.routing).toBe(asked.map((i) => router.shards[i].name).join(','));
      expect(router.shardsAsked(p.lat, p.lng, km)).toEqual(asked);
    }
  });
});

import { describe, it, expect } from 'vitest';
import { workedSearches, parseRadii, parseCities, formatShardCount } from './searches.ts';
import type { Place } from './place.ts';
import { Router } from './router.ts';
import { parseRadius, KM_PER_MILE } from './cover.ts';
import { regionCovererCells } from './reference/regionCoverer.ts';
import { cellOrdinal, parseToken } from './cells.ts';
import { fileWithCuts, mulberry32, randomPoint } from './testutil.ts';

const sf = cellOrdinal(parseToken('808581'));
// Cuts right beside San Francisco's cell, so some of its searches ask two shards or more.
const router = new Router(fileWithCuts([sf - 40, sf + 3, 2_000_000, 4_000_000]));

const cities: Place[] = [
  { name: 'San Francisco', state: 'CA', lat: 37.7749, lng: -122.4194 },
  { name: 'Fiji', state: 'FJ', lat: -17.7, lng: 179.9 },
  { name: 'Longyearbyen', state: 'SJ', lat: 78.22, lng: 15.65 },
];

describe('workedSearches', () => {
  it('returns one row per city and radius, cities outer, each matching a covering computed cell by cell', () => {
    const radii = parseRadii('1,15,25km');
    const rows = workedSearches(router, cities, radii);
    expect(rows.map((r) => `${r.city}@${r.radius.value}${r.radius.unit}`)).toEqual(cities.flatMap((c) => ['1mi', '15mi', '25km'].map((x) => `${c.name}@${x}`)));
    for (const row of rows) {
      // Independent of Router.cover: the RegionCoverer reference covering, each cell looked up on its own.
      const cells = regionCovererCells(row.lat, row.lng, row.radius.km);
      const perShard = new Map<number, number>();
      for (const c of cells) {
        const i = router.shardOfCell(c).index;
        perShard.set(i, (perShard.get(i) ?? 0) + 1);
      }
      const keys = [...perShard.keys()].sort((a, b) => a - b);
      expect(row.cells).toBe(cells.length);
      expect(row.shardsAsked).toBe(keys.length);
      expect(row.numberOfShards).toBe(5);
      expect(row.routing).toBe(keys.map((i) => router.shards[i].name).join(','));
      expect(row.cellsPerShard).toEqual(keys.map((i) => ({ index: i, name: router.shards[i].name, shard: router.shards[i].shard, cells: perShard.get(i) })));
    }
    expect(rows.some((r) => r.shardsAsked >= 2)).toBe(true);
  });

  it('carries the radius as written and in km', () => {
    const [row] = workedSearches(router, cities.slice(0, 1), [parseRadius('15mi')]);
    expect(row.radius).toEqual({ value: 15, unit: 'mi', km: 15 * 1.609344 });
    expect(row.state).toBe('CA');
  });

  it('gives the covering the article reports for San Francisco at 15 miles: 40 cells', () => {
    // The article (Plate II): "A 15-mile search around San Francisco covers 40 cells".
    const [row] = workedSearches(router, cities.slice(0, 1), [parseRadius(15)]);
    expect(row.cells).toBe(40);
  });

  it('names the city when its search cannot be made', () => {
    const bad = [{ name: 'Nowhere', state: '', lat: 91, lng: 0 }];
    expect(() => workedSearches(router, bad, [parseRadius(5)])).toThrow(/city "Nowhere": lat 91 is not a latitude/);
    expect(() => workedSearches(router, cities.slice(0, 1), [{ value: 2000, unit: 'km', km: 2000 }])).toThrow(/city "San Francisco": radius 2000 km is out of range/);
  });

  it('asks every shard it reports for random circles, and no other', () => {
    const rand = mulberry32(5);
    const places = Array.from({ length: 30 }, (_, i) => ({ name: `p${i}`, state: '', ...randomPoint(rand) }));
    for (const row of workedSearches(router, places, [parseRadius('40km')])) {
      expect(row.cellsPerShard.reduce((a, s) => a + s.cells, 0)).toBe(row.cells);
      expect(row.cellsPerShard.every((s) => s.cells >= 1)).toBe(true);
      expect(router.shardsAsked(row.lat, row.lng, row.radius.km)).toEqual(row.cellsPerShard.map((s) => s.index));
    }
  });
});

describe('formatShardCount', () => {
  it('writes k / N with spaces around the slash', () => {
    expect(formatShardCount(2, 18)).toBe('2 / 18');
  });
});

describe('parseRadii', () => {
  it('reads a comma-separated list, bare numbers in the default unit', () => {
    expect(parseRadii('5,15, 25 ,50')).toEqual([5, 15, 25, 50].map((v) => ({ value: v, unit: 'mi', km: v * KM_PER_MILE })));
    expect(parseRadii('10km,2mi', 'km')).toEqual([
      { value: 10, unit: 'km', km: 10 },
      { value: 2, unit: 'mi', km: 2 * KM_PER_MILE },
    ]);
    expect(parseRadii('7', 'km')).toEqual([{ value: 7, unit: 'km', km: 7 }]);
  });

  it('rejects an item that is not a radius, naming it', () => {
    expect(() => parseRadii('5,abc,25')).toThrow(/radii "abc" is not a radius/);
    expect(() => parseRadii('5,0')).toThrow(/radii "0" is out of range/);
    expect(() => parseRadii('700mi')).toThrow(/radii "700mi" is out of range: .*at most 1000 km/);
    expect(() => parseRadii('5,,25')).toThrow(/radii "5,,25": item 2 is empty/);
    expect(() => parseRadii('')).toThrow(/radii "" is empty/);
    expect(() => parseRadii(' , ', 'mi', '--radii')).toThrow(/--radii " , " is empty/);
  });
});

describe('parseCities', () => {
  it('reads an array or { cities }, keeping the known fields in file order', () => {
    const list = [
      { name: 'A', state: 'CA', country: 'US', lat: 1, lng: 2, population: 10, extra: true },
      { name: 'B', lat: -3, lng: 200 },
    ];
    const want = [
      { name: 'A', state: 'CA', country: 'US', lat: 1, lng: 2, population: 10 },
      { name: 'B', state: '', lat: -3, lng: 200 },
    ];
    expect(parseCities(list)).toEqual(want);
    expect(parseCities({ cities: list })).toEqual(want);
  });

  it('rejects entries naming the entry, the field and the value', () => {
    expect(() => parseCities({}, 'c.json')).toThrow(/c\.json: expected a JSON array of cities/);
    expect(() => parseCities([null])).toThrow(/cities\[0\] null is not an object/);
    expect(() => parseCities([{ lat: 1, lng: 1 }])).toThrow(/cities\[0\]\.name undefined is not a name/);
    expect(() => parseCities([{ name: 'A', state: 'OR', lat: 1, lng: 1 }, { name: 'A', state: 'OR', lat: 1, lng: 1 }])).toThrow(/cities\[1\] "A", "OR" repeats an earlier city/);
    expect(parseCities([{ name: 'A', state: 'OR', lat: 1, lng: 1 }, { name: 'A', state: 'ME', lat: 2, lng: 1 }])).toHaveLength(2);
    expect(() => parseCities([{ name: 'A', lat: 100, lng: 1 }])).toThrow(/cities\[0\]\.lat 100 is not a latitude/);
    expect(() => parseCities([{ name: 'A', lat: 1, lng: 'x' }])).toThrow(/cities\[0\]\.lng x is not a longitude/);
    expect(() => parseCities([{ name: 'A', state: 5, lat: 1, lng: 1 }])).toThrow(/cities\[0\]\.state 5 is not a string/);
    expect(() => parseCities([{ name: 'A', lat: 1, lng: 1, population: -1 }])).toThrow(/cities\[0\]\.population -1 is not a count/);
  });
});

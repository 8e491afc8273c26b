import { describe, it, expect } from 'vitest';
import { sortCityRows, filterCityRows, type CityRow } from './CitiesTable';
import { matchCities } from './CitySearch';
import { Router, cellAt, cellOrdinal } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';
import type { City } from '../shell/loadData';

const city = (name: string, state: string, lat: number, lng: number, population: number, country = 'US'): City => ({ name, state, country, lat, lng, population });
const CITIES = [
  city('Portland', 'OR', 45.5234, -122.6762, 632309),
  city('Portland', 'ME', 43.6615, -70.2553, 66881),
  city('New York', 'NY', 40.7143, -74.006, 8175133),
  city('Newark', 'NJ', 40.7357, -74.1724, 281944),
  city('Toronto', 'ON', 43.7001, -79.4163, 2600000, 'CA'),
];
// Cut the curve between the cities so they fall on different shards.
const ords = CITIES.map((c) => cellOrdinal(cellAt(c.lat, c.lng))).sort((a, b) => a - b);
const router = new Router(fileWithCuts([ords[1], ords[3]]));
const rows: CityRow[] = CITIES.map((c) => {
  const r = router.route(c.lat, c.lng);
  return { city: c, token: r.token, ordinal: cellOrdinal(cellAt(c.lat, c.lng)), index: r.index, shard: r.name, shardNumber: r.shard };
});

describe('sample cities table', () => {
  it('sorts tokens in key order (by ordinal), never as strings', () => {
    const sorted = sortCityRows(rows, 'token');
    expect(sorted.map((r) => r.ordinal)).toEqual([...ords]);
    expect(sortCityRows(rows, 'token', true).map((r) => r.ordinal)).toEqual([...ords].reverse());
  });

  it('sorts by shard in key order, then along the curve within a shard', () => {
    const sorted = sortCityRows(rows, 'shard');
    for (let i = 1; i < sorted.length; i++) {
      const [a, b] = [sorted[i - 1], sorted[i]];
      expect(a.index < b.index || (a.index === b.index && a.ordinal <= b.ordinal)).toBe(true);
    }
    expect(new Set(sorted.map((r) => r.index)).size).toBe(3);
  });

  it('sorts by name with state as written, and by population', () => {
    expect(sortCityRows(rows, 'name').map((r) => r.city.name)).toEqual(['New York', 'Newark', 'Portland', 'Portland', 'Toronto']);
    expect(sortCityRows(rows, 'population', true)[0].city.name).toBe('New York');
  });

  it('filters by name, state, country, token or shard, ignoring case', () => {
    expect(filterCityRows(rows, 'portland').map((r) => r.city.state)).toEqual(['OR', 'ME']);
    expect(filterCityRows(rows, 'me').map((r) => r.city.name)).toEqual(['Portland']);
    expect(filterCityRows(rows, 'ca').map((r) => r.city.name)).toContain('Toronto');
    expect(filterCityRows(rows, rows[2].token).map((r) => r.city.name)).toContain('New York');
    expect(filterCityRows(rows, rows[0].shard).length).toBeGreaterThan(0);
    expect(filterCityRows(rows, '  ')).toHaveLength(rows.length);
  });
});

describe('city search', () => {
  it('lists name-prefix matches before substring matches, the larger city first', () => {
    expect(matchCities(CITIES, 'new').map((c) => c.name)).toEqual(['New York', 'Newark']);
    expect(matchCities(CITIES, 'port').map((c) => `${c.name}, ${c.state}`)).toEqual(['Portland, OR', 'Portland, ME']);
    expect(matchCities(CITIES, 'ark').map((c) => c.name)).toEqual(['Newark']);
  });

  it('matches the state after the comma and returns nothing for an empty query', () => {
    expect(matchCities(CITIES, 'portland, me').map((c) => c.state)).toEqual(['ME']);
    expect(matchCities(CITIES, '')).toEqual([]);
    expect(matchCities(CITIES, 'p', 1)).toHaveLength(1);
  });
});

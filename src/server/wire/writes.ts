/**
 * The wire contract of the write endpoints (src/server/api/writes.ts answers them; off unless
 * the server runs with GEOSHARD_WRITES=1): the bodies, their checks (one ParamError naming the
 * first field at fault) and the answer of a write, where each owner's copy landed.
 *
 *   PUT    /api/restaurants/:id                 RestaurantBody
 *   PUT    /api/restaurants/:id/dishes/:dishId  DishBody
 *   DELETE /api/restaurants/:id                 (the restaurant with all its dishes)
 *
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 */
import { ParamError, VOCABULARY } from './common.ts';

/** Largest request body a write accepts (bytes). */
export const MAX_WRITE_BODY_BYTES = 16_384;
/** What a document id may be: 1..64 characters of [A-Za-z0-9_-]. */
export const WRITE_ID_RE = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest name (characters). */
export const MAX_NAME_CHARS = 200;
/** Ranges of the integer fields, inclusive. */
export const PRICE_LEVEL_RANGE = [1, 4] as const;
export const PRICE_CENTS_RANGE = [0, 100_000] as const;
export const CALORIES_RANGE = [0, 10_000] as const;

/** The body of PUT /api/restaurants/:id: the whole restaurant (its dishes are kept and rewritten with it). */
export interface RestaurantBody {
  name: string;
  /** Degrees, lat in [-90, 90], lng in [-180, 180]. */
  lat: number;
  lng: number;
  /** Values of VOCABULARY.cuisine. */
  cuisines?: string[];
  /** Integer 1 (cheap) .. 4. */
  price_level?: number;
}

/** The body of PUT /api/restaurants/:id/dishes/:dishId: the whole dish. */
export interface DishBody {
  name: string;
  /** A value of VOCABULARY.cuisine. */
  cuisine?: string;
  /** US cents, integer 0 .. 100000. */
  price_cents?: number;
  /** kcal, integer 0 .. 10000. */
  calories?: number;
  diets?: string[];
  allergens?: string[];
}

/** The keys each body accepts; any other key is a 400. */
export const RESTAURANT_BODY_FIELDS = ['name', 'lat', 'lng', 'cuisines', 'price_level'] as const;
export const DISH_BODY_FIELDS = ['name', 'cuisine', 'price_cents', 'calories', 'diets', 'allergens'] as const;

const showJson = (v: unknown): string => {
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? s.slice(0, 57) + '...' : s;
};

/** parseWriteId checks an id of a write path (`id` or `dishId`, already percent-decoded); throws ParamError naming it. */
export function parseWriteId(param: 'id' | 'dishId', raw: string): string {
  if (!WRITE_ID_RE.test(raw)) throw new ParamError(param, `${param} ${showJson(raw)} is invalid: expected 1 to 64 characters of A-Z, a-z, 0-9, "_" and "-"`);
  return raw;
}

function bodyObject(v: unknown, fields: readonly string[], what: string): Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new ParamError('body', `the body ${showJson(v)} is not a JSON object: expected ${what} { ${fields.join(', ')} }`);
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!fields.includes(k)) throw new ParamError(k, `${showJson(k)} is not a field of ${what}: expected only ${fields.join(', ')}`);
  }
  return o;
}

function nameField(o: Record<string, unknown>): string {
  const v = o.name;
  if (v === undefined) throw new ParamError('name', `name is missing: give a non-empty string of at most ${MAX_NAME_CHARS} characters`);
  if (typeof v !== 'string' || v.trim() === '' || [...v].length > MAX_NAME_CHARS) throw new ParamError('name', `name ${showJson(v)} is invalid: expected a non-empty string of at most ${MAX_NAME_CHARS} characters`);
  return v;
}

function degreesField(o: Record<string, unknown>, k: 'lat' | 'lng', limit: number): number {
  const v = o[k];
  if (v === undefined) throw new ParamError(k, `${k} is missing: give a JSON number of degrees in [-${limit}, ${limit}]`);
  if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > limit) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected a JSON number of degrees in [-${limit}, ${limit}], such as ${k === 'lat' ? '37.7749' : '-122.4194'}`);
  return v;
}

function intField(o: Record<string, unknown>, k: string, [lo, hi]: readonly [number, number]): number | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected an integer in [${lo}, ${hi}]`);
  return v;
}

function termField(o: Record<string, unknown>, k: string, vocabulary: readonly string[]): string | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !vocabulary.includes(v)) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected one of ${vocabulary.join(', ')}`);
  return v;
}

function termsField(o: Record<string, unknown>, k: string, vocabulary: readonly string[]): string[] | undefined {
  const v = o[k];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw new ParamError(k, `${k} ${showJson(v)} is invalid: expected an array of values from ${vocabulary.join(', ')}`);
  for (const x of v) {
    if (typeof x !== 'string' || !vocabulary.includes(x)) throw new ParamError(k, `${k} value ${showJson(x)} is invalid: expected values from ${vocabulary.join(', ')}`);
  }
  if (new Set(v).size !== v.length) throw new ParamError(k, `${k} ${showJson(v)} repeats a value: give each value once`);
  return [...v] as string[];
}

/** parseRestaurantBody checks a parsed JSON body of PUT /api/restaurants/:id; throws ParamError naming the first field at fault. */
export function parseRestaurantBody(v: unknown): RestaurantBody {
  const o = bodyObject(v, RESTAURANT_BODY_FIELDS, 'a restaurant');
  const out: RestaurantBody = { name: nameField(o), lat: degreesField(o, 'lat', 90), lng: degreesField(o, 'lng', 180) };
  const cuisines = termsField(o, 'cuisines', VOCABULARY.cuisine);
  if (cuisines) out.cuisines = cuisines;
  const price = intField(o, 'price_level', PRICE_LEVEL_RANGE);
  if (price !== undefined) out.price_level = price;
  return out;
}

/** parseDishBody checks a parsed JSON body of PUT /api/restaurants/:id/dishes/:dishId; throws ParamError naming the first field at fault. */
export function parseDishBody(v: unknown): DishBody {
  const o = bodyObject(v, DISH_BODY_FIELDS, 'a dish');
  const out: DishBody = { name: nameField(o) };
  const cuisine = termField(o, 'cuisine', VOCABULARY.cuisine);
  if (cuisine !== undefined) out.cuisine = cuisine;
  const cents = intField(o, 'price_cents', PRICE_CENTS_RANGE);
  if (cents !== undefined) out.price_cents = cents;
  const kcal = intField(o, 'calories', CALORIES_RANGE);
  if (kcal !== undefined) out.calories = kcal;
  const diets = termsField(o, 'diets', VOCABULARY.diet);
  if (diets) out.diets = diets;
  const allergens = termsField(o, 'allergens', VOCABULARY.allergen);
  if (allergens) out.allergens = allergens;
  return out;
}

/** One owner a write went to: its routing name and shard; `read` is the owner searches read (the core's shard), `write` a second owner during a move. */
export interface WriteOwner {
  name: string;
  shard: number;
  role: 'read' | 'write';
}

/** What OpenSearch says about one owner after the write: the shard (and node) holding the document, read back from the engine. */
export interface WriteAck {
  routing: string;
  shard: number;
  node: string | null;
  result: 'created' | 'updated' | 'deleted' | 'not_found';
}

/** The 200 answer of a write. */
export interface WriteAnswer {
  status: 'written' | 'deleted';
  kind: 'restaurant' | 'dish';
  /** The document written (the dish's id for a dish). */
  id: string;
  restaurantId: string;
  /** The restaurant's location (degrees). */
  location: { lat: number; lng: number };
  /** The restaurant's level-10 token. */
  cell: string;
  /** The shard the core names for the cell (the read owner). */
  core: { name: string; shard: number };
  /** Every owner written: 1, or 2 during a migration. */
  owners: WriteOwner[];
  /** Per owner, what the engine says after the write. */
  acknowledged: WriteAck[];
  /** Dishes rewritten (restaurant put) or deleted (restaurant delete); 0 for a dish put. */
  dishes: number;
  /** The migration epoch written under, null when settled. */
  epoch: number | null;
}

/**
 * The documents of a geoshard index (shape 2, see meta.ts DOC_SHAPE): one
 * place that says what a restaurant and a dish look like in the index, for
 * `geoshard seed` (src/data/sample.ts) and the package's writer.
 *
 *   restaurant (parent): id, name, place, state, location, cell (level-10 token),
 *                        shard (its routing name), cuisines, price_level, dish_count
 *   dish (child):        id, restaurant_id, name, cuisine, diets, allergens, ingredients,
 *                        calories (kcal), price_cents (US cents), and copies of its
 *                        restaurant: `restaurant` (id, name, place, state, location,
 *                        cuisines) and `restaurant_location`
 *
 * A dish's copies of its restaurant mean a change of the restaurant rewrites
 * its dishes (GeoIndexer.putRestaurant does). Fields left undefined are left
 * out of the document.
 */
import { cellAt, cellToken } from '../core/index.ts';
import { CHILD, JOIN_FIELD, PARENT } from './sampleIndex.ts';

/** What a restaurant document is made of. lat/lng in degrees. */
export interface RestaurantFields {
  id: string;
  name: string;
  lat: number;
  lng: number;
  /** The level-10 token of (lat, lng); computed when absent. */
  cell?: string;
  place?: string;
  state?: string;
  /** Values of the vocabulary's cuisines, the main one first. */
  cuisines?: string[];
  /** 1 (cheap) .. 4. */
  priceLevel?: number;
  /** Dishes the restaurant has. */
  dishCount?: number;
}

/** What a dish document is made of (its restaurant's copy comes from RestaurantFields). */
export interface DishFields {
  id: string;
  name: string;
  cuisine?: string;
  diets?: string[];
  allergens?: string[];
  ingredients?: string[];
  /** kcal per serving, an integer. */
  calories?: number;
  /** US cents. */
  priceCents?: number;
}

/** A document's source: what `_source` holds. */
export type Source = Record<string, unknown>;

/** cellOf returns the level-10 token of a point (degrees). */
export function cellOf(lat: number, lng: number): string {
  return cellToken(cellAt(lat, lng));
}

/** restaurantSource returns a restaurant's document for the copy routed with `routing` (its `shard` field names it). */
export function restaurantSource(r: RestaurantFields, routing: string): Source {
  return {
    [JOIN_FIELD]: PARENT,
    id: r.id,
    name: r.name,
    place: r.place,
    state: r.state,
    location: { lat: r.lat, lon: r.lng },
    cell: r.cell ?? cellOf(r.lat, r.lng),
    shard: routing,
    cuisines: r.cuisines,
    price_level: r.priceLevel,
    dish_count: r.dishCount,
  };
}

/** restaurantCopy returns what a dish carries of its restaurant (`restaurant`, stored, not indexed). */
export function restaurantCopy(r: Pick<RestaurantFields, 'id' | 'name' | 'place' | 'state' | 'lat' | 'lng' | 'cuisines'>): Source {
  return { id: r.id, name: r.name, place: r.place, state: r.state, location: { lat: r.lat, lon: r.lng }, cuisines: r.cuisines };
}

/** dishSource returns a dish's document: a child of `r`, carrying its copy of `r` (routed as `r`: a child lives on its parent's shard). */
export function dishSource(d: DishFields, r: RestaurantFields): Source {
  return {
    [JOIN_FIELD]: { name: CHILD, parent: r.id },
    id: d.id,
    restaurant_id: r.id,
    restaurant: restaurantCopy(r),
    restaurant_location: { lat: r.lat, lon: r.lng },
    name: d.name,
    cuisine: d.cuisine,
    diets: d.diets,
    allergens: d.allergens,
    ingredients: d.ingredients,
    calories: d.calories,
    price_cents: d.priceCents,
  };
}

/** withRestaurant returns a dish's source with its copies of the restaurant replaced by `r`'s (the rest unchanged). */
export function withRestaurant(dish: Source, r: RestaurantFields): Source {
  return { ...dish, [JOIN_FIELD]: { name: CHILD, parent: r.id }, restaurant_id: r.id, restaurant: restaurantCopy(r), restaurant_location: { lat: r.lat, lon: r.lng } };
}

/** kindOf says whether a source is a restaurant or a dish (by its join field), or null for neither. */
export function kindOf(source: Source): 'restaurant' | 'dish' | null {
  const j = source[JOIN_FIELD];
  const name = typeof j === 'string' ? j : (j as { name?: unknown } | undefined)?.name;
  return name === PARENT ? 'restaurant' : name === CHILD ? 'dish' : null;
}

/** withShard returns the source of the copy routed with `routing`: a restaurant's `shard` field names it; a dish is unchanged. */
export function withShard(source: Source, routing: string): Source {
  return kindOf(source) === 'restaurant' && source.shard !== routing ? { ...source, shard: routing } : source;
}

/** restaurantOfSource reads a restaurant document's fields back (null when it is not a restaurant with a location). */
export function restaurantOfSource(s: Source): RestaurantFields | null {
  const loc = pointOf(s.location);
  if (kindOf(s) !== 'restaurant' || typeof s.id !== 'string' || !loc) return null;
  return {
    id: s.id,
    name: String(s.name ?? ''),
    lat: loc.lat,
    lng: loc.lng,
    cell: typeof s.cell === 'string' ? s.cell : undefined,
    place: typeof s.place === 'string' ? s.place : undefined,
    state: typeof s.state === 'string' ? s.state : undefined,
    cuisines: Array.isArray(s.cuisines) ? (s.cuisines as string[]) : undefined,
    priceLevel: typeof s.price_level === 'number' ? s.price_level : undefined,
    dishCount: typeof s.dish_count === 'number' ? s.dish_count : undefined,
  };
}

/**
 * pointOf reads a geo_point as OpenSearch accepts it: { lat, lon }, "lat,lon",
 * [lon, lat] (GeoJSON order) or a GeoJSON Point; degrees. Null for anything else
 * (a geohash is not read).
 */
export function pointOf(v: unknown): { lat: number; lng: number } | null {
  const ok = (lat: number, lng: number) => (Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null);
  if (Array.isArray(v) && v.length >= 2 && typeof v[0] === 'number' && typeof v[1] === 'number') return ok(v[1], v[0]);
  if (typeof v === 'string') {
    const m = /^\s*(-?[\d.]+)\s*,\s*(-?[\d.]+)\s*$/.exec(v);
    return m ? ok(Number(m[1]), Number(m[2])) : null;
  }
  if (v && typeof v === 'object') {
    const o = v as { lat?: unknown; lon?: unknown; type?: unknown; coordinates?: unknown };
    if (typeof o.lat === 'number' && typeof o.lon === 'number') return ok(o.lat, o.lon);
    if (o.type === 'Point') return pointOf(o.coordinates);
  }
  return null;
}

/**
 * fieldAt returns the value at a field path of a source, as OpenSearch maps
 * it: a key holding the whole dotted path (`{ "a.b": v }`), else nested
 * objects (`{ a: { b: v } }`); undefined when there is none.
 */
export function fieldAt(source: Source | undefined, path: string): unknown {
  if (!source) return undefined;
  if (Object.prototype.hasOwnProperty.call(source, path)) return source[path];
  let cur: unknown = source;
  for (const part of path.split('.')) {
    if (!cur || typeof cur !== 'object' || Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

/** withFieldAt returns the source with `value` at a field path (where fieldAt finds it: a dotted key, else nested objects, made as needed). */
export function withFieldAt(source: Source, path: string, value: unknown): Source {
  if (Object.prototype.hasOwnProperty.call(source, path) || !path.includes('.')) return { ...source, [path]: value };
  const [head, ...rest] = path.split('.');
  const inner = source[head];
  return { ...source, [head]: withFieldAt(inner && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Source) : {}, rest.join('.'), value) };
}

/** relationOf returns a join field's relation name (the field is `"parent"` or `{ name, parent }`): undefined when the field is absent, null when it names none. */
export function relationOf(v: unknown): string | null | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string') return v;
  const name = (v as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name : null;
}

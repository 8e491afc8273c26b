/**
 * The bundled sample's documents (shape 2, see sampleIndex.ts DOC_SHAPE): one
 * place that says what a restaurant and a dish look like in the index, for
 * `geoshard seed` (src/data/sample.ts) and the package's writer (SampleIndexer).
 *
 *   restaurant (parent): id, name, place, state, location, cell (level-10 token),
 *                        shard (its routing name), cuisines, price_level, dish_count
 *   dish (child):        id, restaurant_id, name, cuisine, diets, allergens, ingredients,
 *                        calories (kcal), price_cents (US cents), and copies of its
 *                        restaurant: `restaurant` (id, name, place, state, location,
 *                        cuisines) and `restaurant_location`
 *
 * A dish's copies of its restaurant mean a change of the restaurant rewrites
 * its dishes (SampleIndexer.putRestaurant does). Fields left undefined are left
 * out of the document.
 */
import { CHILD, JOIN_FIELD, PARENT } from './sampleIndex.ts';
import { cellOf, pointOf, type Source } from './documentFields.ts';

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

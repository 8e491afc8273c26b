/**
 * The synthetic US restaurant dataset: restaurants (parents, with a location)
 * spread around real US places, and their dishes (children).
 *
 * Pure TypeScript, no Node APIs: give it the places (see places.ts) and it
 * returns the same dataset on every run and every machine. Everything is a
 * function of a fixed seed and of small integers (see prng.ts):
 *
 * - Restaurant counts per place: largest-remainder apportionment of
 *   TOTAL_RESTAURANTS in proportion to population (the total is exact).
 * - Restaurant i's location: a 2-D Gaussian around its place, sigma in km
 *   growing like sqrt(population), truncated at 3 sigma (the spread rule of
 *   src/core/sampling.ts, which the synthetic workload shares).
 * - Restaurant i's dish count: log-normal (median ~60, mean ~85), clamped.
 * - Names, cuisines, price level and every dish attribute: drawn lazily from
 *   the restaurant's index (and the dish's index) by `restaurantAt` and
 *   `dishesOf`. The full dataset only ever holds per-restaurant counts.
 *
 * Units: latitudes/longitudes in degrees, distances in km, prices in US cents.
 */
import { cellFromOrdinal, cellToken, ordinalAt } from '../core/cells.ts';
import { gaussianAround, spreadKm } from '../core/sampling.ts';
import type { City, UsPlace } from '../core/place.ts';
import { hash3, hash4, hashString, Rng } from './prng.ts';
import { ALLERGENS, DIETS, CUISINES, type Allergen, type Diet } from './vocabulary.ts';
import { INGREDIENTS, CUISINES_BY_INDEX, CUISINE_WEIGHTS, CUISINE_BY_KEY, type Cuisine } from './menu.ts';

// The allergens, diets and cuisine keys (vocabulary.ts, shared with the wire contract).
export { ALLERGENS, DIETS, CUISINES, type Allergen, type Diet };

/** The seed every draw of the dataset derives from. Changing it changes everything. */
export const SEED = hashString('geoshard/restaurants/v1');

/** Number of restaurants in the full dataset (exact). */
export const TOTAL_RESTAURANTS = 650_000;

/** Dish counts: round(exp(mu + s·z)), z standard normal, clamped to [DISHES_MIN, DISHES_MAX]. */
export const DISHES_MEDIAN = 60;
/** s² = 2·ln(85/60): the untruncated mean is 85. */
export const DISHES_LOG_SIGMA = Math.sqrt(2 * Math.log(85 / 60));
export const DISHES_MIN = 5;
export const DISHES_MAX = 600;

/** Named PRNG streams: one per kind of draw, so draws never correlate. */
const STREAM_PLACE = 1;
const STREAM_DISH_COUNT = 2;
const STREAM_ATTRS = 3;
const STREAM_DISH = 4;

/**
 * restaurantLocation returns restaurant `index`'s location (degrees, 6
 * decimals, ~0.1 m, so a location written out maps to the same cell) around
 * its place: the spread rule's Gaussian of sigma `spreadKm(population)` km
 * truncated at MAX_SIGMAS (src/core/sampling.ts gaussianAround), drawn from the
 * restaurant's own stream. Longitudes wrap into [-180, 180).
 */
export function restaurantLocation(place: UsPlace, index: number): { lat: number; lng: number } {
  const rng = new Rng(hash3(SEED, index, STREAM_PLACE));
  return gaussianAround(place.lat, place.lng, spreadKm(place.population), () => rng.float(), 6);
}

/** dishCountOf returns restaurant `index`'s number of dishes, in [DISHES_MIN, DISHES_MAX]. */
export function dishCountOf(index: number): number {
  const z = new Rng(hash3(SEED, index, STREAM_DISH_COUNT)).normal();
  const n = Math.round(DISHES_MEDIAN * Math.exp(DISHES_LOG_SIGMA * z));
  return Math.min(DISHES_MAX, Math.max(DISHES_MIN, n));
}

/**
 * apportion splits `total` among weights in proportion (largest remainder
 * method: floors, then one more to the largest fractional parts, ties to the
 * lower index). The result sums to `total` exactly.
 */
export function apportion(weights: readonly number[], total: number): number[] {
  let sum = 0;
  for (const w of weights) sum += w;
  const counts = new Array<number>(weights.length);
  const rem = new Array<number>(weights.length);
  let given = 0;
  for (let i = 0; i < weights.length; i++) {
    const q = (weights[i] * total) / sum;
    counts[i] = Math.floor(q);
    rem[i] = q - counts[i];
    given += counts[i];
  }
  const order = weights.map((_, i) => i).sort((a, b) => rem[b] - rem[a] || a - b);
  for (let j = 0; j < total - given; j++) counts[order[j]]++;
  return counts;
}

/** One non-empty level-10 cell and what it holds. */
export interface CellCount {
  /** Curve ordinal of the cell (see core/cells.ts); cells sort by it. */
  ordinal: number;
  /** S2 token of the cell. */
  token: string;
  restaurants: number;
  dishes: number;
}

/**
 * The full dataset as counts: where each restaurant is and how many dishes it
 * has, never the dishes themselves. Restaurant indices run over the places in
 * GeoNames-id order: place p owns indices [placeStart[p], placeStart[p + 1]).
 */
export interface Dataset {
  /** The places, sorted by GeoNames id. */
  places: readonly UsPlace[];
  /** Length places.length + 1; prefix sums of restaurants per place. */
  placeStart: Uint32Array;
  restaurantCount: number;
  dishTotal: number;
  /** Per restaurant: degrees (6 decimals), cell ordinal, dish count. */
  lat: Float64Array;
  lng: Float64Array;
  ordinal: Uint32Array;
  dishCount: Uint16Array;
  /** Restaurant indices sorted by (cell ordinal, index): key order. */
  order: Uint32Array;
  /** Non-empty cells, ascending ordinal. */
  cells: CellCount[];
}

/**
 * generateDataset places `total` restaurants (default TOTAL_RESTAURANTS)
 * around the places in proportion to population, draws their dish counts and
 * aggregates them per level-10 cell. `onProgress(done, total)` is called now
 * and then while placing. ~1–2 s for the full US set.
 */
export function generateDataset(
  placesIn: readonly UsPlace[],
  total = TOTAL_RESTAURANTS,
  onProgress?: (done: number, total: number) => void,
): Dataset {
  const places = placesIn.filter((p) => p.population > 0).sort((a, b) => a.id - b.id);
  if (places.length === 0) throw new RangeError('generateDataset: no places with a population');
  const counts = apportion(
    places.map((p) => p.population),
    total,
  );
  const placeStart = new Uint32Array(places.length + 1);
  for (let p = 0; p < places.length; p++) placeStart[p + 1] = placeStart[p] + counts[p];
  const lat = new Float64Array(total);
  const lng = new Float64Array(total);
  const ordinal = new Uint32Array(total);
  const dishCount = new Uint16Array(total);
  let dishTotal = 0;
  for (let p = 0; p < places.length; p++) {
    for (let i = placeStart[p]; i < placeStart[p + 1]; i++) {
      const loc = restaurantLocation(places[p], i);
      lat[i] = loc.lat;
      lng[i] = loc.lng;
      ordinal[i] = ordinalAt(loc.lat, loc.lng);
      dishCount[i] = dishCountOf(i);
      dishTotal += dishCount[i];
      if (onProgress && i % 100_000 === 0) onProgress(i, total);
    }
  }
  onProgress?.(total, total);
  // Sort by (ordinal, index) via exact float keys ordinal·2^b + index (< 2^53).
  const scale = 2 ** Math.max(1, Math.ceil(Math.log2(total + 1)));
  const keys = new Float64Array(total);
  for (let i = 0; i < total; i++) keys[i] = ordinal[i] * scale + i;
  keys.sort();
  const order = new Uint32Array(total);
  const cells: CellCount[] = [];
  for (let j = 0; j < total; j++) {
    const i = keys[j] % scale;
    order[j] = i;
    const last = cells[cells.length - 1];
    if (last && last.ordinal === ordinal[i]) {
      last.restaurants++;
      last.dishes += dishCount[i];
    } else {
      cells.push({ ordinal: ordinal[i], token: '', restaurants: 1, dishes: dishCount[i] });
    }
  }
  for (const c of cells) c.token = cellToken(cellFromOrdinal(c.ordinal));
  return { places, placeStart, restaurantCount: total, dishTotal, lat, lng, ordinal, dishCount, order, cells };
}

/** The header of a cells file. */
export const CELLS_CSV_HEADER = 'token,restaurants,dishes';

/** cellsCsv returns the cells file text: header, one row per cell in the given (ordinal) order, LF, trailing newline. */
export function cellsCsv(cells: readonly CellCount[]): string {
  const rows = [CELLS_CSV_HEADER];
  for (const c of cells) rows.push(`${c.token},${c.restaurants},${c.dishes}`);
  return rows.join('\n') + '\n';
}

/** citiesJson returns the cities file text: a JSON array, one city per line, trailing newline. */
export function citiesJson(cities: readonly City[]): string {
  const rows = cities.map(({ name, state, country, lat, lng, population }) =>
    '  ' + JSON.stringify({ name, state, country, lat, lng, population }),
  );
  return '[\n' + rows.join(',\n') + '\n]\n';
}

/** restaurantId returns the id of restaurant `index`, e.g. "r000123" (at least 6 digits). */
export function restaurantId(index: number): string {
  return 'r' + String(index).padStart(6, '0');
}

/** placeIndexOf returns the index (into ds.places) of the place restaurant `index` belongs to. */
export function placeIndexOf(ds: Dataset, index: number): number {
  if (!Number.isInteger(index) || index < 0 || index >= ds.restaurantCount) {
    throw new RangeError(`restaurant index ${index} is out of range: expected an integer in [0, ${ds.restaurantCount})`);
  }
  let lo = 0;
  let hi = ds.places.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ds.placeStart[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * sampleRestaurants returns n distinct restaurants (n clamped to the dataset
 * size) spread over the country: a systematic sample along the Hilbert curve
 * (every (N/n)-th restaurant in key order), so every region keeps its share.
 * Returned in key order. Deterministic.
 */
export function sampleRestaurants(ds: Dataset, n: number): Restaurant[] {
  const N = ds.restaurantCount;
  const k = Math.max(0, Math.min(N, Math.floor(n)));
  const out: Restaurant[] = [];
  for (let j = 0; j < k; j++) out.push(restaurantAt(ds, ds.order[Math.floor(((j + 0.5) * N) / k)]));
  return out;
}

// ---------------------------------------------------------------------------
// Restaurants and dishes, drawn lazily.

/** A restaurant (parent document). */
export interface Restaurant {
  /** Position in the full dataset, in [0, restaurantCount). */
  index: number;
  /** "r" + index, at least 6 digits, e.g. "r000123". */
  id: string;
  name: string;
  /** Name of the GeoNames place it belongs to, and that place's state code. */
  place: string;
  state: string;
  /** GeoNames id of the place. */
  placeId: number;
  /** Degrees, 6 decimals. */
  lat: number;
  lng: number;
  /** Level-10 S2 token of (lat, lng). */
  cell: string;
  /** 1 or 2 keys of CUISINES, the main one first. */
  cuisines: string[];
  /** 1 (cheap) .. 4 (expensive). */
  priceLevel: number;
  /** Number of dishes (`dishesOf(r).length`). */
  dishCount: number;
}

/** A dish (child document of its restaurant). */
export interface Dish {
  /** `<restaurantId>-d<k>`, k = 0 .. dishCount − 1. */
  id: string;
  restaurantId: string;
  name: string;
  /** One of the restaurant's cuisines. */
  cuisine: string;
  /** Subset of DIETS, in DIETS order, consistent with ingredients and allergens. */
  diets: Diet[];
  /** Subset of ALLERGENS, in ALLERGENS order: those of the ingredients. */
  allergens: Allergen[];
  /** 3 to 8 distinct ingredients. */
  ingredients: string[];
  /** kcal per serving, an integer. */
  calories: number;
  /** US cents (e.g. 1299 = $12.99). */
  priceCents: number;
}

const NAME_ONSETS = ['B', 'C', 'D', 'F', 'G', 'L', 'M', 'N', 'P', 'R', 'S', 'T', 'V', 'Z', 'Br', 'Ch', 'Gr', 'Sh', 'K', 'J', 'H', 'Al', 'El', 'Or'];
const NAME_VOWELS = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'io', 'ou', 'a', 'e', 'o'];
const NAME_MIDDLES = ['l', 'r', 'n', 'm', 's', 'v', 't', 'z', 'nd', 'll', 'nt', 'rd', 'b', 'c', 'd'];
const NAME_ENDINGS = ['a', 'o', 'i', 'e', 'an', 'el', 'on', 'ia', 'ey', 'ino', 'ara', 'etti', 'o', 'a'];
const NAME_ADJECTIVES = ['Golden', 'Blue', 'Red', 'Silver', 'Little', 'Old', 'Green', 'Lucky', 'Happy', 'Rustic', 'Urban', 'Wild', 'Salty', 'Smoky', 'Sunny', 'Copper', 'Hidden', 'Twin', 'Crooked', 'Humble'];
const NAME_NOUNS = ['Lantern', 'Spoon', 'Fork', 'Oak', 'Pepper', 'Olive', 'Dragon', 'Garden', 'Harbor', 'Lotus', 'Anchor', 'Table', 'Bowl', 'Barrel', 'Fig', 'Ember', 'Kettle', 'Heron', 'Sparrow', 'Lemon'];
const NAME_GENERICS = ['Kitchen', 'Grill', 'Table', 'Place', 'Eatery', 'House', 'Corner', 'Bar & Grill'];
const DISH_MODIFIERS = ['House', 'Classic', 'Spicy', "Chef's", 'Signature', 'Homestyle', "Grandma's", 'Seasonal', 'Deluxe', 'Mini', 'Family-Style', 'Smoky', 'Crispy', 'Garden'];

/** madeUpName returns a pronounceable two- or three-syllable name, e.g. "Marenzo". */
function madeUpName(rng: Rng): string {
  let s = rng.pick(NAME_ONSETS) + rng.pick(NAME_VOWELS);
  if (rng.chance(0.4)) s += rng.pick(NAME_MIDDLES) + rng.pick(NAME_VOWELS);
  return s + rng.pick(NAME_MIDDLES) + rng.pick(NAME_ENDINGS);
}

/** restaurantName draws a restaurant name fitting its main cuisine. */
function restaurantName(rng: Rng, cuisine: Cuisine): string {
  const u = rng.float();
  if (u < 0.5) return rng.pick(cuisine.venues).replace('*', madeUpName(rng));
  if (u < 0.7) return `${madeUpName(rng)}'s ${rng.pick(NAME_GENERICS)}`;
  const an = `${rng.pick(NAME_ADJECTIVES)} ${rng.pick(NAME_NOUNS)}`;
  return rng.chance(0.5) ? an : rng.pick(cuisine.venues).replace('*', an);
}

/** Price level weights (1..4). */
const PRICE_WEIGHTS = [0.34, 0.4, 0.19, 0.07];

/** Dish price range per price level, in USD: [low, high]. */
const PRICE_RANGES_USD: [number, number][] = [
  [5, 14],
  [9, 24],
  [16, 42],
  [28, 85],
];

/** restaurantAt returns restaurant `index` of the dataset with all its attributes. */
export function restaurantAt(ds: Dataset, index: number): Restaurant {
  const p = placeIndexOf(ds, index);
  const place = ds.places[p];
  const rng = new Rng(hash3(SEED, index, STREAM_ATTRS));
  const main = rng.weighted(CUISINE_WEIGHTS);
  const cuisines = [CUISINES_BY_INDEX[main].key];
  if (rng.chance(0.35)) {
    const second = rng.weighted(CUISINE_WEIGHTS.map((w, i) => (i === main ? 0 : w)));
    cuisines.push(CUISINES_BY_INDEX[second].key);
  }
  const priceLevel = 1 + rng.weighted(PRICE_WEIGHTS);
  const name = restaurantName(rng, CUISINES_BY_INDEX[main]);
  const lat = ds.lat[index];
  const lng = ds.lng[index];
  return {
    index,
    id: restaurantId(index),
    name,
    place: place.name,
    state: place.state,
    placeId: place.id,
    lat,
    lng,
    cell: cellToken(cellFromOrdinal(ds.ordinal[index])),
    cuisines,
    priceLevel,
    dishCount: ds.dishCount[index],
  };
}

const STREAM_CERT = 5;
const BIT = (a: Allergen): number => 1 << ALLERGENS.indexOf(a);
const ANIMAL_SEAFOOD = BIT('fish') | BIT('crustaceans') | BIT('molluscs');
const VEGAN_FORBIDDEN = ANIMAL_SEAFOOD | BIT('milk') | BIT('eggs');

/** titleCase turns "pine nuts" into "Pine Nuts". */
function titleCase(s: string): string {
  return s.replace(/(^|\s)(\S)/g, (_, sp: string, ch: string) => sp + ch.toUpperCase());
}

/**
 * dishAt returns dish k of restaurant r. `halal` / `kosher` say whether the
 * restaurant is certified; the labels then also need suitable ingredients.
 */
function dishAt(r: Restaurant, k: number, halal: boolean, kosher: boolean): Dish {
  const rng = new Rng(hash4(SEED, r.index, k, STREAM_DISH));
  const cuisineKey = r.cuisines.length > 1 && rng.chance(0.3) ? r.cuisines[1] : r.cuisines[0];
  const cuisine = CUISINE_BY_KEY.get(cuisineKey);
  if (!cuisine) throw new RangeError(`restaurant ${r.id}: unknown cuisine ${JSON.stringify(cuisineKey)}`);
  const base = rng.pick(cuisine.dishes);
  const target = rng.int(3, 8);
  const ingredients = base.core.slice();
  for (const extra of rng.sample(cuisine.pantry, cuisine.pantry.length)) {
    if (ingredients.length >= target) break;
    if (!ingredients.includes(extra)) ingredients.push(extra);
  }
  let name = base.name;
  if (rng.chance(0.3)) name = `${rng.pick(DISH_MODIFIERS)} ${name}`;
  if (ingredients.length > base.core.length && rng.chance(0.2)) name += ` with ${titleCase(ingredients[base.core.length])}`;

  let mask = 0;
  let flags = '';
  let kcal = 60;
  for (const ing of ingredients) {
    const info = INGREDIENTS.get(ing)!;
    mask |= info.allergens;
    flags += info.flags;
    if (info.flags.includes('a')) kcal += 170;
    else if (info.flags.includes('c')) kcal += 150;
    else if (info.allergens & (BIT('milk') | BIT('nuts') | BIT('peanuts'))) kcal += 110;
    else if (info.allergens & ANIMAL_SEAFOOD) kcal += 120;
    else kcal += 25;
  }
  const meat = flags.includes('a');
  const vegetarian = !meat && !(mask & ANIMAL_SEAFOOD);
  const diets: Diet[] = [];
  if (vegetarian) diets.push('vegetarian');
  if (vegetarian && !(mask & VEGAN_FORBIDDEN) && !flags.includes('o')) diets.push('vegan');
  if (!(mask & BIT('gluten'))) diets.push('gluten-free');
  if (!(mask & BIT('milk'))) diets.push('dairy-free');
  if (!flags.includes('c')) diets.push('keto');
  if (halal && !flags.includes('p') && !flags.includes('x')) diets.push('halal');
  if (kosher && !flags.includes('p') && !(mask & (BIT('crustaceans') | BIT('molluscs'))) && !(meat && mask & BIT('milk'))) {
    diets.push('kosher');
  }
  const [lo, hi] = PRICE_RANGES_USD[r.priceLevel - 1] ?? PRICE_RANGES_USD[1];
  const usd = lo * Math.pow(hi / lo, rng.float());
  return {
    id: `${r.id}-d${k}`,
    restaurantId: r.id,
    name,
    cuisine: cuisine.key,
    diets,
    allergens: ALLERGENS.filter((_, b) => mask & (1 << b)),
    ingredients,
    calories: Math.round(kcal * (0.8 + 0.45 * rng.float())),
    priceCents: Math.round(usd * 2) * 50 - 1,
  };
}

/** certifications draws whether a restaurant is halal / kosher certified (likelier for some cuisines). */
function certifications(r: Restaurant): { halal: boolean; kosher: boolean } {
  const rng = new Rng(hash3(SEED, r.index, STREAM_CERT));
  const cs = r.cuisines.map((c) => CUISINE_BY_KEY.get(c)).filter((c): c is Cuisine => c !== undefined);
  return {
    halal: rng.chance(Math.max(0, ...cs.map((c) => c.halal))),
    kosher: rng.chance(Math.max(0, ...cs.map((c) => c.kosher))),
  };
}

/**
 * dishesOf returns the restaurant's `dishCount` dishes, generated on demand
 * from the restaurant's index, cuisines and price level (never stored).
 */
export function dishesOf(r: Restaurant): Dish[] {
  const { halal, kosher } = certifications(r);
  const out: Dish[] = [];
  for (let k = 0; k < r.dishCount; k++) out.push(dishAt(r, k, halal, kosher));
  return out;
}

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
// Lexicon: allergens, diets, ingredients, cuisines.

// The allergens, diets and cuisine keys (vocabulary.ts, shared with the wire module).
export { ALLERGENS, DIETS, CUISINES, type Allergen, type Diet };
/** One-letter codes of ALLERGENS used in the ingredient table, same order. */
const ALLERGEN_CODES = 'GMENPSFCLYUZWK';


/**
 * Ingredients by tag string: upper-case letters are allergens (ALLERGEN_CODES),
 * lower-case are flags: a = meat, p = pork, c = high-carb (not keto),
 * o = other animal product (not vegan), x = alcohol.
 */
const INGREDIENT_GROUPS: Record<string, string> = {
  a: 'chicken,beef,lamb,turkey,duck,veal,goat,oxtail',
  ap: 'pork,bacon,ham,pancetta,chorizo,prosciutto,pepperoni,sausage,serrano ham',
  F: 'salmon,tuna,cod,anchovies,fish sauce,bonito flakes,dashi,catfish,sea bass,salt cod',
  FG: 'surimi,fish cake',
  C: 'shrimp,crab,lobster,crawfish,shrimp paste,green curry paste,massaman paste',
  CF: 'kimchi',
  L: 'clams,mussels,squid,octopus,oysters,scallops,conch,oyster sauce',
  M: 'mozzarella,parmesan,cheddar,butter,cream,milk,buttermilk,yogurt,feta,paneer,ricotta,cotija,ghee,sour cream,' +
    'goat cheese,gruyère,blue cheese,mascarpone,halloumi,tzatziki,monterey jack,manchego,swiss cheese,niter kibbeh,ayib,akkawi',
  Mc: 'chocolate',
  E: 'egg,aioli',
  EU: 'mayonnaise,coleslaw',
  EM: 'hollandaise',
  Gc: 'wheat flour,pasta,bread,flour tortilla,udon,ramen noodles,pita,pizza dough,breadcrumbs,panko,croutons,couscous,' +
    'bulgur,baguette,phyllo,orzo,english muffin,oats,kataifi',
  GEc: 'egg noodles,ladyfingers,gnocchi',
  GMEc: 'brioche bun',
  GMc: 'naan,béchamel',
  Gx: 'beer',
  GS: 'soy sauce',
  GSc: 'hoisin sauce,teriyaki sauce,gochujang',
  S: 'tofu,edamame,miso,chili bean paste',
  P: 'peanuts',
  PS: 'peanut sauce',
  N: 'cashews,almonds,pistachios,walnuts,pine nuts,almond milk',
  MN: 'pesto',
  Z: "sesame seeds,tahini,sesame oil,za'atar",
  Zc: 'hummus',
  Y: 'celery,celery salt,beef broth',
  U: 'mustard,mustard seeds',
  UW: 'dijon mustard',
  W: 'balsamic vinegar,sherry vinegar,red wine vinegar',
  Wx: 'white wine,red wine',
  cx: 'mirin',
  K: 'lupini beans',
  c: 'rice,arborio rice,sushi rice,basmati rice,jasmine rice,sticky rice,broken rice,rice noodles,rice paper,rice cakes,' +
    'sweet potato noodles,corn tortilla,tortilla chips,potatoes,fries,sweet potato,injera,plantain,black beans,pinto beans,' +
    'kidney beans,cannellini beans,navy beans,butter beans,lentils,chickpeas,quinoa,sugar,brown sugar,maple syrup,corn,' +
    'hominy,cornmeal,grits,ketchup,bbq sauce,mango,banana,pineapple',
  oc: 'honey',
  '': 'tomato,onion,red onion,garlic,shallots,basil,thai basil,oregano,thyme,rosemary,dill,tarragon,parsley,mint,cilantro,' +
    'lime,lemon,avocado,jalapeño,poblano,scotch bonnet,bell pepper,mushrooms,shiitake,spinach,kale,arugula,lettuce,' +
    'cabbage,collard greens,cucumber,carrot,radish,ginger,galangal,lemongrass,kaffir lime leaves,scallions,leeks,fennel,' +
    'bok choy,bean sprouts,bamboo shoots,water chestnuts,eggplant,zucchini,asparagus,broccoli,cauliflower,green beans,' +
    'peas,olives,capers,pickles,pickled onion,pickled ginger,chili,chili flakes,hot sauce,salsa,salsa verde,black pepper,' +
    'sichuan pepper,sea salt,paprika,cumin,turmeric,garam masala,cardamom,cinnamon,saffron,sumac,allspice,berbere,' +
    'cayenne,curry powder,vanilla,cocoa,espresso,coconut milk,coconut,tamarind,green papaya,pear,apple,berries,' +
    'pomegranate,chia seeds,grape leaves,ackee,wasabi,nori,seaweed,olive oil,rice vinegar,apple cider vinegar',
};

/** Per ingredient: allergen bit mask (bit k = ALLERGENS[k]) and flag letters. */
const INGREDIENTS = new Map<string, { allergens: number; flags: string }>();
for (const [tags, names] of Object.entries(INGREDIENT_GROUPS)) {
  let allergens = 0;
  for (const ch of tags) if (ALLERGEN_CODES.includes(ch)) allergens |= 1 << ALLERGEN_CODES.indexOf(ch);
  for (const name of names.split(',')) {
    if (INGREDIENTS.has(name)) throw new Error(`ingredient ${name} listed twice`);
    INGREDIENTS.set(name, { allergens, flags: tags.replace(/[A-Z]/g, '') });
  }
}

/**
 * Cuisines: key, relative frequency, chance a restaurant is halal / kosher
 * certified, venue name patterns ('*' = a made-up name), dishes
 * ("Name:core ingredients|…") and a pantry of extra ingredients.
 */
const CUISINE_TABLE: [string, number, number, number, string, string, string][] = [
  ['american', 14, 0.02, 0.01, "* Diner|The * Tavern|* Kitchen|*'s Grill",
    'Cheeseburger:brioche bun,beef,cheddar,lettuce,tomato|Buffalo Wings:chicken,butter,hot sauce,celery|Mac and Cheese:pasta,cheddar,milk,butter|Cobb Salad:lettuce,chicken,bacon,egg,avocado,blue cheese|Club Sandwich:bread,turkey,bacon,lettuce,mayonnaise|Clam Chowder:clams,potatoes,cream,celery|Meatloaf:beef,breadcrumbs,egg,ketchup|Fried Chicken:chicken,wheat flour,buttermilk|Caesar Salad:lettuce,parmesan,croutons,anchovies,egg|Apple Pie:apple,wheat flour,butter,sugar|Veggie Burger:brioche bun,black beans,lettuce,tomato',
    'onion,garlic,cheddar,bacon,lettuce,tomato,pickles,mustard,ketchup,mayonnaise,fries,jalapeño,avocado,mushrooms,coleslaw'],
  ['italian', 10, 0.02, 0.02, 'Trattoria *|Osteria *|Ristorante *|Casa *',
    'Spaghetti Carbonara:pasta,egg,pancetta,parmesan,black pepper|Lasagna:pasta,beef,ricotta,mozzarella,tomato|Risotto ai Funghi:arborio rice,mushrooms,parmesan,white wine|Chicken Parmesan:chicken,breadcrumbs,mozzarella,tomato|Penne Arrabbiata:pasta,tomato,chili,garlic|Linguine alle Vongole:pasta,clams,white wine,garlic|Tiramisu:mascarpone,egg,ladyfingers,espresso,cocoa|Caprese Salad:mozzarella,tomato,basil,olive oil|Gnocchi al Pesto:gnocchi,pesto,parmesan|Osso Buco:veal,white wine,celery,carrot|Minestrone:cannellini beans,celery,carrot,tomato,pasta',
    'garlic,olive oil,basil,oregano,parmesan,tomato,chili flakes,mushrooms,spinach,arugula,olives,capers,pine nuts,lemon,balsamic vinegar,prosciutto,lupini beans'],
  ['mexican', 12, 0.02, 0.01, 'Taqueria *|El *|Casa *|La Cocina de *',
    'Tacos al Pastor:corn tortilla,pork,pineapple,onion,cilantro|Carne Asada Burrito:flour tortilla,beef,rice,pinto beans,salsa|Chicken Enchiladas:corn tortilla,chicken,salsa verde,monterey jack|Chiles Rellenos:poblano,cotija,egg,wheat flour,tomato|Guacamole:avocado,lime,onion,cilantro,tortilla chips|Fish Tacos:corn tortilla,cod,cabbage,lime,sour cream|Pozole:pork,hominy,chili,oregano|Elote:corn,mayonnaise,cotija,chili,lime|Churros:wheat flour,sugar,cinnamon,egg|Veggie Quesadilla:flour tortilla,monterey jack,bell pepper,mushrooms|Black Bean Tostada:corn tortilla,black beans,lettuce,salsa',
    'lime,cilantro,onion,jalapeño,salsa,avocado,cotija,pinto beans,black beans,rice,chili,radish,cumin,sour cream,pickled onion'],
  ['chinese', 9, 0.03, 0.01, '* Garden|* Palace|Golden *|* Noodle House|* Wok',
    'Kung Pao Chicken:chicken,peanuts,chili,soy sauce|Mapo Tofu:tofu,pork,chili bean paste,sichuan pepper|Sweet and Sour Pork:pork,pineapple,bell pepper,sugar,wheat flour|Beef Chow Fun:rice noodles,beef,bean sprouts,soy sauce|Pork Dumplings:wheat flour,pork,cabbage,ginger|Egg Fried Rice:rice,egg,peas,carrot,scallions|Hot and Sour Soup:tofu,mushrooms,egg,rice vinegar,bamboo shoots|Peking Duck:duck,hoisin sauce,wheat flour,cucumber|Salt and Pepper Squid:squid,wheat flour,chili,garlic|Fish-Fragrant Eggplant:eggplant,garlic,ginger,chili bean paste|Sesame Chicken:chicken,sesame seeds,soy sauce,sugar|Shrimp Lo Mein:egg noodles,shrimp,bok choy,soy sauce|Buddha\'s Delight:tofu,bok choy,mushrooms,carrot,water chestnuts',
    'garlic,ginger,scallions,soy sauce,sesame oil,chili,bok choy,bean sprouts,mushrooms,water chestnuts,cashews,oyster sauce,broccoli,rice'],
  ['japanese', 6, 0.02, 0.01, '* Sushi|Sushi *|* Ramen|Izakaya *',
    'Salmon Nigiri:sushi rice,salmon,wasabi|Tuna Roll:sushi rice,tuna,nori|California Roll:sushi rice,surimi,avocado,cucumber,nori|Tonkotsu Ramen:ramen noodles,pork,egg,scallions|Chicken Katsu:chicken,panko,egg,cabbage|Shrimp Tempura:shrimp,wheat flour,egg,sweet potato|Miso Soup:miso,tofu,seaweed,dashi|Teriyaki Chicken:chicken,teriyaki sauce,rice|Edamame:edamame,sea salt|Gyoza:wheat flour,pork,cabbage,garlic|Kitsune Udon:udon,dashi,tofu,scallions|Vegetable Roll:sushi rice,cucumber,avocado,carrot,nori',
    'nori,sesame seeds,scallions,ginger,pickled ginger,wasabi,soy sauce,mirin,shiitake,bonito flakes,seaweed,edamame,mayonnaise,cucumber'],
  ['indian', 4, 0.25, 0.02, '* Palace|Taste of *|* Curry House|* Tandoor',
    'Chicken Tikka Masala:chicken,yogurt,cream,tomato,garam masala|Butter Chicken:chicken,butter,cream,tomato|Palak Paneer:paneer,spinach,cream,garlic|Chana Masala:chickpeas,tomato,onion,cumin|Lamb Rogan Josh:lamb,yogurt,chili,onion|Vegetable Biryani:basmati rice,carrot,peas,saffron,cashews|Samosa:wheat flour,potatoes,peas,cumin|Dal Makhani:lentils,butter,cream,tomato|Garlic Naan:naan,garlic,butter|Aloo Gobi:potatoes,cauliflower,turmeric,cumin|Goan Fish Curry:cod,coconut milk,chili,tamarind,mustard seeds|Mango Lassi:mango,yogurt,sugar,cardamom',
    'onion,garlic,ginger,cilantro,cumin,turmeric,garam masala,chili,basmati rice,naan,mint,cashews,almonds,ghee,mustard seeds'],
  ['thai', 4, 0.05, 0.01, '* Thai|Thai *|* Siam|Bangkok *',
    'Pad Thai:rice noodles,shrimp,egg,peanuts,tamarind,fish sauce|Green Curry:chicken,coconut milk,green curry paste,thai basil|Tom Yum Soup:shrimp,lemongrass,galangal,lime,fish sauce|Massaman Curry:beef,potatoes,coconut milk,peanuts,massaman paste|Som Tam:green papaya,peanuts,lime,fish sauce,tomato|Pad See Ew:rice noodles,chicken,egg,broccoli,soy sauce|Larb:pork,mint,lime,fish sauce|Mango Sticky Rice:sticky rice,mango,coconut milk,sugar|Tofu Basil Stir-Fry:tofu,thai basil,chili,garlic,soy sauce',
    'lime,chili,garlic,thai basil,cilantro,lemongrass,fish sauce,peanuts,jasmine rice,bean sprouts,scallions,cashews,kaffir lime leaves'],
  ['vietnamese', 3, 0.03, 0.01, 'Pho *|* Pho|* Banh Mi|Saigon *',
    'Pho Bo:rice noodles,beef,bean sprouts,thai basil,fish sauce|Banh Mi:baguette,pork,carrot,cilantro,mayonnaise|Spring Rolls:rice paper,shrimp,lettuce,mint,peanut sauce|Bun Cha:pork,rice noodles,lettuce,fish sauce|Com Tam:broken rice,pork,egg,fish sauce|Lemongrass Tofu:tofu,lemongrass,chili,rice|Bun Bo Hue:rice noodles,beef,lemongrass,shrimp paste|Caramel Catfish:catfish,sugar,fish sauce,garlic|Vegetable Pho:rice noodles,tofu,bok choy,bean sprouts,thai basil',
    'cilantro,mint,thai basil,lime,bean sprouts,fish sauce,chili,scallions,cucumber,carrot,peanuts,lettuce,rice'],
  ['korean', 2, 0.02, 0.01, '* BBQ|Seoul *|* Kitchen|* Pocha',
    'Bibimbap:rice,beef,egg,spinach,gochujang|Bulgogi:beef,soy sauce,pear,garlic|Kimchi Jjigae:kimchi,pork,tofu,chili|Korean Fried Chicken:chicken,wheat flour,gochujang,garlic|Japchae:sweet potato noodles,beef,spinach,carrot,soy sauce|Haemul Pajeon:wheat flour,egg,squid,shrimp,scallions|Tteokbokki:rice cakes,gochujang,fish cake,scallions|Sundubu Jjigae:tofu,clams,egg,chili|Galbi:beef,soy sauce,garlic,pear',
    'kimchi,scallions,garlic,sesame seeds,sesame oil,gochujang,chili,rice,cucumber,bean sprouts,spinach,seaweed'],
  ['mediterranean', 3, 0.15, 0.05, '* Mezze|* Grill|Olive *|* Table',
    'Falafel Wrap:chickpeas,parsley,pita,tahini,cucumber|Chicken Shawarma Plate:chicken,garlic,rice,hummus,pickles|Halloumi Salad:halloumi,arugula,tomato,olives,lemon|Lamb Kofta:lamb,onion,parsley,cumin,yogurt|Mezze Platter:hummus,eggplant,pita,olives,feta|Shakshuka:egg,tomato,bell pepper,cumin|Grilled Branzino:sea bass,lemon,olive oil,oregano|Couscous Salad:couscous,chickpeas,cucumber,mint|Lentil Soup:lentils,carrot,celery,cumin,lemon',
    "olive oil,lemon,garlic,parsley,mint,cumin,tomato,cucumber,red onion,olives,feta,tahini,pita,chickpeas,za'atar,pine nuts,lupini beans"],
  ['greek', 2, 0.03, 0.02, '* Taverna|Opa *|* Greek Kitchen|Athena *',
    'Lamb Gyro:pita,lamb,tzatziki,tomato,red onion|Moussaka:eggplant,lamb,béchamel,tomato|Spanakopita:phyllo,spinach,feta,egg,dill|Greek Salad:tomato,cucumber,feta,olives,red onion|Pork Souvlaki:pork,lemon,oregano,pita|Pastitsio:pasta,beef,béchamel,tomato,cinnamon|Grilled Octopus:octopus,olive oil,lemon,capers|Baklava:phyllo,walnuts,pistachios,honey,butter|Avgolemono:chicken,egg,lemon,orzo,celery|Dolmades:grape leaves,rice,dill,lemon,pine nuts',
    'olive oil,lemon,oregano,feta,olives,tomato,cucumber,red onion,dill,garlic,tzatziki,pita,capers,mint'],
  ['middle-eastern', 2, 0.5, 0.08, '* Shawarma|* Kabob|Cedar *|* Grill',
    'Chicken Kebab:chicken,yogurt,garlic,sumac,rice|Lamb Shawarma:lamb,pita,tahini,pickles|Hummus:chickpeas,tahini,lemon,garlic,olive oil|Falafel Plate:chickpeas,parsley,cumin,tahini|Fattoush:lettuce,tomato,cucumber,pita,sumac|Tabbouleh:bulgur,parsley,tomato,mint,lemon|Mansaf:lamb,yogurt,rice,almonds|Kibbeh:bulgur,beef,onion,pine nuts|Mujaddara:lentils,rice,onion,cumin|Kunafa:kataifi,akkawi,sugar,pistachios',
    "garlic,lemon,parsley,mint,sumac,tahini,pita,olive oil,onion,tomato,cucumber,pickles,rice,chickpeas,almonds,pomegranate,za'atar"],
  ['french', 2, 0.01, 0.02, 'Café *|Bistro *|Chez *|Brasserie *',
    "Steak Frites:beef,fries,butter,shallots|Coq au Vin:chicken,red wine,mushrooms,bacon|French Onion Soup:onion,beef broth,gruyère,baguette|Croque Monsieur:bread,ham,gruyère,béchamel,dijon mustard|Salade Niçoise:tuna,egg,green beans,olives,potatoes|Bouillabaisse:cod,mussels,shrimp,fennel,saffron|Ratatouille:eggplant,zucchini,bell pepper,tomato,olive oil|Quiche Lorraine:wheat flour,egg,cream,bacon,gruyère|Duck Confit:duck,potatoes,garlic,thyme|Crème Brûlée:cream,egg,sugar,vanilla|Moules Marinières:mussels,white wine,shallots,parsley",
    'butter,shallots,garlic,thyme,parsley,dijon mustard,cream,white wine,baguette,gruyère,mushrooms,tarragon,leeks,goat cheese'],
  ['spanish', 1, 0.02, 0.01, '* Tapas|Bodega *|La *|* Cocina',
    'Paella:rice,saffron,shrimp,mussels,chorizo|Patatas Bravas:potatoes,tomato,paprika,aioli|Gambas al Ajillo:shrimp,garlic,olive oil,chili|Tortilla Española:egg,potatoes,onion,olive oil|Pan con Jamón:serrano ham,bread,tomato|Gazpacho:tomato,cucumber,bell pepper,sherry vinegar|Pulpo a la Gallega:octopus,potatoes,paprika,olive oil|Croquetas:béchamel,ham,breadcrumbs,egg|Churros con Chocolate:wheat flour,sugar,chocolate|Albóndigas:beef,pork,tomato,breadcrumbs',
    'olive oil,garlic,paprika,saffron,tomato,onion,parsley,lemon,almonds,manchego,olives,chorizo,bread,sherry vinegar'],
  ['caribbean', 1.5, 0.03, 0.01, '* Island Grill|* Jerk Hut|Caribe *|* Kitchen',
    'Jerk Chicken:chicken,scotch bonnet,allspice,thyme|Curry Goat:goat,curry powder,potatoes,onion|Rice and Peas:rice,kidney beans,coconut milk,thyme|Oxtail Stew:oxtail,butter beans,carrot,allspice|Fried Plantains:plantain,sea salt|Ackee and Saltfish:ackee,salt cod,onion,tomato|Cuban Sandwich:bread,pork,ham,swiss cheese,pickles,mustard|Ropa Vieja:beef,bell pepper,tomato,olives|Conch Fritters:conch,wheat flour,egg,bell pepper|Jamaican Beef Patty:wheat flour,beef,butter,scotch bonnet',
    'scotch bonnet,allspice,thyme,lime,scallions,garlic,onion,coconut milk,rice,plantain,black beans,mango,pineapple,cilantro'],
  ['ethiopian', 0.7, 0.2, 0.01, '* Ethiopian|Addis *|* Injera House',
    'Doro Wat:chicken,berbere,onion,egg,niter kibbeh|Misir Wat:lentils,berbere,onion,garlic|Tibs:beef,onion,rosemary,jalapeño|Kitfo:beef,chili,niter kibbeh,ayib|Shiro:chickpeas,berbere,garlic,onion|Gomen:collard greens,garlic,ginger,onion|Atakilt Wat:cabbage,potatoes,carrot,turmeric|Veggie Combo:lentils,chickpeas,collard greens,cabbage,injera',
    'injera,berbere,onion,garlic,ginger,turmeric,tomato,jalapeño,lemon,cardamom,niter kibbeh'],
  ['bbq', 4, 0.01, 0.01, "* Smokehouse|* BBQ|* Pit|Smokin' *",
    'Brisket:beef,paprika,black pepper,sea salt|Pulled Pork Sandwich:pork,brioche bun,bbq sauce,coleslaw|Baby Back Ribs:pork,bbq sauce,paprika,brown sugar|Smoked Chicken:chicken,paprika,garlic|Burnt Ends:beef,bbq sauce,brown sugar|Smoked Sausage:sausage,mustard,pickles|Smoked Mac and Cheese:pasta,cheddar,milk,breadcrumbs|Cornbread:cornmeal,buttermilk,egg,honey|Collard Greens:collard greens,bacon,onion,apple cider vinegar|Baked Beans:navy beans,bacon,brown sugar,mustard',
    'bbq sauce,pickles,onion,coleslaw,jalapeño,cheddar,paprika,garlic,brioche bun,mustard,black pepper,hot sauce'],
  ['seafood', 4, 0.02, 0.01, '* Oyster Bar|* Fish House|* Crab Shack|The * Catch',
    'Lobster Roll:lobster,brioche bun,mayonnaise,celery|Fish and Chips:cod,wheat flour,beer,fries|Shrimp Scampi:shrimp,pasta,garlic,butter,white wine|Grilled Salmon:salmon,lemon,dill,asparagus|Crab Cakes:crab,breadcrumbs,egg,mayonnaise,celery salt|Oysters on the Half Shell:oysters,lemon,shallots,red wine vinegar|Cioppino:cod,clams,mussels,shrimp,tomato|Fried Calamari:squid,wheat flour,lemon,tomato|Seared Scallops:scallops,butter,lemon,garlic|Shrimp and Grits:shrimp,grits,cheddar,bacon|Blackened Catfish:catfish,paprika,cayenne,butter',
    'lemon,garlic,butter,parsley,dill,celery salt,capers,shallots,white wine,mayonnaise,coleslaw,fries,asparagus,hot sauce'],
  ['pizza', 8, 0.02, 0.02, '* Pizza|* Pizzeria|Pizza *|* Slice',
    'Margherita Pizza:pizza dough,tomato,mozzarella,basil|Pepperoni Pizza:pizza dough,tomato,mozzarella,pepperoni|Hawaiian Pizza:pizza dough,tomato,mozzarella,ham,pineapple|Veggie Pizza:pizza dough,tomato,mozzarella,bell pepper,mushrooms|White Pizza:pizza dough,ricotta,mozzarella,garlic|BBQ Chicken Pizza:pizza dough,bbq sauce,chicken,mozzarella|Meat Lovers Pizza:pizza dough,tomato,mozzarella,pepperoni,sausage|Calzone:pizza dough,ricotta,mozzarella,ham|Garlic Knots:pizza dough,garlic,butter,parmesan|Garden Salad:lettuce,tomato,cucumber,carrot',
    'mozzarella,parmesan,tomato,basil,oregano,garlic,chili flakes,mushrooms,olives,onion,bell pepper,jalapeño,arugula,pepperoni,sausage,anchovies,pineapple'],
  ['cafe', 6, 0.01, 0.02, 'Café *|* Coffee|* Bakery|* Café',
    'Avocado Toast:bread,avocado,lemon,chili flakes|Eggs Benedict:english muffin,egg,ham,hollandaise|Pancakes:wheat flour,egg,milk,maple syrup|Yogurt Parfait:oats,yogurt,berries,honey|Quinoa Salad:quinoa,kale,chickpeas,lemon|BLT:bread,bacon,lettuce,tomato,mayonnaise|Croissant:wheat flour,butter,egg|Smoothie Bowl:banana,berries,almond milk,coconut|Grilled Cheese:bread,cheddar,butter|Blueberry Muffin:wheat flour,berries,sugar,egg|Tomato Soup:tomato,onion,garlic,cream|Buddha Bowl:quinoa,sweet potato,kale,chickpeas,tahini',
    'avocado,egg,spinach,tomato,berries,banana,honey,almonds,walnuts,chia seeds,kale,goat cheese,bacon,mushrooms'],
];

interface Cuisine {
  key: string;
  weight: number;
  halal: number;
  kosher: number;
  venues: string[];
  dishes: { name: string; core: string[] }[];
  pantry: string[];
}

/** checkIngredient throws unless the name is in the ingredient table. */
function checkIngredient(name: string, where: string): string {
  if (!INGREDIENTS.has(name)) throw new Error(`unknown ingredient ${JSON.stringify(name)} in ${where}`);
  return name;
}

const CUISINES_BY_INDEX: Cuisine[] = CUISINE_TABLE.map(([key, weight, halal, kosher, venues, dishes, pantry]) => ({
  key,
  weight,
  halal,
  kosher,
  venues: venues.split('|'),
  dishes: dishes.split('|').map((d) => {
    const [name, core] = d.split(':');
    return { name, core: core.split(',').map((i) => checkIngredient(i, `${key} ${name}`)) };
  }),
  pantry: pantry.split(',').map((i) => checkIngredient(i, `${key} pantry`)),
}));
const CUISINE_WEIGHTS = CUISINES_BY_INDEX.map((c) => c.weight);
const CUISINE_BY_KEY = new Map(CUISINES_BY_INDEX.map((c) => [c.key, c]));

// The table and the vocabulary's cuisine keys must be the same list, in the same order.
if (CUISINES_BY_INDEX.map((c) => c.key).join() !== CUISINES.join()) {
  throw new Error(`generator.ts: the cuisine table's keys (${CUISINES_BY_INDEX.map((c) => c.key).join(', ')}) differ from CUISINES in vocabulary.ts (${CUISINES.join(', ')})`);
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

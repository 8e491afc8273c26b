/**
 * The bundled sample's index (the article's: restaurants and their dishes): its join, the shape
 * of its documents, and the body of `PUT /<index>` that `geoshard seed` creates it with. Pure.
 *
 * One index holds both document kinds, joined parent → child:
 *   restaurant (parent): id, name, place, state, location (geo_point), cell (level-10 token),
 *                        shard (the routing name), cuisines, price_level, dish_count
 *   dish (child):        id, restaurant_id, name, cuisine, diets, allergens, ingredients,
 *                        calories (kcal), price_cents (US cents), and copies of its
 *                        restaurant: `restaurant` (what a search shows of it: id, name,
 *                        place, state, location, cuisines; stored, not indexed) and
 *                        `restaurant_location` (geo_point)
 * Every document is written with routing = its restaurant's shard name; the
 * mapping makes routing required, so OpenSearch itself rejects a write without it.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { SampleMeta } from './meta.ts';
import { indexMeta, indexSettings } from './indexSpec.ts';

/** The document shape this version writes (SampleMeta.docShape). */
export const DOC_SHAPE = 2;

/** docShapeOf returns the document shape a sample was written with: its `docShape`, 1 when it predates the field (or there is no sample). */
export function docShapeOf(s: SampleMeta | undefined): number {
  return s?.docShape ?? 1;
}

/** The join field's name: its relation is restaurant (parent) → dish (child). */
export const JOIN_FIELD = 'join';
/** The parent relation's name: a restaurant document. */
export const PARENT = 'restaurant';
/** The child relation's name: a dish document (routed with its restaurant). */
export const CHILD = 'dish';

/**
 * indexMappings returns the mappings: strict (an unknown field is an error,
 * not a silent new field), routing required, the join relation, and the
 * boundary file's identity in `_meta`.
 */
export function indexMappings(file: BoundaryFile, sample?: SampleMeta): Record<string, unknown> {
  const keyword = { type: 'keyword' };
  return {
    dynamic: 'strict',
    _routing: { required: true },
    _meta: indexMeta(file, sample),
    properties: {
      [JOIN_FIELD]: { type: 'join', relations: { [PARENT]: CHILD } },
      id: keyword,
      name: { type: 'text', fields: { raw: { type: 'keyword', ignore_above: 256 } } },
      // restaurant
      place: keyword,
      state: keyword,
      location: { type: 'geo_point' },
      cell: keyword,
      shard: keyword,
      cuisines: keyword,
      price_level: { type: 'byte' },
      dish_count: { type: 'integer' },
      // dish
      restaurant_id: keyword,
      restaurant: { type: 'object', enabled: false },
      restaurant_location: { type: 'geo_point' },
      cuisine: keyword,
      diets: keyword,
      allergens: keyword,
      ingredients: keyword,
      calories: { type: 'integer' },
      price_cents: { type: 'integer' },
    },
  };
}

/** indexBody returns the body of `PUT /<index>` for the file, with `replicas` replicas per shard (default 0). */
export function indexBody(file: BoundaryFile, sample?: SampleMeta, replicas = 0): Record<string, unknown> {
  return { settings: { index: indexSettings(file, replicas) }, mappings: indexMappings(file, sample) };
}


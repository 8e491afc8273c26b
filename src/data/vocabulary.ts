/**
 * The dataset's vocabulary: the words a restaurant or dish can carry and a search can filter
 * by (diets, allergens, cuisines). The generator (generator.ts) draws from these lists, and its
 * menu (menu.ts) checks its cuisine table against CUISINES when it loads; the wire contract (src/server/wire/common.ts VOCABULARY)
 * validates filters with them. A module of its own, without the generator's tables and random
 * streams, so the explorer's first screen can parse a link's filters without loading the
 * generator (about 19 KB gzip with its PRNG and bigfloat).
 */

/** The 14 EU allergen groups (Regulation (EU) No 1169/2011, Annex II), in output order. */
export const ALLERGENS = [
  'gluten', 'milk', 'eggs', 'nuts', 'peanuts', 'soy', 'fish',
  'crustaceans', 'molluscs', 'celery', 'mustard', 'sesame', 'sulphites', 'lupin',
] as const;
export type Allergen = (typeof ALLERGENS)[number];

/** Diet labels, in output order. */
export const DIETS = ['vegetarian', 'vegan', 'gluten-free', 'dairy-free', 'keto', 'halal', 'kosher'] as const;
export type Diet = (typeof DIETS)[number];

/** The cuisine keys (20), in the order of the generator's cuisine table, e.g. "italian", "middle-eastern". */
export const CUISINES: readonly string[] = [
  'american', 'italian', 'mexican', 'chinese', 'japanese', 'indian', 'thai', 'vietnamese', 'korean', 'mediterranean',
  'greek', 'middle-eastern', 'french', 'spanish', 'caribbean', 'ethiopian', 'bbq', 'seafood', 'pizza', 'cafe',
];

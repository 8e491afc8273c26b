/**
 * The live search's filters: which kinds there are and the empty selection. A module of its
 * own so the store's live slice (on the first screen) takes these lines without the rest of
 * the search client (api/search.ts, loaded with the Live tab; it re-exports them).
 */
import type { FilterKind } from '../../server/wire';

/** The three filters the API takes; values come from the API's vocabulary. */
export type LiveFilterKind = FilterKind;

/** Selected filter values: diet = dishes carrying every one; allergen = dishes free of every one; cuisine = dishes of any one. */
export type LiveFilters = Record<LiveFilterKind, readonly string[]>;

/** No filter selected. */
export const NO_FILTERS: LiveFilters = Object.freeze({ diet: [], allergen: [], cuisine: [] });

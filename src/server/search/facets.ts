/**
 * Facets of a search: the sample's three (diets, allergens, cuisines: every vocabulary value with
 * its count) and a config's own (its facet fields' most frequent values), from the terms
 * aggregations the search bodies ask for (searchBody.ts).
 */
import { VOCABULARY, type Facets, type FacetMap } from '../wire.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';
import type { RawResponse } from './rawResponse.ts';

/** Facet aggregation names → dish fields and vocabularies. */
export const FACETS = [
  { key: 'diets', field: 'diets', vocabulary: VOCABULARY.diet },
  { key: 'allergens', field: 'allergens', vocabulary: VOCABULARY.allergen },
  { key: 'cuisines', field: 'cuisine', vocabulary: VOCABULARY.cuisine },
] as const;


/** Values per facet an index's search reports (the most frequent first); its shards count up to DOC_FACET_SHARD_SIZE each. */
export const DOC_FACET_SIZE = 50;
export const DOC_FACET_SHARD_SIZE = 1000;


/** facetsOf returns every vocabulary value with its count (0 when absent), count descending, then vocabulary order. */
export function facetsOf(aggs: RawResponse['aggregations']): Facets {
  const out = {} as Facets;
  for (const f of FACETS) {
    const counts = new Map((aggs?.[f.key]?.buckets ?? []).map((b) => [String(b.key), b.doc_count]));
    out[f.key] = f.vocabulary.map((value) => ({ value, count: counts.get(value) ?? 0 })).sort((a, b) => b.count - a.count || f.vocabulary.indexOf(a.value) - f.vocabulary.indexOf(b.value));
  }
  return out;
}


/** docFacetsOf returns each config facet's buckets, count descending, then value ascending (a total order). */
export function docFacetsOf(aggs: RawResponse['aggregations'], config: IndexConfig): FacetMap {
  const out: FacetMap = {};
  for (const f of config.facets) {
    out[f] = (aggs?.[f]?.buckets ?? []).map((b) => ({ value: String(b.key), count: b.doc_count })).sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  }
  return out;
}

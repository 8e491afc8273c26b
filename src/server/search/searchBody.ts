/**
 * The live API's search bodies: the dish search of the sample (buildSearchBody: dishes whose
 * parent restaurant lies within the circle, has_parent + geo_distance, or, on an index whose
 * dishes carry their restaurant's location, geo_distance on that copy; diet/allergen/cuisine
 * filters; the top dishes nearest first; the exact total; facet counts), and the search of an
 * index of another config (buildDocSearchBody: any document in the circle by the config's
 * location, `q` on its name field, counts per facet field). The circle is the package's
 * geoDistanceFilter and, during a migration, the other owner's copy of a moving range is left out
 * by the package's exclusionFilters (src/opensearch/routedSearch.ts, rangeFilter.ts).
 */
import type { ReadExclusion } from '../../core/index.ts';
import { exclusionFilters } from '../../opensearch/rangeFilter.ts';
import { geoDistanceFilter } from '../../opensearch/routedSearch.ts';
import { SAMPLE_FIELDS } from '../../opensearch/routingPipeline.ts';
import { SAMPLE_CONFIG, type IndexConfig } from '../../opensearch/indexConfig.ts';
import type { SearchParams } from '../wire.ts';
import { FACETS, DOC_FACET_SIZE, DOC_FACET_SHARD_SIZE } from './facets.ts';
import { CHILD, JOIN_FIELD, PARENT } from '../../opensearch/sampleIndex.ts';

/** Default deadline OpenSearch gets for one search (ms); shards still running then return what they have. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 5000;

/**
 * isSampleShape says the config describes the bundled sample's documents (restaurants located
 * by `location`, their dishes joined to them with `restaurant_location`): those are searched by
 * the dish search below (buildSearchBody); any other config by its own fields (buildDocSearchBody).
 */
export function isSampleShape(config: IndexConfig): boolean {
  return config.location === SAMPLE_CONFIG.location && JSON.stringify(config.join) === JSON.stringify(SAMPLE_CONFIG.join);
}

/**
 * buildDocSearchBody returns the `_search` body of an index described by `config` (not the
 * sample): every document whose `config.location` (or, with a join, whose
 * `config.join.childLocation`) lies in the circle, matching `p.text` on `config.name` when
 * given; scored by the text, then nearest first, ties by _id, so the order is total and the
 * same on any set of shards; terms aggregations on the config's facets. The sample's filters
 * (diet, allergen, cuisine) are the caller's to refuse. During a migration `exclusions` (the
 * router's readExclusions) leave out the copy of each moving range that is not its read copy
 * (opensearch/rangeFilter.ts exclusionFilters), so every document answers once.
 */
export function buildDocSearchBody(config: IndexConfig, p: SearchParams, timeoutMs = DEFAULT_SEARCH_TIMEOUT_MS, exclusions: readonly ReadExclusion[] = []): Record<string, unknown> {
  const filter: unknown[] = [];
  const excluded = exclusionFilters({ location: config.location, childLocation: config.join?.childLocation ?? null }, exclusions);
  if (p.circle) filter.push(geoDistanceFilter(config, circleOf(p.circle)));
  const must = p.text && config.name ? [{ match: { [config.name]: { query: p.text, operator: 'and' } } }] : [];
  const sort: unknown[] = [];
  if (must.length > 0) sort.push({ _score: 'desc' });
  if (p.circle) sort.push({ _geo_distance: { [config.location]: { lat: p.circle.lat, lon: p.circle.lng }, order: 'asc', unit: 'km' } });
  sort.push({ _id: 'asc' });
  const body: Record<string, unknown> = {
    size: p.size,
    timeout: `${timeoutMs}ms`,
    track_total_hits: true,
    _source: [...new Set([...(config.name ? [config.name] : []), config.location, ...(config.join ? [config.join.childLocation] : []), ...config.facets])],
    query: { bool: { filter, ...(must.length > 0 ? { must } : {}), ...(excluded.length > 0 ? { must_not: excluded } : {}) } },
    sort,
    aggs: Object.fromEntries(config.facets.map((f) => [f, { terms: { field: f, size: DOC_FACET_SIZE, shard_size: DOC_FACET_SHARD_SIZE } }])),
  };
  return p.profile ? { ...body, profile: true } : body;
}

const DISH_SOURCE = ['id', 'name', 'cuisine', 'diets', 'allergens', 'calories', 'price_cents', 'restaurant_id', 'restaurant'];
/** What a hit shows of its restaurant: the dish's `restaurant` copy, or these fields of the restaurant itself (indexes written before dishes carried it). */
export const RESTAURANT_SOURCE = ['id', 'name', 'place', 'state', 'location', 'cuisines'];

/**
 * buildSearchBody returns the `_search` body for validated params. The
 * restaurant query scores each restaurant by distance (exponential decay, 1 at
 * the centre, 0.5 at the radius) and has_parent passes that score to its
 * dishes, so sorting by score puts the nearest restaurants' dishes first; ties
 * break by restaurant id, then dish id, so the order is total and the same on
 * any set of shards. Facets use terms aggregations sized to the whole
 * vocabulary, so their counts are exact. Each dish carries what a hit shows of
 * its restaurant (`restaurant` in its source), so no inner_hits: OpenSearch
 * runs has_parent's inner hits as one more circle query per hit, which cost a
 * routed search about 40% of its time (bench/live.bench.ts). With `located`
 * (an index whose dishes carry `restaurant_location`, documents of shape 2)
 * the circle also filters the dishes directly: same answer, but no shard walks
 * dishes outside the circle; and, unless `join` or a migration's exclusions
 * ask for has_parent, the dishes are scored on that copy too (the same decay
 * on the same point: the same score and order) and has_parent is left out,
 * which spares each shard asked the restaurant search and the join: on 2.19 M
 * documents an all-shards search costs the node 22-40% less CPU, a routed one
 * the same within noise (bench/settings.bench.ts).
 * During a migration `exclusions`
 * (Router.readExclusions) drop the copy of each moving range that is not the
 * read copy: restaurants with that `_routing` and a cell in the range, and so
 * (through has_parent, which joins on the same shard) their dishes.
 */
export function buildSearchBody(p: SearchParams, timeoutMs = DEFAULT_SEARCH_TIMEOUT_MS, exclusions: readonly ReadExclusion[] = [], located = false, join = false): Record<string, unknown> {
  const body = searchBody(p, timeoutMs, exclusions, located, join);
  // Profiling is asked only when wanted: it instruments every query and collector, so it slows the search it measures.
  return p.profile ? { ...body, profile: true } : body;
}

function searchBody(p: SearchParams, timeoutMs: number, exclusions: readonly ReadExclusion[], located: boolean, join: boolean): Record<string, unknown> {
  const excluded = exclusionFilters(SAMPLE_FIELDS, exclusions);
  const notExcluded = excluded.length > 0 ? { must_not: excluded } : {};
  const parentQuery = p.circle
    ? {
        function_score: {
          query: { bool: { filter: [geoDistanceFilter({ location: SAMPLE_FIELDS.location, join: null }, circleOf(p.circle))], ...notExcluded } },
          functions: [{ exp: { location: { origin: { lat: p.circle.lat, lon: p.circle.lng }, scale: `${p.circle.radius.km * 1000}m`, decay: 0.5 } } }],
          boost_mode: 'replace',
        },
      }
    : excluded.length > 0
      ? { bool: notExcluded }
      : { match_all: {} };
  const filter: unknown[] = [{ term: { [JOIN_FIELD]: CHILD } }];
  // The same circle on the dish's copy of its restaurant's location: it selects exactly the dishes
  // has_parent would keep (a dish's copy is its restaurant's location), but from the points index,
  // so a shard walks only the circle's dishes instead of all of its own.
  if (located && p.circle) filter.push(geoDistanceFilter({ location: SAMPLE_FIELDS.childLocation!, join: null }, circleOf(p.circle)));
  // The text query (q) on the dish's name: a filter, so the order stays the distance's.
  if (p.text) filter.push({ match: { name: { query: p.text, operator: 'and' } } });
  for (const d of p.diets) filter.push({ term: { diets: d } });
  if (p.cuisines.length > 0) filter.push({ terms: { cuisine: p.cuisines } });
  const mustNot = p.allergens.length > 0 ? [{ terms: { allergens: p.allergens } }] : [];
  // Located, settled (no exclusions, which need the restaurant's cell): the dish's copy of its
  // restaurant's location decides and scores it alone, with the same decay on the same point, so
  // the score, the order and the answer are the join's, without has_parent's parent search and
  // join on every shard asked (bench/settings.bench.ts: its CPU per search).
  const scored =
    located && p.circle && excluded.length === 0 && !join
      ? { function_score: { query: { match_all: {} }, functions: [{ exp: { restaurant_location: { origin: { lat: p.circle.lat, lon: p.circle.lng }, scale: `${p.circle.radius.km * 1000}m`, decay: 0.5 } } }], boost_mode: 'replace' } }
      : { has_parent: { parent_type: PARENT, score: !!p.circle, query: parentQuery } };
  return {
    size: p.size,
    timeout: `${timeoutMs}ms`,
    track_total_hits: true,
    _source: DISH_SOURCE,
    query: {
      bool: {
        must: [scored],
        filter,
        ...(mustNot.length > 0 ? { must_not: mustNot } : {}),
      },
    },
    sort: p.circle ? [{ _score: 'desc' }, { restaurant_id: 'asc' }, { id: 'asc' }] : [{ restaurant_id: 'asc' }, { id: 'asc' }],
    aggs: Object.fromEntries(FACETS.map((f) => [f.key, { terms: { field: f.field, size: f.vocabulary.length, shard_size: f.vocabulary.length } }])),
  };
}

/** circleOf is a request's circle as the package's search helpers take it (radius in km). */
function circleOf(c: NonNullable<SearchParams['circle']>): { lat: number; lng: number; radiusKm: number } {
  return { lat: c.lat, lng: c.lng, radiusKm: c.radius.km };
}

import { describe, it, expect } from 'vitest';
import { parseSearchParams } from '../wire.ts';
import { OpenSearchClient, type RequestOptions, type Response as OsResponse } from '../../cluster/client.ts';
import { Router } from '../../core/index.ts';
import { fileWithCuts } from '../../core/testutil.ts';
import { DIETS, ALLERGENS, CUISINES } from '../../data/generator.ts';
import { buildSearchBody } from './searchBody.ts';
import { runSearch, planRouted, planAll, type SearchPart } from './searchRun.ts';
import { shardTimesOf } from './profile.ts';
import { statusOf, shardAnswers } from './shardAnswers.ts';
import { facetsOf } from './facets.ts';
import { compareParts } from './compare.ts';

const parse = (qs: string) => parseSearchParams(new URLSearchParams(qs));
type Body = Record<string, any>;

describe('buildSearchBody', () => {
  it('finds dishes whose parent restaurant lies within the circle, in metres', () => {
    const b = buildSearchBody(parse('lat=37.5&lng=-122.25&radius=15mi'), 1234) as Body;
    const hp = b.query.bool.must[0].has_parent;
    expect(hp.parent_type).toBe('restaurant');
    expect(hp.score).toBe(true);
    const geo = hp.query.function_score.query.bool.filter[0].geo_distance;
    expect(geo.location).toEqual({ lat: 37.5, lon: -122.25 });
    expect(parseFloat(geo.distance)).toBeCloseTo(15 * 1609.344, 6);
    expect(geo.distance.endsWith('m')).toBe(true);
    expect(b.query.bool.filter).toContainEqual({ term: { join: 'dish' } });
    expect(b.timeout).toBe('1234ms');
    expect(b.track_total_hits).toBe(true);
  });

  it('orders by the parent score (distance decay), then restaurant id, then dish id: a total order', () => {
    const b = buildSearchBody(parse('lat=0&lng=0&radius=1')) as Body;
    expect(b.sort).toEqual([{ _score: 'desc' }, { restaurant_id: 'asc' }, { id: 'asc' }]);
    const fn = b.query.bool.must[0].has_parent.query.function_score;
    expect(fn.boost_mode).toBe('replace');
    expect(fn.functions[0].exp.location.decay).toBe(0.5);
  });

  it('turns diets into required terms, cuisines into any-of and allergens into exclusions', () => {
    const b = buildSearchBody(parse('lat=0&lng=0&radius=1&diet=vegan,keto&cuisine=thai,indian&allergen=peanuts,soy')) as Body;
    expect(b.query.bool.filter).toContainEqual({ term: { diets: 'vegan' } });
    expect(b.query.bool.filter).toContainEqual({ term: { diets: 'keto' } });
    expect(b.query.bool.filter).toContainEqual({ terms: { cuisine: ['indian', 'thai'].sort((x, y) => CUISINES.indexOf(x) - CUISINES.indexOf(y)) } });
    expect(b.query.bool.must_not).toEqual([{ terms: { allergens: ['peanuts', 'soy'] } }]);
  });

  it('without a location matches every restaurant, scores nothing and orders by ids', () => {
    const b = buildSearchBody(parse('diet=vegan')) as Body;
    expect(b.query.bool.must[0].has_parent.query).toEqual({ match_all: {} });
    expect(b.query.bool.must[0].has_parent.score).toBe(false);
    expect(b.sort).toEqual([{ restaurant_id: 'asc' }, { id: 'asc' }]);
  });

  it('asks no inner hits: each dish brings its restaurant in its own source', () => {
    const b = buildSearchBody(parse('lat=37.5&lng=-122.25&radius=15mi')) as Body;
    expect(JSON.stringify(b)).not.toContain('inner_hits');
    expect(b._source).toContain('restaurant');
  });

  it('filters the dishes by their copy of the restaurant location too when the index has one, with the same circle', () => {
    const p = parse('lat=37.5&lng=-122.25&radius=15mi');
    const located = buildSearchBody(p, 1000, [], true, true) as Body;
    const geo = located.query.bool.must[0].has_parent.query.function_score.query.bool.filter[0].geo_distance;
    expect(located.query.bool.filter).toContainEqual({ geo_distance: { distance: geo.distance, restaurant_location: geo.location } });
    expect(located.query.bool.must).toEqual((buildSearchBody(p, 1000) as Body).query.bool.must);
    expect(JSON.stringify(buildSearchBody(p, 1000))).not.toContain('restaurant_location');
    expect(JSON.stringify(buildSearchBody(parse('diet=vegan'), 1000, [], true))).not.toContain('restaurant_location');
  });

  it('located and settled, scores each dish on its own copy of the location with the decay has_parent gave it, without the join', () => {
    const p = parse('lat=37.5&lng=-122.25&radius=15mi&diet=vegan');
    const joined = buildSearchBody(p, 1000, [], true, true) as Body;
    const own = buildSearchBody(p, 1000, [], true) as Body;
    expect(JSON.stringify(own)).not.toContain('has_parent');
    const parentFn = joined.query.bool.must[0].has_parent.query.function_score;
    const fn = own.query.bool.must[0].function_score;
    expect(fn.query).toEqual({ match_all: {} });
    expect(fn.boost_mode).toBe(parentFn.boost_mode);
    expect(fn.functions).toEqual([{ exp: { restaurant_location: parentFn.functions[0].exp.location } }]);
    // Everything else (filters, sort, facets, source, size) is the joined query's.
    expect({ ...own, query: { ...own.query, bool: { ...own.query.bool, must: [] } } }).toEqual({ ...joined, query: { ...joined.query, bool: { ...joined.query.bool, must: [] } } });
    // Without a location, or during a migration (exclusions use the restaurant's cell), the join stays.
    expect(JSON.stringify(buildSearchBody(parse('diet=vegan'), 1000, [], true))).toContain('has_parent');
    const moving = [{ startOrdinal: 1, endOrdinal: 2, start: 'aaa', end: 'bbb', routing: 'echo' }];
    expect(JSON.stringify(buildSearchBody(p, 1000, moving, true))).toContain('has_parent');
  });

  it('sizes every facet to its whole vocabulary so counts are exact', () => {
    const b = buildSearchBody(parse('')) as Body;
    expect(b.aggs.diets.terms).toMatchObject({ field: 'diets', size: DIETS.length, shard_size: DIETS.length });
    expect(b.aggs.allergens.terms).toMatchObject({ field: 'allergens', size: ALLERGENS.length });
    expect(b.aggs.cuisines.terms).toMatchObject({ field: 'cuisine', size: CUISINES.length });
  });
});

describe('statusOf', () => {
  const shards = (total: number, successful: number, failed: number, skipped = 0) => ({ total, successful, skipped, failed });

  it('is complete only when every shard answered and nothing timed out', () => {
    expect(statusOf({ timed_out: false, _shards: shards(3, 3, 0) })).toBe('complete');
    expect(statusOf({ timed_out: false, _shards: shards(3, 3, 0, 2) })).toBe('complete');
  });

  it('is partial when a shard failed, a shard is missing, or the search timed out', () => {
    expect(statusOf({ timed_out: false, _shards: shards(3, 2, 1) })).toBe('partial');
    expect(statusOf({ timed_out: false, _shards: shards(3, 2, 0) })).toBe('partial');
    expect(statusOf({ timed_out: true, _shards: shards(3, 3, 0) })).toBe('partial');
  });
});

describe('shardAnswers', () => {
  /** Five asked shards, as a routed plan lists them. */
  const plan = [0, 1, 2, 3, 4].map((n) => ({ index: n, name: `s${n}`, shard: n, cells: 2 }));
  const statuses = (r: ReturnType<typeof shardAnswers>) => r.shardsAsked.map((x) => x.status);

  it('marks every shard ok, with no reason, when all answered', () => {
    const r = shardAnswers(plan, { timed_out: false, _shards: { total: 5, successful: 5, skipped: 1, failed: 0 } });
    expect(statuses(r)).toEqual(['ok', 'ok', 'ok', 'ok', 'ok']);
    expect(r.reason).toBeNull();
  });

  it('names the shards OpenSearch lists in _shards.failures as failed, with their reasons, and the others ok when the count is accounted for', () => {
    // As OpenSearch reports a shard whose node left during the search.
    const body = {
      timed_out: false,
      _shards: {
        total: 5,
        successful: 4,
        skipped: 0,
        failed: 1,
        failures: [{ shard: 3, index: 'dishes', node: 'n1', reason: { type: 'node_not_connected_exception', reason: '[geoshard-node-1] Node not connected' } }],
      },
    };
    const r = shardAnswers(plan, body);
    expect(statuses(r)).toEqual(['ok', 'ok', 'ok', 'failed', 'ok']);
    expect(r.shardsAsked[3].reason).toBe('node_not_connected_exception: [geoshard-node-1] Node not connected');
    expect(r.reason).toContain('4 of 5 shards answered');
    expect(r.reason).toContain('3 "s3"');
  });

  it('never says ok for a shard when fewer answered than were asked and OpenSearch names none of them', () => {
    // The case: a partial answer during a node restart, total short, no failures listed.
    const r = shardAnswers(plan, { timed_out: false, _shards: { total: 5, successful: 2, skipped: 0, failed: 0 } });
    expect(statuses(r)).toEqual(['unknown', 'unknown', 'unknown', 'unknown', 'unknown']);
    expect(r.shardsAsked[0].reason).toContain('3 of 5 shards did not answer but names only 0');
    expect(r.reason).toMatch(/^partial: 2 of 5 shards answered; not named by OpenSearch \(3 missing\), so unknown: 0 "s0", 1 "s1", 2 "s2", 3 "s3", 4 "s4"$/);
  });

  it('marks the unnamed rest unknown when the failures and missing copies explain only part of the shortfall', () => {
    const body = { timed_out: false, _shards: { total: 5, successful: 2, skipped: 0, failed: 1, failures: [{ shard: 0, reason: { type: 'x', reason: 'y' } }] } };
    const r = shardAnswers(plan, body, new Set([4]));
    expect(statuses(r)).toEqual(['failed', 'unknown', 'unknown', 'unknown', 'unavailable']);
    expect(r.reason).toContain('(1 missing)');
  });

  it('marks shards without a started copy unavailable and the rest ok when that explains the whole shortfall', () => {
    const r = shardAnswers(plan, { timed_out: false, _shards: { total: 5, successful: 3, skipped: 0, failed: 0 } }, new Set([1, 2]));
    expect(statuses(r)).toEqual(['ok', 'unavailable', 'unavailable', 'ok', 'ok']);
    expect(r.reason).toContain('no started copy: 1 "s1", 2 "s2"');
  });

  it('counts a total shorter than the plan as missing shards', () => {
    const r = shardAnswers(plan, { timed_out: false, _shards: { total: 4, successful: 4, skipped: 0, failed: 0 } });
    expect(statuses(r).every((x) => x === 'unknown')).toBe(true);
    expect(r.reason).toContain('4 of 5 shards answered');
  });

  it('leaves every unnamed shard unknown when the search timed out', () => {
    const r = shardAnswers(plan.slice(0, 2), { timed_out: true, _shards: { total: 2, successful: 2, skipped: 0, failed: 0 } });
    expect(statuses(r)).toEqual(['unknown', 'unknown']);
    expect(r.reason).toContain('timed out');
  });
});

describe('facetsOf', () => {
  it('lists every vocabulary value, zero when absent, by count then vocabulary order', () => {
    const f = facetsOf({ diets: { buckets: [{ key: 'vegan', doc_count: 2 }, { key: 'keto', doc_count: 5 }] } });
    expect(f.diets.map((x) => x.value)).toEqual(['keto', 'vegan', ...DIETS.filter((d) => d !== 'keto' && d !== 'vegan')]);
    expect(f.diets[0]).toEqual({ value: 'keto', count: 5 });
    expect(f.diets.slice(2).every((x) => x.count === 0)).toBe(true);
    expect(f.allergens).toHaveLength(ALLERGENS.length);
    expect(f.cuisines).toHaveLength(CUISINES.length);
  });
});

describe('profiling', () => {
  it('asks the profile API only when the search says profile=1', () => {
    expect((buildSearchBody(parse('lat=0&lng=0&radius=1')) as Body).profile).toBeUndefined();
    expect((buildSearchBody(parse('lat=0&lng=0&radius=1&profile=1')) as Body).profile).toBe(true);
  });

  it('times each shard as its top-level queries plus rewrite, aggregations and fetch, in ms, leaving collectors out', () => {
    // The shape of a real OpenSearch 2.19 profile (has_parent query + terms aggregation), numbers made round by hand:
    // shard 3: 1,500,000 + 500,000 (rewrite) + 250,000 (aggregation) = 2,250,000 ns = 2.25 ms; the collector's 9,000,000 ns is not added.
    // shard 0 (two searches, a fetch node): 1,000,000 + 0 + 2,000,000 + 100,000 + 400,000 (fetch) = 3.5 ms.
    const times = shardTimesOf(
      {
        shards: [
          {
            id: '[nodeB][dishes][3]',
            searches: [{ query: [{ time_in_nanos: 1_500_000 }], rewrite_time: 500_000, collector: [{ time_in_nanos: 9_000_000 }] }],
            aggregations: [{ time_in_nanos: 250_000 }],
          },
          { id: '[nodeA][dishes][0]', searches: [{ query: [{ time_in_nanos: 1_000_000 }], rewrite_time: 0 }, { query: [{ time_in_nanos: 2_000_000 }], rewrite_time: 100_000 }], fetch: [{ time_in_nanos: 400_000 }] },
          { id: 'not a profile id', searches: [{ query: [{ time_in_nanos: 7 }] }] },
        ],
      },
      (n) => (n === 0 ? 'alpha' : n === 3 ? 'delta' : '?'),
    );
    expect(times).toEqual([
      { shard: 0, name: 'alpha', node: 'nodeA', ms: 3.5 },
      { shard: 3, name: 'delta', node: 'nodeB', ms: 2.25 },
    ]);
  });

  it('gives no times when the answer has no profile section', () => {
    expect(shardTimesOf(undefined, () => 'x')).toEqual([]);
    expect(shardTimesOf({}, () => 'x')).toEqual([]);
  });
});

describe('compareParts', () => {
  const part = (total: number, ids: string[], vegan = 1): Pick<SearchPart, 'total' | 'hits' | 'facets'> => ({
    total,
    hits: ids.map((id) => ({ id }) as SearchPart['hits'][number]),
    facets: { diets: [{ value: 'vegan', count: vegan }], allergens: [], cuisines: [] },
  });

  it('calls equal totals, hit ids in the same order and equal facets identical', () => {
    expect(compareParts(part(3, ['a', 'b']), part(3, ['a', 'b']))).toEqual({ identical: true, differences: [] });
  });

  it('names each difference: total, order, length, facets', () => {
    expect(compareParts(part(3, ['a']), part(4, ['a'])).differences).toEqual(['total: routed 3, all shards 4']);
    expect(compareParts(part(3, ['a', 'b']), part(3, ['b', 'a'])).differences[0]).toContain('position 0');
    expect(compareParts(part(3, ['a']), part(3, ['a', 'b'])).differences[0]).toContain('routed returned 1, all shards 2');
    expect(compareParts(part(3, ['a'], 1), part(3, ['a'], 2)).differences).toEqual(['facets.diets differ']);
  });
});

describe('plans', () => {
  const router = new Router(fileWithCuts([1000, 2000, 3000, 500_000, 3_000_000, 5_000_000]));

  it('routes a circle to the shards of its covering, names joined by commas without spaces', () => {
    const p = parse('lat=40.7&lng=-74&radius=200mi');
    const plan = planRouted(router, p);
    const cover = router.cover(40.7, -74, p.circle!.radius.km);
    expect(plan.scope).toBe('routed');
    expect(plan.routing).toBe(cover.shards.map((s) => s.name).join(','));
    expect(plan.routing).not.toMatch(/\s/);
  });

  it('sends a search with no location to every shard without routing', () => {
    const plan = planRouted(router, parse('diet=vegan'));
    expect(plan).toEqual(planAll(router));
    expect(plan.scope).toBe('all-shards');
    expect(plan.routing).toBeNull();
    expect(plan.shards).toHaveLength(router.numberOfShards);
  });
});

describe('runSearch', () => {
  const router = new Router(fileWithCuts([1000, 2000, 3000, 500_000, 3_000_000, 5_000_000]));
  const restaurant = { id: 'r1', name: 'Chez Test', place: 'Oakland', state: 'CA', location: { lat: 37.8, lon: -122.27 }, cuisines: ['thai'] };
  const dish = (id: string, withRestaurant: boolean) => ({
    _id: id,
    _routing: 'beta',
    _source: { id, name: id, cuisine: 'thai', diets: [], allergens: [], calories: 500, price_cents: 900, restaurant_id: 'r1', ...(withRestaurant ? { restaurant } : {}) },
  });
  /** A client answering `_search` with the given hits and `_mget` with the restaurant, recording every call. */
  class Scripted extends OpenSearchClient {
    readonly calls: { method: string; path: string; opts: RequestOptions }[] = [];
    constructor(private readonly hits: unknown[]) {
      super({ url: 'http://127.0.0.1:9200', timeoutMs: 2000 });
    }
    override async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<OsResponse<T>> {
      this.calls.push({ method, path, opts });
      const body = path.endsWith('/_mget')
        ? { docs: [{ _id: 'r1', found: true, _source: restaurant }] }
        : { took: 3, timed_out: false, _shards: { total: 1, successful: 1, skipped: 0, failed: 0 }, hits: { total: { value: this.hits.length, relation: 'eq' }, hits: this.hits }, aggregations: {} };
      return { status: 200, body } as OsResponse<T>;
    }
  }
  const p = parse('lat=37.8&lng=-122.27&radius=15mi');

  it('takes each hit’s restaurant from the dish itself, in one request', async () => {
    const client = new Scripted([dish('d1', true), dish('d2', true)]);
    const r = await runSearch(client, router, p, planRouted(router, p));
    expect(client.calls.map((c) => c.path)).toEqual([`/${router.file.index}/_search`]);
    expect(r.hits.map((h) => h.restaurant)).toEqual([0, 1].map(() => ({ id: 'r1', name: 'Chez Test', place: 'Oakland', state: 'CA', lat: 37.8, lng: -122.27, cuisines: ['thai'] })));
    expect(r.hits[0].distanceKm).toBeCloseTo(0, 6);
  });

  it('fetches the restaurants of dishes written before they carried one, once each, with the dish’s routing', async () => {
    const client = new Scripted([dish('d1', false), dish('d2', false)]);
    const r = await runSearch(client, router, p, planRouted(router, p));
    const mget = client.calls.filter((c) => c.path.endsWith('/_mget'));
    expect(mget).toHaveLength(1);
    expect(mget[0].opts.body).toEqual({ docs: [{ _id: 'r1', routing: 'beta', _source: ['id', 'name', 'place', 'state', 'location', 'cuisines'] }] });
    expect(r.hits.map((h) => h.restaurant?.name)).toEqual(['Chez Test', 'Chez Test']);
  });
});

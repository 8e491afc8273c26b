/**
 * The browser side of the live API, checked against the server itself: URLs
 * are parsed by the server's own parameter parser, and answers are produced
 * by the real LiveApi (src/server/api.ts) over an OpenSearch client whose
 * replies are written here in OpenSearch's REST format, or over a real
 * connection to a closed port.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Router, cellAt, cellOrdinal, CELL_COUNT, KM_PER_MILE } from '../../core/index';
import { fileWithCuts } from '../../core/testutil';
import { parseSearchParams, routingKeyOf, type StatusAnswer } from '../../server/wire';
import { LiveApi } from '../../server/api';
import { OpenSearchClient, type RequestOptions } from '../../cluster/client';
import { ScriptedClient, mapping, type Reply } from './scripted.testing';
import { liveSearchUrl, liveSearchParams, readSearch, fetchSearch, sideStatus, redactUrl, type LiveQuery } from './search';
import { readStatus, describeStatus, liveNoun } from './status';
import { requestJson, type LiveFailure } from './request';
import { NO_FILTERS } from './filters';
import { searchPipeline, searchPipelineId } from '../../opensearch/pluginPipelines';

const SF = { lat: 37.7749, lng: -122.4194 };
const sfOrdinal = cellOrdinal(cellAt(SF.lat, SF.lng));
/** Three shards; the second starts at San Francisco's own cell, so a 15-mile circle there asks two of them. */
const FILE = fileWithCuts([sfOrdinal, Math.floor(CELL_COUNT * 0.9)], 'dishes');
const router = new Router(FILE);

/** A local URL nothing listens on (a port just released): connections to it are refused. */
let closedUrl = '';
beforeAll(async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((r) => server.close(() => r()));
});

const query = (over: Partial<LiveQuery> = {}): LiveQuery => ({ centre: SF, radius: { value: 15, unit: 'mi' }, noLocation: false, filters: NO_FILTERS, size: 20, ...over });
const serverParse = (url: string) => parseSearchParams(new URL(url, 'http://x').searchParams);

describe('liveSearchUrl', () => {
  it('asks the server for exactly the circle the explorer covers, compared, with the top 20 dishes', () => {
    const radius = { value: 12.345678901234, unit: 'mi' as const };
    const centre = { lat: 37.77491234567891, lng: -122.41941234567891 };
    const p = serverParse(liveSearchUrl(query({ centre, radius }))!);
    expect(p.circle).not.toBeNull();
    expect(p.circle!.lat).toBe(centre.lat);
    expect(p.circle!.lng).toBe(centre.lng);
    expect(p.circle!.radius.km).toBe(radius.value * KM_PER_MILE);
    expect(p.compare).toBe(true);
    expect(p.size).toBe(20);
  });

  it('sends kilometre radii in kilometres', () => {
    const p = serverParse(liveSearchUrl(query({ radius: { value: 25, unit: 'km' } }))!);
    expect(p.circle!.radius.km).toBe(25);
    expect(p.circle!.radius.unit).toBe('km');
  });

  it('sends the filters the server reads as diets carried, allergens excluded and cuisines allowed', () => {
    const url = liveSearchUrl(query({ filters: { diet: ['vegan', 'halal'], allergen: ['peanuts'], cuisine: ['thai', 'indian'] } }))!;
    const p = serverParse(url);
    expect(new Set(p.diets)).toEqual(new Set(['vegan', 'halal']));
    expect(p.allergens).toEqual(['peanuts']);
    expect(new Set(p.cuisines)).toEqual(new Set(['thai', 'indian']));
  });

  it('gives equal searches equal URLs whatever order the filters were picked in', () => {
    const a = liveSearchUrl(query({ filters: { diet: ['vegan', 'keto'], allergen: [], cuisine: ['thai', 'indian'] } }));
    const b = liveSearchUrl(query({ filters: { diet: ['keto', 'vegan'], allergen: [], cuisine: ['indian', 'thai'] } }));
    expect(a).toBe(b);
  });

  it('sends no location in no-location mode, so the server searches all shards', () => {
    const p = serverParse(liveSearchUrl(query({ noLocation: true }))!);
    expect(p.circle).toBeNull();
    expect(p.compare).toBe(true);
  });

  it('has nothing to ask without a centre unless in no-location mode', () => {
    expect(liveSearchUrl(query({ centre: null }))).toBeNull();
    expect(liveSearchParams(query({ centre: null, noLocation: true }))!.has('lat')).toBe(false);
  });
});

// A LiveApi over an OpenSearch client answering in OpenSearch's REST format (scripted.testing.ts).

/** A restaurant 5 km north of San Francisco's centre and two of its dishes. */
const restaurant = { id: 'r1', name: 'Chez Test', place: 'San Francisco', state: 'CA', location: { lat: SF.lat + 5 / 111.2, lon: SF.lng }, cuisines: ['thai'] };
const hit = (id: string, name: string, routing: string) => ({
  _id: id,
  _routing: routing,
  _source: { id, name, cuisine: 'thai', diets: ['vegan'], allergens: ['peanuts'], calories: 640, price_cents: 1450, restaurant_id: 'r1', restaurant },
});

/** An OpenSearch `_search` response. */
function searchResponse(o: { took: number; shards: { total: number; successful: number; skipped?: number; failed: number; failures?: unknown[] }; timedOut?: boolean; total: number; routing: string }) {
  return {
    status: 200,
    body: {
      took: o.took,
      timed_out: o.timedOut ?? false,
      _shards: { skipped: 0, ...o.shards },
      hits: { total: { value: o.total, relation: 'eq' }, hits: [hit('d1', 'Green curry', o.routing), hit('d2', 'Pad thai', o.routing)] },
      aggregations: {
        diets: { buckets: [{ key: 'vegan', doc_count: 2 }] },
        allergens: { buckets: [{ key: 'peanuts', doc_count: 2 }] },
        cuisines: { buckets: [{ key: 'thai', doc_count: o.total }] },
      },
    },
  };
}

const sfRoute = router.cover(SF.lat, SF.lng, 15 * KM_PER_MILE);

/** The API's answer to a URL, as the browser receives it (JSON round trip). */
async function answer(reply: (method: string, path: string, opts: RequestOptions) => Reply, url: string) {
  const api = new LiveApi({ file: FILE, client: new ScriptedClient(reply) });
  const r = await api.search(new URL(url, 'http://x').searchParams);
  return { httpStatus: r.httpStatus, body: JSON.parse(JSON.stringify(r.body)) as unknown };
}

function searchReply(routedShards: { total: number; successful: number; failed: number; failures?: unknown[] }, opts: { timedOut?: boolean; unroutedTotal?: number } = {}) {
  return (method: string, path: string, o: RequestOptions): Reply => {
    if (path.endsWith('/_mapping')) return mapping(FILE.hash);
    if (path.endsWith('/_search')) {
      const routing = o.query?.routing as string | undefined;
      return routing
        ? searchResponse({ took: 3, shards: routedShards, total: 41, routing: routing.split(',')[0], timedOut: opts.timedOut })
        : searchResponse({ took: 9, shards: { total: 3, successful: 3, failed: 0 }, total: opts.unroutedTotal ?? 41, routing: sfRoute.shards[0].name });
    }
    if (path.startsWith('/_cat/shards')) return { status: 200, body: [0, 1, 2].map((s) => ({ shard: String(s), state: 'STARTED' })) };
    return new Error(`unexpected ${method} ${path}`);
  };
}

describe('readSearch on the API’s answers', () => {
  it('reads a complete compared search: routed asks the covering’s shards, all-shards asks every shard, the two agree', async () => {
    expect(sfRoute.shards.length).toBe(2);
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 2, failed: 0 }), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    const v = r.value;
    expect(v.status).toBe('complete');
    expect(v.index).toBe('dishes');
    expect(v.boundary).toEqual({ hash: FILE.hash, version: 1, numberOfShards: 3 });
    expect(v.routed.scope).toBe('routed');
    expect(v.routed.routing).toBe(sfRoute.routing);
    expect(v.routed.shardsAsked.map((s) => s.name)).toEqual(sfRoute.shards.map((s) => s.name));
    expect(v.routed.shardsAsked.map((s) => s.cells)).toEqual(sfRoute.shards.map((s) => s.cells));
    expect(v.routed.shardsAsked.every((s) => s.status === 'ok')).toBe(true);
    expect(v.routed.took).toBe(3);
    expect(v.routed.total).toBe(41);
    expect(v.routed.shards).toEqual({ total: 2, successful: 2, skipped: 0, failed: 0 });
    expect(v.unrouted!.scope).toBe('all-shards');
    expect(v.unrouted!.routing).toBeNull();
    expect(v.unrouted!.shardsAsked.map((s) => s.name)).toEqual(router.shards.map((s) => s.name));
    expect(v.unrouted!.took).toBe(9);
    expect(v.identical).toBe(true);
    expect(v.differences).toEqual([]);
    expect(v.ratio!.shards).toBeCloseTo(2 / 3, 12);
    expect(v.ratio!.took).toBeCloseTo(3 / 9, 12);
    expect(v.radiusKm).toBe(15 * KM_PER_MILE);
    expect(v.note).toBeNull();
  });

  it('reads each dish with its restaurant, distance from the centre, price and tags', async () => {
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 2, failed: 0 }), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    const h = r.value.routed.hits[0];
    expect(h).toMatchObject({ id: 'd1', name: 'Green curry', cuisine: 'thai', diets: ['vegan'], allergens: ['peanuts'], calories: 640, priceCents: 1450 });
    expect(h.restaurant).toMatchObject({ id: 'r1', name: 'Chez Test', place: 'San Francisco', state: 'CA', lat: restaurant.location.lat, lng: SF.lng });
    // 5 km north along a meridian: 5/111.2 degrees of latitude on a 6371.0088 km sphere.
    expect(h.distanceKm).toBeCloseTo(((5 / 111.2) * Math.PI * 6371.0088) / 180, 6);
    expect(r.value.routed.facets.cuisines.find((f) => f.value === 'thai')!.count).toBe(41);
    expect(r.value.routed.facets.diets.find((f) => f.value === 'keto')!.count).toBe(0);
  });

  it('reports different answers as not identical, naming the difference', async () => {
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 2, failed: 0 }, { unroutedTotal: 43 }), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.identical).toBe(false);
    expect(r.value.differences.join(' ')).toMatch(/total: routed 41, all shards 43/);
  });

  it('never reads a search with a failed shard as complete, and names the failed shard', async () => {
    const failed = sfRoute.shards[1];
    const failures = [{ shard: failed.shard, index: 'dishes', reason: { type: 'node_disconnected_exception', reason: 'node left' } }];
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 1, failed: 1, failures }), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.status).toBe('partial');
    expect(r.value.routed.status).toBe('partial');
    expect(r.value.unrouted!.status).toBe('complete');
    const chip = r.value.routed.shardsAsked.find((s) => s.name === failed.name)!;
    expect(chip.status).toBe('failed');
    expect(chip.reason).toMatch(/node left/);
  });

  it('reads a timed-out search as partial with its shards unknown', async () => {
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 2, failed: 0 }, { timedOut: true }), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.status).toBe('partial');
    expect(r.value.routed.timedOut).toBe(true);
    expect(r.value.routed.shardsAsked.map((s) => s.status)).toEqual(['unknown', 'unknown']);
  });

  it('keeps a search partial when a side’s shard counts say so, whatever the top-level status claims', async () => {
    const { httpStatus, body } = await answer(searchReply({ total: 2, successful: 2, failed: 0 }), liveSearchUrl(query())!);
    const b = body as { status: string; unrouted: { shards: { successful: number } } };
    b.unrouted.shards.successful = 2;
    expect(b.status).toBe('complete');
    const r = readSearch(httpStatus, b);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.unrouted!.status).toBe('partial');
    expect(r.value.status).toBe('partial');
    expect(sideStatus({ timedOut: false, shards: { total: 3, successful: 3, skipped: 0, failed: 0 }, shardsAsked: [{ index: 0, name: 'a', shard: 0, cells: 0, status: 'unavailable', reason: null }] })).toBe('partial');
  });

  it('reads a no-location search as all shards on both sides, with the server’s note', async () => {
    const reply = searchReply({ total: 3, successful: 3, failed: 0 });
    const { httpStatus, body } = await answer((m, p, o) => reply(m, p, { ...o, query: { ...o.query, routing: undefined } }), liveSearchUrl(query({ noLocation: true }))!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.routed.scope).toBe('all-shards');
    expect(r.value.routed.shardsAsked.length).toBe(3);
    expect(r.value.note).toMatch(/all 3 shards/);
    expect(r.value.radiusKm).toBeNull();
  });
});

describe('readSearch when the cluster routes (the geoshard plugin\'s search pipeline is the index\'s default)', () => {
  /** A cluster whose index has geoshard's search pipeline: a search sent with no routing and no search_pipeline=_none is routed by it, and its report says so. */
  function clusterReply(report: { routed: boolean; routing: string | null; reason: string | null }, sent: { query: Record<string, unknown> }[]) {
    return (method: string, path: string, o: RequestOptions): Reply => {
      if (path.endsWith('/_mapping')) return mapping(FILE.hash);
      if (path === '/dishes/_settings/index.search.default_pipeline') return { status: 200, body: { dishes: { settings: { index: { search: { default_pipeline: searchPipelineId('dishes') } } } } } };
      if (path === `/_search/pipeline/${searchPipelineId('dishes')}`) return { status: 200, body: { [searchPipelineId('dishes')]: searchPipeline('dishes') } };
      if (path.endsWith('/_search')) {
        sent.push({ query: { ...(o.query ?? {}) } });
        const routing = o.query?.routing as string | undefined;
        const viaPipeline = !routing && o.query?.search_pipeline !== '_none';
        const r = searchResponse({ took: 3, shards: viaPipeline && report.routed ? { total: 2, successful: 2, failed: 0 } : routing ? { total: 2, successful: 2, failed: 0 } : { total: 3, successful: 3, failed: 0 }, total: 41, routing: sfRoute.shards[0].name });
        return viaPipeline ? { ...r, body: { ...r.body, ext: { geoshard: { ...report, cells: 12, micros: 40, shards: report.routed ? 2 : 3 } } } } : r;
      }
      if (path.startsWith('/_cat/shards')) return { status: 200, body: [0, 1, 2].map((s) => ({ shard: String(s), state: 'STARTED' })) };
      return new Error(`unexpected ${method} ${path}`);
    };
  }

  it('sends no routing, reads who routed it and which shards the pipeline asked, and compares with every shard', async () => {
    const sent: { query: Record<string, unknown> }[] = [];
    const { httpStatus, body } = await answer(clusterReply({ routed: true, routing: sfRoute.routing, reason: null }, sent), liveSearchUrl(query())!);
    const r = readSearch(httpStatus, body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(sent.map((x) => [x.query.routing ?? null, x.query.search_pipeline ?? null])).toEqual([[null, null], [null, '_none']]);
    expect(r.value.routed).toMatchObject({ scope: 'cluster', routedBy: 'cluster', routing: sfRoute.routing, cluster: { routed: true, agrees: true, cells: 12, micros: 40, reason: null } });
    expect(r.value.routed.shardsAsked.map((s) => s.name)).toEqual(sfRoute.shards.map((s) => s.name));
    expect(r.value.unrouted).toMatchObject({ scope: 'all-shards', routedBy: null });
    expect(r.value.identical).toBe(true);
  });

  it('says the pipeline did not narrow it, and why, when its report says so; route=client routes from the server', async () => {
    const sent: { query: Record<string, unknown> }[] = [];
    const not = await answer(clusterReply({ routed: false, routing: null, reason: 'the boundary file hash differs' }, sent), liveSearchUrl(query())!);
    const r = readSearch(not.httpStatus, not.body);
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.routed).toMatchObject({ scope: 'cluster', routedBy: null, routing: null, cluster: { routed: false, reason: 'the boundary file hash differs' } });
    expect(r.value.routed.shardsAsked.map((s) => s.name)).toEqual(router.shards.map((s) => s.name));
    const own = await answer(clusterReply({ routed: true, routing: sfRoute.routing, reason: null }, sent), `${liveSearchUrl(query())!}&route=client`);
    const o = readSearch(own.httpStatus, own.body);
    if (!o.ok) throw new Error(o.failure.message);
    expect(o.value.routed).toMatchObject({ scope: 'routed', routedBy: 'client', routing: sfRoute.routing });
    expect(sent.at(-2)!.query).toMatchObject({ routing: sfRoute.routing, search_pipeline: '_none' });
  });

  it('refuses a route that is not auto, client or cluster, naming the parameter', () => {
    expect(() => serverParse('/api/search?lat=1&lng=2&radius=5km&route=plugin')).toThrow(/route "plugin" is invalid: expected auto, client, cluster/);
    expect(serverParse('/api/search?lat=1&lng=2&radius=5km&route=auto').route).toBeUndefined();
    expect(serverParse('/api/search?lat=1&lng=2&radius=5km&route=client').route).toBe('client');
  });
});

describe('readSearch on failures', () => {
  it('keeps the placement of a partial answer and of an unavailable one (the node that held the lost shards)', () => {
    const placement = { missing: [{ shard: 4, name: 'echo', node: 'geoshard-node-3' }], lostNodes: ['geoshard-node-3'], promoted: [] };
    const failed = readSearch(503, { status: 'unavailable', error: { message: 'No shard asked could answer' }, placement });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.failure.placement).toEqual(placement);
    const side = { scope: 'routed', routing: 'echo', shardsAsked: [{ index: 4, name: 'echo', shard: 4, cells: 3, status: 'unavailable' }], took: 1, wallMs: 2, timedOut: false, total: 0, hits: [], facets: {}, shards: { total: 1, successful: 0, skipped: 0, failed: 0 } };
    const partial = readSearch(200, { status: 'partial', index: 'dishes', boundary: {}, query: {}, ...side, placement });
    if (!partial.ok) throw new Error(partial.failure.message);
    expect(partial.value.status).toBe('partial');
    expect(partial.value.placement).toEqual(placement);
  });

  const expectFailure = (r: ReturnType<typeof readSearch>): LiveFailure => {
    if (r.ok) throw new Error('expected a failure');
    return r.failure;
  };

  it('maps a drifted index (409) to a drift failure carrying both hashes', async () => {
    const other = 'f'.repeat(64);
    const { httpStatus, body } = await answer((_m, p) => (p.endsWith('/_mapping') ? mapping(other, 7) : new Error('must not search a drifted index')), liveSearchUrl(query())!);
    expect(httpStatus).toBe(409);
    const f = expectFailure(readSearch(httpStatus, body));
    expect(f.kind).toBe('drift');
    expect(f.drift).toMatchObject({ status: 'mismatch', indexHash: other, fileHash: FILE.hash, indexVersion: 7, fileVersion: 1 });
    expect(f.message).toContain(other);
    expect(f.message).toContain(FILE.hash);
  });

  it('maps a missing index to unavailable, telling to seed it', async () => {
    const { httpStatus, body } = await answer((_m, p) => (p.endsWith('/_mapping') ? { status: 404, body: {} } : new Error('no index')), liveSearchUrl(query())!);
    expect(httpStatus).toBe(503);
    const f = expectFailure(readSearch(httpStatus, body));
    expect(f.kind).toBe('unavailable');
    expect(f.message).toContain('npx geoshard seed');
    expect(f.drift?.status).toBe('missing-index');
  });

  it('maps a node that does not answer (a real refused connection) to unavailable, telling to start it', async () => {
    const api = new LiveApi({ file: FILE, client: new OpenSearchClient({ url: closedUrl, timeoutMs: 2000 }) });
    const r = await api.search(new URL(liveSearchUrl(query())!, 'http://x').searchParams);
    const f = expectFailure(readSearch(r.httpStatus, JSON.parse(JSON.stringify(r.body))));
    expect(f.kind).toBe('unavailable');
    expect(f.httpStatus).toBe(503);
    expect(f.message).toContain('npm run cluster:start');
  });

  it('maps a bad parameter (400) to invalid, naming the parameter', async () => {
    const api = new LiveApi({ file: FILE, client: new ScriptedClient(() => new Error('must not be asked')) });
    const r = await api.search(new URLSearchParams('lat=37&lng=-122&radius=5000km'));
    const f = expectFailure(readSearch(r.httpStatus, r.body));
    expect(f.kind).toBe('invalid');
    expect(f.param).toBe('radius');
    expect(f.message).toMatch(/radius/);
  });

  it('says the API is not served when /api answers with the page (SPA fallback) or 404 without JSON', () => {
    expect(expectFailure(readSearch(200, undefined)).kind).toBe('not-mounted');
    expect(expectFailure(readSearch(404, undefined)).message).toContain('npm start');
    expect(expectFailure(readSearch(502, undefined)).kind).toBe('bad-response');
  });

  it('refuses an answer of an unknown status or missing fields instead of showing it', () => {
    expect(expectFailure(readSearch(200, { status: 'great' })).message).toMatch(/"great"/);
    expect(expectFailure(readSearch(200, { status: 'complete', shardsAsked: [] })).message).toMatch(/total/);
  });
});

describe('an index of another config (geoshard explore on a team’s index)', () => {
  it('reads its documents as hits (name, routing, distance, fields) and the status’s config, and names them documents', () => {
    const side = {
      scope: 'routed',
      routing: 'echo',
      shardsAsked: [{ index: 4, name: 'echo', shard: 4, cells: 3, status: 'ok' }],
      took: 1,
      wallMs: 2,
      timedOut: false,
      total: 1,
      hits: [{ id: '2988507', name: 'Paris', routing: 'echo', lat: 48.85, lng: 2.35, distanceKm: 0.4, fields: { country: 'FR' } }],
      facets: { country: [{ value: 'FR', count: 1 }] },
      shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    };
    const r = readSearch(200, { status: 'complete', index: 'places', boundary: {}, query: {}, ...side });
    if (!r.ok) throw new Error(r.failure.message);
    expect(r.value.routed.hits).toEqual([
      { id: '2988507', name: 'Paris', cuisine: '', diets: [], allergens: [], calories: NaN, priceCents: NaN, routing: 'echo', restaurant: null, distanceKm: 0.4, fields: { country: 'FR' } },
    ]);
    const body = { connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: {} }, boundary: { index: 'places', hash: 'h', version: 1, numberOfShards: 3 }, index: { name: 'places', exists: true, docs: { restaurants: 0, dishes: 0, total: 135233 } } };
    const sample = readStatus(200, body);
    const other = readStatus(200, { ...body, config: { index: 'places', location: 'geo', name: 'name', join: null, facets: ['country'] } });
    if (!sample.ok || !other.ok) throw new Error('status not read');
    expect(sample.value.config).toBeNull();
    expect(other.value.config).toEqual({ index: 'places', location: 'geo', name: 'name', facets: ['country'] });
    expect(liveNoun(sample.value)).toBe('dishes');
    expect(liveNoun(other.value)).toBe('documents');
    expect(other.value.index?.total).toBe(135233);
  });
});

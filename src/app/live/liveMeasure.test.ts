import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import { createAppStore } from '../shell/store';
import { startLiveRunner } from './liveRunner';
import { liveMeasureBody, readMeasure } from '../api/measure';
import { NO_FILTERS } from '../api/filters';
import type { LiveQuery } from '../api/search';
import { parseMeasureRequest } from '../../server/wire';

/** An answer of POST /api/measure in the server's shape (wire.ts MeasureAnswer). */
const MEASURE_ANSWER = {
  status: 'complete',
  index: 'dishes',
  boundary: { hash: 'h', version: 1, numberOfShards: 15 },
  query: { lat: 37.7749, lng: -122.4194, radius: '15mi', radiusKm: 24.14, radiusMi: 15, diets: [], allergensExcluded: [], cuisines: [], size: 20, compare: false, profile: false },
  runs: 30,
  concurrency: 4,
  warmup: { runs: 3, note: 'The first 3 of the 30 one-at-a-time runs of each plan were warm-up (cold caches and code paths) and are discarded: p50 and p99 are of the other 27.' },
  routing: 'alpha,bravo',
  routed: { shardsAsked: 2, latency: { n: 27, p50Ms: 12.5, p99Ms: 31 }, tookP50Ms: 8, cpuMsPerSearch: 4.2, searchesPerS: 96.4, underLoad: { n: 30, p50Ms: 30, p99Ms: 60 } },
  all: { shardsAsked: 15, latency: { n: 27, p50Ms: 45, p99Ms: 93 }, tookP50Ms: 38, cpuMsPerSearch: 21, searchesPerS: 24.1, underLoad: { n: 30, p50Ms: 150, p99Ms: 240 } },
  gain: { p50: 3.6, p99: 3, cpu: 5, throughput: 4 },
  identical: true,
  differences: [],
  partialRuns: 0,
  load: { before: { '1m': 2.5, '5m': 2.1, '15m': 1.9 }, after: { '1m': 3.25, '5m': 2.2, '15m': 1.9 }, nodes: 1, processors: 2 },
  method: '30 searches per plan one at a time, alternating routed and all shards; …',
  ms: 9200,
  at: '2026-12-02T00:00:00.000Z',
};

const SF: LiveQuery = { centre: { lat: 37.7749, lng: -122.4194 }, radius: { value: 15, unit: 'mi' }, noLocation: false, filters: NO_FILTERS, size: 20 };

describe('the measure request and answer', () => {
  it('sends the live search\'s circle and filters, which the server reads back as the same search', () => {
    expect(liveMeasureBody({ ...SF, noLocation: true })).toBeNull();
    expect(liveMeasureBody({ ...SF, centre: null })).toBeNull();
    const body = liveMeasureBody({ ...SF, filters: { diet: ['vegan'], allergen: [], cuisine: ['thai', 'italian'] } }, 40, 2)!;
    expect(body).toMatchObject({ lat: 37.7749, lng: -122.4194, radius: '15mi', size: 20, diet: ['vegan'], runs: 40, concurrency: 2 });
    const m = parseMeasureRequest(JSON.parse(JSON.stringify(body)));
    expect(m.search.circle).toMatchObject({ lat: 37.7749, lng: -122.4194 });
    expect([m.search.diets, m.search.cuisines.sort(), m.runs, m.concurrency]).toEqual([['vegan'], ['italian', 'thai'], 40, 2]);
  });

  it('reads a 200 answer, a busy 429 with its Retry-After, a 400 naming the field, and refuses a malformed answer', () => {
    const ok = readMeasure(200, MEASURE_ANSWER);
    expect(ok.ok && ok.value.gain.cpu).toBe(5);
    expect(ok.ok && ok.value.warmup.runs).toBe(3);
    const busy = readMeasure(429, { status: 'busy', error: { message: 'a measurement is already running' } }, '5');
    expect(busy).toEqual({ ok: false, failure: { kind: 'busy', httpStatus: 429, message: 'a measurement is already running', retryAfterS: 5 } });
    const invalid = readMeasure(400, { status: 'invalid', error: { param: 'runs', message: 'runs 3 is invalid: expected an integer in [4, 200] (default 30)' } });
    expect(invalid).toMatchObject({ ok: false, failure: { kind: 'invalid', param: 'runs' } });
    const { routed: _r, ...noSide } = MEASURE_ANSWER;
    expect(readMeasure(200, noSide)).toMatchObject({ ok: false, failure: { kind: 'bad-response', message: expect.stringContaining('no routed side') } });
    // Where the cluster routes too: the third way with its gains; absent otherwise.
    expect(ok.ok && ok.value.cluster).toBeUndefined();
    const three = readMeasure(200, { ...MEASURE_ANSWER, cluster: { side: { ...MEASURE_ANSWER.routed, cpuMsPerSearch: 4.0, searchesPerS: 101 }, gain: { p50: 3.7, p99: 3.1, cpu: 5.25, throughput: 4.2 } } });
    expect(three.ok && three.value.cluster).toMatchObject({ side: { shardsAsked: 2, cpuMsPerSearch: 4.0, searchesPerS: 101 }, gain: { cpu: 5.25, throughput: 4.2 } });
    expect(readMeasure(200, { ...MEASURE_ANSWER, cluster: { gain: {} } })).toMatchObject({ ok: false, failure: { kind: 'bad-response' } });
    const { warmup: _w, ...noWarmup } = MEASURE_ANSWER;
    expect(readMeasure(200, noWarmup)).toMatchObject({ ok: false, failure: { kind: 'bad-response', message: expect.stringContaining('warm-up note') } });
  });
});

/** A fake fetch that records each request with its method and body and answers when the test says so. */
function fakeFetch() {
  const calls: { url: string; method: string; body: unknown; signal: AbortSignal; resolve: (body: unknown, status?: number) => void }[] = [];
  const impl = (url: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init!.signal!;
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push({
        url: String(url),
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
        signal,
        resolve: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
      });
    });
  return { calls, impl: impl as typeof fetch, measures: () => calls.filter((c) => c.url === '/api/measure') };
}

describe('the live runner measures on demand', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('posts the current search once per Measure, keeps the answer with the search it measured, and ignores a second click while running', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    store.getState().measureLive();
    store.getState().measureLive();
    expect(f.measures().length).toBe(1);
    const m = f.measures()[0];
    expect(m.method).toBe('POST');
    expect(m.body).toEqual({ lat: 37.7749, lng: -122.4194, radius: '15mi', size: 20 });
    expect(store.getState().liveMeasure.phase).toBe('running');
    m.resolve(MEASURE_ANSWER);
    await vi.advanceTimersByTimeAsync(0);
    const s = store.getState().liveMeasure;
    expect(s.phase).toBe('done');
    expect(s.result?.gain.throughput).toBe(4);
    expect(s.url).toBe('/api/search?lat=37.7749&lng=-122.4194&radius=15mi&size=20&compare=1&profile=1');
    stop();
  });

  it('says a measurement needs a circle without asking the server, and turning Live off aborts one in flight', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl });
    store.getState().setLiveOn(true);
    store.getState().measureLive();
    expect(f.measures()).toEqual([]);
    expect(store.getState().liveMeasure).toMatchObject({ phase: 'failed', failure: { kind: 'invalid', message: expect.stringContaining('needs a circle') } });
    store.getState().setSearchCentre(40.7128, -74.006, 'NYC');
    store.getState().measureLive();
    const m = f.measures()[0];
    store.getState().setLiveOn(false);
    expect(m.signal.aborted).toBe(true);
    expect(store.getState().liveMeasure.phase).toBe('idle');
    stop();
  });
});

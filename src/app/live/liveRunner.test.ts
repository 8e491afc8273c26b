import { describe, it, expect, vi, beforeEach, afterEach } from 'vitest';
import { createAppStore } from '../shell/store';
import { startLiveRunner } from './liveRunner';

/** A fake fetch: records each request and answers it when the test says so (or never). */
function fakeFetch() {
  const calls: { url: string; signal: AbortSignal; resolve: (body: unknown, status?: number) => void }[] = [];
  const impl = (url: string | URL | Request, init?: RequestInit) =>
    new Promise<Response>((resolve, reject) => {
      const signal = init!.signal!;
      signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push({ url: String(url), signal, resolve: (body, status = 200) => resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })) });
    });
  return { calls, impl: impl as typeof fetch, searches: () => calls.filter((c) => c.url.startsWith('/api/search')), statuses: () => calls.filter((c) => c.url === '/api/status') };
}

const STATUS_UP = { connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { version: '2.19.3', health: 'green', nodes: 1 } }, boundary: { index: 'dishes', hash: 'h', version: 1, numberOfShards: 3 }, index: { name: 'dishes', exists: true, docs: { restaurants: 1, dishes: 2 } }, drift: { status: 'ok', indexHash: 'h', fileHash: 'h', message: '' } };
const STATUS_DOWN = { connection: { status: 'down', url: 'http://127.0.0.1:9200', message: 'connection refused' }, boundary: { index: 'dishes', hash: 'h', version: 1, numberOfShards: 3 }, index: null, drift: null };
const side = (total: number) => ({ scope: 'routed', routing: 'alpha', shardsAsked: [{ index: 0, name: 'alpha', shard: 2, cells: 5, status: 'ok' }], took: 2, wallMs: 4, timedOut: false, total, hits: [], facets: {}, shards: { total: 1, successful: 1, skipped: 0, failed: 0 } });
const RESULT = (total: number) => ({ status: 'complete', index: 'dishes', boundary: { hash: 'h', version: 1, numberOfShards: 3 }, query: {}, ...side(total), unrouted: { ...side(total), scope: 'all-shards', routing: null }, identical: true, differences: [] });

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('live runner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('asks nothing while Live is off', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl });
    store.getState().setSearchCentre(37.7749, -122.4194, 'San Francisco, CA');
    await vi.advanceTimersByTimeAsync(20_000);
    expect(f.calls).toEqual([]);
    stop();
  });

  it('asks the status when turned on, and the search once the centre rests for the debounce time', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 200 });
    store.getState().setLiveOn(true);
    expect(f.statuses().length).toBe(1);
    expect(store.getState().liveSearch.url).toBeNull();
    store.getState().setSearchCentre(37.7749, -122.4194, 'San Francisco, CA');
    store.getState().setSearchRadius(20);
    store.getState().setSearchRadius(25);
    await vi.advanceTimersByTimeAsync(150);
    expect(f.searches()).toEqual([]);
    expect(store.getState().liveSearch.pending).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(f.searches().map((c) => c.url)).toEqual(['/api/search?lat=37.7749&lng=-122.4194&radius=25mi&size=20&compare=1&profile=1']);
    f.searches()[0].resolve(RESULT(12));
    await flush();
    const s = store.getState().liveSearch;
    expect(s.pending).toBe(false);
    expect(s.result?.routed.total).toBe(12);
    expect(s.answeredUrl).toBe(s.url);
    stop();
  });

  it('aborts the request in flight when the search changes and never writes its stale answer', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    await vi.advanceTimersByTimeAsync(10);
    const first = f.searches()[0];
    store.getState().toggleLiveFilter('diet', 'vegan');
    expect(first.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    const second = f.searches()[1];
    expect(second.url).toContain('diet=vegan');
    second.resolve(RESULT(7));
    await flush();
    expect(store.getState().liveSearch.result?.routed.total).toBe(7);
    stop();
  });

  it('searches all shards in no-location mode', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    store.getState().setLiveOn(true);
    store.getState().setNoLocation(true);
    await vi.advanceTimersByTimeAsync(10);
    expect(f.searches().map((c) => c.url)).toEqual(['/api/search?size=20&compare=1&profile=1']);
    stop();
  });

  it('asks the status again after a search fails as unavailable, and the search again once the node is back', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10, statusEveryMs: 60_000 });
    store.getState().setLiveOn(true);
    f.statuses()[0].resolve(STATUS_DOWN);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    await vi.advanceTimersByTimeAsync(10);
    f.searches()[0].resolve({ status: 'unavailable', error: { message: 'connection refused: start the node ("npm run cluster:start")' } }, 503);
    await flush();
    expect(store.getState().liveSearch.failure?.kind).toBe('unavailable');
    expect(f.statuses().length).toBe(2);
    f.statuses()[1].resolve(STATUS_UP);
    await flush();
    expect(f.searches().length).toBe(2);
    f.searches()[1].resolve(RESULT(3));
    await flush();
    expect(store.getState().liveSearch.failure).toBeNull();
    expect(store.getState().liveSearch.result?.routed.total).toBe(3);
    stop();
  });

  it('refreshes the status periodically while on', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, statusEveryMs: 1000 });
    store.getState().setLiveOn(true);
    f.statuses()[0].resolve(STATUS_UP);
    await vi.advanceTimersByTimeAsync(2500);
    expect(f.statuses().length).toBe(3);
    stop();
  });

  it('aborts everything and clears the answers when turned off', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10, statusEveryMs: 1000 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    await vi.advanceTimersByTimeAsync(10);
    store.getState().setLiveOn(false);
    expect(f.calls.every((c) => c.signal.aborted)).toBe(true);
    expect(store.getState().liveSearch.url).toBeNull();
    expect(store.getState().liveStatus.phase).toBe('idle');
    const n = f.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    expect(f.calls.length).toBe(n);
    stop();
  });

  it('asks again for an unchanged search on retry', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    await vi.advanceTimersByTimeAsync(10);
    f.searches()[0].resolve(RESULT(1));
    await flush();
    store.getState().retryLive();
    await flush();
    expect(f.searches().length).toBe(2);
    expect(f.searches()[1].url).toBe(f.searches()[0].url);
    expect(f.statuses().length).toBe(2);
    stop();
  });

  it('keeps the answer it already has when the panel is reopened on the same search, and clears an answer the search no longer wants', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    let stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'SF');
    await vi.advanceTimersByTimeAsync(10);
    f.searches()[0].resolve(RESULT(5));
    await flush();
    stop();
    stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    await vi.advanceTimersByTimeAsync(50);
    expect(f.searches().length).toBe(1);
    expect(store.getState().liveSearch.result?.routed.total).toBe(5);
    stop();
    store.getState().clearSearch();
    stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 10 });
    expect(store.getState().liveSearch.result).toBeNull();
    expect(store.getState().liveSearch.url).toBeNull();
    stop();
  });
  it('records the shard times of every answered search, both sides, for the rolling p50/p99', async () => {
    const store = createAppStore();
    const f = fakeFetch();
    const stop = startLiveRunner(store, { fetch: f.impl, debounceMs: 0 });
    store.getState().setLiveOn(true);
    store.getState().setSearchCentre(37.7749, -122.4194, 'San Francisco, CA');
    await flush();
    const timed = { ...RESULT(5), shardTimes: [{ shard: 2, name: 'alpha', node: 'n1', ms: 3.5 }], unrouted: { ...side(5), scope: 'all-shards', routing: null, shardTimes: [{ shard: 2, name: 'alpha', node: 'n1', ms: 1.5 }, { shard: 0, name: 'bravo', node: 'n2', ms: 9 }] } };
    f.searches()[0].resolve(timed);
    await flush();
    expect(store.getState().liveSearch.result?.routed.shardTimes).toEqual([{ shard: 2, name: 'alpha', node: 'n1', ms: 3.5 }]);
    expect(store.getState().liveLatency).toEqual({ alpha: [3.5, 1.5], bravo: [9] });
    store.getState().setLiveOn(false);
    expect(store.getState().liveLatency).toEqual({});
    stop();
  });
});

/**
 * The live runner: while the Live switch is on, keeps the store's liveStatus
 * and liveSearch answering the current search.
 *
 * - /api/status when Live is turned on, every `statusEveryMs` after, after a
 *   search fails for a reason the status explains (node down, drift, no API),
 *   and on retryLive.
 * - /api/search?...&compare=1 for the radius explorer's search plus the live
 *   filters, `debounceMs` after the last change (a radius drag asks once, when
 *   it rests). A change aborts the request in flight (AbortController): an
 *   answer is written only for the search still wanted.
 * - When the status turns healthy again after a failed search, the search is
 *   asked again.
 *
 * - POST /api/measure for the current search when measureLive bumps
 *   liveMeasureNonce (the panel's Measure button): one at a time; its answer is
 *   kept, with the search URL it measured, until the next measurement.
 *
 * Turning Live off aborts everything and clears the answers.
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { fetchMeasure, liveMeasureBody } from '../api/measure';
import { fetchSearch, liveSearchUrl, LIVE_SIZE, type LiveQuery } from '../api/search';
import { fetchStatus } from '../api/status';
import type { LiveFailureKind } from '../api/request';

export interface LiveRunnerOptions {
  /** The fetch to use (tests pass a fake). */
  fetch?: typeof fetch;
  /** Quiet time after the last change before a search is sent, ms (default 250). */
  debounceMs?: number;
  /** Status refresh period while Live is on, ms (default 15000). */
  statusEveryMs?: number;
}

/** liveQueryOf returns the live query of the current state. */
export function liveQueryOf(s: AppState): LiveQuery {
  // profile=1: the panel shows each asked shard's time (a profiled search costs a little more: see README).
  return { centre: s.searchCentre, radius: s.searchRadius, noLocation: s.noLocation, filters: s.liveFilters, size: LIVE_SIZE, profile: true };
}

/** Failures the status explains, after which it is asked again. */
const STATUS_WORTHY: readonly LiveFailureKind[] = ['unavailable', 'drift', 'network', 'not-mounted', 'timeout', 'error'];

const isAbort = (e: unknown) => (e as Error)?.name === 'AbortError';

/** startLiveRunner watches the store and returns a function that stops it (aborting what is in flight). */
export function startLiveRunner(store: AppStore, opts: LiveRunnerOptions = {}): () => void {
  const fetchImpl = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const debounceMs = opts.debounceMs ?? 250;
  const statusEveryMs = opts.statusEveryMs ?? 15_000;

  let active = false;
  /** The search URL last acted on; undefined before the first (and after a stop). */
  let lastKey: string | null | undefined;
  let lastNonce = -1;
  let lastMeasureNonce = -1;
  let measureCtl: AbortController | null = null;
  let debounce: ReturnType<typeof setTimeout> | null = null;
  let poll: ReturnType<typeof setInterval> | null = null;
  let searchCtl: AbortController | null = null;
  let statusCtl: AbortController | null = null;

  const get = () => store.getState();

  const requestStatus = () => {
    statusCtl?.abort();
    const ctl = new AbortController();
    statusCtl = ctl;
    const prev = get().liveStatus;
    if (prev.phase === 'idle') get().setLiveStatus({ ...prev, phase: 'loading' });
    fetchStatus(ctl.signal, fetchImpl).then(
      (parsed) => {
        if (statusCtl !== ctl || !active) return;
        statusCtl = null;
        const before = get().liveStatus;
        get().setLiveStatus(parsed.ok ? { phase: 'ready', status: parsed.value, failure: null, at: performance.now() } : { phase: 'failed', status: null, failure: parsed.failure, at: performance.now() });
        // Healthy again after a failed search: ask the search again.
        const healthy = parsed.ok && parsed.value.connection.up && parsed.value.drift?.status === 'ok';
        const wasHealthy = before.status?.connection.up && before.status.drift?.status === 'ok';
        const s = get().liveSearch;
        if (healthy && !wasHealthy && s.failure && !s.pending && s.url) send(s.url);
      },
      (e) => {
        if (!isAbort(e)) console.warn(`geoshard: live status: ${(e as Error).message}`);
      },
    );
  };

  const send = (url: string) => {
    searchCtl?.abort();
    const ctl = new AbortController();
    searchCtl = ctl;
    const cur = get().liveSearch;
    if (!cur.pending || cur.url !== url) get().setLiveSearch({ ...cur, url, pending: true });
    fetchSearch(url, ctl.signal, fetchImpl).then(
      (parsed) => {
        if (searchCtl !== ctl || !active) return;
        searchCtl = null;
        const now = get().liveSearch;
        if (now.url !== url) return;
        get().setLiveSearch(parsed.ok ? { url, pending: false, answeredUrl: url, result: parsed.value, failure: null } : { url, pending: false, answeredUrl: url, result: null, failure: parsed.failure });
        if (parsed.ok) get().recordLiveTimings(parsed.value);
        if (!parsed.ok && STATUS_WORTHY.includes(parsed.failure.kind)) requestStatus();
      },
      (e) => {
        if (!isAbort(e)) console.warn(`geoshard: live search: ${(e as Error).message}`);
      },
    );
  };

  const measure = (s: AppState) => {
    const q = liveQueryOf(s);
    const url = liveSearchUrl(q);
    // Measured without the profiler: profiling slows the search it would measure.
    const body = liveMeasureBody({ ...q, profile: false });
    if (!body || url === null) {
      s.setLiveMeasure({ phase: 'failed', url, result: null, failure: { kind: 'invalid', httpStatus: null, param: 'lat', message: 'Measure needs a circle: pick a centre in the Radius search tab. Without one both plans ask every shard, so there is nothing to compare.' } });
      return;
    }
    measureCtl?.abort();
    const ctl = new AbortController();
    measureCtl = ctl;
    s.setLiveMeasure({ phase: 'running', url, result: null, failure: null });
    fetchMeasure(body, ctl.signal, fetchImpl).then(
      (parsed) => {
        if (measureCtl !== ctl || !active) return;
        measureCtl = null;
        get().setLiveMeasure(parsed.ok ? { phase: 'done', url, result: parsed.value, failure: null } : { phase: 'failed', url, result: null, failure: parsed.failure });
      },
      (e) => {
        if (!isAbort(e)) console.warn(`geoshard: live measure: ${(e as Error).message}`);
      },
    );
  };

  const stop = () => {
    active = false;
    lastKey = undefined;
    if (debounce) clearTimeout(debounce);
    if (poll) clearInterval(poll);
    debounce = poll = null;
    searchCtl?.abort();
    statusCtl?.abort();
    measureCtl?.abort();
    searchCtl = statusCtl = measureCtl = null;
  };

  const update = (s: AppState) => {
    if (!s.liveOn) {
      if (active) stop();
      return;
    }
    if (!active) {
      active = true;
      lastNonce = s.liveNonce;
      lastMeasureNonce = s.liveMeasureNonce;
      requestStatus();
      poll = setInterval(requestStatus, statusEveryMs);
    }
    if (s.liveMeasureNonce !== lastMeasureNonce) {
      lastMeasureNonce = s.liveMeasureNonce;
      measure(s);
    }
    const retry = s.liveNonce !== lastNonce;
    if (retry) {
      lastNonce = s.liveNonce;
      requestStatus();
    }
    const url = liveSearchUrl(liveQueryOf(s));
    if (url === lastKey && !retry) return;
    // Reopened with the answer to this very search already in the store (the panel was closed and opened again): keep it.
    if (lastKey === undefined && url !== null && !retry && s.liveSearch.answeredUrl === url && s.liveSearch.result && !s.liveSearch.pending) {
      lastKey = url;
      return;
    }
    lastKey = url;
    if (debounce) clearTimeout(debounce);
    debounce = null;
    searchCtl?.abort();
    searchCtl = null;
    if (url === null) {
      if (s.liveSearch.url !== null || s.liveSearch.pending) s.setLiveSearch({ url: null, pending: false, answeredUrl: null, result: null, failure: null });
      return;
    }
    if (!s.liveSearch.pending || s.liveSearch.url !== url) s.setLiveSearch({ ...s.liveSearch, url, pending: true });
    debounce = setTimeout(() => {
      debounce = null;
      send(url);
    }, retry ? 0 : debounceMs);
  };

  update(get());
  const unsubscribe = store.subscribe((s) => [s.liveOn, s.liveNonce, s.liveMeasureNonce, liveSearchUrl(liveQueryOf(s))], () => update(get()), { equalityFn: shallow });
  return () => {
    unsubscribe();
    stop();
  };
}

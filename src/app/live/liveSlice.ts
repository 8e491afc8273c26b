/**
 * Live mode: the switch, the filters, and the latest answers of the live API.
 *
 * The search itself is the radius explorer's (searchSlice: centre, radius,
 * no-location mode); this slice adds only what live mode owns. The requests
 * are made by live/liveRunner.ts, which watches the store and writes
 * `liveStatus`, `liveSearch` and `liveMeasure` (the Measure action's answer)
 * here; the panel (live/LivePanel.tsx) reads them.
 */
import type { SliceCreator } from '../shell/types';
import type { LiveFailure } from '../api/request';
import type { LiveResult } from '../api/search';
import type { LiveStatus, LiveStatusState } from '../api/status';
export type { LiveStatusState } from '../api/status';
import type { MeasureAnswer } from '../api/measure';
import { NO_FILTERS, type LiveFilterKind, type LiveFilters } from '../api/filters';
import { recordTimings, type LatencyHistory } from '../shell/latencyStats';

/** The current search's answer. */
export interface LiveSearchState {
  /** The URL of the search wanted now (null: nothing to search). */
  url: string | null;
  /** True while the wanted search is waiting for its debounce or its answer. */
  pending: boolean;
  /** The URL `result` / `failure` answer (may trail `url` while pending: the panel dims it). */
  answeredUrl: string | null;
  result: LiveResult | null;
  failure: LiveFailure | null;
}

/** The Measure action's state: the current search run many times per plan (POST /api/measure). */
export interface LiveMeasureState {
  /** idle: never asked (or Live off); running: on its way; done / failed: answered. */
  phase: 'idle' | 'running' | 'done' | 'failed';
  /** The search URL (liveSearchUrl) measured; the panel marks an answer for another search as stale. */
  url: string | null;
  result: MeasureAnswer | null;
  failure: LiveFailure | null;
}

export interface LiveSlice {
  /** The Live switch (off when the page opens). */
  liveOn: boolean;
  liveFilters: LiveFilters;
  liveStatus: LiveStatusState;
  liveSearch: LiveSearchState;
  /** Bumped by retryLive: the runner asks again even for an unchanged search. */
  liveNonce: number;
  /** Each shard's recent profiled times (both sides of every answered search), kept while Live is on. */
  liveLatency: LatencyHistory;
  /** Records an answer's shard times (written by live/liveRunner.ts only). */
  recordLiveTimings: (result: LiveResult) => void;
  setLiveOn: (on: boolean) => void;
  /** Adds the value to the filter of its kind, or removes it when present. */
  toggleLiveFilter: (kind: LiveFilterKind, value: string) => void;
  clearLiveFilters: () => void;
  /** Asks the status and the current search again. */
  retryLive: () => void;
  /** Written by live/liveRunner.ts only. */
  setLiveStatus: (s: LiveStatusState) => void;
  /** Written by live/liveRunner.ts only. */
  setLiveSearch: (s: LiveSearchState) => void;
  liveMeasure: LiveMeasureState;
  /** Bumped by measureLive: the runner measures the current search. */
  liveMeasureNonce: number;
  /** Asks a measurement of the current search (ignored while one runs). */
  measureLive: () => void;
  /** Written by live/liveRunner.ts only. */
  setLiveMeasure: (m: LiveMeasureState) => void;
}

declare module '../shell/types' {
  interface AppState extends LiveSlice {}
}

export const IDLE_STATUS: LiveStatusState = Object.freeze({ phase: 'idle', status: null, failure: null, at: 0 }) as LiveStatusState;
export const IDLE_MEASURE: LiveMeasureState = Object.freeze({ phase: 'idle', url: null, result: null, failure: null }) as LiveMeasureState;
export const IDLE_SEARCH: LiveSearchState = Object.freeze({ url: null, pending: false, answeredUrl: null, result: null, failure: null }) as LiveSearchState;

export const createLiveSlice: SliceCreator<LiveSlice> = (set, get) => ({
  liveOn: false,
  liveFilters: NO_FILTERS,
  liveStatus: IDLE_STATUS,
  liveSearch: IDLE_SEARCH,
  liveNonce: 0,
  liveLatency: {},
  liveMeasure: IDLE_MEASURE,
  liveMeasureNonce: 0,
  setLiveOn: (on) => {
    if (get().liveOn === on) return;
    set(on ? { liveOn: true } : { liveOn: false, liveStatus: IDLE_STATUS, liveSearch: IDLE_SEARCH, liveLatency: {}, liveMeasure: IDLE_MEASURE });
  },
  measureLive: () => {
    if (get().liveMeasure.phase !== 'running') set({ liveMeasureNonce: get().liveMeasureNonce + 1 });
  },
  setLiveMeasure: (liveMeasure) => set({ liveMeasure }),
  recordLiveTimings: (result) => {
    const times = [...(result.routed.shardTimes ?? []), ...(result.unrouted?.shardTimes ?? [])];
    if (times.length > 0) set({ liveLatency: recordTimings(get().liveLatency, times) });
  },
  toggleLiveFilter: (kind, value) => {
    const f = get().liveFilters;
    const has = f[kind].includes(value);
    set({ liveFilters: { ...f, [kind]: has ? f[kind].filter((v) => v !== value) : [...f[kind], value] } });
  },
  clearLiveFilters: () => {
    const f = get().liveFilters;
    if (f.diet.length + f.allergen.length + f.cuisine.length > 0) set({ liveFilters: NO_FILTERS });
  },
  retryLive: () => set({ liveNonce: get().liveNonce + 1 }),
  setLiveStatus: (liveStatus) => set({ liveStatus }),
  setLiveSearch: (liveSearch) => set({ liveSearch }),
});

/**
 * The Traffic view's state (issue 39's key visualizer): the latest GET /api/traffic answer the
 * view polled while it is shown, the metric it colours by, the window's length, and the brushed
 * stretch of time. The brush is kept as times, not bucket numbers, so it stays on the same
 * minutes while the window follows live time and new buckets arrive.
 */
import type { SliceCreator } from '../shell/types';
import type { LiveFailure } from '../api/request';
import type { TrafficAnswer, TrafficMetric } from '../../server/wire';

/** The latest traffic answer. */
export interface TrafficState {
  /** idle: not asked yet; loading: the first answer is on its way; ready / failed: an answer came. */
  phase: 'idle' | 'loading' | 'ready' | 'failed';
  answer: TrafficAnswer | null;
  failure: LiveFailure | null;
  /** performance.now() of the answer, ms (0 before one). */
  at: number;
}

/** A brushed stretch: the start of its first bucket and the end of its last (ISO-8601, UTC). */
export interface TrafficBrush {
  start: string;
  end: string;
}

/** The windows the view offers, seconds. */
export const TRAFFIC_WINDOWS: readonly number[] = [15 * 60, 60 * 60, 6 * 3600, 24 * 3600];

export interface TrafficSlice {
  trafficState: TrafficState;
  trafficMetric: TrafficMetric;
  /** The window's length, seconds (one of TRAFFIC_WINDOWS). */
  trafficWindowS: number;
  trafficBrush: TrafficBrush | null;
  /** Written by traffic/trafficPoller.ts only. */
  setTrafficState: (s: TrafficState) => void;
  setTrafficMetric: (m: TrafficMetric) => void;
  setTrafficWindow: (seconds: number) => void;
  setTrafficBrush: (b: TrafficBrush | null) => void;
}

declare module '../shell/types' {
  interface AppState extends TrafficSlice {}
}

export const IDLE_TRAFFIC: TrafficState = Object.freeze({ phase: 'idle', answer: null, failure: null, at: 0 }) as TrafficState;

export const createTrafficSlice: SliceCreator<TrafficSlice> = (set, get) => ({
  trafficState: IDLE_TRAFFIC,
  trafficMetric: 'searches',
  trafficWindowS: TRAFFIC_WINDOWS[0],
  trafficBrush: null,
  setTrafficState: (trafficState) => set({ trafficState }),
  setTrafficMetric: (trafficMetric) => {
    if (get().trafficMetric !== trafficMetric) set({ trafficMetric });
  },
  setTrafficWindow: (trafficWindowS) => {
    if (get().trafficWindowS !== trafficWindowS) set({ trafficWindowS, trafficBrush: null });
  },
  setTrafficBrush: (trafficBrush) => set({ trafficBrush }),
});

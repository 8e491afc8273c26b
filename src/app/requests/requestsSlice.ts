/**
 * The request workload (issue 15): the searches the Requests layer colors
 * the globe by and the Review panel judges a candidate against. One workload
 * at a time: the bundled data/workload.csv (loaded only when the layer or the
 * review asks for it) or a file the user picks, parsed, covered and rated in
 * the review worker (requests/requestsDriver.ts asks it, through the client
 * the review's driver puts here: workloadClient).
 *
 * Panels select narrowly:
 *   useApp(s => s.requestWorkload)   the rated workload, or null
 *   useApp(s => s.requestStatus)     what is loading, or why it failed
 *   useApp(s => s.requestHotspots)   the current file's hot ranges, or null
 */
import type { SliceCreator } from '../shell/types';
import type { Hotspot } from '../../core/requestLoad.ts';
import { rateScale, type RateScale } from './requests';
import type { WorkloadAnswer, WorkloadClient } from '../shell/workload';

/** A rated workload and its color scale. */
export type RequestWorkload = WorkloadAnswer & { scale: RateScale };

/** What the workload is doing: nothing asked yet, loading (from a source), ready, or failed (with the problems). */
export interface RequestStatus {
  state: 'idle' | 'loading' | 'ready' | 'error';
  /** The source being loaded or loaded last, or null. */
  source: string | null;
  /** Why the last load failed (the parser's message names the line, field and value), or null. */
  error: string | null;
}

export interface RequestsSlice {
  requestWorkload: RequestWorkload | null;
  requestStatus: RequestStatus;
  /** The current file's hot ranges over the workload (core findHotspots), with the file's hash and the factor; null until computed. */
  requestHotspots: { hash: string; factor: number; hotspots: Hotspot[] } | null;
  /** Starts a load (the previous workload stays shown until the new one is ready). */
  setRequestLoading: (source: string) => void;
  /** Keeps a rated workload (its hot ranges are recomputed). */
  setRequestWorkload: (w: WorkloadAnswer) => void;
  /** Records why a load failed; the previous workload, if any, stays. */
  setRequestError: (source: string, error: string) => void;
  setRequestHotspots: (h: RequestsSlice['requestHotspots']) => void;
  /** Whether a workload is wanted (the layer is on, or the review shows its load): the driver then loads the bundled one unless one is loaded, loading or failed. */
  requestWanted: boolean;
  /** Whether the workload's figures need the cell weights (the review's driver loads them). */
  requestCellsWanted: boolean;
  /** Asks for a workload (and the cells its figures need); the review's panel and the layer call it when shown. */
  wantRequestWorkload: () => void;
  /** Asks for the cell weights alone (a picked workload file). */
  wantRequestCells: () => void;
  /** The worker that parses, covers and rates workloads (the review's driver provides its worker's client); null before it starts. */
  workloadClient: WorkloadClient | null;
  setWorkloadClient: (c: WorkloadClient | null) => void;
  /** A workload offered as text by another view (the Traffic view's window), for the driver to load; null before one. */
  requestOffer: RequestOffer | null;
  /** Makes `text` (a workload file's text, as formatWorkload writes it) the workload, named `source`; `rate` when its weights are counts over a stretch of time. */
  offerRequestWorkload: (source: string, text: string, rate?: RequestRate) => void;
}

/**
 * How an offered workload's weights read as rates: they are counts over `seconds` of recorded
 * traffic, so a cell's rate / seconds is per second; `basis` says what was counted: `cells`,
 * searches whose covering held the cell (the geoshard plugin's counts); `ranges`, shard queries of
 * the cell's range spread over its cells by documents (the engine's per-shard counters).
 */
export interface RequestRate {
  seconds: number;
  basis: 'cells' | 'ranges';
}

/** A workload offered by another view. */
export interface RequestOffer {
  source: string;
  text: string;
  rate: RequestRate | null;
}

/** requestRateOf: the rate of the loaded workload when it is the offered one, else null (a file or the bundled workload: counts). */
export function requestRateOf(s: Pick<RequestsSlice, 'requestOffer' | 'requestWorkload'>): RequestRate | null {
  const o = s.requestOffer;
  return o && o.rate && s.requestWorkload?.source === o.source ? o.rate : null;
}

declare module '../shell/types' {
  interface AppState extends RequestsSlice {}
}

export const createRequestsSlice: SliceCreator<RequestsSlice> = (set, get) => ({
  requestWorkload: null,
  requestStatus: { state: 'idle', source: null, error: null },
  requestHotspots: null,
  setRequestLoading: (source) => set({ requestStatus: { state: 'loading', source, error: null } }),
  setRequestWorkload: (w) => set({ requestWorkload: { ...w, scale: rateScale(w.rates) }, requestStatus: { state: 'ready', source: w.source, error: null }, requestHotspots: null }),
  setRequestError: (source, error) => set({ requestStatus: { state: 'error', source, error } }),
  setRequestHotspots: (h) => set({ requestHotspots: h }),
  requestWanted: false,
  requestCellsWanted: false,
  wantRequestWorkload: () => {
    if (!get().requestWanted || !get().requestCellsWanted) set({ requestWanted: true, requestCellsWanted: true });
  },
  wantRequestCells: () => {
    if (!get().requestCellsWanted) set({ requestCellsWanted: true });
  },
  workloadClient: null,
  setWorkloadClient: (workloadClient) => set({ workloadClient }),
  requestOffer: null,
  offerRequestWorkload: (source, text, rate) => set({ requestOffer: { source, text, rate: rate ?? null }, requestWanted: true, requestCellsWanted: true, requestStatus: { state: 'loading', source, error: null } }),
});

/**
 * Write mode (the Live tab, with the API started with GEOSHARD_WRITES=1): a
 * click on the globe places a restaurant (a draft: its id, point, name,
 * cuisines and price level), Enter writes it through the live API, and the
 * panel compares the answer with the routing core. The requests are made by
 * write/writeActions.ts, which writes `write` here; the panel
 * (write/WriteMode.tsx) and the globe's marker read it.
 *
 * writing(s) says whether a click on the globe places a restaurant now.
 */
import type { SliceCreator, AppState } from '../shell/types';
import type { LiveFailure } from '../live/liveApi';
import type { LiveStatusState } from '../live/liveSlice';
import { readyData } from '../shell/dataSlice';
import { newRestaurantId, type WriteAnswer } from '../live/writeApi';
import { coreRoute, routerFor, type CoreRoute } from './coreRoute';

/** A restaurant placed on the globe, not written yet (or being written). */
export interface WriteDraft {
  /** A valid API id, generated at the click. */
  id: string;
  /** Degrees, rounded to 6 decimals (about 0.1 m). */
  lat: number;
  lng: number;
  name: string;
  /** Values of the API's cuisine vocabulary, in the order picked. */
  cuisines: string[];
  /** Integer 1..4, or null for none. */
  priceLevel: number | null;
  /** The core's routing of the point, computed at the click. */
  core: CoreRoute;
}

/** The last write request and its outcome. */
export interface WriteRequestState {
  /** idle: nothing sent; sending / deleting: a request is out; done: `answer` or `failure` holds its outcome. */
  phase: 'idle' | 'sending' | 'deleting' | 'done';
  /** The request the outcome belongs to. */
  op: 'put' | 'delete' | null;
  answer: WriteAnswer | null;
  failure: LiveFailure | null;
  /** The core's routing of the restaurant the request was about (recomputed when sent). */
  core: CoreRoute | null;
  /** The restaurant written and not deleted since (the delete button's target), or null. */
  placed: { id: string; name: string; lat: number; lng: number } | null;
}

export interface WriteSlice {
  /** The Write switch of the Live tab (off when the page opens). */
  writeMode: boolean;
  writeDraft: WriteDraft | null;
  writeRequest: WriteRequestState;
  setWriteMode: (on: boolean) => void;
  /** Places a new draft at a point (degrees), with a fresh id and the default name; ignored while a request is out. */
  placeDraft: (lat: number, lng: number) => void;
  /** Changes the draft's form fields. */
  editDraft: (patch: Partial<Pick<WriteDraft, 'name' | 'cuisines' | 'priceLevel'>>) => void;
  /** Drops the draft. */
  discardDraft: () => void;
  /** Written by write/writeActions.ts only. */
  setWriteRequest: (r: WriteRequestState) => void;
}

declare module '../shell/types' {
  interface AppState extends WriteSlice {}
}

/** The name a draft starts with, so one click and Enter writes. */
export const DEFAULT_NAME = 'New restaurant';

export const IDLE_REQUEST: WriteRequestState = Object.freeze({ phase: 'idle', op: null, answer: null, failure: null, core: null, placed: null }) as WriteRequestState;

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** The availability of Write mode: from the live API's status. */
export type WriteAvailability = { state: 'enabled' } | { state: 'disabled' | 'unknown'; reason: string };

/** WRITES_OFF: why Write mode is not offered by a server that says writes are disabled. */
export const WRITES_OFF = 'Writes are off on this server: start it with GEOSHARD_WRITES=1 (GEOSHARD_WRITES=1 npm start) to place restaurants from the globe.';

/** writeAvailability reads whether the live API takes writes from its latest status. */
export function writeAvailability(live: LiveStatusState): WriteAvailability {
  if (live.phase === 'idle' || live.phase === 'loading') return { state: 'unknown', reason: 'Waiting for the live API’s status…' };
  if (!live.status) return { state: 'disabled', reason: `The live API’s status is not known: ${live.failure?.message ?? 'no answer'}` };
  const w = live.status.writes;
  if (!w) return { state: 'disabled', reason: 'This server does not say whether it takes writes (a server before writes): update it and start it with GEOSHARD_WRITES=1.' };
  return w.enabled ? { state: 'enabled' } : { state: 'disabled', reason: WRITES_OFF };
}

/** writing says whether a click on the globe places a restaurant: Live on, the Live tab open, Write mode on and writes enabled. */
export function writing(s: AppState): boolean {
  return s.writeMode && s.liveOn && s.tab === 'live' && writeAvailability(s.liveStatus).state === 'enabled';
}

/** coreRouteAt routes a point with the explorer's boundary file and the index's migration, if any; null before the data is loaded. */
export function coreRouteAt(s: AppState, lat: number, lng: number): CoreRoute | null {
  const data = readyData(s);
  if (!data) return null;
  const { router, epoch, note } = routerFor(data.file, data.router, s.liveStatus.status?.migration ?? null);
  return coreRoute(router, lat, lng, epoch, note);
}

export const createWriteSlice: SliceCreator<WriteSlice> = (set, get) => ({
  writeMode: false,
  writeDraft: null,
  writeRequest: IDLE_REQUEST,
  setWriteMode: (on) => {
    if (get().writeMode === on) return;
    set(on ? { writeMode: true } : { writeMode: false, writeDraft: null });
  },
  placeDraft: (lat, lng) => {
    const phase = get().writeRequest.phase;
    if (phase === 'sending' || phase === 'deleting') return;
    lat = round6(lat);
    lng = round6(lng);
    const core = coreRouteAt(get(), lat, lng);
    if (!core) return;
    const prev = get().writeDraft;
    // The form's choices carry over to the next click; the id and the point are new.
    set({ writeDraft: { id: newRestaurantId(), lat, lng, name: prev?.name ?? DEFAULT_NAME, cuisines: prev?.cuisines ?? [], priceLevel: prev?.priceLevel ?? null, core } });
  },
  editDraft: (patch) => {
    const d = get().writeDraft;
    if (d) set({ writeDraft: { ...d, ...patch } });
  },
  discardDraft: () => set({ writeDraft: null }),
  setWriteRequest: (writeRequest) => set({ writeRequest }),
});

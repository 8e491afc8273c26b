/**
 * Write mode (the Live tab, with the API started with GEOSHARD_WRITES=1): a
 * click on the globe places a restaurant (a draft: its id, point, name,
 * cuisines and price level), Enter writes it through the live API, and the
 * panel compares the answer with the routing core. The requests are made by
 * write/writeActions.ts, which writes `write` here; the panel
 * (write/WriteMode.tsx) and the globe's marker read it.
 *
 * write/availability.ts says whether Write mode is offered and whether a
 * click on the globe places a restaurant now.
 */
import type { SliceCreator } from '../shell/types';
import type { LiveFailure } from '../api/request';
import type { WriteAnswer } from '../../server/wire';
import type { CoreRoute } from './coreRoute';

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
  /**
   * Places a new draft (its id, point and the core's routing of it: write/writeActions.ts placeAt
   * makes them, outside the first screen's bundle) with the form's last choices. Ignored while a
   * request is out.
   */
  placeDraft: (at: Pick<WriteDraft, 'id' | 'lat' | 'lng' | 'core'>) => void;
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

export const createWriteSlice: SliceCreator<WriteSlice> = (set, get) => ({
  writeMode: false,
  writeDraft: null,
  writeRequest: IDLE_REQUEST,
  setWriteMode: (on) => {
    if (get().writeMode === on) return;
    set(on ? { writeMode: true } : { writeMode: false, writeDraft: null });
  },
  placeDraft: ({ id, lat, lng, core }) => {
    const phase = get().writeRequest.phase;
    if (phase === 'sending' || phase === 'deleting') return;
    const prev = get().writeDraft;
    // The form's choices carry over to the next click; the id and the point are new.
    set({ writeDraft: { id, lat, lng, name: prev?.name ?? DEFAULT_NAME, cuisines: prev?.cuisines ?? [], priceLevel: prev?.priceLevel ?? null, core } });
  },
  editDraft: (patch) => {
    const d = get().writeDraft;
    if (d) set({ writeDraft: { ...d, ...patch } });
  },
  discardDraft: () => set({ writeDraft: null }),
  setWriteRequest: (writeRequest) => set({ writeRequest }),
});

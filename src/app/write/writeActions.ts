/**
 * Write mode's requests: the draft written with PUT /api/restaurants/:id, the
 * placed restaurant deleted with DELETE. Each writes `writeRequest` in the
 * store when it is sent and when it is answered; one request at a time (a
 * second is ignored while one is out). The routing core's view of the point
 * is recomputed when the request is sent, with the migration state the live
 * API last reported, so the verdict compares like with like.
 */
import type { AppStore } from '../shell/types';
import { deleteRestaurant, newRestaurantId, putRestaurant, type RestaurantBody } from '../api/writes';
import type { WriteDraft } from './writeSlice';
import { coreRouteAt } from './coreRoute';

const busy = (store: AppStore) => {
  const p = store.getState().writeRequest.phase;
  return p === 'sending' || p === 'deleting';
};

/** bodyOf returns the API body of a draft: name trimmed, cuisines and price level only when chosen. */
export function bodyOf(d: WriteDraft): RestaurantBody {
  const body: RestaurantBody = { name: d.name.trim(), lat: d.lat, lng: d.lng };
  if (d.cuisines.length > 0) body.cuisines = [...d.cuisines];
  if (d.priceLevel !== null) body.price_level = d.priceLevel;
  return body;
}

/**
 * submitDraft writes the draft; resolves when answered (never rejects). On
 * success the draft becomes the placed restaurant (the delete's target) and
 * is cleared, so the next click starts a new one.
 */
const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * placeAt places a draft at a point (degrees, rounded to 6 decimals: about
 * 0.1 m) with a fresh id, routed by the core as coreRouteAt does; nothing
 * before the boundary file is loaded.
 */
export function placeAt(store: AppStore, lat: number, lng: number): void {
  lat = round6(lat);
  lng = round6(lng);
  const core = coreRouteAt(store.getState(), lat, lng);
  if (core) store.getState().placeDraft({ id: newRestaurantId(), lat, lng, core });
}

export async function submitDraft(store: AppStore, fetchImpl: typeof fetch = (...a) => fetch(...a)): Promise<void> {
  const s = store.getState();
  const d = s.writeDraft;
  if (!d || busy(store)) return;
  const core = coreRouteAt(s, d.lat, d.lng) ?? d.core;
  const placed = s.writeRequest.placed;
  s.setWriteRequest({ phase: 'sending', op: 'put', answer: null, failure: null, core, placed });
  let parsed;
  try {
    parsed = await putRestaurant(d.id, bodyOf(d), new AbortController().signal, fetchImpl);
  } catch (e) {
    parsed = { ok: false as const, failure: { kind: 'error' as const, httpStatus: null, message: `The write was not sent: ${(e as Error).message}` } };
  }
  const now = store.getState();
  if (parsed.ok) {
    now.setWriteRequest({ phase: 'done', op: 'put', answer: parsed.value, failure: null, core, placed: { id: d.id, name: d.name.trim(), lat: d.lat, lng: d.lng } });
    if (now.writeDraft?.id === d.id) now.discardDraft();
  } else {
    now.setWriteRequest({ phase: 'done', op: 'put', answer: null, failure: parsed.failure, core, placed });
  }
}

/** deletePlaced deletes the placed restaurant (with its dishes); resolves when answered (never rejects). */
export async function deletePlaced(store: AppStore, fetchImpl: typeof fetch = (...a) => fetch(...a)): Promise<void> {
  const s = store.getState();
  const placed = s.writeRequest.placed;
  if (!placed || busy(store)) return;
  const core = coreRouteAt(s, placed.lat, placed.lng);
  s.setWriteRequest({ phase: 'deleting', op: 'delete', answer: null, failure: null, core, placed });
  let parsed;
  try {
    parsed = await deleteRestaurant(placed.id, new AbortController().signal, fetchImpl);
  } catch (e) {
    parsed = { ok: false as const, failure: { kind: 'error' as const, httpStatus: null, message: `The delete was not sent: ${(e as Error).message}` } };
  }
  store
    .getState()
    .setWriteRequest(parsed.ok ? { phase: 'done', op: 'delete', answer: parsed.value, failure: null, core, placed: null } : { phase: 'done', op: 'delete', answer: null, failure: parsed.failure, core, placed });
}

/**
 * searchAsked: the shards the current radius search asks, read from the store's state by every
 * panel that shows them (the search's result, Live's comparison, the review's search under both
 * files). In the host, so that features read it from the store instead of importing the search
 * feature; the search's fields it reads are declared on AppState by search/searchSlice.ts.
 */
import type { CircleRoute } from '../../core/index';

/** The shards the current search asks. */
export interface SearchAsked {
  /** Key-order indices, ascending. */
  indices: number[];
  /** The routing string as sent (names in key order, comma-joined). */
  routing: string;
  /** True in "no location" mode: no circle, every shard is asked. */
  all: boolean;
}

/** The state searchAsked reads (AppState has these fields). */
export interface AskedInputs {
  searchCentre: { lat: number; lng: number } | null;
  noLocation: boolean;
  covering: { route: CircleRoute } | null;
  data: { status: string };
}

let askedMemo: { key: unknown[]; value: SearchAsked } | null = null;

/**
 * searchAsked returns the shards the current search asks: all N in no-location
 * mode, else the shards of the latest covering (while the radius is dragged
 * it may trail the slider by a frame), or null when there is no search or its
 * first covering is still being computed.
 * Memoised: the same object while its inputs are unchanged, so it can be
 * selected with useApp.
 */
export function searchAsked(s: AskedInputs): SearchAsked | null {
  const data = s.data as { status: string; router?: { numberOfShards: number; allShardsRouting(): string } };
  const key = [s.noLocation, s.covering, s.searchCentre, data.router];
  if (askedMemo && askedMemo.key.every((k, i) => k === key[i])) return askedMemo.value;
  let value: SearchAsked | null = null;
  if (s.noLocation && data.router) {
    value = { indices: Array.from({ length: data.router.numberOfShards }, (_, i) => i), routing: data.router.allShardsRouting(), all: true };
  } else if (s.searchCentre && s.covering) {
    value = { indices: s.covering.route.shards.map((x) => x.index), routing: s.covering.route.routing, all: false };
  }
  if (value) askedMemo = { key, value };
  return value;
}

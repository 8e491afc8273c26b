/**
 * The radius search (Plate II): a centre, a radius in miles or km, and the
 * "no location" mode; plus its covering, derived once per change.
 *
 * The covering is not computed here: search/search.ts watches this slice,
 * computes the covering in a worker (a 1,000 km circle, 46,686 cells, takes
 * 80–320 ms) at most once per animation frame, and writes the answer to
 * `covering`. Read the shards a search asks with searchAsked(s) (shell/searchAsked.ts), which also
 * covers "no location" (all N).
 *
 * Other panels (live mode, boundary review) select from here:
 *   useApp(s => s.covering)          the current circle's covering, or null
 *   useApp(searchAsked)              { indices, routing, all } of the current search (stable reference)
 *   appStore.getState().setSearchCentre(lat, lng, 'label')
 */
import type { SliceCreator } from '../shell/types';
import type { CircleRoute, Radius, RadiusUnit } from '../../core/index';
import { KM_PER_MILE, MAX_RADIUS_KM, parseRadius } from '../../core/index';
import { wrapLng } from '../shell/url';

/** A search centre: degrees, lat in [-90, 90], lng in [-180, 180); label is what the panel shows ("New York, NY", "40.7143° N, 74.0060° W"). */
export interface SearchCentre {
  lat: number;
  lng: number;
  label: string;
}

/** The covering of the current circle, as the worker computed it (search/search.ts). */
export interface SearchCovering {
  /** The circle it covers: degrees and km. */
  lat: number;
  lng: number;
  radiusKm: number;
  /** The boundary file's hash it was routed with. */
  hash: string;
  /** Exactly Router.cover(lat, lng, radiusKm). */
  route: CircleRoute;
  /** Level-10 ordinals of route.cells (same order), for the scene. */
  ordinals: Int32Array;
  /** The four corners of each cell (cellVertices order), (lat, lng) in radians: 8 floats per cell. */
  corners: Float32Array;
  /** Compute time in the worker, ms. */
  ms: number;
}


export interface SearchSlice {
  /** The search centre, or null before one is chosen (no circle drawn). */
  searchCentre: SearchCentre | null;
  /** The radius as the user set it: the core's Radius (value in its unit, and km), from parseRadius only. */
  searchRadius: Radius;
  /** "No location" mode: the search has no circle and asks all N shards. */
  noLocation: boolean;
  /** The fan-out map layer (off by default). */
  fanout: boolean;
  /** The covering of the current circle once computed, or null (no centre, no location, or not yet computed). */
  covering: SearchCovering | null;
  /** Sets the centre (lng wrapped, lat clamped); leaves no-location mode. */
  setSearchCentre: (lat: number, lng: number, label: string) => void;
  /** Sets the radius; the value is clamped into (0, MAX_RADIUS_KM] in its unit. */
  setSearchRadius: (value: number, unit?: RadiusUnit) => void;
  /** Switches the unit, converting the value so the circle stays the same (rounded to 0.1). */
  setRadiusUnit: (unit: RadiusUnit) => void;
  setNoLocation: (on: boolean) => void;
  setFanout: (on: boolean) => void;
  /** Removes the search (no centre, default radius kept). */
  clearSearch: () => void;
  /** Applies a search read from a link (see shell/linkCodec.ts, search/searchUrl.ts) in one update. */
  applyUrlSearch: (s: { centre: SearchCentre | null; radius: Radius; noLocation: boolean; fanout: boolean }) => void;
  /** Written by search/search.ts only. */
  setCovering: (covering: SearchCovering | null) => void;
  /** A zoom to fit the circle waits for the canvas's size (a link opened without zoom=); search/search.ts applies it. */
  pendingFit: boolean;
  setPendingFit: (on: boolean) => void;
  /** The zoom glide running (search/search.ts zoomTo), or null; a new glide or null stops the old one. */
  zoomGlide: object | null;
  setZoomGlide: (glide: object | null) => void;
  /** Mounted panels that make a click on the globe pick the search centre (the radius panel). */
  clickPickers: number;
  addClickPicker: (delta: 1 | -1) => void;
  /** The S2 cell pasted into the search box (any level, search/paste.ts), drawn as an outline (PastedCell.tsx); null for none. */
  pastedCell: PastedCellState | null;
  setPastedCell: (cell: PastedCellState | null) => void;
}

/** A pasted cell: its canonical token and S2 level (0 to 30). */
export interface PastedCellState {
  token: string;
  level: number;
}

declare module '../shell/types' {
  interface AppState extends SearchSlice {}
}

/** The radius a page opens with: 15 miles, the article's first worked search. */
export const DEFAULT_RADIUS: Readonly<Radius> = Object.freeze(parseRadius(15, 'mi'));

/** maxRadiusIn returns MAX_RADIUS_KM in a unit (621.37 mi). */
export function maxRadiusIn(unit: RadiusUnit): number {
  return unit === 'mi' ? MAX_RADIUS_KM / KM_PER_MILE : MAX_RADIUS_KM;
}

/** clampRadius keeps a value in (0, max] of its unit; non-finite or ≤ 0 values become the smallest radius, 0.1. */
export function clampRadius(value: number, unit: RadiusUnit): number {
  if (!Number.isFinite(value) || value <= 0) return 0.1;
  return Math.min(value, maxRadiusIn(unit));
}

export const createSearchSlice: SliceCreator<SearchSlice> = (set, get) => ({
  searchCentre: null,
  searchRadius: { ...DEFAULT_RADIUS },
  noLocation: false,
  fanout: false,
  covering: null,
  setSearchCentre: (lat, lng, label) => {
    const c = get().searchCentre;
    const next = { lat: Math.min(90, Math.max(-90, lat)), lng: wrapLng(lng), label };
    if (c && c.lat === next.lat && c.lng === next.lng && c.label === label && !get().noLocation) return;
    set({ searchCentre: next, noLocation: false });
  },
  setSearchRadius: (value, unit = get().searchRadius.unit) => {
    const r = get().searchRadius;
    const v = clampRadius(value, unit);
    if (r.value !== v || r.unit !== unit) set({ searchRadius: parseRadius(v, unit) });
  },
  setRadiusUnit: (unit) => {
    const r = get().searchRadius;
    if (r.unit === unit) return;
    const value = unit === 'km' ? r.km : r.km / KM_PER_MILE;
    set({ searchRadius: parseRadius(clampRadius(Math.round(value * 10) / 10, unit), unit) });
  },
  setNoLocation: (on) => {
    if (get().noLocation !== on) set({ noLocation: on });
  },
  setFanout: (on) => {
    if (get().fanout !== on) set({ fanout: on });
  },
  clearSearch: () => set({ searchCentre: null, noLocation: false }),
  applyUrlSearch: (s) => set({ searchCentre: s.centre, searchRadius: { ...s.radius }, noLocation: s.noLocation, fanout: s.fanout }),
  setCovering: (covering) => set({ covering }),
  pendingFit: false,
  setPendingFit: (on) => {
    if (get().pendingFit !== on) set({ pendingFit: on });
  },
  zoomGlide: null,
  setZoomGlide: (zoomGlide) => set({ zoomGlide }),
  clickPickers: 0,
  addClickPicker: (delta) => set({ clickPickers: Math.max(0, get().clickPickers + delta) }),
  pastedCell: null,
  setPastedCell: (pastedCell) => {
    if (get().pastedCell?.token !== pastedCell?.token) set({ pastedCell });
  },
});

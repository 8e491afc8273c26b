/**
 * The view: where the camera looks, how close, which level and layers, the
 * flat layouts, and what is under the pointer. Camera and hover change every
 * frame / pointer move: the scene writes them here and readouts subscribe and
 * write to the DOM; no component re-renders for them.
 */
import type { SliceCreator } from '../shell/types';
import { createFrame, type Frame } from './frame';
import { checkMovingRanges, type RegionPaint } from './regionPaint';
import { DEFAULT_VIEW, LAYERS, MIN_ZOOM, MAX_ZOOM, MAX_LEVEL, wrapLng, type Layer, type FlattenMode, type UrlView } from '../shell/url';

/** What is under the pointer on the globe. */
export interface Hover {
  lat: number;
  lng: number;
  /** Cube face, 0..5. */
  face: number;
  /** Level-10 token. */
  token: string;
  /** Level-10 ordinal, [0, 6·4^10). */
  ordinal: number;
  /** Key-order index of the shard. */
  shardIndex: number;
  shardName: string;
  /** The OpenSearch shard number the name routes to. */
  shardNumber: number;
}

export interface ViewSlice {
  /** The point at the centre of the view, degrees. */
  camera: { lat: number; lng: number };
  /** Zoom factor in [MIN_ZOOM, MAX_ZOOM]; 1 = 100%. */
  zoom: number;
  /** S2 level drawn (grid and curve), 0..10. */
  level: number;
  layers: Record<Layer, boolean>;
  flatten: FlattenMode;
  hover: Hover | null;
  /** Shard highlighted from the index bar, the shard list or the ribbon (key-order index), −1 for none. */
  highlight: number;
  /** A brushed stretch of the curve [first, last] (level-10 ordinals, inclusive), or null. */
  brush: [number, number] | null;
  /** A point the camera should glide to (the scene consumes it), or null. */
  flyTarget: { lat: number; lng: number } | null;
  /** What the regions are painted with instead of the shard palette (globe/regionPaint.ts), or null; FrameDriver uploads it. */
  regionPaint: RegionPaint | null;
  /** Key ranges hatched as moving: [start, end) level-10 ordinal pairs, at most MAX_MOVING_RANGES; FrameDriver writes them. */
  movingRanges: Int32Array;
  setCamera: (lat: number, lng: number) => void;
  setZoom: (zoom: number) => void;
  zoomBy: (factor: number) => void;
  setLevel: (level: number) => void;
  setLayer: (layer: Layer, on: boolean) => void;
  toggleLayer: (layer: Layer) => void;
  setFlatten: (mode: FlattenMode) => void;
  setHover: (hover: Hover | null) => void;
  setHighlight: (index: number) => void;
  setBrush: (brush: [number, number] | null) => void;
  flyTo: (lat: number, lng: number) => void;
  setRegionPaint: (paint: RegionPaint | null) => void;
  /** Throws RangeError (naming the count) for more than MAX_MOVING_RANGES pairs. */
  setMovingRanges: (ranges: Int32Array) => void;
  applyUrlView: (view: UrlView) => void;
  /** The per-frame state of this store's globe (camera motion, pointer, morph): created with the store, never replaced, mutated in place, never rendered through React. */
  readonly frame: Frame;
}

declare module '../shell/types' {
  interface AppState extends ViewSlice {}
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const layersOf = (on: readonly Layer[]) => Object.fromEntries(LAYERS.map((l) => [l, on.includes(l)])) as Record<Layer, boolean>;

export const createViewSlice: SliceCreator<ViewSlice> = (set, get) => ({
  frame: createFrame(),
  camera: { lat: DEFAULT_VIEW.lat, lng: DEFAULT_VIEW.lng },
  zoom: DEFAULT_VIEW.zoom,
  level: DEFAULT_VIEW.level,
  layers: layersOf(DEFAULT_VIEW.layers),
  flatten: DEFAULT_VIEW.flatten,
  hover: null,
  highlight: -1,
  brush: null,
  flyTarget: null,
  regionPaint: null,
  movingRanges: new Int32Array(0),
  setCamera: (lat, lng) => {
    const c = get().camera;
    const next = { lat: clamp(lat, -90, 90), lng: wrapLng(lng) };
    if (next.lat !== c.lat || next.lng !== c.lng) set({ camera: next });
  },
  setZoom: (zoom) => set({ zoom: clamp(zoom, MIN_ZOOM, MAX_ZOOM) }),
  zoomBy: (factor) => get().setZoom(get().zoom * factor),
  setLevel: (level) => set({ level: clamp(Math.round(level), 0, MAX_LEVEL) }),
  setLayer: (layer, on) => {
    if (get().layers[layer] !== on) set({ layers: { ...get().layers, [layer]: on } });
  },
  toggleLayer: (layer) => get().setLayer(layer, !get().layers[layer]),
  setFlatten: (flatten) => set({ flatten }),
  setHover: (hover) => set({ hover }),
  setHighlight: (highlight) => {
    if (get().highlight !== highlight) set({ highlight });
  },
  setBrush: (brush) => set({ brush }),
  flyTo: (lat, lng) => set({ flyTarget: { lat: clamp(lat, -90, 90), lng: wrapLng(lng) } }),
  setRegionPaint: (regionPaint) => set({ regionPaint }),
  setMovingRanges: (movingRanges) => {
    checkMovingRanges(movingRanges);
    set({ movingRanges });
  },
  applyUrlView: (v) => set({ camera: { lat: v.lat, lng: v.lng }, zoom: v.zoom, level: v.level, layers: layersOf(v.layers), flatten: v.flatten }),
});

/** urlViewOf returns the part of the view that goes into links. */
export function urlViewOf(s: ViewSlice): UrlView {
  return { lat: s.camera.lat, lng: s.camera.lng, zoom: s.zoom, level: s.level, layers: LAYERS.filter((l) => s.layers[l]), flatten: s.flatten };
}

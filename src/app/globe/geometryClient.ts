/**
 * The main-thread side of geometry.worker.ts (comlink): the worker starts on
 * first use, and not before the scene's first frame (afterFirstFrame): what it
 * computes (land, cell weights, curves) is drawn after that frame, and its script
 * and work would otherwise compete with it. Hilbert curves are cached per level,
 * so stepping back to a level draws at once.
 */
import { wrap, type Remote } from 'comlink';
import { afterFirstFrame } from './firstFrame';
import type { SegmentArrays } from './typedArrays';
import type { GeometryApi } from './geometry.worker';
import type { CellsData } from '../shell/dataSlice';
import { DATA_URLS, DATA_NAMES } from '../shell/loadData';

interface GeometryClient {
  api: Promise<Remote<GeometryApi>>;
  curves: Map<number, Promise<SegmentArrays>>;
  cells: Map<string, Promise<CellsData>>;
}

let client: GeometryClient | null = null;

// One worker per page, made on first use (a lazily built handle, not app state).
function geometry(): GeometryClient {
  client ??= {
    api: afterFirstFrame().then(() => wrap<GeometryApi>(new Worker(new URL('./geometry.worker.ts', import.meta.url), { type: 'module' }))),
    curves: new Map(),
    cells: new Map(),
  };
  return client;
}

/** hilbertCurve returns the segments of the Hilbert curve through the centres of a level's cells (0..7). */
export function hilbertCurve(level: number): Promise<SegmentArrays> {
  const { api, curves } = geometry();
  if (!curves.has(level)) curves.set(level, api.then((a) => a.hilbert(level) as Promise<SegmentArrays>));
  return curves.get(level)!;
}

/**
 * loadCells fetches and parses a cells file (with the core's parseCellsCsv)
 * off the main thread, once per page: the globe, the review and the fan-out
 * map share the answer (callers must not transfer its arrays). A failed load
 * is forgotten, so a later call tries again.
 */
export function loadCells(url: string): Promise<CellsData> {
  const { api, cells } = geometry();
  let p = cells.get(url);
  if (!p) {
    p = api.then((a) => a.cells(url, url === DATA_URLS.cells ? DATA_NAMES.cells : url) as Promise<CellsData>).catch((e: unknown) => {
      cells.delete(url);
      throw e;
    });
    cells.set(url, p);
  }
  return p;
}

/** loadLand fetches and decodes a world-atlas land topology into coastline segments. */
export function loadLand(url: string): Promise<SegmentArrays> {
  return geometry().api.then((a) => a.land(url) as Promise<SegmentArrays>);
}

/** loadBorders fetches and decodes country and US state borders (see basemap.ts). */
export function loadBorders(countriesUrl: string, statesUrl: string): Promise<SegmentArrays> {
  return geometry().api.then((a) => a.borders(countriesUrl, statesUrl) as Promise<SegmentArrays>);
}

/** loadDetail returns the detailed outlines within radiusDeg of (lat, lng) (see basemap.ts); the files are decoded once. */
export function loadDetail(landUrl: string, statesUrl: string, lat: number, lng: number, radiusDeg: number): Promise<SegmentArrays> {
  return geometry().api.then((a) => a.detail(landUrl, statesUrl, lat, lng, radiusDeg) as Promise<SegmentArrays>);
}

/**
 * The globe's geometry worker and its client (comlink): the work that would otherwise block the
 * main thread for more than a frame (up to 98,304 cell centres for the level-7 Hilbert curve,
 * parsing data/cells.csv, decoding the land topology). createGeometryApi is what the worker
 * exposes (geometry.worker.ts); typed arrays are transferred, not copied. createGeometryClient is
 * the main thread's side: the worker starts on first use, and not before the scene's first frame
 * (afterFirstFrame): what it computes (land, cell weights, curves) is drawn after that frame, and
 * its script and work would otherwise compete with it. Hilbert curves are cached per level, so
 * stepping back to a level draws at once. The page has one client (hilbertCurve, loadCells,
 * loadLand, loadBorders, loadDetail use it). Unit-tested in geometryWorker.test.ts through a real
 * comlink channel.
 */
import { wrap, transfer, type Remote } from 'comlink';
import { parseCellsCsv, cellWeights, CELLS_HEADER } from '../../core/index';
import { afterFirstFrame } from './firstFrame';
import { levelCellCenters } from './levels';
import { hilbertSegments, coastlineSegments, segmentArraysOf, type SegmentArrays, type Topology } from './typedArrays';
import { meshSegments, awayFrom, within } from './basemap';
import type { CellsData } from '../shell/dataSlice';
import type { WorkerEndpoint } from '../shell/worker';
import { DATA_URLS, DATA_NAMES } from '../shell/loadData';

const segmentBuffers = (s: SegmentArrays) => [s.ll.buffer, s.xyz.buffer, s.other.buffer, s.otherXyz.buffer, s.ordinal.buffer];

const topo = async (url: string) => (await (await fetchOk(url)).json()) as Topology;
const joined = (parts: Float64Array[]) => {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) (out.set(p, k), (k += p.length));
  return out;
};

async function fetchOk(url: string): Promise<Response> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res;
}

/** createGeometryApi is what the geometry worker exposes (comlink; geometry.worker.ts binds it). */
export function createGeometryApi() {
  // Decoded basemap outlines, per file set: decoded once, cut to a region on every ask.
  const decoded = new Map<string, Promise<Float64Array>>();
  const once = (key: string, make: () => Promise<Float64Array>): Promise<Float64Array> => {
    let p = decoded.get(key);
    if (!p) {
      p = make().catch((e: unknown) => {
        decoded.delete(key);
        throw e;
      });
      decoded.set(key, p);
    }
    return p;
  };
  return {
    /** The segments of the Hilbert curve through the centres of a level's cells (0..7). */
    hilbert(level: number): SegmentArrays {
      const segs = hilbertSegments(levelCellCenters(level), level);
      return transfer(segs, segmentBuffers(segs));
    },
    /**
     * A cells file fetched and parsed with the core's parseCellsCsv (either header: a generic
     * token,docs file reads as restaurants = docs, dishes = 0), named `name` in its errors: the
     * app's one read of it, as columns in key order.
     */
    async cells(url: string, name = 'data/cells.csv'): Promise<CellsData> {
      const text = await (await fetchOk(url)).text();
      const cells = parseCellsCsv(text, name);
      const unit = text.startsWith(CELLS_HEADER) ? 'restaurants + dishes' : 'documents';
      const tokens = cells.map((c) => c.token).join(',');
      const ordinals = Int32Array.from(cells, (c) => c.ordinal);
      const restaurants = Float64Array.from(cells, (c) => c.restaurants);
      const dishes = Float64Array.from(cells, (c) => c.dishes);
      const weights = cellWeights(cells);
      return transfer({ tokens, ordinals, restaurants, dishes, weights, unit }, [ordinals.buffer, restaurants.buffer, dishes.buffer, weights.buffer]);
    },
    /** A world-atlas land topology fetched and decoded into coastline segments. */
    async land(url: string): Promise<SegmentArrays> {
      const segs = coastlineSegments((await (await fetchOk(url)).json()) as Topology);
      return transfer(segs, segmentBuffers(segs));
    },
    /** Country borders (a world-atlas countries topology) and US state borders (us-atlas states), whole world. */
    async borders(countriesUrl: string, statesUrl: string): Promise<SegmentArrays> {
      const flat = await once(`borders ${countriesUrl} ${statesUrl}`, async () => {
        const [countries, states] = await Promise.all([topo(countriesUrl), topo(statesUrl)]);
        return joined([meshSegments(countries, 'countries', (a, b) => a !== b), meshSegments(states, 'states', (a, b) => a !== b)]);
      });
      const segs = segmentArraysOf(flat);
      return transfer(segs, segmentBuffers(segs));
    },
    /**
     * The detailed outlines within radiusDeg of (lat, lng): a world-atlas land topology (1:10m) and
     * the US lake shores of us-atlas states that the land outline lacks (basemap.ts).
     */
    async detail(landUrl: string, statesUrl: string, lat: number, lng: number, radiusDeg: number): Promise<SegmentArrays> {
      const flat = await once(`detail ${landUrl} ${statesUrl}`, async () => {
        const [land, states] = await Promise.all([topo(landUrl), topo(statesUrl)]);
        const coast = meshSegments(land, 'land');
        return joined([coast, awayFrom(meshSegments(states, 'states', (a, b) => a === b), coast, 0.1)]);
      });
      const segs = segmentArraysOf(within(flat, lat, lng, radiusDeg));
      return transfer(segs, segmentBuffers(segs));
    },
  };
}

export type GeometryApi = ReturnType<typeof createGeometryApi>;

/** The main thread's handle on the geometry worker. */
export interface GeometryClient {
  /** The segments of the Hilbert curve through the centres of a level's cells (0..7), cached per level. */
  hilbert(level: number): Promise<SegmentArrays>;
  /**
   * A cells file fetched and parsed (with the core's parseCellsCsv) off the main thread, once:
   * callers share the answer (and must not transfer its arrays). A failed load is forgotten, so a
   * later call tries again.
   */
  cells(url: string, name?: string): Promise<CellsData>;
  /** A world-atlas land topology decoded into coastline segments. */
  land(url: string): Promise<SegmentArrays>;
  /** Country and US state borders (see basemap.ts). */
  borders(countriesUrl: string, statesUrl: string): Promise<SegmentArrays>;
  /** The detailed outlines within radiusDeg of (lat, lng) (see basemap.ts); the files are decoded once. */
  detail(landUrl: string, statesUrl: string, lat: number, lng: number, radiusDeg: number): Promise<SegmentArrays>;
}

/** createGeometryClient starts the worker (makeWorker) on first use, once `start` settles (the scene's first frame). */
export function createGeometryClient(makeWorker: () => WorkerEndpoint, start: () => Promise<void> = afterFirstFrame): GeometryClient {
  let api: Promise<Remote<GeometryApi>> | null = null;
  const worker = () => (api ??= start().then(() => wrap<GeometryApi>(makeWorker())));
  const curves = new Map<number, Promise<SegmentArrays>>();
  const cells = new Map<string, Promise<CellsData>>();
  return {
    hilbert(level) {
      if (!curves.has(level)) curves.set(level, worker().then((a) => a.hilbert(level) as Promise<SegmentArrays>));
      return curves.get(level)!;
    },
    cells(url, name) {
      let p = cells.get(url);
      if (!p) {
        p = worker()
          .then((a) => a.cells(url, name) as Promise<CellsData>)
          .catch((e: unknown) => {
            cells.delete(url);
            throw e;
          });
        cells.set(url, p);
      }
      return p;
    },
    land: (url) => worker().then((a) => a.land(url) as Promise<SegmentArrays>),
    borders: (countriesUrl, statesUrl) => worker().then((a) => a.borders(countriesUrl, statesUrl) as Promise<SegmentArrays>),
    detail: (landUrl, statesUrl, lat, lng, radiusDeg) => worker().then((a) => a.detail(landUrl, statesUrl, lat, lng, radiusDeg) as Promise<SegmentArrays>),
  };
}

let page: GeometryClient | null = null;

// The page's one geometry worker, made on first use (a lazily built handle, not app state).
function geometry(): GeometryClient {
  page ??= createGeometryClient(() => new Worker(new URL('./geometry.worker.ts', import.meta.url), { type: 'module' }));
  return page;
}

/** hilbertCurve returns the segments of the Hilbert curve through the centres of a level's cells (0..7). */
export function hilbertCurve(level: number): Promise<SegmentArrays> {
  return geometry().hilbert(level);
}

/**
 * loadCells fetches and parses a cells file off the main thread, once per page: the globe, the
 * review and the fan-out map share the answer (callers must not transfer its arrays). A failed
 * load is forgotten, so a later call tries again.
 */
export function loadCells(url: string): Promise<CellsData> {
  return geometry().cells(url, url === DATA_URLS.cells ? DATA_NAMES.cells : url);
}

/** loadLand fetches and decodes a world-atlas land topology into coastline segments. */
export function loadLand(url: string): Promise<SegmentArrays> {
  return geometry().land(url);
}

/** loadBorders fetches and decodes country and US state borders (see basemap.ts). */
export function loadBorders(countriesUrl: string, statesUrl: string): Promise<SegmentArrays> {
  return geometry().borders(countriesUrl, statesUrl);
}

/** loadDetail returns the detailed outlines within radiusDeg of (lat, lng) (see basemap.ts); the files are decoded once. */
export function loadDetail(landUrl: string, statesUrl: string, lat: number, lng: number, radiusDeg: number): Promise<SegmentArrays> {
  return geometry().detail(landUrl, statesUrl, lat, lng, radiusDeg);
}

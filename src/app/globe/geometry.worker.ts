/// <reference lib="webworker" />
/**
 * The globe's geometry worker: the work that would otherwise block the main
 * thread for more than a frame (up to 98,304 cell centres for the level-7
 * Hilbert curve, parsing data/cells.csv, decoding the land topology).
 * Exposed with comlink (geometryClient.ts wraps it); typed arrays are
 * transferred, not copied.
 */
import { expose, transfer } from 'comlink';
import { parseCellsCsv, cellWeights, CELLS_HEADER } from '../../core/index';
import { levelCellCenters } from './levels';
import { hilbertSegments, coastlineSegments, segmentArraysOf, type SegmentArrays, type Topology } from './typedArrays';
import { meshSegments, awayFrom, within } from './basemap';
import type { CellsData } from '../shell/dataSlice';

const segmentBuffers = (s: SegmentArrays) => [s.ll.buffer, s.xyz.buffer, s.other.buffer, s.otherXyz.buffer, s.ordinal.buffer];

// Decoded basemap outlines, per file set: decoded once, cut to a region on every ask.
const decoded = new Map<string, Promise<Float64Array>>();
function once(key: string, make: () => Promise<Float64Array>): Promise<Float64Array> {
  let p = decoded.get(key);
  if (!p) {
    p = make().catch((e: unknown) => {
      decoded.delete(key);
      throw e;
    });
    decoded.set(key, p);
  }
  return p;
}
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

const geometryApi = {
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

export type GeometryApi = typeof geometryApi;

expose(geometryApi);

/// <reference lib="webworker" />
/**
 * The globe's geometry worker: the work that would otherwise block the main
 * thread for more than a frame (up to 98,304 cell centres for the level-7
 * Hilbert curve, parsing data/cells.csv, decoding the land topology).
 * Exposed with comlink (geometryClient.ts wraps it); typed arrays are
 * transferred, not copied.
 */
import { expose, transfer } from 'comlink';
import { parseCellsCsv } from '../../core/index';
import { levelCellCenters } from './levels';
import { hilbertSegments, coastlineSegments, type SegmentArrays, type Topology } from './typedArrays';
import type { CellsData } from '../shell/dataSlice';

const segmentBuffers = (s: SegmentArrays) => [s.ll.buffer, s.xyz.buffer, s.other.buffer, s.otherXyz.buffer, s.ordinal.buffer];

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
  /** A cells file fetched and parsed with the core's parseCellsCsv: the app's one read of it, as columns in key order. */
  async cells(url: string): Promise<CellsData> {
    const cells = parseCellsCsv(await (await fetchOk(url)).text(), 'data/cells.csv');
    const tokens = cells.map((c) => c.token).join(',');
    const ordinals = Int32Array.from(cells, (c) => c.ordinal);
    const restaurants = Float64Array.from(cells, (c) => c.restaurants);
    const dishes = Float64Array.from(cells, (c) => c.dishes);
    const weights = Float64Array.from(cells, (c) => c.restaurants + c.dishes);
    return transfer({ tokens, ordinals, restaurants, dishes, weights }, [ordinals.buffer, restaurants.buffer, dishes.buffer, weights.buffer]);
  },
  /** A world-atlas land topology fetched and decoded into coastline segments. */
  async land(url: string): Promise<SegmentArrays> {
    const segs = coastlineSegments((await (await fetchOk(url)).json()) as Topology);
    return transfer(segs, segmentBuffers(segs));
  },
};

export type GeometryApi = typeof geometryApi;

expose(geometryApi);

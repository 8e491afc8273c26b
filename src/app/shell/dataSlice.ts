/**
 * The data the explorer draws: the boundary file (with its router and
 * colors), and, loaded after the first frame, the per-cell weights of
 * data/cells.csv and the sample cities.
 */
import type { SliceCreator } from './types';
import type { BoundaryFile, ShardTable } from '../../core/index';
import type { City } from './loadData';
import { shardPalette, type RGB } from './palette';

/** The boundary file once validated. */
export interface ReadyData {
  status: 'ready';
  file: BoundaryFile;
  router: ShardTable;
  source: string;
  /** Shard colors in key order. */
  colors: RGB[];
  /** restaurants + dishes per shard from the file, or null if the file has no counts. */
  weights: number[] | null;
  /** What the weights count, for labels: "documents" for a file balanced from a token,docs cells file (no dishes anywhere), else "restaurants + dishes". */
  weightUnit: string;
}

export type DataState = { status: 'loading' } | { status: 'error'; title: string; problems: string[] } | ReadyData;

/**
 * Non-empty cells from data/cells.csv: parallel arrays in key order, parsed
 * once (in the geometry worker) and shared by the globe, the review and the
 * fan-out map.
 */
export interface CellsData {
  /** Level-10 tokens, comma-joined, in the same order. */
  tokens: string;
  ordinals: Int32Array;
  restaurants: Float64Array;
  dishes: Float64Array;
  /** restaurants + dishes per cell (a token,docs file: its documents). */
  weights: Float64Array;
  /** What the weights count, for labels: "restaurants + dishes" (header token,restaurants,dishes; also when absent) or "documents" (token,docs). */
  unit?: string;
}

export interface DataSlice {
  data: DataState;
  cells: CellsData | null;
  cities: City[];
  setBoundaries: (file: BoundaryFile, router: ShardTable, source: string) => void;
  setDataError: (title: string, problems: string[]) => void;
  setCells: (cells: CellsData) => void;
  setCities: (cities: City[]) => void;
}

declare module './types' {
  interface AppState extends DataSlice {}
}

export const createDataSlice: SliceCreator<DataSlice> = (set) => ({
  data: { status: 'loading' },
  cells: null,
  cities: [],
  setBoundaries: (file, router, source) => {
    const counted = file.shards.every((s) => s.restaurants !== undefined || s.dishes !== undefined);
    const weights = counted ? file.shards.map((s) => (s.restaurants ?? 0) + (s.dishes ?? 0)) : null;
    const weightUnit = file.shards.some((s) => (s.dishes ?? 0) > 0) ? 'restaurants + dishes' : 'documents';
    set({ data: { status: 'ready', file, router, source, colors: shardPalette(file.numberOfShards), weights, weightUnit } });
  },
  setDataError: (title, problems) => set({ data: { status: 'error', title, problems } }),
  setCells: (cells) => set({ cells }),
  setCities: (cities) => set({ cities }),
});

/** readyData returns the loaded boundary data, or null while loading or on error. */
export function readyData(s: { data: DataState }): ReadyData | null {
  return s.data.status === 'ready' ? s.data : null;
}

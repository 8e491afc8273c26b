/**
 * The request workload's protocol, shared by two features through the host: the review's worker
 * (review/reviewWorker.ts) parses, covers and rates a workload and finds a file's hot ranges;
 * the Requests layer (requests/requestsDriver.ts) asks it through a WorkloadClient that the
 * review's driver puts in the store (requestsSlice's workloadClient). Also how the bundled
 * workload is named and was made, for both features' panels.
 */
import type { BoundaryFile } from '../../core/index';
import type { Hotspot } from '../../core/requestLoad';

/** The bundled workload's name (its path in the repository), as panels show it. */
export const BUNDLED_WORKLOAD_NAME = 'data/workload.csv';

/** How the bundled workload was made, for the panels. */
export const BUNDLED_WORKLOAD_TEXT = '1,000 searches from `geoshard workload --searches 1000 --seed 1`: centres ∝ people, 15% lunchtime hot spots in the 8 largest US cities';

/** A request workload as it crosses from the worker that parses and covers it (review/reviewWorker.ts): its summary and the request rate of every covered level-10 cell. */
export interface WorkloadAnswer {
  /** Where the text came from (a file name or the bundled file's path). */
  source: string;
  /** Searches (lines) and their total weight. */
  searches: number;
  weight: number;
  /** Covered level-10 cells, ascending curve ordinals. */
  ordinals: Int32Array;
  /** rates[k]: Σ weight of the searches whose circle covers ordinals[k] (> 0). */
  rates: Float64Array;
  /** Corners of each covered cell (globe/cellGeometry.ts cellCorners): 8 floats per cell. */
  corners: Float32Array;
  /** Parse, cover and rate time in the worker, ms. */
  ms: number;
}

/** The hot ranges of one file (by hash) at one factor. */
export interface HotspotsAnswer {
  hash: string;
  factor: number;
  hotspots: Hotspot[];
}

/** What parses and covers a workload file and finds a file's hot ranges over it, for the Requests layer (the review's worker client does). */
export interface WorkloadClient {
  /** Parses and covers a workload file's text (replacing the previous workload); rejects with the parser's message. */
  workload: (text: string, source: string) => Promise<WorkloadAnswer>;
  /** The hot ranges of a file over the workload; rejects before the cells or a workload are loaded. */
  hotspots: (file: BoundaryFile, factor: number) => Promise<HotspotsAnswer>;
}

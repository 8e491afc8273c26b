/**
 * The main-thread side of geometry.worker.ts: one worker, started on first
 * use, and a promise per request. Hilbert curves are cached per level, so
 * stepping back to a level draws at once.
 */
import type { SegmentArrays } from './typedArrays';
import type { WorkerRequest } from './geometry.worker';
import type { CellsData } from '../shell/dataSlice';

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

function call<T>(req: WorkerRequest): Promise<T> {
  if (!worker) {
    worker = new Worker(new URL('./geometry.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (e: MessageEvent<{ id: number; result?: unknown; error?: string }>) => {
      const p = pending.get(e.data.id);
      pending.delete(e.data.id);
      if (e.data.error !== undefined) p?.reject(new Error(e.data.error));
      else p?.resolve(e.data.result);
    };
  }
  const id = nextId++;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    worker!.postMessage({ id, ...req });
  });
}

const curves = new Map<number, Promise<SegmentArrays>>();

/** hilbertCurve returns the segments of the Hilbert curve through the centres of a level's cells (0..7). */
export function hilbertCurve(level: number): Promise<SegmentArrays> {
  if (!curves.has(level)) curves.set(level, call<SegmentArrays>({ kind: 'hilbert', level }));
  return curves.get(level)!;
}

/** loadCells fetches and parses a cells file (with the core's parseCellsCsv) off the main thread. */
export function loadCells(url: string): Promise<CellsData> {
  return call<CellsData>({ kind: 'cells', url });
}

/** loadLand fetches and decodes a world-atlas land topology into coastline segments. */
export function loadLand(url: string): Promise<SegmentArrays> {
  return call<SegmentArrays>({ kind: 'land', url });
}

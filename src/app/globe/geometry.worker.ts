/// <reference lib="webworker" />
/**
 * The explorer's worker: the work that would otherwise block the main thread
 * for more than a frame (up to 98,304 cell centres for the level-7 Hilbert
 * curve, parsing data/cells.csv, decoding the land topology). Each request
 * is { id, kind, ... }; each answer is { id, result } or { id, error } with
 * typed arrays transferred, not copied.
 */
import { parseCellsCsv } from '../../core/index';
import { levelCellCenters } from './levels';
import { hilbertSegments, coastlineSegments, type SegmentArrays, type Topology } from './typedArrays';

export type WorkerRequest = { kind: 'hilbert'; level: number } | { kind: 'cells'; url: string } | { kind: 'land'; url: string };

const segmentBuffers = (s: SegmentArrays) => [s.ll.buffer, s.xyz.buffer, s.other.buffer, s.otherXyz.buffer, s.ordinal.buffer];

async function handle(req: WorkerRequest): Promise<[unknown, Transferable[]]> {
  switch (req.kind) {
    case 'hilbert': {
      const segs = hilbertSegments(levelCellCenters(req.level), req.level);
      return [segs, segmentBuffers(segs)];
    }
    case 'cells': {
      const res = await fetch(req.url);
      if (!res.ok) throw new Error(`${req.url}: HTTP ${res.status}`);
      const cells = parseCellsCsv(await res.text(), 'data/cells.csv');
      const ordinals = Int32Array.from(cells, (c) => c.ordinal);
      const weights = Float64Array.from(cells, (c) => c.restaurants + c.dishes);
      return [{ ordinals, weights }, [ordinals.buffer, weights.buffer]];
    }
    case 'land': {
      const res = await fetch(req.url);
      if (!res.ok) throw new Error(`${req.url}: HTTP ${res.status}`);
      const segs = coastlineSegments((await res.json()) as Topology);
      return [segs, segmentBuffers(segs)];
    }
  }
}

self.onmessage = async (e: MessageEvent<{ id: number } & WorkerRequest>) => {
  const { id, ...req } = e.data;
  try {
    const [result, transfer] = await handle(req as WorkerRequest);
    (self as unknown as Worker).postMessage({ id, result }, transfer);
  } catch (err) {
    (self as unknown as Worker).postMessage({ id, error: (err as Error).message });
  }
};

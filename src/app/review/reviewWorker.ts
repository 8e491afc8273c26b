/**
 * Boundary review off the main thread: the expected
 * fan-out of a boundary file, which takes 60 to 180 ms for the review's
 * workload in Node 20 (more in a browser): too long for a frame, so a drag
 * on the ribbon would stutter if it ran on the main thread.
 *
 * The workload: REVIEW_WORKLOAD_CENTRES search centres drawn in proportion to
 * restaurants with seed REVIEW_WORKLOAD_SEED, each searched at 5, 15, 25 and
 * 50 miles (the core's searchWorkload and DEFAULT_RADIUS_MIX), so the figures
 * equal `geoshard diff --centres 500 --seed 1`'s. Fewer centres than the
 * CLI's default 2,000 keep a recompute short while a boundary is dragged.
 *
 * createReviewApi is the worker's side (review.worker.ts exposes it with
 * comlink); createReviewClient the main thread's: it caches answers by file
 * hash and keeps only the latest fan-out wish while one is being computed.
 * A request workload (a workload file: the bundled data/workload.csv or one
 * the user picks, issue 15) is parsed, covered and kept here too: covering a
 * thousand circles takes about 1.5 s in Node 20, so it never runs on the main
 * thread. From it the worker answers the request rate per cell (the Requests
 * layer), the hot ranges of a file and the load before/after of a candidate
 * (the Review panel): the core's requestRates, findHotspots and loadDiff.
 *
 * Pure computation and client, unit-tested in reviewWorker.test.ts through a
 * real comlink channel.
 */
import { Router, type BoundaryFile, type CellWeight } from '../../core/index';
import { searchWorkload, DEFAULT_RADIUS_MIX, type Workload } from '../../core/searchWorkload';
import { expectedFanout, type Fanout } from '../../core/expectedFanout';
import { parseWorkload, workloadWeight, type WorkloadSearch } from '../../core/workload';
import { coverWorkload, requestRates, cellLoads, findHotspots, type CellRates } from '../../core/requestLoad';
import { loadDiff, type LoadDiff } from '../../core/loadDiff';
import { wrap, transfer, type Remote } from 'comlink';
import { errorMessage, type WorkerEndpoint } from '../shell/worker';
import { cellsFromColumns } from './review';
import { cellCorners } from '../globe/cellGeometry';
import type { WorkloadAnswer, HotspotsAnswer } from '../shell/workload';

/** Search centres of the review's fan-out workload. */
export const REVIEW_WORKLOAD_CENTRES = 500;
/** Seed of the review's fan-out workload. */
export const REVIEW_WORKLOAD_SEED = 1;
/** Query rate the shard-queries per second are given for. */
export const REVIEW_QPS = 1000;

/** The workload in words, for the panel. */
export const REVIEW_WORKLOAD_TEXT = `${REVIEW_WORKLOAD_CENTRES} centres ∝ restaurants × ${DEFAULT_RADIUS_MIX.map((r) => r.label).join(', ')}, seed ${REVIEW_WORKLOAD_SEED}`;

/** The cells as columns (the shared parse of data/cells.csv), tokens comma-joined. */
export interface CellColumns {
  tokens: string;
  ordinals: Int32Array;
  restaurants: Float64Array;
  dishes: Float64Array;
}

/**
 * createReviewApi is what the review worker exposes (comlink; review.worker.ts
 * binds it): cells fetches and parses a cells file (the core's parseCellsCsv)
 * and keeps it for the workload; fanout evaluates a boundary file over the
 * workload (waiting for the cells if they are still loading). Errors are
 * thrown with their message; comlink rejects the call with it.
 */
export function createReviewApi() {
  let cells: CellWeight[] | null = null;
  let workload: Workload | null = null;
  let requests: { searches: WorkloadSearch[]; coverings: Int32Array[]; rates: CellRates; loads: Float64Array | null } | null = null;
  const needCells = () => {
    if (!cells) throw new Error('no cells loaded: call cells(columns) first');
    return cells;
  };
  const needRequests = () => {
    if (!requests) throw new Error('no request workload loaded: call workload(text, source) first');
    return requests;
  };
  /** Per-cell loads of the request workload over the cells, computed once per workload and cells. */
  const loadsOf = () => {
    const r = needRequests();
    r.loads ??= cellLoads(needCells(), r.rates);
    return r.loads;
  };
  return {
    /** Keeps the cells (the shared columns of data/cells.csv) for the workload. */
    cells(columns: CellColumns): void {
      cells = cellsFromColumns(columns);
      workload = null;
      if (requests) requests.loads = null;
    },
    /** The expected fan-out of a boundary file over the review's workload, with its compute time in ms. */
    fanout(file: BoundaryFile): { hash: string; fanout: Fanout; ms: number } {
      const list = needCells();
      const t0 = performance.now();
      workload ??= searchWorkload(list, { seed: REVIEW_WORKLOAD_SEED, centres: REVIEW_WORKLOAD_CENTRES });
      const fanout = expectedFanout(new Router(file, 'boundary file'), workload, REVIEW_QPS);
      return { hash: file.hash, fanout, ms: performance.now() - t0 };
    },
    /**
     * Reads a workload file's text with the core's parser (a WorkloadFileError
     * names every bad line), covers its searches and keeps them; answers the
     * request rate per covered cell with the cells' corners (transferred).
     */
    workload(text: string, source: string): WorkloadAnswer {
      const t0 = performance.now();
      const searches = parseWorkload(text, source);
      const coverings = coverWorkload(searches);
      const rates = requestRates(searches, coverings);
      requests = { searches, coverings, rates, loads: null };
      // Copies cross (transferred); the worker keeps its own for hot spots and load.
      const ordinals = rates.ordinals.slice();
      const r = rates.rates.slice();
      const corners = cellCorners(ordinals);
      const answer: WorkloadAnswer = { source, searches: searches.length, weight: workloadWeight(searches), ordinals, rates: r, corners, ms: performance.now() - t0 };
      return transfer(answer, [ordinals.buffer, r.buffer, corners.buffer]);
    },
    /** The hot ranges of a boundary file over the request workload: the core's findHotspots (load / mean shard load ≥ factor). */
    hotspots(file: BoundaryFile, factor: number): HotspotsAnswer {
      return { hash: file.hash, factor, hotspots: findHotspots(new Router(file, 'boundary file'), needCells(), loadsOf(), factor) };
    },
    /** Load per shard, hottest shards and fan-out of the current file and a candidate over the request workload (the core's loadDiff). */
    loadDiff(current: BoundaryFile, candidate: BoundaryFile): LoadDiffAnswer {
      const t0 = performance.now();
      const r = needRequests();
      const diff = loadDiff(r, new Router(current, 'current boundary file'), new Router(candidate, 'candidate boundary file'), needCells(), loadsOf());
      return { current: current.hash, candidate: candidate.hash, diff, ms: performance.now() - t0 };
    },
  };
}

/** Load before/after for a pair of files (by hash), with its compute time in ms. */
export interface LoadDiffAnswer {
  current: string;
  candidate: string;
  diff: LoadDiff;
  ms: number;
}

export type ReviewApi = ReturnType<typeof createReviewApi>;

/** A fan-out answer with its compute time in the worker, ms. */
export interface FanoutAnswer {
  fanout: Fanout;
  ms: number;
}

export interface ReviewClient {
  /** Hands the cells (the shared columns of data/cells.csv, copied) to the worker once; later calls return the same promise. */
  cells: (columns: CellColumns) => Promise<CellWeight[]>;
  /**
   * The fan-out of a file: from the cache, or computed in the worker. While
   * one is computed, only the latest wish waits; a wish replaced by a newer
   * one resolves null. Rejects with the worker's message on error.
   */
  fanout: (file: BoundaryFile) => Promise<FanoutAnswer | null>;
  /** Fan-out already known for a hash, or undefined. */
  cached: (hash: string) => FanoutAnswer | undefined;
  /** Parses and covers a workload file's text in the worker (replacing the previous workload); rejects with the parser's message. */
  workload: (text: string, source: string) => Promise<WorkloadAnswer>;
  /** The hot ranges of a file over the workload; rejects before the cells or a workload are loaded. */
  hotspots: (file: BoundaryFile, factor: number) => Promise<HotspotsAnswer>;
  /** Load before/after of a candidate over the workload; latest wish only (a wish replaced while one is computed resolves null). */
  loadDiff: (current: BoundaryFile, candidate: BoundaryFile) => Promise<LoadDiffAnswer | null>;
  dispose: () => void;
}

/** Answers kept per file hash (an edit session makes one file per frame of a drag). */
export const FANOUT_CACHE_SIZE = 64;

/** createReviewClient starts the worker on first use. */
export function createReviewClient(makeWorker: () => WorkerEndpoint): ReviewClient {
  let worker: { endpoint: WorkerEndpoint; api: Remote<ReviewApi> } | null = null;
  let stopped: (() => void)[] = [];
  let cellsPromise: Promise<CellWeight[]> | null = null;
  const cache = new Map<string, FanoutAnswer>();
  let inFlight: string | null = null;
  let queued: { file: BoundaryFile; resolve: (a: FanoutAnswer | null) => void; reject: (e: Error) => void } | null = null;
  const sameHash = new Map<string, ((a: FanoutAnswer | null, e?: Error) => void)[]>();

  const api = (): Remote<ReviewApi> => {
    if (!worker) {
      const endpoint = makeWorker();
      worker = { endpoint, api: wrap<ReviewApi>(endpoint) };
    }
    return worker.api;
  };

  // A call to the worker that also settles (rejecting) if the worker is stopped first.
  const call = <T>(f: (a: Remote<ReviewApi>) => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const stop = () => reject(new Error('the review worker was stopped'));
      stopped.push(stop);
      f(api()).then(resolve, (e: unknown) => reject(new Error(errorMessage(e)))).finally(() => (stopped = stopped.filter((s) => s !== stop)));
    });

  const remember = (hash: string, a: FanoutAnswer) => {
    cache.delete(hash);
    cache.set(hash, a);
    while (cache.size > FANOUT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  };

  const run = (file: BoundaryFile) => {
    inFlight = file.hash;
    const finish = (a: FanoutAnswer | null, err?: Error) => {
      inFlight = null;
      const done = sameHash.get(file.hash) ?? [];
      sameHash.delete(file.hash);
      if (a) remember(file.hash, a);
      done.forEach((f) => f(a, err));
      if (queued) {
        const q = queued;
        queued = null;
        const hit = cache.get(q.file.hash);
        if (hit) q.resolve(hit);
        else {
          sameHash.set(q.file.hash, [...(sameHash.get(q.file.hash) ?? []), (a, e) => (e ? q.reject(e) : q.resolve(a))]);
          run(q.file);
        }
      }
    };
    call((w) => w.fanout(file)).then(
      (r) => finish({ fanout: r.fanout, ms: r.ms }),
      (e: Error) => finish(null, e),
    );
  };

  // loadDiff: one in flight, the latest other wish waiting (a candidate being dragged makes one per frame).
  let loadBusy = false;
  let loadQueued: { current: BoundaryFile; candidate: BoundaryFile; resolve: (a: LoadDiffAnswer | null) => void; reject: (e: Error) => void } | null = null;
  const runLoad = (q: NonNullable<typeof loadQueued>) => {
    loadBusy = true;
    call((w) => w.loadDiff(q.current, q.candidate))
      .then(q.resolve, q.reject)
      .finally(() => {
        loadBusy = false;
        const next = loadQueued;
        loadQueued = null;
        if (next) runLoad(next);
      });
  };

  return {
    cells(columns) {
      cellsPromise ??= call((w) => w.cells(columns)).then(
        () => cellsFromColumns(columns),
        (e: Error) => {
          cellsPromise = null; // a later call tries again
          throw e;
        },
      );
      return cellsPromise;
    },
    fanout(file) {
      const hit = cache.get(file.hash);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const settle = (a: FanoutAnswer | null, e?: Error) => (e ? reject(e) : resolve(a));
        if (inFlight === file.hash) {
          sameHash.get(file.hash)!.push(settle);
          return;
        }
        if (inFlight === null) {
          sameHash.set(file.hash, [settle]);
          run(file);
          return;
        }
        queued?.resolve(null);
        queued = { file, resolve, reject };
      });
    },
    cached: (hash) => cache.get(hash),
    workload: (text, source) => call((w) => w.workload(text, source)),
    hotspots: (file, factor) => call((w) => w.hotspots(file, factor)),
    loadDiff(current, candidate) {
      return new Promise((resolve, reject) => {
        const wish = { current, candidate, resolve, reject };
        if (!loadBusy) return runLoad(wish);
        loadQueued?.resolve(null);
        loadQueued = wish;
      });
    },
    dispose() {
      worker?.endpoint.terminate();
      worker = null;
      for (const stop of stopped) stop();
      stopped = [];
      queued?.resolve(null);
      queued = null;
      loadQueued?.resolve(null);
      loadQueued = null;
    },
  };
}

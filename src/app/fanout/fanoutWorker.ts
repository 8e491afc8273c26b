/**
 * The fan-out map's worker API (comlink) and its main-thread client
 * (createFanoutClient). The
 * computation (grids, the block sandwich, weights, the one-shard share) is
 * the core's (src/core/fanoutGridJob.ts, fanoutShare.ts, fanoutField.ts); this file only runs it in slices in a
 * worker (fanout.worker.ts), cancelling stale requests, and carries the
 * answers back.
 */
import { wrap, proxy, transfer, releaseProxy, type Remote } from 'comlink';
import { errorMessage, type WorkerEndpoint } from '../shell/worker';
import { Router, type BoundaryFile } from '../../core/index';
import { FanoutGridJob } from '../../core/fanoutGridJob';
import { FanoutShareJob, type FanoutShare } from '../../core/fanoutShare';
import { FanoutFieldJob, type FanoutField } from '../../core/fanoutField';
import { assertFanoutWeights, type FanoutWeights } from '../../core/fanoutWeights';
import type { FanoutGrid } from '../../core/fanoutGrid';
import type { FanoutMethod, FanoutBuckets } from '../../core/fanoutSandwich';

// The worker's API (comlink). The main thread calls init once, then grid and
// share; a newer call of the same kind supersedes an unfinished one (which
// resolves null), and cancel drops both. The worker runs grid requests
// before share requests, in slices of SLICE_MS, reading its messages
// between slices.

/** Milliseconds of work between looks at the message queue (the cancellation latency). */
export const SLICE_MS = 25;

/** A computed grid as the worker returns it (counts' buffer is transferred). */
export interface FanoutGridResult {
  radiusKm: number;
  grid: FanoutGrid;
  method: FanoutMethod;
  /** Row-major, row 0 south, column 0 west; values 1..255 (255 = 255 or more). */
  counts: Uint8Array;
  /** Pixels asking 1, 2, 3, 4+ shards. */
  pixels: FanoutBuckets;
  /** Compute time in the worker, ms (excluding time spent waiting between slices). */
  ms: number;
}

/** A one-shard share as the worker returns it: compute time (ms) and whether it came from the cache. */
export interface FanoutShareResult {
  share: FanoutShare;
  ms: number;
  cached: boolean;
}

/**
 * A fan-out field as the worker returns it (dist's buffer is transferred): for a grid
 * (grid set) or for the weights (grid null); counts at any radius up to field.maxKm are
 * fanoutFieldCounts / fanoutFieldShare on the main thread.
 */
export interface FanoutFieldResult {
  grid: FanoutGrid | null;
  field: FanoutField;
  /** Compute time in the worker, ms (excluding time spent waiting between slices). */
  ms: number;
}

/** What init answers once the worker has validated the file (and the weights). */
export interface FanoutReady {
  numberOfShards: number;
  hash: string;
  weightPoints: number;
}

/** Called with the pixels or points done so far and the total, after each slice. */
export type FanoutProgress = (done: number, total: number) => void;

type Running<J, R> = { job: J; ms: number; resolve: (r: R | null) => void; reject: (e: unknown) => void; onProgress?: FanoutProgress };

/**
 * createFanoutApi is what the fan-out worker exposes (comlink; fanout.worker.ts
 * binds it). Errors (an invalid boundary file, grid or radius, a request
 * before init) are thrown naming the problem; comlink rejects the call with
 * them. The share of a radius is cached (the last 32 radii), so zooming does
 * not recompute it.
 */
export function createFanoutApi(yieldToEvents: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0))) {
  let router: Router | null = null;
  let weights: FanoutWeights | null = null;
  const shareCache = new Map<string, FanoutShare>();
  // A grid or a grid's field share one slot (the latest view wins); a share or the weights' field the other.
  let gridRun: Running<FanoutGridJob, FanoutGridResult> | Running<FanoutFieldJob, FanoutFieldResult> | null = null;
  let shareRun: Running<FanoutShareJob, FanoutShareResult> | Running<FanoutFieldJob, FanoutFieldResult> | null = null;
  let looping = false;

  const drop = (run: { resolve: (r: null) => void; onProgress?: FanoutProgress } | null) => {
    if (!run) return;
    run.resolve(null);
    release(run.onProgress);
  };

  // Runs one slice of a job: true when the job finished, null when it failed (and was rejected).
  const slice = <J extends FanoutGridJob | FanoutShareJob | FanoutFieldJob>(run: Running<J, never>, deadline: number, t0: number): boolean | null => {
    try {
      const finished = run.job.step(deadline);
      run.ms += performance.now() - t0;
      if (!finished) void run.onProgress?.(run.job.done, run.job.total);
      return finished;
    } catch (e) {
      run.reject(e);
      release(run.onProgress);
      return null;
    }
  };

  const loop = async () => {
    if (looping) return;
    looping = true;
    try {
      while (gridRun || shareRun) {
        const t0 = performance.now();
        const deadline = t0 + SLICE_MS;
        if (gridRun) {
          const run = gridRun;
          const finished = slice(run as Running<FanoutGridJob, never>, deadline, t0);
          if (finished !== false) gridRun = null;
          if (finished) {
            const j = run.job;
            if (j instanceof FanoutFieldJob) run.resolve(fieldResult(j, run.ms) as never);
            else run.resolve(transfer({ radiusKm: j.radiusKm, grid: j.grid, method: j.method, counts: j.counts, pixels: j.buckets(), ms: run.ms }, [j.counts.buffer]) as never);
            release(run.onProgress);
          }
        } else if (shareRun) {
          const run = shareRun;
          const finished = slice(run as Running<FanoutShareJob, never>, deadline, t0);
          if (finished !== false) shareRun = null;
          if (finished && run.job instanceof FanoutFieldJob) run.resolve(fieldResult(run.job, run.ms) as never);
          else if (finished && run.job instanceof FanoutShareJob) {
            const share = run.job.share();
            shareCache.set(`${run.job.method}:${run.job.radiusKm}`, share);
            if (shareCache.size > 32) shareCache.delete(shareCache.keys().next().value!);
            run.resolve({ share, ms: run.ms, cached: false } as never);
          }
        }
        await yieldToEvents();
      }
    } finally {
      looping = false;
    }
  };

  return {
    /** Validates a boundary file (and the weights the share needs); drops any running job. */
    init(file: BoundaryFile, w?: FanoutWeights): FanoutReady {
      if (w !== undefined) assertFanoutWeights(w);
      router = new Router(file, 'boundary file');
      weights = w ?? null;
      shareCache.clear();
      drop(gridRun);
      drop(shareRun);
      gridRun = shareRun = null;
      return { numberOfShards: router.numberOfShards, hash: router.file.hash, weightPoints: weights?.lat.length ?? 0 };
    },
    /** Computes a grid; resolves null if a later grid or cancel superseded it. */
    grid(radiusKm: number, grid: FanoutGrid, method: FanoutMethod = 'blocks', onProgress?: FanoutProgress): Promise<FanoutGridResult | null> {
      if (!router) throw new Error('grid request before init: call init(file) first');
      const job = new FanoutGridJob(router, grid, radiusKm, method);
      drop(gridRun);
      return new Promise((resolve, reject) => {
        gridRun = { job, ms: 0, resolve, reject, onProgress };
        void loop();
      });
    },
    /** Computes the weighted one-shard share for a radius; resolves null if a later share or cancel superseded it. */
    share(radiusKm: number, method: FanoutMethod = 'blocks'): Promise<FanoutShareResult | null> {
      if (!router) throw new Error('share request before init: call init(file) first');
      if (!weights) throw new Error('share request without weights: pass them to init(file, weights)');
      const job = new FanoutShareJob(router, weights, radiusKm, method);
      drop(shareRun);
      shareRun = null;
      const hit = shareCache.get(`${method}:${radiusKm}`);
      if (hit) return Promise.resolve({ share: hit, ms: 0, cached: true });
      return new Promise((resolve, reject) => {
        shareRun = { job, ms: 0, resolve, reject };
        void loop();
      });
    },
    /**
     * Computes a grid's fan-out field up to maxKm (the largest radius it will answer);
     * supersedes a running grid or field (it resolves null).
     */
    field(grid: FanoutGrid, maxKm: number, onProgress?: FanoutProgress): Promise<FanoutFieldResult | null> {
      if (!router) throw new Error('field request before init: call init(file) first');
      const job = new FanoutFieldJob(router, grid, maxKm);
      drop(gridRun);
      return new Promise((resolve, reject) => {
        gridRun = { job, ms: 0, resolve, reject, onProgress };
        void loop();
      });
    },
    /** Computes the weights' fan-out field up to maxKm (shares at any radius up to it); supersedes a running share. */
    weightsField(maxKm: number): Promise<FanoutFieldResult | null> {
      if (!router) throw new Error('field request before init: call init(file) first');
      if (!weights) throw new Error('share request without weights: pass them to init(file, weights)');
      const job = new FanoutFieldJob(router, weights, maxKm);
      drop(shareRun);
      return new Promise((resolve, reject) => {
        shareRun = { job, ms: 0, resolve, reject };
        void loop();
      });
    },
    /** Drops the running grid and share (their calls resolve null). */
    cancel(): void {
      drop(gridRun);
      drop(shareRun);
      gridRun = shareRun = null;
    },
  };
}

export type FanoutApi = ReturnType<typeof createFanoutApi>;

function fieldResult(j: FanoutFieldJob, ms: number): FanoutFieldResult {
  const field = j.field();
  return transfer({ grid: 'cols' in j.target ? j.target : null, field, ms }, [field.dist.buffer as ArrayBuffer]);
}

// A progress callback that came through comlink is a proxy holding a port: let it go.
function release(f: FanoutProgress | undefined): void {
  (f as Partial<Remote<FanoutProgress>> | undefined)?.[releaseProxy]?.();
}

/** The main thread's handle on a fan-out worker. */
export interface FanoutClient {
  /** Sends the boundary file (and the weights for shares); resolves when the worker has validated it. */
  init(file: BoundaryFile, weights?: FanoutWeights): Promise<FanoutReady>;
  /** Computes a grid; resolves null if a later grid() or cancel() made it stale. Rejects with the worker's message on bad input. */
  grid(radiusKm: number, grid: FanoutGrid, opts?: { method?: FanoutMethod; onProgress?: FanoutProgress }): Promise<FanoutGridResult | null>;
  /** Computes the weighted one-shard share for a radius; resolves null if a later share() or cancel() made it stale. */
  share(radiusKm: number, opts?: { method?: FanoutMethod }): Promise<FanoutShare | null>;
  /** Computes a grid's field up to maxKm; resolves null if a later grid(), field() or cancel() made it stale. */
  field(grid: FanoutGrid, maxKm: number, opts?: { onProgress?: FanoutProgress }): Promise<FanoutFieldResult | null>;
  /** Computes the weights' field up to maxKm; resolves null if a later share(), weightsField() or cancel() made it stale. */
  weightsField(maxKm: number): Promise<FanoutFieldResult | null>;
  /** Drops every pending request (their promises resolve null). */
  cancel(): void;
  /** cancel(), then terminates the worker. */
  dispose(): void;
}

/**
 * createFanoutClient starts a fan-out worker (makeWorker, e.g.
 *   () => new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }))
 * and wraps it. Only the latest grid and the latest share request are kept:
 * starting a new one resolves the previous one with null at once, and the
 * worker drops it.
 */
export function createFanoutClient(makeWorker: () => WorkerEndpoint): FanoutClient {
  const worker = makeWorker();
  const api = wrap<FanoutApi>(worker);
  // The latest request of each kind; an older one resolves null at once.
  const latest: Record<'grid' | 'share', { resolve: (v: null) => void } | null> = { grid: null, share: null };

  const run = <T>(kind: 'grid' | 'share', call: (isLatest: () => boolean) => Promise<T | null>): Promise<T | null> => {
    latest[kind]?.resolve(null);
    return new Promise<T | null>((resolve, reject) => {
      const me = { resolve: resolve as (v: null) => void };
      latest[kind] = me;
      const isLatest = () => latest[kind] === me;
      call(isLatest).then(
        (v) => {
          if (!isLatest()) return;
          latest[kind] = null;
          resolve(v);
        },
        (e: unknown) => {
          if (!isLatest()) return;
          latest[kind] = null;
          reject(new Error(errorMessage(e)));
        },
      );
    });
  };

  return {
    init: (file, weights) => api.init(file, weights),
    grid(radiusKm, grid, opts = {}) {
      return run('grid', (isLatest) => {
        const onProgress = opts.onProgress;
        const progress = onProgress ? proxy((done: number, total: number) => void (isLatest() && onProgress(done, total))) : undefined;
        return api.grid(radiusKm, grid, opts.method ?? 'blocks', progress);
      });
    },
    field(grid, maxKm, opts = {}) {
      return run('grid', (isLatest) => {
        const onProgress = opts.onProgress;
        const progress = onProgress ? proxy((done: number, total: number) => void (isLatest() && onProgress(done, total))) : undefined;
        return api.field(grid, maxKm, progress);
      });
    },
    weightsField(maxKm) {
      return run('share', () => api.weightsField(maxKm));
    },
    share(radiusKm, opts = {}) {
      return run('share', () => api.share(radiusKm, opts.method ?? 'blocks')).then((r) => r?.share ?? null);
    },
    cancel() {
      latest.grid?.resolve(null);
      latest.share?.resolve(null);
      latest.grid = latest.share = null;
      void api.cancel();
    },
    dispose() {
      this.cancel();
      worker.terminate();
    },
  };
}

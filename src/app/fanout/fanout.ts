/**
 * The fan-out map's worker protocol and its main-thread client. The
 * computation (grids, the block sandwich, weights, the one-shard share) is
 * the core's (src/core/fanout.ts); this file only runs it in slices in a
 * worker (fanout.worker.ts), cancelling stale requests, and carries the
 * answers back.
 */
import { Router, FanoutGridJob, FanoutShareJob, assertFanoutWeights, type BoundaryFile, type FanoutWeights, type FanoutGrid, type FanoutMethod, type FanoutBuckets, type FanoutShare } from '../../core/index';

// ---------------------------------------------------------------------------
// Worker protocol. The main thread sends 'init' once, then 'grid' and 'share'
// requests with increasing ids; a newer request of the same kind supersedes
// an unfinished one (answered 'cancelled'), and 'cancel' drops one by id.
// The worker runs grid requests before share requests, in slices of
// SLICE_MS, reading its messages between slices.

/** Milliseconds of work between looks at the message queue (the cancellation latency). */
export const SLICE_MS = 25;

/** Messages to the worker. */
export type FanoutRequest =
  | { type: 'init'; file: BoundaryFile; weights?: FanoutWeights }
  | { type: 'grid'; id: number; radiusKm: number; grid: FanoutGrid; method?: FanoutMethod }
  | { type: 'share'; id: number; radiusKm: number; method?: FanoutMethod }
  | { type: 'cancel'; id: number };

/** A computed grid as the worker posts it (counts' buffer is transferred). */
export interface FanoutGridResult {
  id: number;
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

/** Messages from the worker. */
export type FanoutResponse =
  | { type: 'ready'; numberOfShards: number; hash: string; weightPoints: number }
  | { type: 'progress'; id: number; done: number; total: number }
  | ({ type: 'grid' } & FanoutGridResult)
  | { type: 'share'; id: number; share: FanoutShare; ms: number; cached: boolean }
  | { type: 'cancelled'; id: number }
  | { type: 'error'; id: number | null; message: string };

/** What serveFanout needs of a worker's global scope (or a test double). */
export interface FanoutScope {
  postMessage(message: FanoutResponse, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: FanoutRequest }) => void): void;
}

/**
 * serveFanout answers FanoutRequests on a worker scope until the worker
 * ends. Errors (an invalid boundary file, grid or radius, a request before
 * 'init') are posted as { type: 'error', id, message } naming the problem.
 * The share of a radius is cached (the last 32 radii), so zooming does not
 * recompute it.
 */
export function serveFanout(scope: FanoutScope, yieldToEvents: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0))): void {
  let router: Router | null = null;
  let weights: FanoutWeights | null = null;
  const shareCache = new Map<string, FanoutShare>();
  type Running<J> = { id: number; job: J; ms: number };
  let gridRun: Running<FanoutGridJob> | null = null;
  let shareRun: Running<FanoutShareJob> | null = null;
  let looping = false;

  const fail = (id: number | null, e: unknown) => scope.postMessage({ type: 'error', id, message: e instanceof Error ? e.message : String(e) });

  const loop = async () => {
    if (looping) return;
    looping = true;
    try {
      while (gridRun || shareRun) {
        const t0 = performance.now();
        const deadline = t0 + SLICE_MS;
        if (gridRun) {
          const run = gridRun;
          let finished = false;
          try {
            finished = run.job.step(deadline);
          } catch (e) {
            gridRun = null;
            fail(run.id, e);
            continue;
          }
          run.ms += performance.now() - t0;
          if (finished) {
            gridRun = null;
            const j = run.job;
            scope.postMessage({ type: 'grid', id: run.id, radiusKm: j.radiusKm, grid: j.grid, method: j.method, counts: j.counts, pixels: j.buckets(), ms: run.ms }, [j.counts.buffer]);
          } else scope.postMessage({ type: 'progress', id: run.id, done: run.job.done, total: run.job.total });
        } else if (shareRun) {
          const run = shareRun;
          let finished = false;
          try {
            finished = run.job.step(deadline);
          } catch (e) {
            shareRun = null;
            fail(run.id, e);
            continue;
          }
          run.ms += performance.now() - t0;
          if (finished) {
            shareRun = null;
            const share = run.job.share();
            shareCache.set(`${run.job.method}:${run.job.radiusKm}`, share);
            if (shareCache.size > 32) shareCache.delete(shareCache.keys().next().value!);
            scope.postMessage({ type: 'share', id: run.id, share, ms: run.ms, cached: false });
          } else scope.postMessage({ type: 'progress', id: run.id, done: run.job.done, total: run.job.total });
        }
        await yieldToEvents();
      }
    } finally {
      looping = false;
    }
  };

  scope.addEventListener('message', (e) => {
    const m = e.data;
    const id = m && typeof m === 'object' && 'id' in m && typeof m.id === 'number' ? m.id : null;
    try {
      switch (m?.type) {
        case 'init': {
          if (m.weights !== undefined) assertFanoutWeights(m.weights);
          router = new Router(m.file, 'boundary file');
          weights = m.weights ?? null;
          shareCache.clear();
          for (const run of [gridRun, shareRun]) if (run) scope.postMessage({ type: 'cancelled', id: run.id });
          gridRun = shareRun = null;
          scope.postMessage({ type: 'ready', numberOfShards: router.numberOfShards, hash: router.file.hash, weightPoints: weights?.lat.length ?? 0 });
          return;
        }
        case 'grid': {
          if (!router) throw new Error('grid request before init: send { type: "init", file } first');
          const job = new FanoutGridJob(router, m.grid, m.radiusKm, m.method ?? 'blocks');
          if (gridRun) scope.postMessage({ type: 'cancelled', id: gridRun.id });
          gridRun = { id: m.id, job, ms: 0 };
          void loop();
          return;
        }
        case 'share': {
          if (!router) throw new Error('share request before init: send { type: "init", file } first');
          if (!weights) throw new Error('share request without weights: send them with init ({ type: "init", file, weights })');
          const method = m.method ?? 'blocks';
          const job = new FanoutShareJob(router, weights, m.radiusKm, method);
          if (shareRun) scope.postMessage({ type: 'cancelled', id: shareRun.id });
          shareRun = null;
          const hit = shareCache.get(`${method}:${m.radiusKm}`);
          if (hit) {
            scope.postMessage({ type: 'share', id: m.id, share: hit, ms: 0, cached: true });
            return;
          }
          shareRun = { id: m.id, job, ms: 0 };
          void loop();
          return;
        }
        case 'cancel': {
          if (gridRun?.id === m.id) gridRun = null;
          else if (shareRun?.id === m.id) shareRun = null;
          else return;
          scope.postMessage({ type: 'cancelled', id: m.id });
          return;
        }
        default:
          throw new Error(`unknown request ${JSON.stringify((m as { type?: unknown })?.type)}: expected init, grid, share or cancel`);
      }
    } catch (err) {
      fail(id, err);
    }
  });
}

/** What createFanoutClient needs of a Worker (or a test double). */
export interface FanoutWorkerLike {
  postMessage(message: FanoutRequest, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: FanoutResponse }) => void): void;
  terminate?(): void;
}

/** The main thread's handle on a fan-out worker. */
export interface FanoutClient {
  /** Sends the boundary file (and the weights for shares); resolves when the worker has validated it. */
  init(file: BoundaryFile, weights?: FanoutWeights): Promise<{ numberOfShards: number; hash: string; weightPoints: number }>;
  /** Computes a grid; resolves null if a later grid() or cancel() made it stale. Rejects with the worker's message on bad input. */
  grid(radiusKm: number, grid: FanoutGrid, opts?: { method?: FanoutMethod; onProgress?: (done: number, total: number) => void }): Promise<FanoutGridResult | null>;
  /** Computes the weighted one-shard share for a radius; resolves null if a later share() or cancel() made it stale. */
  share(radiusKm: number, opts?: { method?: FanoutMethod }): Promise<FanoutShare | null>;
  /** Drops every pending request (their promises resolve null). */
  cancel(): void;
  /** cancel(), then terminates the worker. */
  dispose(): void;
}

/**
 * createFanoutClient wraps a fan-out worker, e.g.
 *   createFanoutClient(new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }))
 * Only the latest grid and the latest share request are kept: starting a new
 * one resolves the previous one with null at once, and the worker drops it.
 */
export function createFanoutClient(worker: FanoutWorkerLike): FanoutClient {
  let nextId = 1;
  type Pending = { kind: 'grid' | 'share'; resolve: (v: never) => void; reject: (e: Error) => void; onProgress?: (done: number, total: number) => void };
  const pending = new Map<number, Pending>();
  let ready: { resolve: (v: { numberOfShards: number; hash: string; weightPoints: number }) => void; reject: (e: Error) => void } | null = null;

  const settleStale = (kind: 'grid' | 'share') => {
    for (const [id, p] of pending) {
      if (p.kind !== kind) continue;
      pending.delete(id);
      worker.postMessage({ type: 'cancel', id });
      (p.resolve as (v: null) => void)(null);
    }
  };

  worker.addEventListener('message', (e) => {
    const m = e.data;
    if (m.type === 'ready') {
      ready?.resolve({ numberOfShards: m.numberOfShards, hash: m.hash, weightPoints: m.weightPoints });
      ready = null;
      return;
    }
    if (m.type === 'error' && m.id === null) {
      if (ready) {
        ready.reject(new Error(m.message));
        ready = null;
      }
      return;
    }
    const id = m.id as number;
    const p = pending.get(id);
    if (!p) return; // stale: already settled
    if (m.type === 'progress') return p.onProgress?.(m.done, m.total);
    pending.delete(id);
    if (m.type === 'error') p.reject(new Error(m.message));
    else if (m.type === 'cancelled') (p.resolve as (v: null) => void)(null);
    else if (m.type === 'grid') {
      const { type: _t, ...result } = m;
      void _t;
      (p.resolve as (v: FanoutGridResult) => void)(result);
    } else if (m.type === 'share') (p.resolve as (v: FanoutShare) => void)(m.share);
  });

  return {
    init(file, weights) {
      return new Promise((resolve, reject) => {
        ready?.reject(new Error('superseded by a later init'));
        ready = { resolve, reject };
        worker.postMessage({ type: 'init', file, ...(weights ? { weights } : {}) });
      });
    },
    grid(radiusKm, grid, opts = {}) {
      settleStale('grid');
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { kind: 'grid', resolve: resolve as (v: never) => void, reject, onProgress: opts.onProgress });
        worker.postMessage({ type: 'grid', id, radiusKm, grid, ...(opts.method ? { method: opts.method } : {}) });
      });
    },
    share(radiusKm, opts = {}) {
      settleStale('share');
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { kind: 'share', resolve: resolve as (v: never) => void, reject });
        worker.postMessage({ type: 'share', id, radiusKm, ...(opts.method ? { method: opts.method } : {}) });
      });
    },
    cancel() {
      settleStale('grid');
      settleStale('share');
    },
    dispose() {
      this.cancel();
      worker.terminate?.();
    },
  };
}

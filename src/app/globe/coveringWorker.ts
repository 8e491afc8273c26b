/**
 * The radius explorer's covering, computed off the main thread: the exact
 * Router.cover answer plus the cells' corners for the scene.
 *
 * Why a worker: a covering takes milliseconds to tens of milliseconds (plus
 * the corners of every cell: 45,000 cells at the core's 1,000 km maximum),
 * so on the main thread a slider drag would drop frames and a large radius
 * typed into the number field would stall the page. (s2js's RegionCoverer
 * itself takes ~20 ms at 100 miles and ~11 s at 1,000 km; the core's walk,
 * coverWalk.ts, gives the same cells in linear time.) The worker answers one request at a time; the
 * client (createCoveringClient) keeps only the latest wish, sends it when the
 * worker is free, and restarts a worker stuck on a stale, slow request.
 *
 * Pure computation and the comlink API and client (no DOM): unit-tested in
 * coveringWorker.test.ts through a real comlink channel. In the kit: the radius search (search/search.ts,
 * search/WorkedSearches.tsx) and the fan-out map (fanout/fanoutLayer.ts) share its worker's code.
 */
import { wrap, transfer, type Remote } from 'comlink';
import { errorMessage, type WorkerEndpoint } from '../shell/worker';
import { afterFirstFrame } from './firstFrame';
import { cellCorners } from './cellGeometry';
import { Router, type BoundaryFile, type CircleRoute, type ShardCells, type Radius } from '../../core/index';
import { weightsFromCells, type FanoutWeights } from '../../core/fanoutWeights';
import { workedSearches, type WorkedSearch } from '../../core/searches';
import type { Place } from '../../core/place';


/** A covering as it crosses from the worker: typed arrays (transferred), shards and routing. */
export interface CoveringAnswer {
  /** Search centre, degrees; radius, km. */
  lat: number;
  lng: number;
  radiusKm: number;
  /** The boundary file's hash. */
  hash: string;
  /** Level-10 ordinals of the covering cells, ascending (= cell ids ascending). */
  ordinals: Int32Array;
  /** Key-order shard index per cell. */
  cellShards: Int32Array;
  /** Corners of each cell in cellVertices order, (lat, lng) radians: 8 floats per cell. */
  corners: Float32Array;
  shards: ShardCells[];
  routing: string;
  /** Compute time, ms. */
  ms: number;
}

/**
 * computeCovering covers a circle as router.cover does (lat in [-90, 90],
 * lng degrees, radiusKm in (0, MAX_RADIUS_KM]; throws the core's RangeError
 * otherwise) and adds ordinals and corners.
 */
export function computeCovering(router: Router, lat: number, lng: number, radiusKm: number): CoveringAnswer {
  const t0 = performance.now();
  const route = router.cover(lat, lng, radiusKm);
  const ordinals = route.ordinals;
  const corners = cellCorners(ordinals);
  return { lat, lng, radiusKm, hash: router.file.hash, ordinals, cellShards: route.cellShards, corners, shards: route.shards, routing: route.routing, ms: performance.now() - t0 };
}

/** routeOfAnswer returns the CircleRoute an answer carries (the core's shape, no copy). */
export function routeOfAnswer(a: CoveringAnswer): CircleRoute {
  return { ordinals: a.ordinals, cellShards: a.cellShards, shards: a.shards, routing: a.routing };
}

/**
 * createCoveringApi is what the covering worker exposes (comlink; covering.worker.ts
 * binds it): init with a boundary file, then cover circles, compute the
 * worked-searches table or read the fan-out weights. Errors are thrown with
 * the core's message (naming the field and value); comlink rejects the call with it.
 */
export function createCoveringApi() {
  let router: Router | null = null;
  const need = (what: string) => {
    if (!router) throw new Error(`${what} request before init: call init(file) first`);
    return router;
  };
  return {
    /** Validates a boundary file and keeps its router; returns the file's hash. */
    init(file: BoundaryFile): string {
      router = new Router(file, 'boundary file');
      return router.file.hash;
    },
    /** The covering of a circle (computeCovering), typed arrays transferred. */
    cover(lat: number, lng: number, radiusKm: number): CoveringAnswer {
      const a = computeCovering(need('cover'), lat, lng, radiusKm);
      return transfer(a, [a.ordinals.buffer, a.cellShards.buffer, a.corners.buffer]);
    },
    /** The core's workedSearches table, with its compute time in ms. */
    worked(cities: Place[], radii: Radius[]): { rows: WorkedSearch[]; ms: number } {
      const r = need('worked');
      const t0 = performance.now();
      const rows = workedSearches(r, cities, radii);
      return { rows, ms: performance.now() - t0 };
    },
    /** The fan-out map's search origins: restaurants per non-empty cell (level-10 ordinals, key order) at the cell's centre. */
    weights(ordinals: Int32Array, restaurants: Float64Array): FanoutWeights {
      if (ordinals.length !== restaurants.length) throw new Error(`cells: ${ordinals.length} ordinals but ${restaurants.length} restaurant counts; the columns must be parallel`);
      const w = weightsFromCells(Array.from(ordinals, (ordinal, k) => ({ token: '', ordinal, restaurants: restaurants[k], dishes: 0 })));
      return transfer(w, [w.lat.buffer, w.lng.buffer, w.weight.buffer]);
    },
  };
}

export type CoveringApi = ReturnType<typeof createCoveringApi>;

/** A circle to cover: degrees and km. */
export interface CircleWish {
  lat: number;
  lng: number;
  radiusKm: number;
}

/** The main thread's handle on the covering worker. */
export interface CoveringClient {
  /** Asks for the covering of a circle; only the latest wish is kept. */
  want(circle: CircleWish | null): void;
  /** Stops the worker. */
  dispose(): void;
}

/** How long a stale request may run before its worker is replaced (ms). */
export const RESTART_AFTER_MS = 250;

interface Started {
  worker: WorkerEndpoint;
  api: Remote<CoveringApi>;
  /** Settles when the worker has validated the file (rejects with the core's message). */
  ready: Promise<string>;
}

function startCovering(makeWorker: () => WorkerEndpoint, file: BoundaryFile): Started {
  const worker = makeWorker();
  const api = wrap<CoveringApi>(worker);
  return { worker, api, ready: api.init(file) };
}

/**
 * createCoveringClient keeps one request in flight: want() while the worker
 * is busy records the wish and sends it when the answer arrives (so answers
 * come no faster than the worker computes, and never pile up); a request
 * that has run longer than RESTART_AFTER_MS when a newer wish arrives is
 * abandoned by terminating its worker and starting another (a 1,000 km
 * covering, 46,686 cells, takes 80–320 ms; more on a loaded machine). onAnswer gets every answer, even one a newer wish
 * has overtaken (it is still newer than what is shown); onError gets the
 * worker's message.
 */
export function createCoveringClient(
  makeWorker: () => WorkerEndpoint,
  file: BoundaryFile,
  onAnswer: (a: CoveringAnswer, stillWanted: boolean) => void,
  onError: (message: string, circle: CircleWish) => void,
  now: () => number = () => performance.now(),
): CoveringClient {
  let current: Started | null = null;
  let inflight: { circle: CircleWish; t0: number } | null = null;
  let wish: CircleWish | null = null;
  const same = (a: CircleWish | null, b: CircleWish | null) => !!a && !!b && a.lat === b.lat && a.lng === b.lng && a.radiusKm === b.radiusKm;

  const settle = (from: Started, circle: CircleWish, answer: CoveringAnswer | null, error: unknown) => {
    if (from !== current) return; // an abandoned worker
    inflight = null;
    if (answer) onAnswer(answer, same(circle, wish));
    else onError(errorMessage(error), circle);
    if (wish && !same(circle, wish)) send();
  };

  const send = () => {
    if (!wish) return;
    current ??= startCovering(makeWorker, file);
    const from = current;
    const circle = wish;
    inflight = { circle, t0: now() };
    from.ready.then(() => from.api.cover(circle.lat, circle.lng, circle.radiusKm)).then(
      (a) => settle(from, circle, a, null),
      (e: unknown) => settle(from, circle, null, e),
    );
  };

  return {
    want(circle) {
      if (same(circle, wish)) return;
      wish = circle;
      if (!circle) return;
      if (!inflight) return send();
      if (same(inflight.circle, circle)) return;
      if (now() - inflight.t0 > RESTART_AFTER_MS) {
        current?.worker.terminate();
        current = null;
        inflight = null;
        send();
      }
    },
    dispose() {
      current?.worker.terminate();
      current = null;
      inflight = null;
      wish = null;
    },
  };
}

/**
 * runWorkedSearches computes the worked-searches table (core workedSearches:
 * every city at every radius) in a worker of its own, so the table never
 * delays the live covering; the worker starts after the scene's first frame
 * (the table is not part of it) and ends when the answer arrives. Rejects
 * with the core's message (naming the city) on a bad city or radius.
 */
export function runWorkedSearches(makeWorker: () => WorkerEndpoint, file: BoundaryFile, cities: Place[], radii: Radius[]): { rows: Promise<{ rows: WorkedSearch[]; ms: number }>; cancel: () => void } {
  let cancelled: (() => void) | null = null;
  let stop = false;
  const stopped = new Promise<never>((_, reject) => (cancelled = () => reject(new Error('cancelled'))));
  const started = afterFirstFrame().then(() => (stop ? null : startCovering(makeWorker, file)));
  const work = started.then((s) => (s ? s.ready.then(() => s.api.worked(cities, radii)) : stopped));
  const rows = Promise.race([work, stopped]).finally(() => void started.then((s) => s?.worker.terminate()));
  return {
    rows,
    cancel: () => {
      stop = true;
      void started.then((s) => s?.worker.terminate());
      cancelled?.();
    },
  };
}

/**
 * loadFanoutWeights turns the cells (the shared columns of data/cells.csv,
 * copied, not transferred) into the fan-out map's search origins in a worker
 * of its own (weightsFromCells: the restaurants of each non-empty cell at its
 * centre); the worker then ends.
 */
export function loadFanoutWeights(makeWorker: () => WorkerEndpoint, cells: { ordinals: Int32Array; restaurants: Float64Array }): Promise<FanoutWeights> {
  const worker = makeWorker();
  return wrap<CoveringApi>(worker)
    .weights(cells.ordinals, cells.restaurants)
    .finally(() => worker.terminate());
}

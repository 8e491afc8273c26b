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
 * Pure computation and protocol (no DOM): unit-tested in covering.test.ts.
 */
import { parseCellsCsv, weightsFromCells, type FanoutWeights, Router, cellVertices, cellFromOrdinal, workedSearches, type BoundaryFile, type CircleRoute, type ShardCells, type NamedPlace, type Radius, type WorkedSearch } from '../../core/index';

const RAD = Math.PI / 180;

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
  const n = ordinals.length;
  const corners = new Float32Array(8 * n);
  for (let k = 0; k < n; k++) {
    const v = cellVertices(cellFromOrdinal(ordinals[k]));
    for (let j = 0; j < 4; j++) {
      corners[8 * k + 2 * j] = v[j].lat * RAD;
      corners[8 * k + 2 * j + 1] = v[j].lng * RAD;
    }
  }
  return { lat, lng, radiusKm, hash: router.file.hash, ordinals, cellShards: route.cellShards, corners, shards: route.shards, routing: route.routing, ms: performance.now() - t0 };
}

/** routeOfAnswer returns the CircleRoute an answer carries (the core's shape, no copy). */
export function routeOfAnswer(a: CoveringAnswer): CircleRoute {
  return { ordinals: a.ordinals, cellShards: a.cellShards, shards: a.shards, routing: a.routing };
}

/** Messages to the worker. */
export type CoveringRequest =
  | { type: 'init'; file: BoundaryFile }
  | { type: 'cover'; id: number; lat: number; lng: number; radiusKm: number }
  | { type: 'worked'; id: number; cities: NamedPlace[]; radii: Radius[] }
  | { type: 'weights'; id: number; url: string };

/** Messages from the worker. */
export type CoveringResponse =
  | { type: 'ready'; hash: string }
  | ({ type: 'covering'; id: number } & CoveringAnswer)
  | { type: 'worked'; id: number; rows: WorkedSearch[]; ms: number }
  | { type: 'weights'; id: number; weights: FanoutWeights }
  | { type: 'error'; id: number | null; message: string };

/** What serveCovering needs of a worker's global scope (or a test double). */
export interface CoveringScope {
  postMessage(message: CoveringResponse, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: CoveringRequest }) => void): void;
}

/** serveCovering answers CoveringRequests on a worker scope; errors name the problem and the request id. */
export function serveCovering(scope: CoveringScope, fetchText: (url: string) => Promise<string> = defaultFetchText): void {
  let router: Router | null = null;
  scope.addEventListener('message', async (e) => {
    const m = e.data;
    const id = m && (m.type === 'cover' || m.type === 'worked' || m.type === 'weights') ? m.id : null;
    try {
      if (m?.type === 'weights') {
        // The fan-out map's search origins: restaurants per non-empty cell at the cell's centre.
        const w = weightsFromCells(parseCellsCsv(await fetchText(m.url), 'data/cells.csv'));
        scope.postMessage({ type: 'weights', id: m.id, weights: w }, [w.lat.buffer, w.lng.buffer, w.weight.buffer]);
        return;
      }
      if (m?.type === 'init') {
        router = new Router(m.file, 'boundary file');
        scope.postMessage({ type: 'ready', hash: router.file.hash });
      } else if (m?.type === 'cover') {
        if (!router) throw new Error('cover request before init: send { type: "init", file } first');
        const a = computeCovering(router, m.lat, m.lng, m.radiusKm);
        scope.postMessage({ type: 'covering', id: m.id, ...a }, [a.ordinals.buffer, a.cellShards.buffer, a.corners.buffer]);
      } else if (m?.type === 'worked') {
        if (!router) throw new Error('worked request before init: send { type: "init", file } first');
        const t0 = performance.now();
        const rows = workedSearches(router, m.cities, m.radii);
        scope.postMessage({ type: 'worked', id: m.id, rows, ms: performance.now() - t0 });
      } else {
        throw new Error(`unknown request ${JSON.stringify((m as { type?: unknown })?.type)}: expected init, cover or worked`);
      }
    } catch (err) {
      scope.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
    }
  });
}

async function defaultFetchText(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** What createCoveringClient needs of a Worker (or a test double). */
export interface CoveringWorkerLike {
  postMessage(message: CoveringRequest, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (e: { data: CoveringResponse }) => void): void;
  terminate(): void;
}

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

/**
 * createCoveringClient keeps one request in flight: want() while the worker
 * is busy records the wish and sends it when the answer arrives (so answers
 * come no faster than the worker computes, and never pile up); a request
 * that has run longer than RESTART_AFTER_MS when a newer wish arrives is
 * abandoned by terminating its worker and starting another (a 1,000 km
 * covering takes seconds). onAnswer gets every answer, even one a newer wish
 * has overtaken (it is still newer than what is shown); onError gets the
 * worker's message.
 */
export function createCoveringClient(
  makeWorker: () => CoveringWorkerLike,
  file: BoundaryFile,
  onAnswer: (a: CoveringAnswer, stillWanted: boolean) => void,
  onError: (message: string, circle: CircleWish) => void,
  now: () => number = () => performance.now(),
): CoveringClient {
  let worker: CoveringWorkerLike | null = null;
  let inflight: { id: number; circle: CircleWish; t0: number } | null = null;
  let wish: CircleWish | null = null;
  let nextId = 1;
  const same = (a: CircleWish | null, b: CircleWish | null) => !!a && !!b && a.lat === b.lat && a.lng === b.lng && a.radiusKm === b.radiusKm;

  const start = () => {
    const w = makeWorker();
    w.addEventListener('message', (e) => {
      if (w !== worker) return;
      const m = e.data;
      if (m.type === 'ready' || m.type === 'worked' || m.type === 'weights') return;
      if (!inflight || m.id !== inflight.id) return;
      const circle = inflight.circle;
      inflight = null;
      if (m.type === 'error') onError(m.message, circle);
      else {
        const { type: _t, id: _i, ...answer } = m;
        void _t;
        void _i;
        onAnswer(answer, same(circle, wish));
      }
      if (wish && !same(circle, wish)) send();
    });
    w.postMessage({ type: 'init', file });
    worker = w;
  };

  const send = () => {
    if (!wish) return;
    if (!worker) start();
    inflight = { id: nextId++, circle: wish, t0: now() };
    worker!.postMessage({ type: 'cover', id: inflight.id, ...wish });
  };

  return {
    want(circle) {
      if (same(circle, wish)) return;
      wish = circle;
      if (!circle) return;
      if (!inflight) return send();
      if (same(inflight.circle, circle)) return;
      if (now() - inflight.t0 > RESTART_AFTER_MS) {
        worker?.terminate();
        worker = null;
        inflight = null;
        send();
      }
    },
    dispose() {
      worker?.terminate();
      worker = null;
      inflight = null;
      wish = null;
    },
  };
}

/**
 * runWorkedSearches computes the worked-searches table (core workedSearches:
 * every city at every radius) in a worker of its own, so the table never
 * delays the live covering; the worker ends when the answer arrives. Rejects
 * with the core's message (naming the city) on a bad city or radius.
 */
export function runWorkedSearches(makeWorker: () => CoveringWorkerLike, file: BoundaryFile, cities: NamedPlace[], radii: Radius[]): { rows: Promise<{ rows: WorkedSearch[]; ms: number }>; cancel: () => void } {
  const w = makeWorker();
  let settle: (() => void) | null = null;
  const rows = new Promise<{ rows: WorkedSearch[]; ms: number }>((resolve, reject) => {
    settle = () => reject(new Error('cancelled'));
    w.addEventListener('message', (e) => {
      const m = e.data;
      if (m.type === 'worked') resolve({ rows: m.rows, ms: m.ms });
      else if (m.type === 'error') reject(new Error(m.message));
      else return;
      w.terminate();
    });
    w.postMessage({ type: 'init', file });
    w.postMessage({ type: 'worked', id: 1, cities, radii });
  });
  return {
    rows,
    cancel: () => {
      w.terminate();
      settle?.();
    },
  };
}

/**
 * loadFanoutWeights reads a cells file (data/cells.csv) in a worker of its
 * own and returns the fan-out map's search origins (weightsFromCells: the
 * restaurants of each non-empty cell at its centre); the worker then ends.
 */
export function loadFanoutWeights(makeWorker: () => CoveringWorkerLike, url: string): Promise<FanoutWeights> {
  const w = makeWorker();
  return new Promise<FanoutWeights>((resolve, reject) => {
    w.addEventListener('message', (e) => {
      const m = e.data;
      if (m.type === 'weights') resolve(m.weights);
      else if (m.type === 'error') reject(new Error(m.message));
      else return;
      w.terminate();
    });
    w.postMessage({ type: 'weights', id: 1, url });
  });
}

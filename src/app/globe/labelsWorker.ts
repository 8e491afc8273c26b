/**
 * The city labels' worker and its client (comlink). The worker draws the labels on the overlay
 * canvas, which the main thread has handed over (transferControlToOffscreen): the frames go
 * straight to the compositor, so a moving view never makes the main thread repaint a 2D canvas
 * (50 ms a frame without a GPU). createLabelsApi is what the worker exposes (labels.worker.ts):
 * init(canvas) once, cities(names, colors) once per data set, then draw(width, height, dpr,
 * points, blocked) with [x, y, visible] per city in CSS pixels, cities in drawing priority order
 * (largest first), and the boxes of the panels laid over the canvas; draw answers with the
 * placement (labelsDraw.ts). createLabelsClient is the main thread's side (labels.ts uses it).
 */
import { wrap, transfer, type Remote } from 'comlink';
import { drawPoints, newLabelState, type Box, type Placement } from './labelsDraw';
import type { WorkerEndpoint } from '../shell/worker';

/** A drawing asked for the worker's next animation frame (the latest call wins; every caller gets its answer). */
interface Job {
  width: number;
  height: number;
  dpr: number;
  points: Float32Array;
  blocked: Box[];
  answer: ((p: Placement) => void)[];
}

/** createLabelsApi is what the labels worker exposes (comlink; labels.worker.ts binds it); its state lives as long as the worker (one per overlay canvas). */
export function createLabelsApi() {
  let canvas: OffscreenCanvas | null = null;
  let names: string[] = [];
  let colors: string[] = [];
  const state = newLabelState();
  let next: Job | null = null;

  const render = (): void => {
    const job = next;
    next = null;
    if (!job) return;
    const placed = canvas ? drawPoints(canvas, state, job.width, job.height, job.dpr, job.points, names, colors, job.blocked) : { dots: [], labels: [] };
    // Answer after this task, once the frame is committed.
    setTimeout(() => job.answer.forEach((answer) => answer(placed)), 0);
  };

  return {
    /** Takes the overlay canvas (transferred). */
    init(c: OffscreenCanvas): void {
      canvas = c;
    },
    /** The labels and their colors (CSS hex), in drawing priority order. */
    cities(n: string[], c: string[]): void {
      [names, colors] = [n, c];
    },
    /**
     * Draws the labels at [x, y, visible] per city (CSS pixels) on a canvas of the given CSS size and
     * device pixel ratio, clear of the blocked boxes; answers with the placement once the frame is
     * committed. The drawing runs in the worker's next animation frame (when an OffscreenCanvas frame
     * reliably reaches the screen), or 100 ms later if none comes, and only the latest of the calls
     * made before it is drawn.
     */
    draw(width: number, height: number, dpr: number, points: Float32Array, blocked: Box[]): Promise<Placement> {
      return new Promise((resolve) => {
        const first = next === null;
        next = { width, height, dpr, points, blocked, answer: [...(next?.answer ?? []), resolve] };
        if (first) {
          // The worker's animation frame, or a moment later if none comes (a page with no
          // frame to draw may not give the worker one).
          requestAnimationFrame(render);
          setTimeout(render, 100);
        }
      });
    },
  };
}

export type LabelsApi = ReturnType<typeof createLabelsApi>;

/** The main thread's handle on a labels worker, which owns the overlay canvas. */
export interface LabelsClient {
  /** The labels and their colors (CSS hex), in drawing priority order. */
  cities(names: string[], colors: string[]): void;
  /** Draws (see createLabelsApi's draw; `points` is transferred) and answers with the placement. */
  draw(width: number, height: number, dpr: number, points: Float32Array, blocked: Box[]): Promise<Placement>;
  /** Stops the worker. */
  dispose(): void;
}

/** createLabelsClient starts a labels worker (makeWorker) and hands it the overlay canvas. */
export function createLabelsClient(makeWorker: () => WorkerEndpoint, canvas: OffscreenCanvas): LabelsClient {
  const worker = makeWorker();
  const api: Remote<LabelsApi> = wrap<LabelsApi>(worker);
  void api.init(transfer(canvas, [canvas]));
  return {
    cities: (names, colors) => void api.cities(names, colors),
    draw: (width, height, dpr, points, blocked) => api.draw(width, height, dpr, transfer(points, [points.buffer]), blocked),
    dispose: () => worker.terminate(),
  };
}

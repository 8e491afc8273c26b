/**
 * The app's one worker mechanism: comlink. A worker module exposes an API
 * object (comlink `expose`); the main thread wraps a Worker (comlink `wrap`)
 * and calls it as async functions. Typed arrays cross with comlink
 * `transfer`. Tests join the same API to its client through a
 * MessageChannel (portWorker in worker.testing.ts), so the unit tests run
 * the real comlink round trip.
 *
 * One layout for every worker X (covering, geometry and labels in globe/,
 * fanout, review):
 *   X.worker.ts   the worker's entry: `expose(createXApi())`, nothing else;
 *   XWorker.ts    createXApi (what the worker exposes, its type XApi) and the
 *                 main thread's client, createXClient(makeWorker, …), which
 *                 starts the worker with makeWorker (a test hands it a
 *                 portWorker) and wraps it;
 *   XWorker.test.ts  both, through a real comlink channel.
 */
import type { Endpoint } from 'comlink';

/** A worker as the clients use it: a comlink endpoint that can be stopped (a Worker, or a test's port). */
export type WorkerEndpoint = Endpoint & { terminate(): void };

/** errorMessage returns the message of what a worker call rejected with. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

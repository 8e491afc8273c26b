/**
 * The fan-out map's Web Worker (a module worker): exposes createFanoutApi
 * (fanout.ts, where it is unit-tested, with the cancellation of stale
 * requests) with comlink. Start it from the main thread with
 *   createFanoutClient(new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }))
 */
import { expose } from 'comlink';
import { createFanoutApi } from './fanout';

expose(createFanoutApi());

/**
 * The fan-out map's Web Worker (a module worker). Start it from the main thread with
 *   createFanoutClient(new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }))
 * The protocol, the computation and the cancellation of stale requests live in
 * fanout.ts (serveFanout), where they are unit-tested; this file only binds them to
 * the worker's global scope.
 */
import { serveFanout, type FanoutScope } from './fanout';

serveFanout(self as unknown as FanoutScope);

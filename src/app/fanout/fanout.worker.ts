/**
 * The fan-out worker's entry (a module worker): exposes createFanoutApi (fanout.ts, where
 * it and its client are unit-tested, with the cancellation of stale requests) with comlink.
 */
import { expose } from 'comlink';
import { createFanoutApi } from './fanoutWorker';

expose(createFanoutApi());

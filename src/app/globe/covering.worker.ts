/**
 * The covering worker's entry (a module worker): exposes createCoveringApi (coveringWorker.ts,
 * where it and its client are unit-tested) with comlink.
 */
import { expose } from 'comlink';
import { createCoveringApi } from './coveringWorker';

expose(createCoveringApi());

/**
 * The labels worker's entry (a module worker): exposes createLabelsApi (labelsWorker.ts, with
 * its client) with comlink.
 */
import { expose } from 'comlink';
import { createLabelsApi } from './labelsWorker';

expose(createLabelsApi());

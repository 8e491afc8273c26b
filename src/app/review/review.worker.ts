/**
 * The review worker's entry (a module worker): exposes createReviewApi (reviewWorker.ts, where
 * it and its client are unit-tested) with comlink.
 */
import { expose } from 'comlink';
import { createReviewApi } from './reviewWorker';

expose(createReviewApi());

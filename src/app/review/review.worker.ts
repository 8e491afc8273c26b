/**
 * The boundary review's worker (a module worker): exposes createReviewApi
 * (reviewWorker.ts, where it is unit-tested) with comlink.
 */
import { expose } from 'comlink';
import { createReviewApi } from './reviewWorker';

expose(createReviewApi());

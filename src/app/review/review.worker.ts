/**
 * The boundary review's worker (a module worker). The protocol and the
 * computation live in reviewWorker.ts (serveReview), where they are
 * unit-tested; this file only binds them to the worker's global scope.
 */
import { serveReview, type ReviewScope } from './reviewWorker';

serveReview(self as unknown as ReviewScope);

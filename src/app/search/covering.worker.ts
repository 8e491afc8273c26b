/**
 * The radius explorer's covering worker (a module worker). The protocol and
 * the computation live in covering.ts (serveCovering), where they are
 * unit-tested; this file only binds them to the worker's global scope.
 */
import { serveCovering, type CoveringScope } from './covering';

serveCovering(self as unknown as CoveringScope);

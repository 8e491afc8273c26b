/**
 * The radius explorer's covering worker (a module worker): exposes
 * createCoveringApi (covering.ts, where it is unit-tested) with comlink.
 */
import { expose } from 'comlink';
import { createCoveringApi } from './covering';

expose(createCoveringApi());

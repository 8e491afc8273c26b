/**
 * The geometry worker's entry (a module worker): exposes createGeometryApi (geometryWorker.ts,
 * where it and its client are unit-tested) with comlink.
 */
import { expose } from 'comlink';
import { createGeometryApi } from './geometryWorker';

expose(createGeometryApi());

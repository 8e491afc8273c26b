/**
 * geoshard's routing core: the one public entry.
 *
 * Pure TypeScript (no DOM, Node, React or three): the explorer, the live API,
 * the CLI and a production indexer all import this module and nothing under it.
 */
export * from './cells';
export * from './cover';
export * from './routingHash';
export * from './names';
export * from './boundaries';
export * from './router';
export * from './balance';
export * from './build';
export { sha256 } from './sha256';
export * from './searches';
export * from './exports';
export * from './migration';
export * from './diff';
export * from './fanout';
export * from './plan';
export * from './edit';

export * from './workload.ts';
export * from './workloadGen.ts';
export * from './requestLoad.ts';
export * from './cellCache.ts';
export * from './gate.ts';

/**
 * geoshard's routing core: the one public entry.
 *
 * Pure TypeScript (no DOM, Node, React or three): the explorer, the live API,
 * the CLI and a production indexer all import this module and nothing under it.
 */
export * from './cells.ts';
export * from './cover.ts';
export * from './routingHash.ts';
export * from './names.ts';
export * from './boundaries.ts';
export * from './router.ts';
export * from './balance.ts';
export * from './build.ts';
export { sha256 } from './sha256.ts';
export * from './searches.ts';
export * from './exports.ts';
export * from './migration.ts';
export * from './migrationState.ts';
export * from './diff.ts';
export * from './fanout.ts';
export * from './plan.ts';
export * from './edit.ts';

export * from './workload.ts';
export * from './workloadGen.ts';
export * from './requestLoad.ts';
export * from './loadDiff.ts';
export * from './cellCache.ts';
export * from './gate.ts';

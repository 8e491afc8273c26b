/**
 * The drift check: an index must have been written with the very boundary file a
 * searcher routes with. A document written to one shard and looked for on another
 * just comes back empty, so a mismatch must refuse the search, naming both hashes.
 * driftState compares an index's `_meta` with the file: the live API (src/server/driftGuard.ts
 * DriftGuard) and a search service's routed searches (src/opensearch/routedSearch.ts) both use it.
 * Pure.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { IndexMeta } from './meta.ts';

/** The outcome of one drift check. */
export interface DriftState {
  /**
   * ok: the index's _meta hash equals the file's; mismatch: it differs;
   * no-meta: the index has no geoshard _meta; missing-index: no such index;
   * routing-mismatch: the hashes agree but the engine sends some shard name
   * elsewhere (set by the API's routing check, never by driftState);
   * pipeline-mismatch: the index's routing ingest pipeline disagrees with its
   * _meta (set by the API's pipeline check, src/ops/routing/pipelineInstall.ts).
   */
  status: 'ok' | 'mismatch' | 'no-meta' | 'missing-index' | 'routing-mismatch' | 'pipeline-mismatch';
  index: string;
  fileHash: string;
  fileVersion: number;
  indexHash: string | null;
  indexVersion: number | null;
  /** The index's `_meta` (null when absent). */
  meta: IndexMeta | null;
  /** The target hash of a migration in progress on the index (`_meta.migration.target`), else null. */
  targetHash: string | null;
  /** A sentence for people (empty when ok). */
  message: string;
}

/** driftState compares an index `_meta` (or its absence) with the boundary file. */
export function driftState(file: BoundaryFile, meta: IndexMeta | null | undefined): DriftState {
  const target = (meta?.migration as { target?: unknown } | undefined)?.target;
  const targetHash = typeof target === 'string' ? target : null;
  const base = { index: file.index, fileHash: file.hash, fileVersion: file.version, indexHash: meta?.hash ?? null, indexVersion: meta?.version ?? null, targetHash, meta: meta ?? null };
  if (meta === undefined) {
    return { ...base, status: 'missing-index', message: `index "${file.index}" does not exist on the cluster: create it (geoshard/opensearch createGeoIndex, or "npx geoshard reindex" from an existing index; the bundled sample: "npx geoshard seed")` };
  }
  if (meta === null) {
    return {
      ...base,
      status: 'no-meta',
      message:
        `index "${file.index}" has no geoshard _meta hash: it is not geosharded (a plain index, its documents hash-sharded by id, or one made by another tool), so nothing says which boundary file routed its documents and a routed search would miss them; every search is refused. ` +
        `Geoshard it: "npx geoshard reindex --from ${file.index} --to ${file.index}-geo --boundaries FILE" copies it into a new index routed by the boundary file and switches an alias to it (the bundled sample: "npx geoshard seed --recreate")`,
    };
  }
  // During a migration both ends are right: the settled file and the target route the same
  // documents once the API applies the migration state (see api.ts).
  if (meta.hash !== file.hash && targetHash === file.hash) return { ...base, status: 'ok', message: '' };
  if (meta.hash !== file.hash && targetHash) {
    return {
      ...base,
      status: 'mismatch',
      message:
        `boundary drift: index "${file.index}" is migrating from boundary file ${meta.hash} (version ${meta.version}) to ${targetHash}, but this server routes with ${file.hash} (version ${file.version}), which is neither. ` +
        `Every search is refused: serve the index's settled file or the migration's target.`,
    };
  }
  if (meta.hash !== file.hash) {
    return {
      ...base,
      status: 'mismatch',
      message:
        `boundary drift: index "${file.index}" was written with boundary file ${meta.hash} (version ${meta.version}), but this server routes with ${file.hash} (version ${file.version}). ` +
        `Routed searches would look for documents on shards they were not written to and come back silently short, so every search is refused. ` +
        `Serve the index's boundary file, or reindex with this one ("npx geoshard seed --recreate").`,
    };
  }
  return { ...base, status: 'ok', message: '' };
}

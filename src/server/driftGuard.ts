/**
 * The drift guard: the index must have been made with the very boundary file
 * the server routes with. The article's failure mode is silent (a document
 * written to one shard and looked for on another just comes back empty); here
 * a mismatch turns every search into a 409 naming both hashes.
 */
import type { BoundaryFile } from '../core/index.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
// The comparison itself lives with the package (geoshard/opensearch), which a search service's routed searches use too.
import { driftState, type DriftState } from '../opensearch/drift.ts';
import { fetchIndexMeta } from '../opensearch/indexMeta.ts';
export { driftState, type DriftState };

/**
 * DriftGuard checks the index's `_meta` hash against the boundary file,
 * remembering a result for at most `ttlMs` (0: ask on every check, so a
 * recreated index is noticed on the very next search).
 */
export class DriftGuard {
  private cached: { at: number; state: DriftState } | null = null;

  constructor(
    private readonly client: OpenSearchClient,
    private readonly file: BoundaryFile,
    private readonly ttlMs = 0,
  ) {}

  /** check returns the drift state; rejects with OpenSearchError when the cluster does not answer. */
  async check(): Promise<DriftState> {
    const now = performance.now();
    if (this.cached && now - this.cached.at < this.ttlMs) return this.cached.state;
    const state = driftState(this.file, await fetchIndexMeta(this.client, this.file.index));
    this.cached = { at: now, state };
    return state;
  }

  /** last returns the most recent state seen, or null. */
  last(): DriftState | null {
    return this.cached?.state ?? null;
  }
}

/**
 * PLACEHOLDER for `geoshard/opensearch`, written by the package branch only so that
 * `npm run build:lib` and the pack test (scripts/pack.test.ts) have an entry to build and import.
 * The writer branch's src/opensearch/index.ts (its GeoIndexer) REPLACES this file: when merging,
 * resolve the add/add conflict by taking the writer's version whole.
 *
 * The official client (@opensearch-project/opensearch) is an optional peer dependency of the
 * package: a consumer who imports this entry installs it beside geoshard.
 */
import type { Client } from '@opensearch-project/opensearch';
import type { Router } from '../core/router.ts';

/** GeoIndexer writes documents to one geosharded index, each routed by the shard that holds its location. */
export class GeoIndexer {
  /** client: the official client; router: the index's boundary file as a Router; index: the index name. */
  constructor(
    readonly client: Client,
    readonly router: Router,
    readonly index: string,
  ) {}

  /** routingOf returns the routing value (shard name) of a location in degrees (lat in [-90, 90], lng in [-180, 180]). */
  routingOf(lat: number, lng: number): string {
    return this.router.route(lat, lng).name;
  }

  /** put indexes `doc` under `id` with the routing of (lat, lng), and returns that routing value. */
  async put(id: string, doc: Record<string, unknown>, lat: number, lng: number): Promise<string> {
    const routing = this.routingOf(lat, lng);
    await this.client.index({ index: this.index, id, routing, body: doc });
    return routing;
  }
}

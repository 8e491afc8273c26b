/**
 * What the live API remembers of the cluster between requests: every node it has seen (id →
 * name), so a node that left is still listed (down) and a profile or a failure names nodes as
 * /api/status does; and the last shard table in which every copy was started, where each
 * shard's primary "belongs" (placement.ts placementOf compares a search's table with it).
 */
import type { Router } from '../../core/index.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { readLayout, isHealthy, type Layout } from '../placement.ts';
import type { ShardCopy } from '../wire.ts';

/** ClusterMemory reads the cluster's layout and remembers its nodes and its last healthy shard table. */
export class ClusterMemory {
  /** The last shard table in which every copy was started: where each shard's primary "belongs" (see placementOf). */
  healthy: ShardCopy[] | null = null;
  /** Every node seen since the API started (id → name), so a node that left is still listed, down. */
  readonly seen = new Map<string, string>();

  constructor(private readonly client: OpenSearchClient) {}

  /**
   * layout reads the nodes and the index's shard copies, remembers the nodes
   * and, when every copy is started, the table as the healthy one. Null when
   * the cluster does not answer.
   */
  async layout(router: Router): Promise<Layout | null> {
    const nameOf = new Map(router.shards.map((s) => [s.shard, s.name]));
    let layout: Layout;
    try {
      layout = await readLayout(this.client, router.file.index, (n) => nameOf.get(n) ?? null);
    } catch {
      return null;
    }
    for (const n of layout.nodes ?? []) this.seen.set(n.id, n.name);
    for (const c of layout.copies) if (c.node) this.seen.set(c.node.id, c.node.name);
    if (isHealthy(layout.copies)) this.healthy = layout.copies;
    return layout;
  }

  /** name names a node id as /api/status does (the id itself when the node was never seen). */
  name(id: string): string {
    return this.seen.get(id) ?? id;
  }

  /** nodeName names a node id, reading the node list first when the id is new (no read without a router). */
  async nodeName(id: string, router: Router | null): Promise<string> {
    if (!this.seen.has(id) && router) await this.layout(router);
    return this.name(id);
  }
}

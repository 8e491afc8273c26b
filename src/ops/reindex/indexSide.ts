/**
 * A whole index as a DocSide (docDiff.ts) for the catch-up, the switch and a
 * rollback: checkpoints per shard, ids and changes read shard by shard, and
 * writes that route as the index routes. Node only.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { DocSide } from '../compare/docDiff.ts';
import { tileParts } from '../compare/tileParts.ts';
import { eachIdOfIndex, eachShard, hitsByIds, PAGE, seqNos, type Hit } from '../compare/shardReader.ts';
import { ReindexError, type Shape } from './state.ts';
import { bulkBody, bulkErrors, BULK_ERRORS_FILTER, type BulkAction, type BulkResponse } from '../../opensearch/bulk.ts';

const enc = encodeURIComponent;

/**
 * writeDocs writes whole documents into `index` and deletes ids, in one bulk
 * request per 2,000: every copy an id already has is deleted first (with its
 * own routing: a document whose location changed is routed elsewhere by the
 * pipeline, and its old copy must not stay), then the document is indexed
 * without routing when the index has a routing pipeline (it routes), with
 * the parent's id for a join child otherwise (a hash-sharded parent/child
 * index), else none. Throws ReindexError naming failed items.
 */
async function writeDocs(client: OpenSearchClient, index: string, shape: Shape, docs: readonly (readonly [string, Record<string, unknown>])[], dels: readonly string[]): Promise<void> {
  const existing = await hitsByIds(client, index, [...docs.map(([id]) => id), ...dels], false);
  if (existing.length === 0 && docs.length === 0) return;
  const body = bulkBody([
    ...existing.map((h): BulkAction => ({ op: 'delete', index, id: h._id, routing: h._routing })),
    ...docs.map(([id, s]): BulkAction => ({ op: 'index', index, id, ...routingFor(shape, s), source: s })),
  ]);
  const res = await client.request<BulkResponse>('POST', '/_bulk', { body, query: { filter_path: BULK_ERRORS_FILTER }, timeoutMs: 120_000 });
  const errs = bulkErrors(res.body).filter((e) => e.status !== 404);
  if (errs.length > 0) throw new ReindexError(`writing ${docs.length} documents into "${index}" failed for ${errs.length}: ${errs.slice(0, 5).map((e) => `${e.id} ${e.status} ${e.type ?? ''} ${e.reason ?? ''}`).join('; ')}`);
}

function routingFor(shape: Shape, s: Record<string, unknown>): { routing?: string } {
  if (shape.pipeline || !shape.join) return {};
  const parent = (s[shape.join.field] as { parent?: unknown } | undefined)?.parent;
  return typeof parent === 'string' ? { routing: parent } : {};
}

/**
 * indexSide is a whole index as a DocSide for docDiff.ts: checkpoints per
 * shard, ids and changes read shard by shard, writes as writeDocs does; with
 * `geoFields` (its geo_point fields), parts the cluster counts by map tile
 * (tileParts.ts), so the switch's exact check reads ids only where counts differ.
 */
export function indexSide(client: OpenSearchClient, index: string, shards: number, shape: Shape, geoFields: readonly string[] = []): DocSide<number[]> {
  return {
    ...(geoFields.length > 0 ? { parts: tileParts(client, index, shards, geoFields) } : {}),
    label: `index "${index}"`,
    refresh: async () => void (await client.request('POST', `/${enc(index)}/_refresh`, { timeoutMs: 120_000 })),
    checkpoint: () => seqNos(client, index),
    eachId: async (f) => ({ docs: await eachIdOfIndex(client, index, shards, f) }),
    count: async () => (await client.request<{ count: number }>('POST', `/${enc(index)}/_count`, { body: { query: { match_all: {} } } })).body.count,
    async changedSince(since) {
      const out = new Set<string>();
      await eachShard(shards, 3, async (k) => {
        let after: unknown[] | undefined;
        for (;;) {
          const { body } = await client.request<{ hits: { hits: Hit[] } }>('POST', `/${enc(index)}/_search`, {
            query: { preference: `_shards:${k}` },
            body: { size: PAGE, query: { range: { _seq_no: { gt: since[k] ?? -1 } } }, _source: false, sort: [{ _seq_no: 'asc' }], track_total_hits: false, ...(after ? { search_after: after } : {}) },
            timeoutMs: 120_000,
          });
          const hits = body.hits.hits;
          for (const h of hits) out.add(h._id);
          if (hits.length < PAGE) return;
          after = hits[hits.length - 1].sort;
        }
      });
      return out;
    },
    async sources(ids) {
      const out = new Map<string, Record<string, unknown>>();
      for (const h of await hitsByIds(client, index, ids, true)) if (h._source) out.set(h._id, h._source);
      return out;
    },
    write: (docs, dels) => writeDocs(client, index, shape, docs, dels),
  };
}


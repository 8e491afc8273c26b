/**
 * The traffic history, kept in the cluster itself: an index (default `geoshard-traffic`,
 * GEOSHARD_TRAFFIC_INDEX) of samples (snapshots.ts), so that it survives a restart of the explorer
 * and every person who opens one reads the same history.
 *
 * - One document per (source, index, bucket start), id `shards|<index>|<ISO start>`: the first
 *   sample taken in a bucket is written with op_type create, so two recorders (two explorers, an
 *   explorer and `geoshard traffic --record`) write each bucket once, whoever comes first, and a
 *   second write of the same bucket is a no-op (409). `|` cannot occur in an index name.
 * - The mapping is strict and says what the index is (`_meta.format`); the per-copy counters,
 *   the ranges and the per-cell counts are stored, not indexed (`enabled: false`): the history is
 *   read by index and time only.
 * - Retention: documents sampled longer ago than the retention (default 7 days,
 *   GEOSHARD_TRAFFIC_RETENTION_DAYS) are deleted by the recorders (pruneHistory, once an hour),
 *   for every index of the history: the shortest retention among recorders wins. At the default
 *   60 s interval that is 10,080 documents of about 3 KB per 15-shard index with one replica.
 *
 * Privileges: writing needs `crud` and `create_index` on the history index (the role
 * geoshard_traffic of src/cluster/roles.json); reading needs `read` on it.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';
import { fetchMapping } from '../../opensearch/indexMeta.ts';
import type { TrafficSource } from '../../core/traffic.ts';
import { TrafficError } from './shardStats.ts';
import type { CellsRecord, TrafficSnapshot } from './snapshots.ts';

/** The history index's name when GEOSHARD_TRAFFIC_INDEX is unset. */
export const DEFAULT_HISTORY_INDEX = 'geoshard-traffic';

/** What the history index's mapping says it is (`_meta.format`). */
export const HISTORY_FORMAT = 'geoshard-traffic/1';

/** The history index's mapping: strict, with what is read by (index, source, time) indexed and the rest stored only. */
export function historyMapping(): Record<string, unknown> {
  const keyword = { type: 'keyword' };
  const date = { type: 'date', format: 'epoch_millis' };
  const stored = { type: 'object', enabled: false };
  return {
    dynamic: 'strict',
    _meta: { format: HISTORY_FORMAT },
    properties: {
      source: keyword,
      index: keyword,
      concrete: keyword,
      uuid: keyword,
      hash: keyword,
      start: date,
      sampledAt: date,
      intervalSeconds: { type: 'integer' },
      failedShards: { type: 'integer' },
      ranges: stored,
      copies: stored,
      cells: stored,
    },
  };
}

/** recordId is a sample's document id: its source, its index and its bucket's start. */
export function recordId(source: TrafficSource, index: string, startMs: number): string {
  return `${source}|${index}|${new Date(startMs).toISOString()}`;
}

/**
 * ensureHistoryIndex creates the history index (1 shard, a replica where a second node exists,
 * the strict mapping) unless it exists; an existing one must carry HISTORY_FORMAT, else
 * TrafficError names it (another index of that name: choose another GEOSHARD_TRAFFIC_INDEX).
 */
export async function ensureHistoryIndex(client: OpenSearchClient, historyIndex: string): Promise<'created' | 'exists'> {
  const created = await client.admin<{ error?: { type?: string } }>('PUT', `/${encodeURIComponent(historyIndex)}`, {
    body: { settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1' } }, mappings: historyMapping() },
    okStatuses: [400],
  });
  if (created.status === 200) return 'created';
  if (created.body.error?.type !== 'resource_already_exists_exception') throw new TrafficError(`the traffic history index "${historyIndex}" could not be created: ${JSON.stringify(created.body.error ?? created.body).slice(0, 300)}`);
  const mapping = await fetchMapping(client, historyIndex);
  const format = Object.values(mapping ?? {})[0]?.mappings?._meta as { format?: unknown } | undefined;
  if (format?.format !== HISTORY_FORMAT) {
    throw new TrafficError(`index "${historyIndex}" exists and is not a geoshard traffic history (its mapping's _meta.format is ${JSON.stringify(format?.format ?? null)}, expected "${HISTORY_FORMAT}"): set GEOSHARD_TRAFFIC_INDEX to another name`);
  }
  return 'exists';
}

/**
 * historyIndexReady tells whether the history index exists with geoshard's mapping (one read of
 * its mapping). A recorder asks before every write: a history deleted while it runs would
 * otherwise be made again by the write itself, with a dynamic mapping no reader accepts.
 */
export async function historyIndexReady(client: OpenSearchClient, historyIndex: string): Promise<boolean> {
  const mapping = await fetchMapping(client, historyIndex);
  const format = Object.values(mapping ?? {})[0]?.mappings?._meta as { format?: unknown } | undefined;
  return format?.format === HISTORY_FORMAT;
}

/** recordSample writes a sample as its bucket's document, unless that bucket is written already ('exists': another recorder came first). */
export async function recordSample(client: OpenSearchClient, historyIndex: string, sample: TrafficSnapshot | CellsRecord): Promise<'written' | 'exists'> {
  const id = recordId(sample.source, sample.index, sample.start);
  const r = await client.request('PUT', `/${encodeURIComponent(historyIndex)}/_create/${encodeURIComponent(id)}`, { body: sample, okStatuses: [409] });
  return r.status === 409 ? 'exists' : 'written';
}

/** What readRecords found for one index. */
export interface HistoryRecords {
  snapshots: TrafficSnapshot[];
  cells: CellsRecord[];
}

/** Records read per page. */
const PAGE = 1000;

/**
 * readRecords reads every record of `index` sampled in [fromMs, toMs], in time order, a page at
 * a time. A history index that does not exist yet reads as empty. Rejects with OpenSearchError
 * when the cluster refuses or does not answer.
 */
export async function readRecords(client: OpenSearchClient, historyIndex: string, index: string, fromMs: number, toMs: number): Promise<HistoryRecords> {
  const out: HistoryRecords = { snapshots: [], cells: [] };
  let after: unknown[] | undefined;
  for (;;) {
    const body = {
      size: PAGE,
      query: { bool: { filter: [{ term: { index } }, { range: { sampledAt: { gte: fromMs, lte: toMs, format: 'epoch_millis' } } }] } },
      sort: [{ sampledAt: 'asc' }, { start: 'asc' }, { source: 'asc' }],
      ...(after ? { search_after: after } : {}),
    };
    const r = await client.request<{ hits?: { hits: { _source: TrafficSnapshot | CellsRecord; sort: unknown[] }[] }; error?: { type?: string } }>('POST', `/${encodeURIComponent(historyIndex)}/_search`, { body, okStatuses: [404] });
    if (r.status === 404) return out;
    const hits = r.body.hits?.hits ?? [];
    for (const h of hits) {
      if (h._source.source === 'shards') out.snapshots.push(h._source);
      else if (h._source.source === 'cells') out.cells.push(h._source);
    }
    if (hits.length < PAGE) return out;
    after = hits[hits.length - 1].sort;
  }
}

/**
 * pruneHistory deletes every record sampled before `beforeMs` (all indexes: the history's
 * retention is one bound) and returns how many. A missing history index deletes nothing.
 */
export async function pruneHistory(client: OpenSearchClient, historyIndex: string, beforeMs: number): Promise<number> {
  try {
    const r = await client.request<{ deleted?: number }>('POST', `/${encodeURIComponent(historyIndex)}/_delete_by_query`, {
      query: { conflicts: 'proceed', wait_for_completion: 'true' },
      body: { query: { range: { sampledAt: { lt: beforeMs, format: 'epoch_millis' } } } },
      okStatuses: [404],
    });
    return r.body.deleted ?? 0;
  } catch (e) {
    if (e instanceof OpenSearchError && e.status === 404) return 0;
    throw e;
  }
}

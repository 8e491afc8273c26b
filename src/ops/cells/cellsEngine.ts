/**
 * The density of a live index computed by the cluster (`geoshard cells
 * --from-index --engine cluster`): each shard locates its own documents in
 * their level-10 cells with Painless (painless.ts PAINLESS_S2, the S2 the
 * routing pipeline runs) over the geo_point's doc values, and a composite
 * aggregation returns one bucket per cell (its count, and the sum of the
 * weight field when the config has one). Only buckets cross the network; the
 * client's memory is the cells it writes, whatever the number of documents.
 *
 * The counts equal the client path's (cellsReader.ts readIndexCells):
 * - a doc value is the point rounded down to Lucene's 32-bit grid (about a
 *   centimetre); the script computes s2QuantizedOrdinal, the cell of that
 *   whole centimetre box widened by one step (core quantizedCellAt, corner for
 *   corner), and where the box straddles a cell edge (a handful of documents
 *   per million) it reads the exact point from `params._source` (loaded for
 *   those documents only) and keys the bucket -2 - ordinal, so the client
 *   can count those `exactReads`;
 * - a multi-valued location is read from `_source` too (its first point in
 *   source order is the one counted, which doc values, sorted, do not say);
 * - the weight is the field's first doc value when it is a number >= 0, else 0
 *   (counted in `unweighed`), as the client path reads it.
 *
 * A composite aggregation over a script cannot skip to its `after` key: every
 * page runs the script over every document the query matches. So the index
 * is cut into latitude bands (a geo_bounding_box query, a little wider than
 * the band, picks the band's documents from the BKD tree; the script keeps
 * exactly those whose doc value latitude is in [lo, hi), so each document is
 * in one band), each band small enough that its cells fit one page: a band
 * whose first page is full is split in two (down to MIN_BAND_DEG, below which
 * it is paged with `after`). Bands run `concurrency` at a time; within one,
 * the cluster runs every shard in parallel, on every node.
 */
import { CellCounter } from '../../core/index.ts';
import { PAINLESS_S2 } from '../../opensearch/painless.ts';
import { weightColumn, type IndexConfig } from '../../opensearch/indexConfig.ts';
import type { OpenSearchClient } from '../../cluster/client.ts';
import { checkGeoFields, firstUnlocatedId, type CellsProgress, type CellsRead } from './cellsReader.ts';

/** A band narrower than this (degrees of latitude) is paged rather than split: one row of level-10 cells around the world fits one page. */
export const MIN_BAND_DEG = 0.02;

/**
 * The key script: the document's level-10 ordinal (>= 0), -2 - ordinal when
 * it was located from `_source`, -1 when `_source` had no point after all,
 * or no value (no bucket) when the document has no point or is outside the
 * band. params: location, child (null: no join), lo, hi (degrees).
 */
export const CELL_KEY_SCRIPT = `${PAINLESS_S2}
String f = params.location;
if (!doc.containsKey(f) || doc[f].size() == 0) {
  f = params.child;
  if (f == null || !doc.containsKey(f) || doc[f].size() == 0) return null;
}
def g = doc[f];
double lat = g.getLat();
if (lat < params.lo || lat >= params.hi) return null;
if (g.size() == 1) {
  int o = s2QuantizedOrdinal(lat, g.getLon());
  if (o >= 0) return (long) o;
}
def src = params._source;
double[] p = s2SourcePoint(s2At(src, params.location));
if (p == null && params.child != null) p = s2SourcePoint(s2At(src, params.child));
if (p == null) return -1L;
return (long) (-2 - s2Ordinal(p[0], p[1]));`;

/** The weight script: the field's first doc value when it is a number >= 0, else 0. params: weight. */
export const WEIGHT_SCRIPT = `def f = params.weight;
if (!doc.containsKey(f) || doc[f].size() == 0) return 0.0;
double v = doc[f].value;
return v >= 0 ? v : 0.0;`;

/** The unweighed script (a script query): true when the weight has no number >= 0. params: weight. */
export const UNWEIGHED_SCRIPT = `def f = params.weight;
if (!doc.containsKey(f) || doc[f].size() == 0) return true;
double v = doc[f].value;
return !(v >= 0);`;

/** Options of readIndexCellsInCluster. */
export interface ClusterCellsOptions {
  /** Cells per composite page, in [100, 10000] (default 10000). */
  pageSize?: number;
  /** Bands computed at once, >= 1 (default 2). */
  concurrency?: number;
  /** Latitude bands to start with (default: two per pageSize documents, in [4, 1024]: measured best of 1, 2, 4 and 8 per page, docs/engine-paths.md). */
  bands?: number;
  progress?: (p: CellsProgress) => void;
}

/** What the cluster path adds to a CellsRead: how it cut the index. */
export interface ClusterCellsRead extends CellsRead {
  /** Requests (composite pages) the cluster ran, and bands split because a first page was full. */
  requests: number;
  splits: number;
}

interface Bucket {
  key: { c: number };
  doc_count: number;
  w?: { value: number };
}

/**
 * readIndexCellsInCluster counts every document of the index described by
 * `config` in its level-10 cell, computed by the cluster (see the top of
 * this file): the same counts, weights and `unlocated`/`unweighed` as
 * readIndexCells. Throws CellsReadError for a missing index or a field that
 * is not a geo_point (checkGeoFields), OpenSearchError when a request fails.
 */
export async function readIndexCellsInCluster(client: OpenSearchClient, config: IndexConfig, opts: ClusterCellsOptions = {}): Promise<ClusterCellsRead> {
  const pageSize = opts.pageSize ?? 10_000;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  if (!Number.isInteger(pageSize) || pageSize < 100 || pageSize > 10_000) throw new RangeError(`readIndexCellsInCluster: pageSize ${pageSize} is invalid: expected an integer in [100, 10000]`);
  const targets = await checkGeoFields(client, config);
  const path = `/${encodeURIComponent(config.index)}`;
  const weightField = config.weight === 'docs' ? null : config.weight.field;
  const child = config.join ? config.join.childLocation : null;
  const counter = new CellCounter(weightField ? [weightColumn(config)] : []);
  const t0 = performance.now();
  const total = (await client.request<{ count: number }>('GET', `${path}/_count`)).body.count;
  const slices = targets.reduce((a, t) => a + t.shards, 0);
  const located = { bool: { should: [config.location, ...(child ? [child] : [])].map((field) => ({ exists: { field } })), minimum_should_match: 1 } };
  const countOf = async (query: unknown) => (await client.request<{ count: number }>('POST', `${path}/_count`, { body: { query }, timeoutMs: 600_000 })).body.count;
  let unlocated = await countOf({ bool: { must_not: located.bool.should } });
  const unweighed = weightField ? await countOf({ bool: { filter: [located, { script: { script: { source: UNWEIGHED_SCRIPT, params: { weight: weightField } } } }] } }) : 0;

  let done = unlocated;
  let exactReads = 0;
  let requests = 0;
  let splits = 0;
  let firstUnlocated: string | null = null;
  const report = () => {
    const elapsedMs = performance.now() - t0;
    opts.progress?.({ done, total, slicesDone: done >= total ? slices : 0, slices, elapsedMs, docsPerSecond: elapsedMs > 0 ? (done * 1000) / elapsedMs : 0 });
  };
  const bandQuery = (lo: number, hi: number) => {
    const box = { top_left: { lat: Math.min(90, hi + 1e-5), lon: -180 }, bottom_right: { lat: Math.max(-90, lo - 1e-5), lon: 180 } };
    return { bool: { should: [config.location, ...(child ? [child] : [])].map((field) => ({ geo_bounding_box: { [field]: box } })), minimum_should_match: 1 } };
  };
  const page = async (lo: number, hi: number, after: { c: number } | undefined) => {
    requests++;
    const { body } = await client.request<{ aggregations?: { cells?: { buckets: Bucket[]; after_key?: { c: number } } } }>('POST', `${path}/_search`, {
      query: { filter_path: 'aggregations.cells.buckets,aggregations.cells.after_key' },
      body: {
        size: 0,
        track_total_hits: false,
        query: bandQuery(lo, hi),
        aggs: {
          cells: {
            composite: {
              size: pageSize,
              sources: [{ c: { terms: { script: { lang: 'painless', source: CELL_KEY_SCRIPT, params: { location: config.location, child, lo, hi } }, value_type: 'long' } } }],
              ...(after ? { after } : {}),
            },
            ...(weightField ? { aggs: { w: { sum: { script: { lang: 'painless', source: WEIGHT_SCRIPT, params: { weight: weightField } } } } } } : {}),
          },
        },
      },
      timeoutMs: 600_000,
    });
    const cells = body.aggregations?.cells;
    return { buckets: cells?.buckets ?? [], afterKey: cells?.after_key };
  };
  const add = (buckets: Bucket[]) => {
    for (const b of buckets) {
      const key = b.key.c;
      done += b.doc_count;
      if (key === -1) {
        unlocated += b.doc_count;
        exactReads += b.doc_count;
        continue;
      }
      const ordinal = key >= 0 ? key : -2 - key;
      if (key < 0) exactReads += b.doc_count;
      counter.addCounts(ordinal, b.doc_count, weightField ? [b.w?.value ?? 0] : []);
    }
  };
  const band = async (lo: number, hi: number, queue: [number, number][]) => {
    let after: { c: number } | undefined;
    for (;;) {
      const r = await page(lo, hi, after);
      const height = Math.min(hi, 90) - Math.max(lo, -90);
      if (!after && r.buckets.length >= pageSize && height > MIN_BAND_DEG) {
        // Its cells do not fit one page: two halves cost one more pass over the band, paging would cost one per page.
        const mid = Math.max(lo, -90) + height / 2;
        queue.push([lo, mid], [mid, hi]);
        splits++;
        return;
      }
      add(r.buckets);
      report();
      if (r.buckets.length < pageSize || !r.afterKey) return;
      after = r.afterKey;
    }
  };
  const n = opts.bands ?? Math.min(1024, Math.max(4, Math.ceil((2 * total) / pageSize)));
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`readIndexCellsInCluster: bands ${n} is invalid: expected an integer >= 1`);
  // Edges on either end lie outside [-90, 90], so every latitude is in one band.
  const queue: [number, number][] = Array.from({ length: n }, (_, k) => [k === 0 ? -1000 : -90 + (180 * k) / n, k === n - 1 ? 1000 : -90 + (180 * (k + 1)) / n]);
  let active = 0;
  await new Promise<void>((resolve, reject) => {
    let failed = false;
    const pump = () => {
      if (failed) return;
      if (queue.length === 0 && active === 0) return resolve();
      while (active < concurrency && queue.length > 0) {
        const [lo, hi] = queue.shift()!;
        active++;
        band(lo, hi, queue).then(
          () => {
            active--;
            pump();
          },
          (e) => {
            failed = true;
            reject(e);
          },
        );
      }
    };
    pump();
  });
  if (unlocated > 0) firstUnlocated = await firstUnlocatedId(client, config);
  report();
  return { counter, indices: targets.map((t) => t.index), slices, unlocated, firstUnlocated, exactReads, unweighed, elapsedMs: performance.now() - t0, requests, splits };
}

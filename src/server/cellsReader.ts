/**
 * The density of a live index: every document's location read from
 * `_source` and counted once, in its level-10 cell (the core's CellCounter),
 * for `geoshard cells --from-index`.
 *
 * The index is read in point-in-time slices, one per shard: a point-in-time
 * opened with preference=_shards:N on each shard of each concrete index the
 * name resolves to, paged with search_after on `_doc` (unique within one
 * shard; OpenSearch 2.19 has no `_shard_doc` to page a many-shard
 * point-in-time by, and its `slice` over a point-in-time splits by shard
 * anyway). C slices are read at a time.
 *
 * A document's point is its config's location field; with a join, a
 * document without one is located by the join's childLocation (a child's
 * copy of its parent's location). The point is read as OpenSearch accepts a
 * geo_point ({lat, lon}, "lat,lon", [lon, lat], a GeoJSON Point).
 */
import { CellCounter } from '../core/index.ts';
import { pointOf } from '../opensearch/documents.ts';
import { weightColumn, type IndexConfig } from '../opensearch/indexConfig.ts';
import { OpenSearchError, type OpenSearchClient } from './opensearch.ts';

/** A problem with the index or its mapping (a missing index, a field that is not a geo_point): the message says which. */
export class CellsReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CellsReadError';
  }
}

/** Progress of a read. */
export interface CellsProgress {
  /** Documents read so far, and in all (the index's count when the read began). */
  done: number;
  total: number;
  slicesDone: number;
  slices: number;
  elapsedMs: number;
  docsPerSecond: number;
}

/** Options of readIndexCells. */
export interface ReadCellsOptions {
  /** Documents per page, in [1, 10000] (default 10000). */
  pageSize?: number;
  /** Slices read at once, >= 1 (default 2). */
  concurrency?: number;
  /** Point-in-time keep-alive between pages (default "2m"). */
  keepAlive?: string;
  progress?: (p: CellsProgress) => void;
}

/** What readIndexCells found. */
export interface CellsRead {
  counter: CellCounter;
  /** The concrete indices read, and their shards in all. */
  indices: string[];
  slices: number;
  /** Documents with no valid point in the location field (nor childLocation): not in the cells file. */
  unlocated: number;
  /** The _id of the first such document, for the message. */
  firstUnlocated: string | null;
  /** Documents whose weight field is missing or not a number >= 0: weighed 0. */
  unweighed: number;
  elapsedMs: number;
}

interface Hit {
  _id?: string;
  _source?: Record<string, unknown>;
  sort?: unknown[];
}

/** The value at a dotted path of a document's _source (an object path, or a key holding the dots). */
function at(source: Record<string, unknown> | undefined, path: string): unknown {
  if (!source) return undefined;
  if (path in source) return source[path];
  let v: unknown = source;
  for (const part of path.split('.')) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/**
 * checkGeoFields resolves `config.index` to its concrete indices and checks
 * that the location field (and the join's childLocation, when the mapping
 * has it) is a geo_point in each, and the weight field a number. Returns the
 * concrete indices with their primary shard counts. Throws CellsReadError
 * naming the index or field, and what was found.
 */
export async function checkGeoFields(client: OpenSearchClient, config: IndexConfig): Promise<{ index: string; shards: number }[]> {
  const index = config.index;
  const fields = [config.location, ...(config.join ? [config.join.childLocation] : []), ...(config.weight === 'docs' ? [] : [config.weight.field])];
  let mapping: Record<string, { mappings?: Record<string, { mapping?: Record<string, { type?: string }> }> }>;
  try {
    mapping = (await client.request<typeof mapping>('GET', `/${encodeURIComponent(index)}/_mapping/field/${fields.map(encodeURIComponent).join(',')}`)).body;
  } catch (e) {
    if (e instanceof OpenSearchError && e.status === 404) throw new CellsReadError(`index "${index}" does not exist on ${client.url} (no index or alias of that name): check --index or the config's "index"`);
    throw e;
  }
  const names = Object.keys(mapping).sort();
  if (names.length === 0) throw new CellsReadError(`index "${index}" matches no index on ${client.url}: check --index or the config's "index"`);
  const typeIn = (name: string, field: string): string | undefined => {
    const m = mapping[name]?.mappings?.[field]?.mapping;
    return m ? Object.values(m)[0]?.type : undefined;
  };
  for (const name of names) {
    const t = typeIn(name, config.location);
    const child = config.join ? typeIn(name, config.join.childLocation) : undefined;
    if (t === undefined && child === undefined) {
      throw new CellsReadError(`field "${config.location}" is not in the mapping of index "${name}": name its geo_point field with --field or the config's "location"`);
    }
    if (t !== undefined && t !== 'geo_point') throw new CellsReadError(`field "${config.location}" of index "${name}" is a ${t}, not a geo_point: name a geo_point field with --field or the config's "location"`);
    if (child !== undefined && child !== 'geo_point') throw new CellsReadError(`field "${config.join!.childLocation}" (join.childLocation) of index "${name}" is a ${child}, not a geo_point`);
    if (config.weight !== 'docs') {
      const w = typeIn(name, config.weight.field);
      const numeric = ['long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'scaled_float', 'unsigned_long'];
      if (w !== undefined && !numeric.includes(w)) throw new CellsReadError(`field "${config.weight.field}" (weight.field) of index "${name}" is a ${w}, not a number`);
    }
  }
  const settings = (await client.request<Record<string, { settings?: { index?: { number_of_shards?: string } } }>>('GET', `/${encodeURIComponent(index)}/_settings/index.number_of_shards`)).body;
  return names.map((name) => ({ index: name, shards: Number(settings[name]?.settings?.index?.number_of_shards ?? 1) }));
}

/**
 * readIndexCells reads every document of the index described by `config`
 * and counts it in its level-10 cell (see the top of this file). The weight
 * column (config.weight) sums a numeric field; a document without a valid
 * number there weighs 0 and is counted in `unweighed`.
 */
export async function readIndexCells(client: OpenSearchClient, config: IndexConfig, opts: ReadCellsOptions = {}): Promise<CellsRead> {
  const pageSize = opts.pageSize ?? 10_000;
  const concurrency = Math.max(1, opts.concurrency ?? 2);
  const keepAlive = opts.keepAlive ?? '2m';
  const targets = await checkGeoFields(client, config);
  const weightField = config.weight === 'docs' ? null : config.weight.field;
  const counter = new CellCounter(weightField ? [weightColumn(config)] : []);
  const includes = [config.location, ...(config.join ? [config.join.childLocation] : []), ...(weightField ? [weightField] : [])];
  const total = (await client.request<{ count: number }>('GET', `/${encodeURIComponent(config.index)}/_count`)).body.count;
  const slices = targets.flatMap((t) => Array.from({ length: t.shards }, (_, shard) => ({ index: t.index, shard })));
  const t0 = performance.now();
  let done = 0;
  let slicesDone = 0;
  let unlocated = 0;
  let unweighed = 0;
  let firstUnlocated: string | null = null;
  const report = () => {
    const elapsedMs = performance.now() - t0;
    opts.progress?.({ done, total, slicesDone, slices: slices.length, elapsedMs, docsPerSecond: elapsedMs > 0 ? (done * 1000) / elapsedMs : 0 });
  };
  const weights: number[] = [];
  const count = (hits: Hit[]) => {
    for (const h of hits) {
      const p = pointOf(at(h._source, config.location)) ?? (config.join ? pointOf(at(h._source, config.join.childLocation)) : null);
      if (!p) {
        unlocated++;
        firstUnlocated ??= h._id ?? null;
        continue;
      }
      if (weightField) {
        const w = at(h._source, weightField);
        const v = typeof w === 'number' ? w : typeof w === 'string' && w.trim() !== '' ? Number(w) : NaN;
        if (Number.isFinite(v) && v >= 0) weights[0] = v;
        else (weights[0] = 0), unweighed++;
      }
      counter.add(p.lat, p.lng, weights);
    }
    done += hits.length;
  };
  const readSlice = async (s: { index: string; shard: number }) => {
    const created = await client.request<{ pit_id: string }>('POST', `/${encodeURIComponent(s.index)}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${s.shard}` } });
    const pit = { id: created.body.pit_id };
    try {
      let after: unknown[] | undefined;
      for (;;) {
        const { body } = await client.request<{ pit_id?: string; hits?: { hits?: Hit[] } }>('POST', '/_search', {
          // The _id only when a document may lack a point (to name the first one); filter_path keeps the answer small.
          query: { filter_path: 'pit_id,hits.hits._id,hits.hits._source,hits.hits.sort' },
          body: {
            size: pageSize,
            query: { match_all: {} },
            pit: { id: pit.id, keep_alive: keepAlive },
            sort: [{ _doc: 'asc' }],
            track_total_hits: false,
            _source: { includes },
            ...(after ? { search_after: after } : {}),
          },
          timeoutMs: 120_000,
        });
        if (body.pit_id) pit.id = body.pit_id;
        const hits = body.hits?.hits ?? [];
        count(hits);
        report();
        if (hits.length < pageSize) break;
        after = hits[hits.length - 1].sort;
      }
    } finally {
      await client.request('DELETE', '/_search/point_in_time', { body: { pit_id: [pit.id] }, okStatuses: [404] }).catch(() => undefined);
    }
    slicesDone++;
    report();
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, slices.length) }, async () => {
      while (next < slices.length) await readSlice(slices[next++]);
    }),
  );
  return { counter, indices: targets.map((t) => t.index), slices: slices.length, unlocated, firstUnlocated, unweighed, elapsedMs: performance.now() - t0 };
}

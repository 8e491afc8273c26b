/**
 * The density of a live index: every document's location counted once, in
 * its level-10 cell (the core's CellCounter), for `geoshard cells --from-index`.
 *
 * Locations are read from doc values (no stored field is loaded: decoding
 * `_source` costs about six times more on the node) and located with the
 * core's quantizedCellAt: a doc value is the point rounded down to Lucene's
 * 32-bit grid (about a centimetre), so when that centimetre box straddles a
 * cell edge the exact point is read again from `_source` (a handful of
 * documents per million). The counts equal those of a read of `_source`.
 * A weight field is read from its doc values (a float field's values as
 * indexed, in float precision), for the documents located from `_source`
 * too: the cluster path (cellsEngine.ts) reads it so, and the two agree.
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
import { CellCounter, cellAt, cellOrdinal } from '../../core/index.ts';
import { quantizedCellAt } from '../../core/audit.ts';
import { weightColumn, type IndexConfig } from '../../opensearch/indexConfig.ts';
import { type OpenSearchClient } from '../../cluster/client.ts';
import { fieldAt, pointOf } from '../../opensearch/documentFields.ts';
import { OpenSearchError } from '../../cluster/clientErrors.ts';

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
  /** Documents whose doc value straddled a cell edge, located from `_source` instead. */
  exactReads: number;
  /** The _id of the first such document, for the message. */
  firstUnlocated: string | null;
  /** Documents whose weight field is missing or not a number >= 0: weighed 0. */
  unweighed: number;
  elapsedMs: number;
}

interface Hit {
  _id?: string;
  _source?: Record<string, unknown>;
  fields?: Record<string, unknown[]>;
  sort?: unknown[];
}

/** A geo_point doc value as the node returns it ("lat, lon"), or null. */
function docPoint(v: unknown): { lat: number; lng: number } | null {
  if (typeof v !== 'string') return null;
  const i = v.indexOf(',');
  const lat = Number(v.slice(0, i));
  const lng = Number(v.slice(i + 1));
  return i > 0 && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null;
}

/** The first point of a _source value: a geo_point, or an array of them (a multi-valued field). */
function sourcePoint(v: unknown): { lat: number; lng: number } | null {
  const p = pointOf(v);
  if (p || !Array.isArray(v) || v.length === 0 || typeof v[0] === 'number') return p;
  return pointOf(v[0]);
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
  const includes = [config.location, ...(config.join ? [config.join.childLocation] : [])];
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
  let exactReads = 0;
  const weighOf = (v: unknown) => {
    if (!weightField) return;
    const w = Array.isArray(v) ? v[0] : v;
    const n = typeof w === 'number' ? w : typeof w === 'string' && w.trim() !== '' ? Number(w) : NaN;
    if (Number.isFinite(n) && n >= 0) weights[0] = n;
    else (weights[0] = 0), unweighed++;
  };
  const docvalues = [config.location, ...(config.join ? [config.join.childLocation] : []), ...(weightField ? [weightField] : [])];
  let lastValue: unknown;
  let lastOrdinal = -1;
  /** The ordinal of a hit's cell from its doc values; -1 when it has no point there, -2 when the exact point must come from _source. */
  const cellOfHit = (h: Hit): number => {
    const f = h.fields;
    const vs = f?.[config.location] ?? (config.join ? f?.[config.join.childLocation] : undefined);
    if (!vs || vs.length === 0) return -1;
    // A multi-valued field: its first point in _source order is the one counted, which doc values (sorted) do not say.
    if (vs.length > 1) return -2;
    // Children follow their parent in doc order with the same point: locate each point once.
    if (vs[0] === lastValue) return lastOrdinal;
    const p = docPoint(vs[0]);
    const cell = p ? quantizedCellAt(p.lat, p.lng) : null;
    lastValue = vs[0];
    lastOrdinal = cell === null ? -2 : cellOrdinal(cell);
    return lastOrdinal;
  };
  const readSlice = async (s: { index: string; shard: number }) => {
    const created = await client.request<{ pit_id: string }>('POST', `/${encodeURIComponent(s.index)}/_search/point_in_time`, { query: { keep_alive: keepAlive, preference: `_shards:${s.shard}` } });
    const pit = { id: created.body.pit_id };
    const page = async (size: number, after: unknown[] | undefined, source: boolean) => {
      const { body } = await client.request<{ pit_id?: string; hits?: { hits?: Hit[] } }>('POST', '/_search', {
        query: { filter_path: source ? 'pit_id,hits.hits._id,hits.hits._source,hits.hits.fields,hits.hits.sort' : 'pit_id,hits.hits.fields,hits.hits.sort' },
        body: {
          size,
          query: { match_all: {} },
          pit: { id: pit.id, keep_alive: keepAlive },
          sort: [{ _doc: 'asc' }],
          track_total_hits: false,
          ...(source ? { _source: { includes }, ...(weightField ? { docvalue_fields: [weightField] } : {}) } : { _source: false, stored_fields: '_none_', docvalue_fields: docvalues }),
          ...(after ? { search_after: after } : {}),
        },
        timeoutMs: 120_000,
      });
      if (body.pit_id) pit.id = body.pit_id;
      return body.hits?.hits ?? [];
    };
    /** Reads the documents with _doc in [first, first + n) of this shard from _source and counts them exactly. */
    const exact = async (first: number, n: number) => {
      const hits = await page(n, first > 0 ? [first - 1] : undefined, true);
      for (const h of hits) {
        const src = h._source;
        const p = sourcePoint(fieldAt(src, config.location)) ?? (config.join ? sourcePoint(fieldAt(src, config.join.childLocation)) : null);
        if (!p) {
          unlocated++;
          firstUnlocated ??= h._id ?? null;
          continue;
        }
        if (weightField) weighOf(h.fields?.[weightField]);
        counter.addToCell(cellOrdinal(cellAt(p.lat, p.lng)), weights);
      }
      exactReads += hits.length;
    };
    try {
      let after: unknown[] | undefined;
      for (;;) {
        const hits = await page(pageSize, after, false);
        // Runs of consecutive documents (a restaurant and its dishes) that straddle an edge are read back together.
        let runStart = -1;
        let runLength = 0;
        for (const h of hits) {
          const ordinal = cellOfHit(h);
          if (ordinal === -2) {
            const doc = Number(h.sort?.[0]);
            if (runLength > 0 && doc === runStart + runLength) runLength++;
            else {
              if (runLength > 0) await exact(runStart, runLength);
              runStart = doc;
              runLength = 1;
            }
            continue;
          }
          if (ordinal === -1) {
            unlocated++;
            continue;
          }
          if (weightField) weighOf(h.fields?.[weightField]);
          counter.addToCell(ordinal, weights);
        }
        if (runLength > 0) await exact(runStart, runLength);
        done += hits.length;
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
  if (unlocated > 0 && firstUnlocated === null) firstUnlocated = await firstUnlocatedId(client, config);
  return { counter, indices: targets.map((t) => t.index), slices: slices.length, unlocated, firstUnlocated, exactReads, unweighed, elapsedMs: performance.now() - t0 };
}

/** firstUnlocatedId names one document of the index with no point in the location field (nor childLocation), for a message; null when there is none. */
export async function firstUnlocatedId(client: OpenSearchClient, config: IndexConfig): Promise<string | null> {
  // Doc values carry no _id: ask the node for one.
  const missing = [config.location, ...(config.join ? [config.join.childLocation] : [])].map((field) => ({ exists: { field } }));
  const { body } = await client.request<{ hits?: { hits?: Hit[] } }>('POST', `/${encodeURIComponent(config.index)}/_search`, {
    query: { filter_path: 'hits.hits._id' },
    body: { size: 1, query: { bool: { must_not: missing } }, _source: false, track_total_hits: false },
  });
  return body.hits?.hits?.[0]?._id ?? null;
}

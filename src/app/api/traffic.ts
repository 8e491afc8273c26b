/**
 * The live API's recorded traffic, GET /api/traffic (src/server/api/traffic.ts; the wire's
 * TrafficAnswer): per key range and per time bucket, the searches, writes and query time the
 * cluster served, with the ranges that stayed hot. Read defensively: a field the key visualizer
 * needs that is missing or of the wrong type is a bad-response failure naming it, never a
 * picture drawn from half an answer.
 *
 *   GET /api/traffic?window=15m[&to=ISO][&metric=searches][&buckets=N]
 */
import { trafficQueryString, type TrafficAnswer, type TrafficQuery, type TrafficBucket, type TrafficRange, type TrafficHotspot } from '../../server/wire';
import { TRAFFIC_METRICS } from '../../core/traffic';
import { asked, badResponse, shaped, type Parsed } from './request';
import { readSearch } from './search';
import { isObj, need, num, str, strOrNull, strs, ShapeError } from './read';

const finite = (v: unknown, what: string): number => {
  const x = num(v);
  if (!Number.isFinite(x)) throw new ShapeError(`${what} is not a number`);
  return x;
};
const list = (v: unknown, what: string): unknown[] => {
  if (!Array.isArray(v)) throw new ShapeError(`the answer has no list ${what}`);
  return v;
};

function readRange(v: unknown, i: number): TrafficRange {
  if (!isObj(v)) throw new ShapeError(`window.ranges[${i}] is not an object`);
  return { index: finite(v.index, `window.ranges[${i}].index`), shard: finite(v.shard, `window.ranges[${i}].shard`), name: need(strOrNull(v.name), `window.ranges[${i}].name`), start: need(strOrNull(v.start), `window.ranges[${i}].start`), end: strOrNull(v.end) };
}

function readBucket(v: unknown, i: number, n: number): TrafficBucket {
  if (!isObj(v)) throw new ShapeError(`window.buckets[${i}] is not an object`);
  const ranges = list(v.ranges, `window.buckets[${i}].ranges`);
  if (ranges.length !== n) throw new ShapeError(`window.buckets[${i}] has ${ranges.length} ranges, not the window's ${n}`);
  return {
    start: need(strOrNull(v.start), `window.buckets[${i}].start`),
    end: need(strOrNull(v.end), `window.buckets[${i}].end`),
    seconds: finite(v.seconds, `window.buckets[${i}].seconds`),
    resets: num(v.resets, 0),
    ranges: ranges.map((r, k) => {
      const at = `window.buckets[${i}].ranges[${k}]`;
      if (!isObj(r)) throw new ShapeError(`${at} is not an object`);
      return {
        searches: finite(r.searches, `${at}.searches`),
        searchMs: finite(r.searchMs, `${at}.searchMs`),
        writes: finite(r.writes, `${at}.writes`),
        searchesPerSecond: finite(r.searchesPerSecond, `${at}.searchesPerSecond`),
        searchMsPerSecond: finite(r.searchMsPerSecond, `${at}.searchMsPerSecond`),
        writesPerSecond: finite(r.writesPerSecond, `${at}.writesPerSecond`),
      };
    }),
    ...(Array.isArray(v.cells) ? { cells: v.cells.filter(isObj).map((c) => ({ cell: str(c.cell), searches: num(c.searches, 0), writes: num(c.writes, 0) })) } : {}),
    ...(isObj(v.cellsError) ? { cellsError: { searches: num(v.cellsError.searches, 0), writes: num(v.cellsError.writes, 0) } } : {}),
  };
}

function readHotspot(v: unknown, i: number): TrafficHotspot {
  if (!isObj(v)) throw new ShapeError(`hotspots[${i}] is not an object`);
  const metric = TRAFFIC_METRICS.find((m) => m === v.metric) ?? 'searches';
  return {
    ...readRange(v, i),
    metric,
    from: need(strOrNull(v.from), `hotspots[${i}].from`),
    to: need(strOrNull(v.to), `hotspots[${i}].to`),
    seconds: finite(v.seconds, `hotspots[${i}].seconds`),
    buckets: finite(v.buckets, `hotspots[${i}].buckets`),
    count: finite(v.count, `hotspots[${i}].count`),
    perSecond: finite(v.perSecond, `hotspots[${i}].perSecond`),
    overMean: finite(v.overMean, `hotspots[${i}].overMean`),
    peakOverMean: finite(v.peakOverMean, `hotspots[${i}].peakOverMean`),
    share: finite(v.share, `hotspots[${i}].share`),
  };
}

/** readTraffic reads an /api/traffic answer (HTTP status and parsed JSON body, undefined when not JSON). */
export function readTraffic(httpStatus: number, body: unknown): Parsed<TrafficAnswer> {
  if (!isObj(body) || body.status !== 'complete' || httpStatus !== 200) {
    const r = readSearch(httpStatus, body);
    return r.ok ? badResponse(httpStatus, 'The live API answered the traffic request with a search: this is not an answer the explorer understands.') : r;
  }
  return shaped<TrafficAnswer>(httpStatus, 'traffic answer', () => {
    const w = need(isObj(body.window) ? body.window : null, 'window');
    const ranges = list(w.ranges, 'window.ranges').map(readRange);
    const b = need(isObj(body.boundary) ? body.boundary : null, 'boundary');
    const q = isObj(body.query) ? body.query : {};
    const rec = isObj(body.recorder) ? body.recorder : null;
    return {
      ok: true,
      value: {
        status: 'complete',
        index: str(body.index),
        boundary: { hash: str(b.hash), version: num(b.version, 0), numberOfShards: finite(b.numberOfShards, 'boundary.numberOfShards') },
        query: { window: str(q.window), to: str(q.to), factor: num(q.factor, 2), sustain: str(q.sustain), metric: TRAFFIC_METRICS.find((m) => m === q.metric) ?? 'searches', buckets: num(q.buckets, 0) },
        recorder: rec && {
          running: rec.running === true,
          intervalSeconds: num(rec.intervalSeconds, 0),
          historyIndex: str(rec.historyIndex),
          retentionDays: num(rec.retentionDays, 0),
          recorded: num(rec.recorded, 0),
          lastAt: strOrNull(rec.lastAt),
          last: (['recorded', 'exists', 'skipped', 'failed'] as const).find((x) => x === rec.last) ?? null,
          problem: strOrNull(rec.problem),
          cells: strOrNull(rec.cells),
        },
        historyIndex: str(body.historyIndex),
        window: {
          index: str(w.index),
          hash: str(w.hash),
          from: need(strOrNull(w.from), 'window.from'),
          to: need(strOrNull(w.to), 'window.to'),
          intervalSeconds: num(w.intervalSeconds, 0),
          sources: strs(w.sources).filter((s): s is 'shards' | 'cells' => s === 'shards' || s === 'cells'),
          ranges,
          buckets: list(w.buckets, 'window.buckets').map((x, i) => readBucket(x, i, ranges.length)),
          gaps: (Array.isArray(w.gaps) ? w.gaps : []).filter(isObj).map((g) => ({ start: str(g.start), end: str(g.end), reason: str(g.reason) })),
          otherHashes: (Array.isArray(w.otherHashes) ? w.otherHashes : []).filter(isObj).map((o) => ({ hash: str(o.hash), buckets: num(o.buckets, 0) })),
        },
        hotspots: list(body.hotspots, 'hotspots').map(readHotspot),
      },
    };
  });
}

/** fetchTraffic asks /api/traffic for a window (the query's defaults left out of the address). */
export function fetchTraffic(query: Partial<TrafficQuery>, signal: AbortSignal, fetchImpl: typeof fetch = fetch, base = '/api/traffic'): Promise<Parsed<TrafficAnswer>> {
  const qs = trafficQueryString(query);
  return asked(qs ? `${base}?${qs}` : base, signal, readTraffic, fetchImpl, 15_000);
}

/**
 * The live API's measurement, POST /api/measure (src/server/api.ts; the wire's MeasureRequest
 * and MeasureAnswer): the body for the live query's circle and filters, and the answer (routed
 * against all shards: latency, throughput, CPU, the gain) read defensively, or a LiveFailure
 * (`busy` while another measurement runs, with the server's Retry-After).
 *
 *   POST /api/measure   JSON { lat, lng, radius, size, diet?, allergen?, cuisine?, runs?, concurrency? }
 */
import type { MeasureAnswer, MeasureRequest, MeasureSide, LoadAverage } from '../../server/wire';
import { asked, badResponse, shaped, type Parsed } from './request';
import { isObj, num, str, strs, numOrNull, need, ShapeError } from './read';
import { liveSearchParams, readSearch, type LiveQuery } from './search';

export { MEASURE_RUNS, MEASURE_CONCURRENCY } from '../../server/wire';
export type { MeasureAnswer, MeasureSide };

/** The client's deadline for a measurement (ms): it runs 4 × runs searches, 30 by default. */
export const MEASURE_TIMEOUT_MS = 180_000;

/**
 * liveMeasureBody returns the POST /api/measure body for the live query (the
 * same circle and filters as its search, at full precision), or null when it
 * has no circle: without one both plans ask every shard and there is nothing
 * to compare.
 */
export function liveMeasureBody(q: LiveQuery, runs?: number, concurrency?: number): MeasureRequest | null {
  if (q.noLocation || !q.centre) return null;
  const p = liveSearchParams(q)!;
  const body: MeasureRequest = { lat: q.centre.lat, lng: q.centre.lng, radius: p.get('radius')!, size: q.size };
  for (const k of ['diet', 'allergen', 'cuisine'] as const) if (q.filters[k].length > 0) body[k] = [...q.filters[k]];
  if (runs !== undefined) body.runs = runs;
  if (concurrency !== undefined) body.concurrency = concurrency;
  return body;
}

const loadOf = (v: unknown): LoadAverage | null => (isObj(v) && typeof v['1m'] === 'number' ? { '1m': num(v['1m']), '5m': num(v['5m']), '15m': num(v['15m']) } : null);
const summaryOf = (v: unknown, what: string) => {
  if (!isObj(v)) throw new ShapeError(`the answer has no ${what}`);
  return { n: num(v.n, 0), p50Ms: need(numOrNull(v.p50Ms), `${what} p50Ms`), p99Ms: need(numOrNull(v.p99Ms), `${what} p99Ms`) };
};
function measureSide(v: unknown, what: string): MeasureSide {
  if (!isObj(v)) throw new ShapeError(`the answer has no ${what} side`);
  return {
    shardsAsked: num(v.shardsAsked, 0),
    latency: summaryOf(v.latency, `${what} latency`),
    tookP50Ms: num(v.tookP50Ms),
    cpuMsPerSearch: numOrNull(v.cpuMsPerSearch),
    searchesPerS: need(numOrNull(v.searchesPerS), `${what} searchesPerS`),
    underLoad: summaryOf(v.underLoad, `${what} underLoad`),
  };
}

/**
 * readMeasure reads a POST /api/measure answer as readSearch reads a search:
 * every failure status becomes a LiveFailure with the server's message (a 429
 * while another measurement runs is `busy`); a 200 becomes a MeasureAnswer,
 * partial when the server says so.
 */
/** gainOf reads a plan's gains over every shard (null where the server gives none). */
function gainOf(g: Record<string, unknown>): MeasureAnswer['gain'] {
  return { p50: numOrNull(g.p50), p99: numOrNull(g.p99), cpu: numOrNull(g.cpu), throughput: numOrNull(g.throughput) };
}

export function readMeasure(httpStatus: number, body: unknown, retryAfter?: string): Parsed<MeasureAnswer> {
  if (isObj(body) && body.status === 'busy') {
    const message = str(isObj(body.error) ? body.error.message : undefined) || 'Another measurement is running: try again when it is done.';
    return { ok: false, failure: { kind: 'busy', httpStatus, message, ...(retryAfter && Number(retryAfter) > 0 ? { retryAfterS: Number(retryAfter) } : {}) } };
  }
  if (!isObj(body) || (body.status !== 'complete' && body.status !== 'partial') || httpStatus !== 200) {
    const r = readSearch(httpStatus, body);
    return r.ok ? badResponse(httpStatus, 'The live API answered the measurement with a search: this is not an answer the explorer understands.') : r;
  }
  const status: 'complete' | 'partial' = body.status;
  return shaped<MeasureAnswer>(httpStatus, 'measurement', () => {
    const b = isObj(body.boundary) ? body.boundary : {};
    const g = isObj(body.gain) ? body.gain : {};
    const w = isObj(body.warmup) ? body.warmup : {};
    const l = isObj(body.load) ? body.load : {};
    const q = isObj(body.query) ? body.query : {};
    return {
      ok: true,
      value: {
        status,
        index: str(body.index),
        boundary: { hash: str(b.hash), version: num(b.version), numberOfShards: num(b.numberOfShards) },
        query: q as unknown as MeasureAnswer['query'],
        runs: num(body.runs, 0),
        concurrency: num(body.concurrency, 0),
        warmup: { runs: num(w.runs, 0), note: need(typeof w.note === 'string' ? w.note : null, 'warm-up note') },
        routing: str(body.routing),
        routed: measureSide(body.routed, 'routed'),
        all: measureSide(body.all, 'all-shards'),
        gain: gainOf(g),
        // The third way, where the index's search pipeline routes (the geoshard plugin).
        ...(isObj(body.cluster) ? { cluster: { side: measureSide(body.cluster.side, 'routed by the cluster'), gain: gainOf(isObj(body.cluster.gain) ? body.cluster.gain : {}) } } : {}),
        identical: body.identical === true,
        differences: strs(body.differences),
        partialRuns: num(body.partialRuns, 0),
        load: { before: loadOf(l.before), after: loadOf(l.after), nodes: num(l.nodes, 0), processors: numOrNull(l.processors) },
        method: str(body.method),
        ms: num(body.ms),
        at: str(body.at),
      },
    };
  });
}


/** fetchMeasure asks for one measurement; resolves to its answer or a failure (rejects only when aborted). */
export function fetchMeasure(body: MeasureRequest, signal: AbortSignal, fetchImpl: typeof fetch = fetch, url = '/api/measure'): Promise<Parsed<MeasureAnswer>> {
  return asked(url, signal, readMeasure, fetchImpl, MEASURE_TIMEOUT_MS, { method: 'POST', json: body });
}

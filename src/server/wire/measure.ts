/**
 * The wire contract of POST /api/measure (src/server/api/measure.ts answers it; the Live panel's
 * Measure action and `geoshard bench` ask it): the body, its check (the search fields through
 * parseSearchParams, so refused with the same words as /api/search), and the answer, each
 * plan's times, throughput and CPU with the gains.
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 */
import { ParamError, show, decimalString, FILTER_KINDS, VOCABULARY } from './common.ts';
import { parseSearchParams, type QueryEcho, type SearchParams } from './search.ts';

/** Searches per plan a measurement runs one at a time (the warm-up included), and again with several in flight: [min, max] and the default. */
export const MEASURE_RUNS = { min: 4, max: 200, default: 30 } as const;
/** Searches in flight in a measurement's throughput phase: [min, max] and the default. */
export const MEASURE_CONCURRENCY = { min: 1, max: 16, default: 4 } as const;
/** The keys a measure body accepts; any other key is a 400. */
export const MEASURE_FIELDS = ['lat', 'lng', 'radius', 'diet', 'allergen', 'cuisine', 'q', 'size', 'runs', 'concurrency'] as const;

/**
 * The body of POST /api/measure: the search (as /api/search takes it: lat and
 * lng in degrees, radius "15mi" / "25km" or a number of miles, the filters as
 * arrays or comma-separated strings, size) and how to measure it. A location is
 * required: without a circle both plans ask every shard.
 */
export interface MeasureRequest {
  lat: number | string;
  lng: number | string;
  radius: number | string;
  diet?: string | string[];
  allergen?: string | string[];
  cuisine?: string | string[];
  /** A text query on the index config's name field, as /api/search's `q`. */
  q?: string;
  size?: number | string;
  /** Searches per plan, integer in [MEASURE_RUNS.min, MEASURE_RUNS.max] (default 30). */
  runs?: number;
  /** Searches in flight in the throughput phase, integer in [1, 16] (default 4). */
  concurrency?: number;
}

/** A validated measure request. */
export interface MeasureParams {
  /** The search (compare and profile off: a profiled search costs more than the one measured). */
  search: SearchParams;
  runs: number;
  concurrency: number;
}

/** showValue writes a JSON value for a message: strings quoted (and cut), anything else as JSON. */
const showValue = (v: unknown): string => (typeof v === 'string' ? show(v) : (JSON.stringify(v) ?? String(v)));

/** An integer field of the measure body in [min, max], or its default when absent; ParamError naming it otherwise. */
function measureInt(v: unknown, name: 'runs' | 'concurrency', r: { min: number; max: number; default: number }): number {
  if (v === undefined) return r.default;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < r.min || v > r.max) {
    throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected an integer in [${r.min}, ${r.max}] (default ${r.default})`);
  }
  return v;
}

/**
 * parseMeasureRequest validates a POST /api/measure body (parsed JSON). The
 * search fields go through parseSearchParams, so they are refused with the
 * same words as /api/search (lat in [-90, 90], lng in [-180, 180], radius from
 * MIN_RADIUS_KM to MAX_RADIUS_KM, known filter values, size in [0, MAX_SIZE]).
 * Throws ParamError naming the first field at fault, its value and what is
 * valid: a body that is not an object (param "body"), an unknown field, a
 * missing location, runs or concurrency out of range or not integers.
 */
export function parseMeasureRequest(body: unknown): MeasureParams {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ParamError('body', `the body is ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}: send one JSON object such as {"lat":37.7749,"lng":-122.4194,"radius":"15mi","runs":30,"concurrency":4}`);
  }
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) {
    if (!(MEASURE_FIELDS as readonly string[]).includes(key)) throw new ParamError(key, `${show(key)} is not a measure field: expected only ${MEASURE_FIELDS.join(', ')}`);
  }
  const q = new URLSearchParams();
  for (const name of ['lat', 'lng', 'radius', 'size', 'q'] as const) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    if (typeof v === 'number' && Number.isFinite(v) && name !== 'q') q.set(name, decimalString(v));
    else if (typeof v === 'string') q.set(name, v);
    else throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected ${name === 'radius' ? 'a number of miles or a string such as "15mi" or "25km"' : name === 'q' ? 'a string' : 'a number'}`);
  }
  for (const name of FILTER_KINDS) {
    const v = b[name];
    if (v === undefined || v === null) continue;
    const values = typeof v === 'string' ? [v] : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
    if (values === null) throw new ParamError(name, `${name} ${showValue(v)} is invalid: expected a string or an array of strings, from ${VOCABULARY[name].join(', ')}`);
    for (const x of values) q.append(name, x);
  }
  if (q.get('lat') === null || q.get('lng') === null) {
    const missing = q.get('lat') === null ? 'lat' : 'lng';
    throw new ParamError(missing, `${missing} is missing: a measurement compares the routed plan with all shards, which needs a location (lat and lng in degrees) and a radius`);
  }
  const search = parseSearchParams(q);
  return { search, runs: measureInt(b.runs, 'runs', MEASURE_RUNS), concurrency: measureInt(b.concurrency, 'concurrency', MEASURE_CONCURRENCY) };
}

/** The machine's load as the OpenSearch nodes report it (`_nodes/stats/os`, os.cpu.load_average; the highest over the nodes). */
export interface LoadAverage {
  '1m': number;
  '5m': number;
  '15m': number;
}

/** One plan's figures in a measurement. ms throughout. */
export interface MeasureSide {
  /** Shards the plan asks (routed by the cluster: the mean over its kept runs, from the search pipeline's reports). */
  shardsAsked: number;
  /** Wall time as the server sees it, one search at a time, warm-up discarded: n, p50, p99 (nearest rank). */
  latency: { n: number; p50Ms: number; p99Ms: number };
  /** OpenSearch's own `took`, p50 over the same runs. */
  tookP50Ms: number;
  /** OpenSearch CPU time per search in the throughput phase (every node's process, `_nodes/stats/process`); null when the node stats could not be read. */
  cpuMsPerSearch: number | null;
  /** Searches per second completed with `concurrency` in flight. */
  searchesPerS: number;
  /** Wall time of the throughput phase's searches (several in flight). */
  underLoad: { n: number; p50Ms: number; p99Ms: number };
}

/**
 * The 200 answer of POST /api/measure. Every `gain` is above 1 when the routed
 * plan is better: all ÷ routed for the times and CPU per search, routed ÷ all
 * for searches per second (measureStats.ts gain); null when it means nothing.
 */
export interface MeasureAnswer {
  /** complete: every search answered in full; partial: some did not (`partialRuns`), so the figures may flatter the plan that skipped work. */
  status: 'complete' | 'partial';
  index: string;
  boundary: { hash: string; version: number; numberOfShards: number };
  query: QueryEcho;
  /** Searches per plan in each phase, and in flight in the throughput phase. */
  runs: number;
  concurrency: number;
  /** The first runs of each plan, measured one at a time and discarded, and the sentence that says so. */
  warmup: { runs: number; note: string };
  /** The routed plan's routing string. */
  routing: string;
  routed: MeasureSide;
  all: MeasureSide;
  gain: { p50: number | null; p99: number | null; cpu: number | null; throughput: number | null };
  /**
   * The third way, when the index's search pipeline routes (the geoshard plugin): the same search
   * sent with no routing, routed by the cluster, and its gains over every shard. Absent when the
   * index has no routing search pipeline.
   */
  cluster?: { side: MeasureSide; gain: { p50: number | null; p99: number | null; cpu: number | null; throughput: number | null } };
  /** Whether every routed / all-shards pair of the one-at-a-time phase gave the same answer (compareParts); the first differences otherwise. */
  identical: boolean;
  differences: string[];
  /** Searches that were partial (some shard did not answer), both plans and phases. */
  partialRuns: number;
  /** The load before and after (null when the node stats could not be read), the nodes asked, and the processors of the busiest node. */
  load: { before: LoadAverage | null; after: LoadAverage | null; nodes: number; processors: number | null };
  /** How the figures were taken, in one paragraph (shown under the table). */
  method: string;
  /** Wall time of the whole measurement. */
  ms: number;
  /** When the measurement started (ISO 8601). */
  at: string;
}

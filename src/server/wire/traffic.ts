/**
 * The wire contract of GET /api/traffic (src/server/api/traffic.ts answers it): recorded traffic
 * per key range for a window of time, and the ranges that stayed hot in it.
 *
 *   GET /api/traffic?window=15m[&to=ISO][&factor=2][&sustain=5m][&metric=searches][&buckets=720]
 *
 * The window's shape is the core's (src/core/traffic.ts TrafficWindow: the one shape of recorded
 * traffic, per range from the engine's counters and per cell where the geoshard plugin counts;
 * src/core/trafficHotspots.ts TrafficHotspot), re-exported here so the explorer imports one module.
 * No Node imports, no DOM: the browser bundle imports it (through src/server/wire.ts).
 */
import { parseDuration, formatDuration, TRAFFIC_METRICS, MAX_WINDOW_SECONDS, type TrafficMetric, type TrafficWindow, type TrafficRecorderStatus } from '../../core/traffic.ts';
import type { TrafficHotspot } from '../../core/trafficHotspots.ts';
import { ParamError, show } from './common.ts';

export type { TrafficWindow, TrafficBucket, TrafficRange, RangeCounts, CellTraffic, TrafficGap, TrafficSource, TrafficMetric } from '../../core/traffic.ts';
export type { TrafficHotspot } from '../../core/trafficHotspots.ts';

/** Defaults of GET /api/traffic. */
export const TRAFFIC_DEFAULTS = Object.freeze({ windowSeconds: 15 * 60, factor: 2, sustainSeconds: 5 * 60, metric: 'searches' as TrafficMetric, buckets: 720 });

/** The most buckets an answer carries (a longer window is coarsened, core/traffic.ts coarsen). */
export const MAX_TRAFFIC_BUCKETS = 5000;

/** A parsed GET /api/traffic query. */
export interface TrafficQuery {
  /** The window's length, seconds, in (0, MAX_WINDOW_SECONDS]. */
  windowSeconds: number;
  /** The window's end, ms since the epoch; null: now. */
  toMs: number | null;
  /** count / mean range count at which a range is hot, > 0. */
  factor: number;
  /** How long a range must stay hot to be listed, seconds, > 0. */
  sustainSeconds: number;
  metric: TrafficMetric;
  /** At most this many buckets in the answer, in [1, MAX_TRAFFIC_BUCKETS]. */
  buckets: number;
}

/** The recorder of the server that answers, as it reports itself (core/traffic.ts). */
export type { TrafficRecorderStatus };

/** The 200 answer of GET /api/traffic. */
export interface TrafficAnswer {
  status: 'complete';
  index: string;
  boundary: { hash: string; version: number; numberOfShards: number };
  /** The query as understood, durations written back as parseDuration reads them. */
  query: { window: string; to: string; factor: number; sustain: string; metric: TrafficMetric; buckets: number };
  /** This server's recorder, or null when it does not sample (GEOSHARD_TRAFFIC_INTERVAL_S=0): the history may still hold what others recorded. */
  recorder: TrafficRecorderStatus | null;
  /** The history index read. */
  historyIndex: string;
  /** The window, in the server's boundary file's ranges (buckets: none when nothing was recorded). */
  window: TrafficWindow;
  /** The ranges that stayed hot (factor, sustain, metric of the query), by start. */
  hotspots: TrafficHotspot[];
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** parseTrafficQuery reads GET /api/traffic's query string; throws ParamError naming the parameter, its value and what is valid. */
export function parseTrafficQuery(q: URLSearchParams): TrafficQuery {
  const known = new Set(['window', 'to', 'factor', 'sustain', 'metric', 'buckets']);
  for (const k of q.keys()) if (!known.has(k)) throw new ParamError(k, `${k} is not a parameter of /api/traffic: expected ${[...known].join(', ')}`);
  const duration = (name: string, dflt: number) => {
    const v = q.get(name);
    if (v === null) return dflt;
    try {
      return parseDuration(v, name, MAX_WINDOW_SECONDS);
    } catch (e) {
      throw new ParamError(name, (e as Error).message);
    }
  };
  const windowSeconds = duration('window', TRAFFIC_DEFAULTS.windowSeconds);
  const sustainSeconds = duration('sustain', TRAFFIC_DEFAULTS.sustainSeconds);
  const toText = q.get('to');
  let toMs: number | null = null;
  if (toText !== null) {
    toMs = ISO.test(toText) ? Date.parse(toText) : NaN;
    if (!Number.isFinite(toMs)) throw new ParamError('to', `to ${show(toText)} is not a time: expected ISO-8601 with a zone, such as "2026-12-04T18:30:00Z"`);
  }
  const factorText = q.get('factor');
  const factor = factorText === null ? TRAFFIC_DEFAULTS.factor : /^\s*(\d+\.?\d*|\.\d+)\s*$/.test(factorText) ? Number(factorText) : NaN;
  if (!(factor > 0 && Number.isFinite(factor))) throw new ParamError('factor', `factor ${show(factorText ?? '')} is invalid: expected a number greater than 0 (a range's count / the mean range's count)`);
  const metric = (q.get('metric') ?? TRAFFIC_DEFAULTS.metric) as TrafficMetric;
  if (!TRAFFIC_METRICS.includes(metric)) throw new ParamError('metric', `metric ${show(metric)} is invalid: expected ${TRAFFIC_METRICS.join(', ')}`);
  const bucketsText = q.get('buckets');
  const buckets = bucketsText === null ? TRAFFIC_DEFAULTS.buckets : /^\d+$/.test(bucketsText) ? Number(bucketsText) : NaN;
  if (!(buckets >= 1 && buckets <= MAX_TRAFFIC_BUCKETS)) throw new ParamError('buckets', `buckets ${show(bucketsText ?? '')} is invalid: expected an integer in [1, ${MAX_TRAFFIC_BUCKETS}]`);
  return { windowSeconds, toMs, factor, sustainSeconds, metric, buckets };
}

/** trafficQueryString writes a query as parseTrafficQuery reads it (defaults left out). */
export function trafficQueryString(q: Partial<TrafficQuery>): string {
  const p = new URLSearchParams();
  if (q.windowSeconds !== undefined) p.set('window', formatDuration(q.windowSeconds));
  if (q.toMs !== undefined && q.toMs !== null) p.set('to', new Date(q.toMs).toISOString());
  if (q.factor !== undefined && q.factor !== TRAFFIC_DEFAULTS.factor) p.set('factor', String(q.factor));
  if (q.sustainSeconds !== undefined && q.sustainSeconds !== TRAFFIC_DEFAULTS.sustainSeconds) p.set('sustain', formatDuration(q.sustainSeconds));
  if (q.metric !== undefined && q.metric !== TRAFFIC_DEFAULTS.metric) p.set('metric', q.metric);
  if (q.buckets !== undefined && q.buckets !== TRAFFIC_DEFAULTS.buckets) p.set('buckets', String(q.buckets));
  return p.toString();
}

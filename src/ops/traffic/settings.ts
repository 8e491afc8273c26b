/**
 * The traffic recorder's settings, from the environment (src/cluster/env.ts lists each):
 * GEOSHARD_TRAFFIC_INTERVAL_S, GEOSHARD_TRAFFIC_INDEX, GEOSHARD_TRAFFIC_RETENTION_DAYS.
 */
import { env } from '../../cluster/env.ts';
import { DEFAULT_HISTORY_INDEX } from './history.ts';

/** The sampling interval when GEOSHARD_TRAFFIC_INTERVAL_S is unset: one sample a minute. */
export const DEFAULT_INTERVAL_SECONDS = 60;

/** How long samples are kept when GEOSHARD_TRAFFIC_RETENTION_DAYS is unset. */
export const DEFAULT_RETENTION_DAYS = 7;

/** The longest sampling interval, seconds. */
export const MAX_INTERVAL_SECONDS = 3600;

/** The recorder's settings. */
export interface TrafficSettings {
  /** Seconds between samples, in [1, MAX_INTERVAL_SECONDS]; 0: the server does not sample. */
  intervalSeconds: number;
  /** The history index. */
  historyIndex: string;
  /** Days samples are kept, an integer in [1, 365]. */
  retentionDays: number;
}

/** An index name OpenSearch accepts: lowercase, no path or wildcard characters, not starting with _, - or +. */
const INDEX_NAME = /^[a-z0-9][a-z0-9._-]{0,254}$/;

/**
 * trafficSettings reads the settings from `source` (default the process's environment). Throws
 * Error naming the variable, its value and what is valid when one is set to something invalid.
 */
export function trafficSettings(source: NodeJS.ProcessEnv = process.env): TrafficSettings {
  const integer = (name: 'GEOSHARD_TRAFFIC_INTERVAL_S' | 'GEOSHARD_TRAFFIC_RETENTION_DAYS', dflt: number, ok: (n: number) => boolean, what: string) => {
    const v = env(name, source);
    if (v === undefined || v.trim() === '') return dflt;
    const n = Number(v);
    if (!/^\s*\d+\s*$/.test(v) || !ok(n)) throw new Error(`${name} ${JSON.stringify(v)} is invalid: expected ${what}`);
    return n;
  };
  const intervalSeconds = integer('GEOSHARD_TRAFFIC_INTERVAL_S', DEFAULT_INTERVAL_SECONDS, (n) => n <= MAX_INTERVAL_SECONDS, `an integer number of seconds in [1, ${MAX_INTERVAL_SECONDS}], or 0 for no sampling`);
  const retentionDays = integer('GEOSHARD_TRAFFIC_RETENTION_DAYS', DEFAULT_RETENTION_DAYS, (n) => n >= 1 && n <= 365, 'an integer number of days in [1, 365]');
  const historyIndex = env('GEOSHARD_TRAFFIC_INDEX', source)?.trim() || DEFAULT_HISTORY_INDEX;
  if (!INDEX_NAME.test(historyIndex)) throw new Error(`GEOSHARD_TRAFFIC_INDEX ${JSON.stringify(historyIndex)} is invalid: expected an index name (lowercase letters, digits, ".", "_" and "-", not starting with "_", "-" or "+")`);
  return { intervalSeconds, historyIndex, retentionDays };
}

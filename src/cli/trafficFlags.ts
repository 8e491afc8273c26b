/**
 * What the commands that read recorded traffic share (`geoshard traffic`, `workload
 * --from-cluster`, `hotspots --from-cluster`; docs/traffic.md): the window's flags, the
 * connection, and reading the window in a boundary file's ranges with errors that say what to do.
 */
import type { Router } from '../core/index.ts';
import { parseDuration, MAX_WINDOW_SECONDS, type TrafficWindow } from '../core/traffic.ts';
import type { OpenSearchClient } from '../cluster/client.ts';
import { CliError, loadRouter, DEFAULT_BOUNDARIES } from './io.ts';
import { timestamp } from './args.ts';
import { clusterClient } from './clusterClient.ts';

/** The window's options, as parse() takes them. */
export const TRAFFIC_WINDOW_OPTIONS = { since: { type: 'string' }, to: { type: 'string' }, index: { type: 'string' }, boundaries: { type: 'string' } } as const;

/** The usage lines of the window's options (`since` is the default of --since; `boundaries`: with the --boundaries line, for a command whose usage has none). */
export function trafficWindowUsage(since: string, boundaries = true): string {
  return `  --since D        the window: the last D before --to, a number with s, m, h or d (default ${since}; at most 31d)
  --to T           the window's end, ISO-8601 such as 2026-12-04T18:30:00Z (default now)
${
    boundaries
      ? `  --boundaries F   the boundary file whose ranges the traffic is counted in (default data/boundaries.json);
                   samples taken under another file are left out and named
`
      : ''
  }  --index I        the index as the boundary file names it (default the file's)`;
}

/** The window a command reads, ms since the epoch. */
export interface WindowFlags {
  fromMs: number;
  toMs: number;
  sinceSeconds: number;
}

/** windowFlags reads --since (default `since`) and --to; exit 2 naming the option, its value and what is valid. */
export function windowFlags(values: { since?: unknown; to?: unknown }, command: string, since: string): WindowFlags {
  let sinceSeconds: number;
  try {
    sinceSeconds = parseDuration(typeof values.since === 'string' ? values.since : since, '--since', MAX_WINDOW_SECONDS);
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message}`, 2);
  }
  const to = timestamp(values.to, 'to', command);
  const toMs = to === undefined ? Date.now() : Date.parse(to);
  return { fromMs: toMs - sinceSeconds * 1000, toMs, sinceSeconds };
}

/**
 * withCluster runs `fn` with a client from the environment (OPENSEARCH_*), closed after; an
 * OpenSearchError or a TrafficError becomes a CliError (exit 1) naming the command, with how to
 * start a node when nothing answers.
 */
export async function withCluster<T>(command: string, fn: (client: OpenSearchClient) => Promise<T>): Promise<T> {
  const { OpenSearchError } = await import('../cluster/clientErrors.ts');
  const { TrafficError } = await import('../ops/traffic/shardStats.ts');
  const client = await clusterClient(command);
  try {
    return await fn(client);
  } catch (e) {
    if (e instanceof OpenSearchError) throw new CliError(`geoshard ${command}: ${e.message}${e.kind === 'unreachable' ? '\nStart a local node with "npm run cluster:start", or set OPENSEARCH_URL.' : ''}`);
    if (e instanceof TrafficError) throw new CliError(`geoshard ${command}: ${e.message}`);
    throw e;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** historySettings reads the history's settings from the environment; an invalid variable is exit 1 naming it. */
export async function historySettings(command: string) {
  const { trafficSettings } = await import('../ops/traffic/settings.ts');
  try {
    return trafficSettings();
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message}`);
  }
}

/** The router of --boundaries (default data/boundaries.json) and the index to read (--index, default the file's). */
export function routerOf(values: { boundaries?: unknown; index?: unknown }): { router: Router; index: string } {
  const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
  return { router, index: (values.index as string | undefined) ?? router.file.index };
}

/**
 * readWindow reads the window of `index` from the history, in `router`'s ranges (or, without a
 * router, in the ranges of the latest sample). Null when nothing was recorded for the index and
 * no router names the ranges.
 */
export async function readWindow(client: OpenSearchClient, historyIndex: string, index: string, router: Router | null, w: WindowFlags): Promise<TrafficWindow | null> {
  const { readTrafficWindow } = await import('../ops/traffic/window.ts');
  const { trafficRangesOf } = await import('../core/traffic.ts');
  return readTrafficWindow(client, historyIndex, { index, fromMs: w.fromMs, toMs: w.toMs, ...(router ? { hash: router.file.hash, ranges: trafficRangesOf(router) } : {}) });
}

/**
 * requireBuckets refuses (exit 1) a window with no bucket, saying why: samples under another
 * boundary file (naming it), or none at all (naming how to record).
 */
export function requireBuckets(w: TrafficWindow | null, index: string, historyIndex: string, command: string, boundaries: string): asserts w is TrafficWindow {
  if (w && w.buckets.length > 0) return;
  const others = w?.otherHashes ?? [];
  if (others.length > 0) {
    throw new CliError(`geoshard ${command}: the traffic of "${index}" in the window was recorded under another boundary file (${others.map((o) => `${o.hash.slice(0, 12)}: ${o.buckets} buckets`).join(', ')}), not ${boundaries}'s (${w!.hash.slice(0, 12)}): pass that file with --boundaries`);
  }
  throw new CliError(`geoshard ${command}: no traffic of "${index}" was recorded in the window (history index "${historyIndex}"): the explorer's server records while it runs, or run "geoshard traffic --record" against the cluster; widen --since if it ran earlier`);
}

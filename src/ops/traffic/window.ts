/**
 * Reading recorded traffic back: the samples of a window from the history index (history.ts),
 * turned into the window every reader shares (snapshots.ts windowOf, src/core/traffic.ts).
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { TrafficWindow } from '../../core/traffic.ts';
import { readRecords } from './history.ts';
import { windowOf, type WindowQuery } from './snapshots.ts';

/**
 * readTrafficWindow reads `q.index`'s traffic between q.fromMs and q.toMs from `historyIndex`:
 * buckets between the samples taken in the window, in the ranges of `q.hash` (default: those of
 * the latest sample). Null when nothing was recorded for the index in the window and the query
 * names no ranges. Rejects with OpenSearchError when the cluster refuses or does not answer.
 */
export async function readTrafficWindow(client: OpenSearchClient, historyIndex: string, q: WindowQuery): Promise<TrafficWindow | null> {
  const records = await readRecords(client, historyIndex, q.index, q.fromMs, q.toMs);
  return windowOf(q, records.snapshots, records.cells);
}

/**
 * The geoshard plugin's per-cell traffic counters, where the plugin is installed:
 * `GET /_plugins/geoshard/traffic/<index>?from=<ms>&to=<ms>&size=<n>` (privilege
 * `cluster:monitor/geoshard/traffic`, in `cluster_monitor`). Every node counts, per second, the
 * searches geo_routing_search narrowed with the level-10 cells of their coverings, and the
 * documents geo_routing placed with their cells, for the last 120 seconds; the endpoint merges
 * every node's seconds of a window (plugin/…/TrafficCounters.java).
 *
 * Cell counts are exact while a node's second touches at most 256 distinct cells of a kind (a
 * Space-Saving summary per second); past that each count is an upper bound within its error,
 * which is at most the window's cell additions / 256, and the heaviest cells are always listed.
 * The answer says whether it is exact and its largest error.
 */
import type { OpenSearchClient } from '../../cluster/client.ts';
import type { CellTraffic } from '../../core/traffic.ts';

/** The most cells the plugin lists per kind in one answer (its own cap is 10,000). */
export const CELLS_PER_READ = 5000;

/** One kind of the plugin's answer (searches' covering cells or writes' cells). */
interface PluginCells {
  total: number;
  exact: boolean;
  floor: number;
  max_error: number;
  cells: { cell: string; count: number; error: number }[];
}

/** The plugin's answer, as it writes it. */
export interface PluginTrafficAnswer {
  _nodes: { total: number; successful: number; failed: number };
  failures?: { node: string; reason: string }[];
  index: string;
  from: number;
  to: number;
  held_from: number | null;
  capacity: number;
  seconds_kept: number;
  searches: number;
  writes: number;
  untracked: number;
  search_cells: PluginCells;
  write_cells: PluginCells;
}

/**
 * One window's per-cell counts, as the history keeps them (snapshots.ts CellsRecord.cells):
 * the narrowed searches and placed writes (exact), whether every cell count is exact, the largest
 * error of a count per kind, and per cell its searches (covering it) and writes (into it).
 */
export interface CellCounts {
  searches: number;
  writes: number;
  exact: boolean;
  maxError: { searches: number; writes: number };
  counts: CellTraffic[];
}

/** The outcome of a read: counts, the plugin absent, or the window no longer held by every node. */
export type CellCountsRead = { status: 'read'; counts: CellCounts; failedNodes: number } | { status: 'absent' } | { status: 'gone'; heldFrom: number };

/** cellCountsOf joins the plugin's two kinds into one list per cell (sorted by token). */
export function cellCountsOf(a: PluginTrafficAnswer): CellCounts {
  const byCell = new Map<string, CellTraffic>();
  const at = (cell: string) => {
    let c = byCell.get(cell);
    if (!c) byCell.set(cell, (c = { cell, searches: 0, writes: 0 }));
    return c;
  };
  for (const c of a.search_cells.cells) at(c.cell).searches = c.count;
  for (const c of a.write_cells.cells) at(c.cell).writes = c.count;
  return {
    searches: a.searches,
    writes: a.writes,
    exact: a.search_cells.exact && a.write_cells.exact,
    maxError: { searches: a.search_cells.max_error, writes: a.write_cells.max_error },
    counts: [...byCell.values()].sort((x, y) => (x.cell < y.cell ? -1 : x.cell > y.cell ? 1 : 0)),
  };
}

/** Whether an error answer is OpenSearch saying it has no such endpoint (the plugin is not installed). */
function noHandler(status: number, body: unknown): boolean {
  const text = JSON.stringify(body ?? '');
  return (status === 400 || status === 404 || status === 405) && /no handler found/i.test(text);
}

/**
 * readCellCounters reads the plugin's counts of `index` (a concrete index, or an alias of one)
 * for [fromMs, toMs): 'absent' when the node has no such endpoint, 'gone' when a node no longer
 * holds the start of the window. Rejects with OpenSearchError for any other refusal (a missing
 * privilege: 403).
 */
export async function readCellCounters(client: OpenSearchClient, index: string, fromMs: number, toMs: number): Promise<CellCountsRead> {
  const r = await client.request<PluginTrafficAnswer>('GET', `/_plugins/geoshard/traffic/${encodeURIComponent(index)}`, {
    query: { from: Math.floor(fromMs), to: Math.ceil(toMs), size: CELLS_PER_READ },
    okStatuses: [400, 404, 405],
  });
  if (r.status !== 200) {
    if (noHandler(r.status, r.body)) return { status: 'absent' };
    throw new Error(`GET /_plugins/geoshard/traffic/${index} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
  }
  if (r.body.held_from !== null && r.body.held_from > fromMs) return { status: 'gone', heldFrom: r.body.held_from };
  return { status: 'read', counts: cellCountsOf(r.body), failedNodes: r.body._nodes.failed };
}

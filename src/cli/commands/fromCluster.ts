/**
 * The --from-cluster forms of `geoshard hotspots` and `geoshard workload`: the same answers over
 * the traffic the cluster recorded (docs/traffic.md) instead of a workload file.
 * - hotspots: the ranges that stayed hot (src/core/trafficHotspots.ts), each with the split that
 *   evens its load over its hot run (requestLoad.ts findHotspots over that run's workload);
 * - workload: the window as a workload file (src/core/trafficWorkload.ts), which balance
 *   --workload, hotspots --workload, diff and check read as any other.
 */
import { formatWorkload } from '../../core/workload.ts';
import { formatDuration, parseDuration, TRAFFIC_METRICS, type TrafficMetric, type TrafficWindow } from '../../core/traffic.ts';
import { sustainedHotspots, type TrafficHotspot } from '../../core/trafficHotspots.ts';
import { trafficWorkload } from '../../core/trafficWorkload.ts';
import { cellLoads, coverWorkload, findHotspots, requestRates } from '../../core/requestLoad.ts';
import type { CellWeight } from '../../core/build.ts';
import type { Router } from '../../core/index.ts';
import { str } from '../args.ts';
import { CliError, DEFAULT_BOUNDARIES, DEFAULT_CELLS, loadCells, resolveTarget, writeFileAtomic } from '../io.ts';
import { historySettings, readWindow, requireBuckets, routerOf, windowFlags, withCluster } from '../trafficFlags.ts';
import type { Io } from '../command.ts';

type Values = Record<string, string | boolean | undefined>;

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The window of a command, read and checked: at least one bucket in the boundary file's ranges. */
async function recorded(values: Values, command: string, since: string): Promise<{ window: TrafficWindow; router: Router; index: string; historyIndex: string }> {
  const flags = windowFlags(values, command, since);
  const { router, index } = routerOf(values);
  const { historyIndex } = await historySettings(command);
  const window = await withCluster(command, (client) => readWindow(client, historyIndex, index, router, flags));
  requireBuckets(window, index, historyIndex, command, (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
  return { window, router, index, historyIndex };
}

/** A hot run's best split: the boundary token and each half's share of the range's load over the run. */
export interface RunSplit {
  token: string;
  shares: [number, number];
}

/**
 * splitOfRun is findHotspots' split of a hot range over its run: its searches of the run placed
 * on its cells (trafficWorkload), their load per cell, the cut that evens it. Null for a range of
 * one cell with documents, or a metric other than searches (the workload holds searches).
 */
export function splitOfRun(router: Router, w: TrafficWindow, h: TrafficHotspot, cells: readonly CellWeight[]): RunSplit | null {
  if (h.metric !== 'searches') return null;
  const from = Date.parse(h.from);
  const to = Date.parse(h.to);
  const run = w.buckets.filter((b) => Date.parse(b.start) >= from && Date.parse(b.end) <= to);
  const t = trafficWorkload({ ranges: w.ranges, buckets: run }, cells, { ranges: [h.index] });
  if (t.searches.length === 0) return null;
  const loads = cellLoads(cells, requestRates(t.searches, coverWorkload(t.searches)));
  const spot = findHotspots(router, cells, loads, Number.MIN_VALUE).find((x) => x.index === h.index);
  if (!spot?.split) return null;
  const sum = spot.split.loads[0] + spot.split.loads[1];
  return { token: spot.split.token, shares: [spot.split.loads[0] / sum, spot.split.loads[1] / sum] };
}

/** hotspots --from-cluster. `factor` is checked by the command already. */
export async function hotspotsFromCluster(values: Values, factor: number, io: Io): Promise<number> {
  if (values.workload !== undefined) throw new CliError('geoshard hotspots: give --workload FILE or --from-cluster, not both', 2);
  let sustainSeconds: number;
  try {
    sustainSeconds = parseDuration((values.sustain as string | undefined) ?? '5m', '--sustain');
  } catch (e) {
    throw new CliError(`geoshard hotspots: ${(e as Error).message}`, 2);
  }
  const metric = ((values.metric as string | undefined) ?? 'searches') as TrafficMetric;
  if (!TRAFFIC_METRICS.includes(metric)) throw new CliError(`geoshard hotspots: --metric ${JSON.stringify(values.metric)} is invalid: expected ${TRAFFIC_METRICS.join(', ')}`, 2);
  const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
  const { window, router, index, historyIndex } = await recorded(values, 'hotspots', '1h');
  const hot = sustainedHotspots(router, window, { factor, sustainSeconds, metric }).map((h) => ({ ...h, split: splitOfRun(router, window, h, cells) }));
  if (values.json) {
    io.out(JSON.stringify({ index, hash: window.hash, historyIndex, from: window.from, to: window.to, buckets: window.buckets.length, gaps: window.gaps, factor, sustainSeconds, metric, hotspots: hot }, null, 2) + '\n');
    return 0;
  }
  const unit = metric === 'searches' ? 'shard queries/s' : metric === 'writes' ? 'writes/s' : 'query ms/s';
  let out = `${index}: ${window.buckets.length} buckets between ${window.from} and ${window.to}; a range is hot at ${factor}× the mean range's ${metric}, sustained for ${formatDuration(sustainSeconds)}\n`;
  if (hot.length === 0) out += `no range was hot for ${formatDuration(sustainSeconds)} or longer\n`;
  for (const h of hot) {
    out += `  ${h.name.padEnd(10)} shard ${String(h.shard).padStart(3)}  hot ${h.from} – ${h.to} (${formatDuration(h.seconds)}, ${h.buckets} buckets): ${h.perSecond.toFixed(2)} ${unit}, ${h.overMean.toFixed(2)}× the mean (${pct(h.share)} of all; peak ${h.peakOverMean.toFixed(2)}×)`;
    out += h.split ? `; split at ${h.split.token}: ${pct(h.split.shares[0])} | ${pct(h.split.shares[1])} of its load (its searches spread over its cells by documents)\n` : '\n';
  }
  for (const g of window.gaps) out += `gap ${g.start} – ${g.end}: ${g.reason}\n`;
  io.out(out);
  return 0;
}

/** workload --from-cluster. */
export async function workloadFromCluster(values: Values, io: Io): Promise<number> {
  for (const f of ['searches', 'seed', 'days', 'start', 'hot-share', 'hot-weight'] as const) {
    if (values[f] !== undefined) throw new CliError(`geoshard workload: --${f} is for the generator; --from-cluster writes the traffic the cluster recorded`, 2);
  }
  if (values.since === undefined) throw new CliError('geoshard workload: --since is required with --from-cluster (the window of recorded traffic, such as 1h or 7d)\nRun "geoshard workload --help" for usage.', 2);
  const out = str(values.out, 'out', 'workload');
  resolveTarget(out, 'workload file');
  const cellsPath = (values.cells as string | undefined) ?? DEFAULT_CELLS;
  const cells = loadCells(cellsPath);
  const { window, index } = await recorded(values, 'workload', '1h');
  const t = trafficWorkload(window, cells);
  const queries = window.buckets.reduce((a, b) => a + b.ranges.reduce((x, r) => x + r.searches, 0), 0);
  if (t.searches.length === 0) throw new CliError(`geoshard workload: the window holds ${queries.toLocaleString('en-US')} shard queries of "${index}", none on a range with documents in ${cellsPath}: not writing ${out} (give the index's cells file with --cells)`);
  const header =
    `# geoshard workload --from-cluster --since ${values.since}: the shard queries "${index}" served between ${window.from} and ${window.to}\n` +
    `# (${window.buckets.length} buckets, boundary file ${window.hash}), per range, spread over its cells by documents (${cellsPath});\n` +
    `# one line per cell: a 1km circle at its centre, weight = its shard queries\n`;
  writeFileAtomic(out, header + formatWorkload(t.searches), 'workload file');
  if (t.unplaced.searches > 0) io.err(`geoshard workload: warning: ${t.unplaced.searches.toLocaleString('en-US')} shard queries of ranges with no documents in ${cellsPath} (${t.unplaced.ranges.join(', ')}) are not in the file\n`);
  if (values.json) {
    io.out(JSON.stringify({ out, searches: t.searches.length, weight: t.weight, index, hash: window.hash, from: window.from, to: window.to, buckets: window.buckets.length, unplaced: t.unplaced }) + '\n');
    return 0;
  }
  io.out(`wrote ${out}: ${t.searches.length.toLocaleString('en-US')} cells, total weight ${Math.round(t.weight).toLocaleString('en-US')} shard queries of "${index}" over ${window.buckets.length} buckets (${window.from} – ${window.to})\n`);
  return 0;
}

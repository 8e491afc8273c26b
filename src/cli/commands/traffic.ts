import { parse } from '../args.ts';
import { CliError } from '../io.ts';
import { formatDuration, parseDuration, windowTotals, type TrafficBucket, type TrafficWindow } from '../../core/traffic.ts';
import { cellCenter, parseToken } from '../../core/cells.ts';
import { TRAFFIC_WINDOW_OPTIONS, trafficWindowUsage, windowFlags, withCluster, historySettings, readWindow, routerOf } from '../trafficFlags.ts';
import type { Command, Io } from '../command.ts';

const rate = (x: number) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const hhmmss = (iso: string) => iso.slice(11, 19);

/** Cells listed per kind by windowTable. */
export const TOP_CELLS = 10;

/**
 * cellsTable renders the busiest cells of a window's total (source `cells`: the plugin's counts):
 * searches covering each per second and writes into it per second, the cell's centre, and
 * whether the counts are exact or within what error.
 */
export function cellsTable(total: TrafficBucket): string {
  const cells = total.cells ?? [];
  const err = total.cellsError ?? { searches: 0, writes: 0 };
  let out = `\nper cell (the geoshard plugin's counts, ${err.searches === 0 && err.writes === 0 ? 'exact' : `each at most ${err.searches} searches and ${err.writes} writes above the truth`}): ${cells.length.toLocaleString('en-US')} cells\n`;
  const centre = (token: string) => {
    const c = cellCenter(parseToken(token, 'cell'));
    return `${c.lat.toFixed(3)}, ${c.lng.toFixed(3)}`;
  };
  for (const kind of ['searches', 'writes'] as const) {
    const top = cells.filter((c) => c[kind] > 0).sort((a, b) => b[kind] - a[kind] || (a.cell < b.cell ? -1 : 1)).slice(0, TOP_CELLS);
    if (top.length === 0) continue;
    out += `cell        ${kind === 'searches' ? 'searches/s' : '  writes/s'}  centre (lat, lng)\n`;
    for (const c of top) out += `${c.cell.padEnd(10)}  ${rate(c[kind] / total.seconds).padStart(10)}  ${centre(c.cell)}\n`;
  }
  return out;
}

/** windowTable renders a window per range: mean rates over the seconds with rates, the peak bucket, the share; and the busiest cells where the plugin counted them. */
export function windowTable(w: TrafficWindow): string {
  const total = windowTotals(w);
  let out = `${w.index}: ${w.buckets.length} buckets between ${w.from} and ${w.to} (sampled every ${formatDuration(w.intervalSeconds)}), ranges of boundary file ${w.hash.slice(0, 12)}\n`;
  if (!total) {
    out += 'no traffic recorded in the window: the explorer\'s server records while it runs, or run "geoshard traffic --record"\n';
  } else {
    const all = total.ranges.reduce((a, r) => a + r.searches, 0);
    out += `${total.seconds.toFixed(0)} s with rates: ${all.toLocaleString('en-US')} shard queries (${rate(all / total.seconds)}/s), ${total.ranges.reduce((a, r) => a + r.writes, 0).toLocaleString('en-US')} writes; ${total.resets} copy counter resets\n\n`;
    const width = Math.max(5, ...w.ranges.map((r) => r.name.length));
    out += `${'range'.padEnd(width)}  shard  searches/s  peak/s   share  search ms/s  writes/s\n`;
    w.ranges.forEach((r, i) => {
      const t = total.ranges[i];
      const peak = Math.max(...w.buckets.map((b) => b.ranges[i].searchesPerSecond));
      out += `${r.name.padEnd(width)}  ${String(r.shard).padStart(5)}  ${rate(t.searchesPerSecond).padStart(10)}  ${rate(peak).padStart(6)}  ${(all > 0 ? `${((100 * t.searches) / all).toFixed(1)}%` : '—').padStart(6)}  ${rate(t.searchMsPerSecond).padStart(11)}  ${rate(t.writesPerSecond).padStart(8)}\n`;
    });
    if (total.cells) out += cellsTable(total);
  }
  for (const g of w.gaps) out += `gap ${g.start} – ${g.end}: ${g.reason}\n`;
  for (const o of w.otherHashes) out += `not counted: ${o.buckets} buckets recorded under boundary file ${o.hash.slice(0, 12)} (read them with --boundaries of that file)\n`;
  return out;
}

export const traffic: Command = {
  name: 'traffic',
  summary: 'per-range search and write rates the cluster recorded for a window, or record them (--record)',
  usage: `geoshard traffic [--since 15m] [--to T] [--boundaries FILE] [--index I] [--json]
geoshard traffic --record [--boundaries FILE] [--interval 60s] [--for D | --once] [--json]

Reads the traffic history the cluster keeps (index GEOSHARD_TRAFFIC_INDEX, default geoshard-traffic):
samples of the engine's own per-shard counters (_stats, level=shards), taken every interval by
the explorer's server while it runs, or by "geoshard traffic --record". Per range (a shard of the
boundary file): shard queries per second (a search that asks k shards counts on each of them,
summed over primary and replicas), the busiest bucket, the share of all queries, query time
(ms per second) and writes per second (index + delete, on the primary). docs/traffic.md.

${trafficWindowUsage('15m')}
  --record         sample the index's per-shard counters into the history every --interval, until
                   Ctrl-C or --for; a bucket another recorder wrote already is left as it is
                   (privileges: the role geoshard_traffic); a line per sample on stderr
  --interval D     with --record: time between samples, s, m or h (default GEOSHARD_TRAFFIC_INTERVAL_S, 60s)
  --for D          with --record: stop after D (default: until Ctrl-C)
  --once           with --record: take the current bucket's sample and stop (for cron)
  --json           print { historyIndex, window, totals } (window: docs/traffic.md's shape); with
                   --record, a summary of the samples

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(argv, { ...TRAFFIC_WINDOW_OPTIONS, record: { type: 'boolean' }, interval: { type: 'string' }, for: { type: 'string' }, once: { type: 'boolean' }, json: { type: 'boolean' } }, 'traffic');
    if (values.record) return record(values, io);
    for (const f of ['interval', 'for', 'once'] as const) if (values[f] !== undefined) throw new CliError(`geoshard traffic: --${f} is for --record (reading a window takes --since and --to)`, 2);
    const w = windowFlags(values, 'traffic', '15m');
    // --index alone: the ranges as recorded; otherwise the boundary file's (hash and ranges).
    const byIndex = values.index !== undefined && values.boundaries === undefined;
    const file = byIndex ? null : routerOf(values);
    const index = byIndex ? (values.index as string) : file!.index;
    const settings = await historySettings('traffic');
    const window = await withCluster('traffic', (client) => readWindow(client, settings.historyIndex, index, file?.router ?? null, w));
    if (!window) throw new CliError(`geoshard traffic: no traffic of "${index}" was recorded in the last ${formatDuration(w.sinceSeconds)} (history index "${settings.historyIndex}"): the explorer's server records while it runs, or run "geoshard traffic --record"`);
    if (values.json) {
      io.out(JSON.stringify({ historyIndex: settings.historyIndex, window, totals: windowTotals(window) }, null, 2) + '\n');
      return 0;
    }
    io.out(windowTable(window));
    return 0;
  },
};

/** record runs a recorder in the foreground (traffic --record). */
async function record(values: Record<string, unknown>, io: Io): Promise<number> {
  if (values.since !== undefined || values.to !== undefined) throw new CliError('geoshard traffic: --since and --to read a window; --record samples from now on', 2);
  if (values.index !== undefined) throw new CliError('geoshard traffic: --record samples the boundary file\'s index: give --boundaries (its index is the one it routes)', 2);
  if (values.once && values.for !== undefined) throw new CliError('geoshard traffic: give --once or --for, not both', 2);
  const seconds = (flag: 'interval' | 'for') => {
    try {
      return values[flag] === undefined ? undefined : parseDuration(values[flag] as string, `--${flag}`);
    } catch (e) {
      throw new CliError(`geoshard traffic: ${(e as Error).message}`, 2);
    }
  };
  const interval = seconds('interval');
  if (interval !== undefined && (interval < 1 || interval > 3600)) throw new CliError(`geoshard traffic: --interval ${JSON.stringify(values.interval)} is invalid: expected 1s to 1h`, 2);
  const forSeconds = seconds('for');
  const { router } = routerOf(values);
  const settings = await historySettings('traffic');
  const intervalSeconds = interval ?? (settings.intervalSeconds || 60);
  const { TrafficSampler, describeCells } = await import('../../ops/traffic/sampler.ts');
  const { trafficRangesOf } = await import('../../core/traffic.ts');
  const { fetchIndexMeta } = await import('../../opensearch/indexMeta.ts');
  const { driftState } = await import('../../opensearch/drift.ts');
  const file = router.file;
  const ranges = trafficRangesOf(router);
  const tally = { recorded: 0, exists: 0, skipped: 0, failed: 0 };
  let lastProblem = '';
  return withCluster('traffic', async (client) => {
    const sampler = new TrafficSampler({
      client,
      historyIndex: settings.historyIndex,
      intervalSeconds,
      retentionDays: settings.retentionDays,
      // The index must have been made for this file: the ranges are the file's.
      target: async () => {
        const d = driftState(file, await fetchIndexMeta(client, file.index));
        return d.status === 'ok' ? { index: file.index, hash: file.hash, ranges } : { skip: d.message };
      },
      onSample: (o) => {
        tally[o.status]++;
        const at = hhmmss(new Date().toISOString());
        if (o.status === 'recorded') io.err(`geoshard traffic: ${at} recorded "${file.index}" (${new Set(o.sample.copies.map((c) => c.shard)).size} shards, ${o.sample.copies.length} copies) into "${settings.historyIndex}"; per cell: ${describeCells(o.cells)}${o.pruned > 0 ? `; deleted ${o.pruned} samples older than ${settings.retentionDays} days` : ''}\n`);
        else if (o.status === 'exists') io.err(`geoshard traffic: ${at} this bucket is recorded already (another recorder)\n`);
        else {
          const problem = o.status === 'failed' ? o.message : o.reason;
          if (problem !== lastProblem) io.err(`geoshard traffic: ${at} ${o.status === 'failed' ? 'not recorded' : 'skipped'}: ${problem}\n`);
          lastProblem = problem;
          return;
        }
        lastProblem = '';
      },
    });
    if (values.once) {
      const o = await sampler.sampleOnce();
      if (o.status === 'failed' || o.status === 'skipped') throw new CliError(`geoshard traffic: ${o.status === 'failed' ? o.message : o.reason}`);
    } else {
      if (!values.json) io.err(`geoshard traffic: recording "${file.index}" every ${formatDuration(intervalSeconds)} into "${settings.historyIndex}" (kept ${settings.retentionDays} days)${forSeconds ? ` for ${formatDuration(forSeconds)}` : '; Ctrl-C stops'}\n`);
      sampler.start();
      await new Promise<void>((resolve) => {
        const done = () => {
          if (timer) clearTimeout(timer);
          process.off('SIGINT', done);
          resolve();
        };
        const timer = forSeconds ? setTimeout(done, forSeconds * 1000) : null;
        process.once('SIGINT', done);
      });
      await sampler.stop();
    }
    const summary = { index: file.index, hash: file.hash, historyIndex: settings.historyIndex, intervalSeconds, ...tally };
    if (values.json) io.out(JSON.stringify(summary, null, 2) + '\n');
    else io.out(`"${file.index}": ${tally.recorded} samples recorded, ${tally.exists} buckets recorded already by another recorder, ${tally.skipped + tally.failed} not recorded\n`);
    return tally.recorded + tally.exists > 0 ? 0 : 1;
  });
}

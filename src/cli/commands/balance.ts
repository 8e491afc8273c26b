import { balance as runBalance, cellWeights, type BalanceReport } from '../../core/index.ts';
import { parseBalanceWeight, formatBalanceWeight, balanceWeights, cellLoads, requestRates, SHARE_SCALE, type BalanceWeight } from '../../core/requestLoad.ts';
import { loadWorkload } from './workload.ts';
import { parse, int, timestamp, fieldValue } from '../args.ts';
import { loadCells, loadIndexConfig, writeBoundaryFile, resolveTarget, DEFAULT_CELLS, CliError } from '../io.ts';
import { weightColumn } from '../../opensearch/indexConfig.ts';
import type { Command, Io } from '../command.ts';
import { closeSync, openSync, readSync } from 'node:fs';
import { buildBoundaryFile } from '../../core/build.ts';

/** cellsHeader returns the first line of a cells file (at most 256 bytes; '' when unreadable: loadCells reports why). */
function cellsHeader(path: string): string {
  try {
    const fd = openSync(path, 'r');
    try {
      const buf = Buffer.alloc(256);
      return buf.subarray(0, readSync(fd, buf, 0, 256, 0)).toString('utf8').split(/\r?\n/)[0];
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

const pct = (x: number) => `${((x - 1) * 100).toFixed(2)}%`;

/** balanceReportTable renders both methods side by side, one row per shard count. */
export function balanceReportTable(report: BalanceReport): string {
  const lines = ['shards  greedy evenness  (over mean)  optimal evenness  (over mean)'];
  for (const r of report.rows) {
    const g = r.greedy ? `${r.greedy.evenness.toFixed(4).padStart(15)}  ${pct(r.greedy.evenness).padStart(11)}` : `${'—'.padStart(15)}  ${''.padStart(11)}`;
    const o = `${r.optimal.evenness.toFixed(4).padStart(16)}  ${pct(r.optimal.evenness).padStart(11)}`;
    const mark = report.best.split === r.optimal || report.best.split === r.greedy ? '  <- chosen' : '';
    lines.push(`${String(r.shards).padStart(6)}  ${g}  ${o}${mark}`);
  }
  return lines.join('\n') + '\n';
}

export const balance: Command = {
  name: 'balance',
  summary: 'cut the cells into weight-balanced key ranges and write a boundary file',
  usage: `geoshard balance [--cells FILE] [--min 12] [--max 36] [--index NAME] [--out FILE] [--json]
                 [--workload FILE --weight docs|requests|mix:A]

Weight of a cell = its documents: restaurants + dishes, or docs (--weight docs, the default;
with --config, the config's weight column). With a workload:
  requests  the cell's load: Σ weight of the searches whose covering holds the cell × the
            cell's documents, so a shard's weight is its load (searches asking it, each
            weighted by the documents of it they scan); as parts per 10^12 of all load;
  mix:A     A × the cell's share of documents + (1 − A) × its share of load, A in [0, 1]
            (parts per 10^12). For every shard count in [min, max] it runs
  greedy:  the article's method: walk the cells in key order, close a shard once it reaches
           a target size; try many targets and keep the most even split per shard count;
  optimal: the smallest possible heaviest shard for a contiguous split (binary search on
           the capacity);
and reports both side by side (evenness = heaviest shard / mean shard). The most even
split overall is written, atomically, as a boundary file whose shard names route to their
shards.

  --cells FILE   cells file, header token,restaurants,dishes or token,docs[,<weight columns>]
                 ("geoshard cells" writes it; default data/cells.csv)
  --config FILE  geoshard.config.json: its index is the default --index, and a weight field
                 ("weight": { "field": F }) weighs each cell by its column F instead of docs
  --min N        fewest shards to try (default 12)
  --max N        most shards to try (default 36)
  --index NAME   OpenSearch index name written in the file (default dishes)
  --targets N    target sizes the greedy method tries (default 4000)
  --out FILE     write the chosen boundary file here (default: print the report only)
  --created-at T createdAt to record, ISO-8601 such as 2026-11-30T00:00:00.000Z (default now;
                 fixed values make output reproducible)
  --workload F   workload file (lat,lng,radius[,timestamp][,weight]; see "geoshard workload")
  --weight W     docs (default), requests or mix:A; requests and mix need --workload
  --json         print the report as JSON`,
  run(argv, io: Io) {
    const { values } = parse(
      argv,
      { config: { type: 'string' }, workload: { type: 'string' }, weight: { type: 'string' }, cells: { type: 'string' }, min: { type: 'string' }, max: { type: 'string' }, index: { type: 'string' }, targets: { type: 'string' }, out: { type: 'string' }, 'created-at': { type: 'string' }, json: { type: 'boolean' } },
      'balance',
    );
    const min = int(values.min, 'min', 'balance', 12, 1, 1024);
    const max = int(values.max, 'max', 'balance', 36, 1, 1024);
    if (max < min) throw new CliError(`geoshard balance: --max ${max} is below --min ${min}`, 2);
    const targets = int(values.targets, 'targets', 'balance', 4000, 1, 1_000_000);
    // Check every option before the balancing work, so a typo costs nothing.
    const config = values.config === undefined ? null : loadIndexConfig(values.config as string);
    const column = config && config.weight !== 'docs' ? weightColumn(config) : undefined;
    const index = fieldValue((values.index as string | undefined) ?? config?.index ?? 'dishes', 'index', 'index', 'balance');
    const createdAt = timestamp(values['created-at'], 'created-at', 'balance');
    const outPath = values.out as string | undefined;
    if (outPath !== undefined) resolveTarget(outPath, 'boundary file');
    const cellsPath = (values.cells as string | undefined) ?? DEFAULT_CELLS;
    const cells = loadCells(cellsPath, column);
    // A "geoshard cells" file (token,docs) weighs documents, the sample's (token,restaurants,dishes) both kinds.
    const docsText = /^token,docs(,|$)/.test(cellsHeader(cellsPath)) ? 'docs (every document 1)' : 'restaurants + dishes';
    let weightKind: BalanceWeight;
    try {
      weightKind = parseBalanceWeight((values.weight as string | undefined) ?? 'docs', '--weight');
    } catch (e) {
      throw new CliError(`geoshard balance: ${(e as Error).message}`, 2);
    }
    if (weightKind.kind !== 'docs' && values.workload === undefined) throw new CliError(`geoshard balance: --weight ${formatBalanceWeight(weightKind)} needs --workload FILE (the searches whose load it balances)`, 2);
    const w = values.workload === undefined ? null : loadWorkload(values.workload as string);
    const weights = weightKind.kind === 'docs' ? cellWeights(cells) : balanceWeights(cells, weightKind, cellLoads(cells, requestRates(w!.searches, w!.coverings)));
    const weightText = weightKind.kind === 'docs' ? (column ? `the sum of ${column}` : docsText) : weightKind.kind === 'requests' ? `load (searches × documents scanned) over ${values.workload}, parts per ${SHARE_SCALE.toExponential(0)}` : `${weightKind.alpha} × share of documents + ${+(1 - weightKind.alpha).toFixed(12)} × share of load over ${values.workload}, parts per ${SHARE_SCALE.toExponential(0)}`;
    const progress = process.stderr.isTTY && !values.json;
    const report = runBalance(weights, {
      min,
      max,
      targets,
      onProgress: (done, total, phase) => {
        if (progress) process.stderr.write(`\r${phase.padEnd(8)} ${String(Math.round((100 * done) / total)).padStart(3)}%`);
      },
    });
    if (progress) process.stderr.write('\r' + ' '.repeat(20) + '\r');
    const best = report.best;
    const file = buildBoundaryFile({
      index,
      cells,
      cuts: best.split.cuts,
      createdAt,
      balance: {
        method: best.method,
        weight: weightText,
        evenness: Number(best.split.evenness.toFixed(6)),
        range: [min, max],
        cells: cells.length,
      },
    });
    if (outPath !== undefined) writeBoundaryFile(outPath, file, 'balance');
    if (values.json) {
      const row = (s: typeof best.split | null) => (s ? { evenness: s.evenness, heaviest: s.heaviest, weights: s.weights } : null);
      io.out(
        JSON.stringify(
          {
            cells: cells.length,
            totalWeight: report.total,
            weight: formatBalanceWeight(weightKind),
            chosen: { method: best.method, shards: best.split.shards, evenness: best.split.evenness },
            rows: report.rows.map((r) => ({ shards: r.shards, greedy: row(r.greedy), greedyTarget: r.greedyTarget, optimal: row(r.optimal) })),
            ...(values.out ? { out: values.out, hash: file.hash } : {}),
          },
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    io.out(`${cells.length} non-empty cells, total weight ${report.total.toLocaleString('en-US')} (${weightText})\n\n`);
    io.out(balanceReportTable(report));
    io.out(`\nchosen: ${best.split.shards} shards by the ${best.method} method, evenness ${best.split.evenness.toFixed(4)} (heaviest shard ${pct(best.split.evenness)} over the mean)\n`);
    io.out(`names: ${file.shards.map((s) => s.name).join(',')}\n`);
    if (values.out) io.out(`wrote ${values.out} (hash ${file.hash})\n`);
    return 0;
  },
};

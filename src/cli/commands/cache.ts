import { cellToken, cellFromOrdinal, cellCenter } from '../../core/index.ts';
import { simulateCellCache } from '../../core/cellCache.ts';
import { parse, str } from '../args.ts';
import { CliError } from '../io.ts';
import { loadWorkload, WORKLOAD_OPTION } from './workload.ts';
import type { Command } from '../command.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** parseSizes reads --size "N[,N2,...]": whole numbers of cells ≥ 1. */
export function parseSizes(text: string): number[] {
  const items = text.split(',').map((s) => s.trim());
  return items.map((s) => {
    if (!/^\d+$/.test(s) || Number(s) < 1) throw new CliError(`geoshard cache: --size item ${JSON.stringify(s)} in ${JSON.stringify(text)} is invalid: expected whole numbers of cells, at least 1, separated by commas (e.g. 100,1000,10000)`, 2);
    return Number(s);
  });
}

export const cache: Command = {
  name: 'cache',
  summary: 'simulate a per-cell LRU result cache over a workload: hit rate per size, hot cells',
  usage: `geoshard cache --workload FILE --size N[,N2,...] [--top 10] [--json]

Replays the workload in time order (file order when a line has no timestamp); each search
looks up its level-10 covering cells in an LRU cache of N cells (a hit refreshes the cell, a
miss inserts it and evicts the least recently used). Prints, per size, the weighted hit rate
and the share of searches served wholly from cache, and the most looked-up cells with their
hits at each size. A line's weight scales its lookups' count.

${WORKLOAD_OPTION}
  --size LIST      cache sizes in cells, comma-separated (required), e.g. 100,1000,10000
  --top N          hot cells to list (default 10)
  --json           print JSON`,
  run(argv, io) {
    const { values } = parse(argv, { workload: { type: 'string' }, size: { type: 'string' }, top: { type: 'string' }, json: { type: 'boolean' } }, 'cache');
    const sizes = parseSizes(str(values.size, 'size', 'cache'));
    const top = values.top === undefined ? 10 : Number(values.top);
    if (!Number.isInteger(top) || top < 0 || top > 10000) throw new CliError(`geoshard cache: --top ${JSON.stringify(values.top)} is invalid: expected an integer in [0, 10000]`, 2);
    const w = loadWorkload(str(values.workload, 'workload', 'cache'));
    const r = simulateCellCache(w.searches, w.coverings, sizes, top);
    const hot = r.hot.map((h) => ({ token: cellToken(cellFromOrdinal(h.ordinal)), centre: cellCenter(cellFromOrdinal(h.ordinal)), lookups: h.lookups, hits: h.hits }));
    if (values.json) {
      io.out(JSON.stringify({ workload: w.path, searches: r.searches, order: r.order, runs: r.runs, hot }, null, 2) + '\n');
      return 0;
    }
    let out = `${w.path}: ${r.searches.toLocaleString('en-US')} searches replayed in ${r.order === 'time' ? 'time' : 'file'} order\n`;
    out += `  ${'cells'.padStart(9)}  ${'hit rate'.padStart(8)}  ${'searches all-hit'.padStart(16)}\n`;
    for (const x of r.runs) out += `  ${x.size.toLocaleString('en-US').padStart(9)}  ${pct(x.hitRate).padStart(8)}  ${pct(x.fullHitShare).padStart(16)}\n`;
    if (hot.length) {
      out += `\nmost looked-up cells (hits at ${sizes.join(' / ')} cells)\n`;
      for (const h of hot) out += `  ${h.token}  ${h.centre.lat.toFixed(3)},${h.centre.lng.toFixed(3)}  ${h.lookups.toLocaleString('en-US').padStart(9)} lookups  hits ${h.hits.map((x) => pct(h.lookups > 0 ? x / h.lookups : 0)).join(' / ')}\n`;
    }
    io.out(out);
    return 0;
  },
};

import { requestRates, cellLoads, findHotspots } from '../../core/requestLoad.ts';
import { parse, str } from '../args.ts';
import { loadRouter, loadCells, CliError, DEFAULT_BOUNDARIES, DEFAULT_CELLS } from '../io.ts';
import { loadWorkload, WORKLOAD_OPTION } from './workload.ts';
import type { Command } from '../command.ts';
import { TRAFFIC_WINDOW_OPTIONS, trafficWindowUsage } from '../trafficFlags.ts';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export const hotspots: Command = {
  name: 'hotspots',
  summary: 'list the shards whose load is far above the mean, each with the split that evens it best',
  usage: `geoshard hotspots --workload FILE [--factor 2] [--boundaries FILE] [--cells FILE] [--json]
geoshard hotspots --from-cluster [--since 1h] [--sustain 5m] [--factor 2] [--metric M] [--boundaries FILE] [--json]

Load of a cell = Σ weight of the workload's searches whose covering holds the cell × the cell's
documents (restaurants + dishes); a shard's load is the sum over its cells. Lists every shard
whose load / mean shard load ≥ --factor, hottest first, with the split that best evens its
load: a new boundary token (the first level-10 cell of the upper half) and each half's load.

${WORKLOAD_OPTION}
  --factor F       load / mean shard load at which a shard is hot, > 0 (default 2)
  --boundaries F   boundary file (default data/boundaries.json)
  --cells FILE     cells file (default data/cells.csv)
  --json           print JSON

With --from-cluster, over the traffic the cluster recorded (docs/traffic.md) instead of a file: a
range is hot in a bucket when its count / the mean range's count >= --factor, and listed when it
stays hot for --sustain or longer (each run: its rate, its multiple of the mean, its share, and the
split that evens its searches' load, spread over its cells by documents).
  --from-cluster   read the recorded traffic (history index GEOSHARD_TRAFFIC_INDEX)
${trafficWindowUsage('1h', false)}
  --sustain D      how long a range must stay hot, s, m, h or d (default 5m)
  --metric M       what is counted: searches (shard queries, default), writes or searchMs (query time)`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      { workload: { type: 'string' }, factor: { type: 'string' }, cells: { type: 'string' }, json: { type: 'boolean' }, 'from-cluster': { type: 'boolean' }, ...TRAFFIC_WINDOW_OPTIONS, sustain: { type: 'string' }, metric: { type: 'string' } },
      'hotspots',
    );
    const factor = values.factor === undefined ? 2 : Number(values.factor);
    if (!(Number.isFinite(factor) && factor > 0) || (values.factor !== undefined && (values.factor as string).trim() === '')) {
      throw new CliError(`geoshard hotspots: --factor ${JSON.stringify(values.factor)} is invalid: expected a number greater than 0 (load / mean shard load)`, 2);
    }
    if (values['from-cluster']) return (await import('./fromCluster.ts')).hotspotsFromCluster(values, factor, io);
    for (const f of ['since', 'to', 'index', 'sustain', 'metric'] as const) if (values[f] !== undefined) throw new CliError(`geoshard hotspots: --${f} is for --from-cluster`, 2);
    const w = loadWorkload(str(values.workload, 'workload', 'hotspots'));
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
    const loads = cellLoads(cells, requestRates(w.searches, w.coverings));
    const hot = findHotspots(router, cells, loads, factor);
    const total = loads.reduce((a, b) => a + b, 0);
    if (values.json) {
      io.out(JSON.stringify({ workload: w.path, searches: w.searches.length, weight: w.weight, factor, meanLoad: total / router.numberOfShards, hotspots: hot }, null, 2) + '\n');
      return 0;
    }
    let out = `${w.path}: ${w.searches.length.toLocaleString('en-US')} searches (weight ${w.weight.toLocaleString('en-US')}); mean shard load ${(total / router.numberOfShards).toExponential(3)} document scans\n`;
    if (hot.length === 0) out += `no shard's load is ${factor}× the mean or more\n`;
    for (const h of hot) {
      out += `  ${h.name.padEnd(10)} load ${h.overMean.toFixed(2)}× the mean (${pct(h.share)} of all), ${h.cells} cells`;
      out += h.split ? `; split at ${h.split.token}: ${pct(h.split.loads[0] / total)} | ${pct(h.split.loads[1] / total)} of all load (${(h.split.loads[0] / (total / router.numberOfShards)).toFixed(2)}× | ${(h.split.loads[1] / (total / router.numberOfShards)).toFixed(2)}× the mean)\n` : '; one cell: cannot be split at level 10\n';
    }
    io.out(out);
    return 0;
  },
};

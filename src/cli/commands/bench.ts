import { parse, int } from '../args.ts';
import { loadRouter, loadIndexConfig, DEFAULT_BOUNDARIES, CliError } from '../io.ts';
import type { Command } from '../command.ts';
import { LiveApi } from '../../server/api.ts';
import { MEASURE_RUNS, MEASURE_CONCURRENCY, type MeasureAnswer, type MeasureRequest, type MeasureSide } from '../../server/wire.ts';
import { clusterClient } from '../clusterClient.ts';

const ms = (x: number) => `${x < 10 ? x.toFixed(1) : Math.round(x).toLocaleString('en-US')} ms`;
const times = (x: number | null) => (x === null ? 'n/a' : `${x.toFixed(2)}×`);
const load = (l: MeasureAnswer['load']['before']) => (l ? `${l['1m'].toFixed(2)} / ${l['5m'].toFixed(2)} / ${l['15m'].toFixed(2)}` : 'unknown');

/** report writes a measurement as a table, each figure beside its same-run baseline and the gain. */
export function report(a: MeasureAnswer): string {
  const rows: [string, (s: MeasureSide) => string, number | null][] = [
    [`wall p50 (one at a time)`, (s) => ms(s.latency.p50Ms), a.gain.p50],
    [`wall p99 (one at a time)`, (s) => ms(s.latency.p99Ms), a.gain.p99],
    [`OpenSearch CPU per search`, (s) => (s.cpuMsPerSearch === null ? 'n/a' : ms(s.cpuMsPerSearch)), a.gain.cpu],
    [`searches/s (${a.concurrency} in flight)`, (s) => s.searchesPerS.toFixed(1), a.gain.throughput],
    [`wall p99 (${a.concurrency} in flight)`, (s) => ms(s.underLoad.p99Ms), null],
  ];
  const w = Math.max(...rows.map((r) => r[0].length));
  const q = a.query;
  const lines = [
    `geoshard bench: index "${a.index}" (${a.boundary.numberOfShards} shards), ${q.lat}, ${q.lng}, ${q.radius}: routed asks ${a.routed.shardsAsked} of ${a.all.shardsAsked} shards (routing ${a.routing || '(none)'})`,
    `${a.warmup.note}`,
    `answers: ${a.identical ? 'identical on every pair ✓' : `DIFFER ✗: ${a.differences.join('; ')}`}${a.partialRuns > 0 ? `; ${a.partialRuns} partial search(es): some shard did not answer, the figures may flatter one plan` : ''}`,
    '',
    `${''.padEnd(w)}  ${'routed'.padStart(10)}  ${'all shards'.padStart(10)}  gain`,
    ...rows.map(([label, v, g]) => `${label.padEnd(w)}  ${v(a.routed).padStart(10)}  ${v(a.all).padStart(10)}  ${g === null ? '' : times(g)}`),
    '',
    `gain: all ÷ routed for times and CPU, routed ÷ all for searches/s (above 1: routed is better)`,
    `load average (1 / 5 / 15 min, node stats): ${load(a.load.before)} before, ${load(a.load.after)} after; ${a.load.nodes} node(s)${a.load.processors !== null ? `, ${a.load.processors} processors` : ''}; ${(a.ms / 1000).toFixed(1)} s, ${a.at}`,
  ];
  return lines.join('\n') + '\n';
}

export const bench: Command = {
  name: 'bench',
  summary: 'measure one search routed and on all shards on a real cluster: p50/p99, OpenSearch CPU per search, searches/s',
  usage: `geoshard bench --lat LAT --lng LNG --radius R [--runs N] [--concurrency C] [--diet D] [--allergen A] [--cuisine C] [--q TEXT] [--boundaries FILE] [--config FILE] [--json]

Runs the search of the live API (GET /api/search: the sample's dish search, or with --config your
index's documents by their own fields) at a circle N times per plan, routed to
the shards the circle touches and on all shards, alternating search by search; discards the
first tenth of each plan's runs as warm-up (and says so); then N per plan again with C in flight.
Prints wall time p50 / p99, OpenSearch CPU per search (_nodes/stats, every node), searches per
second, the gain of each (all ÷ routed for costs, routed ÷ all for searches/s), whether every
pair's answers were identical, and the machine's load average from the node stats. The same
measurement as POST /api/measure (the explorer's Live panel, Measure), with the same checks:
refused when the index was written with another boundary file.

  --lat LAT, --lng LNG     the circle's centre, degrees (lat in [-90, 90], lng in [-180, 180])
  --radius R               "15mi", "25km" or a number of miles, from 10 m to 1000 km
  --runs N                 searches per plan in each phase, [${MEASURE_RUNS.min}, ${MEASURE_RUNS.max}] (default ${MEASURE_RUNS.default})
  --concurrency C          searches in flight in the throughput phase, [${MEASURE_CONCURRENCY.min}, ${MEASURE_CONCURRENCY.max}] (default ${MEASURE_CONCURRENCY.default})
  --diet, --allergen, --cuisine   the search's filters, comma-separated (as the API takes them)
  --q TEXT                 a text query on the name field (as the API's q)
  --boundaries FILE        boundary file naming the index (default data/boundaries.json)
  --config FILE            geoshard.config.json of an index that is not the sample (its index must
                           be the boundary file's): searched by its location and name fields; the
                           sample's filters (--diet, --allergen, --cuisine) are refused for it
  --json                   print the API's answer (MeasureAnswer) as JSON instead of the table

Exit 0 when every search answered in full and the answers agreed; 1 otherwise (a partial
search, answers that differ, a refusal), with the reason on stderr.

OpenSearch: OPENSEARCH_URL (default http://127.0.0.1:9200), OPENSEARCH_USERNAME /
OPENSEARCH_PASSWORD or OPENSEARCH_API_KEY.`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      {
        lat: { type: 'string' },
        lng: { type: 'string' },
        radius: { type: 'string' },
        runs: { type: 'string' },
        concurrency: { type: 'string' },
        diet: { type: 'string' },
        allergen: { type: 'string' },
        cuisine: { type: 'string' },
        q: { type: 'string' },
        boundaries: { type: 'string' },
        config: { type: 'string' },
        json: { type: 'boolean' },
      },
      'bench',
    );
    for (const name of ['lat', 'lng', 'radius'] as const) {
      if (values[name] === undefined) throw new CliError(`geoshard bench: --${name} is required\nRun "geoshard bench --help" for usage.`, 2);
    }
    const request: MeasureRequest = {
      lat: values.lat as string,
      lng: values.lng as string,
      radius: values.radius as string,
      runs: int(values.runs, 'runs', 'bench', MEASURE_RUNS.default, MEASURE_RUNS.min, MEASURE_RUNS.max),
      concurrency: int(values.concurrency, 'concurrency', 'bench', MEASURE_CONCURRENCY.default, MEASURE_CONCURRENCY.min, MEASURE_CONCURRENCY.max),
    };
    for (const f of ['diet', 'allergen', 'cuisine', 'q'] as const) if (values[f] !== undefined) request[f] = values[f] as string;
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const config = values.config !== undefined ? loadIndexConfig(values.config as string, {}, undefined, 'bench') : undefined;
    if (config && config.index !== router.file.index) throw new CliError(`geoshard bench: --config ${values.config as string}: index ${JSON.stringify(config.index)} is not the boundary file's (${JSON.stringify(router.file.index)}): give the boundary file made for "${config.index}" with --boundaries`, 2);
    const client = await clusterClient('bench');
    try {
      const r = await new LiveApi({ file: router.file, client, ...(config ? { config } : {}) }).measure(request);
      if (r.httpStatus !== 200) {
        const err = (r.body as { error?: { param?: string; message?: string } }).error;
        const msg = err?.message ?? `the measurement failed (HTTP ${r.httpStatus})`;
        // A refused field is named as the option it came from.
        const text = err?.param && msg.startsWith(`${err.param} `) ? `--${msg}` : msg;
        throw new CliError(`geoshard bench: ${text}`, 1);
      }
      const a = r.body as unknown as MeasureAnswer;
      io.out(values.json ? JSON.stringify(a, null, 2) + '\n' : report(a));
      if (!a.identical) io.err(`geoshard bench: the routed and all-shards answers differ (${a.differences.join('; ')}): the routing is wrong for this index, so the figures mean nothing\n`);
      else if (a.status !== 'complete') io.err(`geoshard bench: ${a.partialRuns} search(es) were partial: some shard did not answer, so the figures may flatter one plan\n`);
      return a.identical && a.status === 'complete' ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};

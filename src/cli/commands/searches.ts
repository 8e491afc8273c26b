import { relative } from 'node:path';
import { formatRadius } from '../../core/index.ts';
import { parseRadii, parseCities, workedSearches, formatShardCount } from '../../core/searches.ts';
import type { Place } from '../../core/place.ts';
import { workedSearchesCsv } from '../../core/exports.ts';
import { parse } from '../args.ts';
import { loadRouter, readText, CliError, DEFAULT_BOUNDARIES, DEFAULT_CITIES, MAX_DATA_FILE_BYTES, ROOT } from '../io.ts';
import type { Command } from '../command.ts';

/** The radii the article's worked examples use, in miles. */
export const DEFAULT_RADII = '5,15,25,50';

/**
 * loadCities reads a cities file (data/cities.json format) or throws: a
 * CliError naming the path when it cannot be read or is not JSON, the core's
 * RangeError naming the entry and field when an entry is invalid.
 */
export function loadCities(path = DEFAULT_CITIES): Place[] {
  const text = readText(path, 'cities file', MAX_DATA_FILE_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CliError(`cities file ${path} is not JSON: ${(e as Error).message}`);
  }
  return parseCities(json, relative(ROOT, path) || path);
}

/** readRadii parses --radii, turning the core's RangeError into a usage error (exit 2) that names the value. */
export function readRadii(value: unknown, command: string, dflt = DEFAULT_RADII) {
  try {
    return parseRadii(value === undefined ? dflt : String(value), 'mi', '--radii');
  } catch (e) {
    throw new CliError(`geoshard ${command}: ${(e as Error).message}\nRun "geoshard ${command} --help" for usage.`, 2);
  }
}

export const searches: Command = {
  name: 'searches',
  summary: 'print the worked-searches table: city × radius → cells, shards asked, routing',
  usage: `geoshard searches [--radii LIST] [--cities FILE] [--boundaries FILE] [--json | --csv]

Searches every sample city at every radius, covering each circle with level-10 S2 cells
(the exact RegionCoverer covering) and prints the cell count, the shards asked as "k / N"
and the routing string, in key order, exactly as it would be sent.

  --radii LIST       comma-separated radii, e.g. 5,15,25,50 (default; a bare number is
                     miles) or 10km,25mi; each greater than 0 and at most 1000 km
  --cities FILE      cities file (default data/cities.json): [{ "name", "state", "lat", "lng" }]
  --boundaries FILE  boundary file (default data/boundaries.json)
  --json             print a JSON array of rows { city, state, lat, lng, radius: { value, unit, km },
                     cells, shardsAsked, numberOfShards, routing, cellsPerShard: [{ index, name, shard, cells }] }
  --csv              print CSV: ${'city,state,lat,lng,radius,radius_km,cells,shards_asked,number_of_shards,shard_count,routing'}`,
  run(argv, io) {
    const { values } = parse(argv, { radii: { type: 'string' }, cities: { type: 'string' }, boundaries: { type: 'string' }, json: { type: 'boolean' }, csv: { type: 'boolean' } }, 'searches');
    if (values.json && values.csv) throw new CliError('geoshard searches: --json and --csv are alternatives: give one of them\nRun "geoshard searches --help" for usage.', 2);
    const radii = readRadii(values.radii, 'searches');
    const cities = loadCities((values.cities as string | undefined) ?? DEFAULT_CITIES);
    const router = loadRouter((values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES);
    const rows = workedSearches(router, cities, radii);
    if (values.json) {
      io.out(JSON.stringify(rows, null, 2) + '\n');
      return 0;
    }
    if (values.csv) {
      io.out(workedSearchesCsv(rows));
      return 0;
    }
    const table = rows.map((r) => [r.city, formatRadius(r.radius), String(r.cells), formatShardCount(r.shardsAsked, r.numberOfShards), r.routing]);
    const head = ['city', 'radius', 'cells', 'shards', 'routing'];
    const w = head.map((h, j) => Math.max(h.length, ...table.map((t) => t[j].length)));
    const right = [false, true, true, true, false];
    const line = (t: string[]) => t.map((c, j) => (j === t.length - 1 ? c : right[j] ? c.padStart(w[j]) : c.padEnd(w[j]))).join('  ') + '\n';
    io.out(line(head));
    for (const t of table) io.out(line(t));
    return 0;
  },
};

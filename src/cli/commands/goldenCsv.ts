/**
 * `geoshard golden --cities my-cities.csv --radii 5,15,50`: a golden file for a
 * team's own fixed cities, in the format of e2e/cities.golden.json, so their
 * Playwright tests can assert cell counts, "k / N" and routing for the places
 * they care about.
 *
 * The CSV: a header `name,state,lat,lng` or `name,lat,lng`, then one city per
 * line; lat in [-90, 90], lng in [-180, 180] (degrees); fields may be
 * double-quoted ("Washington, D.C."); blank lines and lines starting with `#`
 * are ignored.
 */
import type { Radius, Router } from '../../core/index.ts';
import { formatShardCount } from '../../core/searches.ts';
import type { Place } from '../../core/place.ts';
import { CliError } from '../io.ts';
import type { GoldenFile } from './goldenFile.ts';

/** splitCsvLine splits one CSV line, honouring double quotes ("" inside quotes is a quote); null when a quote is left open. */
export function splitCsvLine(line: string): string[] | null {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') (cur += '"'), i++;
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur.trim() === '') (quoted = true), (cur = '');
    else if (ch === ',') out.push(cur.trim()), (cur = '');
    else cur += ch;
  }
  if (quoted) return null;
  out.push(cur.trim());
  return out;
}

/** parseCitiesCsv reads the CSV (see the file comment); throws a CliError naming the line, field, value and what is valid. */
export function parseCitiesCsv(text: string, source: string): Place[] {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  let header: string[] | null = null;
  const out: Place[] = [];
  const fail = (n: number, msg: string): never => {
    throw new CliError(`geoshard golden: ${source} line ${n}: ${msg}`);
  };
  lines.forEach((raw, i) => {
    const n = i + 1;
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const f = splitCsvLine(line) ?? fail(n, 'a double quote is not closed');
    if (!header) {
      const h = f.map((x) => x.toLowerCase());
      if (h.join(',') !== 'name,state,lat,lng' && h.join(',') !== 'name,lat,lng') fail(n, `header ${JSON.stringify(line)} is invalid: expected "name,state,lat,lng" or "name,lat,lng"`);
      header = h;
      return;
    }
    if (f.length !== header.length) fail(n, `${JSON.stringify(line)} has ${f.length} fields: expected ${header.length} (${header.join(',')})`);
    const get = (k: string) => f[header!.indexOf(k)];
    const name = get('name');
    if (name === '') fail(n, 'name is empty: every city needs a name');
    const num = (k: 'lat' | 'lng', lim: number) => {
      const v = get(k);
      const x = Number(v);
      if (v === '' || !Number.isFinite(x) || Math.abs(x) > lim) fail(n, `${k} ${JSON.stringify(v)} is invalid: expected degrees in [-${lim}, ${lim}]`);
      return x;
    };
    out.push({ name, state: header.includes('state') ? get('state') : '', lat: num('lat', 90), lng: num('lng', 180) });
  });
  if (!header) throw new CliError(`geoshard golden: ${source} is empty: expected a header "name,state,lat,lng" and one city per line`);
  if (out.length === 0) throw new CliError(`geoshard golden: ${source} lists no city: expected lines such as "San Francisco,CA,37.7749,-122.4194"`);
  return out;
}

/** The rule recorded in a team's golden file instead of the straddling rule. */
export const CUSTOM_RULE = "none: a team's own cities, every city at every radius, in the order given";

/** buildCustomGolden searches every city at every radius (cities outer) and returns the golden file. */
export function buildCustomGolden(router: Router, cities: readonly Place[], radii: readonly Radius[], paths: { boundaries: string; cities: string }): GoldenFile {
  const entries = cities.flatMap((c) =>
    radii.map((radius) => {
      const label = `${Number(radius.value.toFixed(6))}${radius.unit}`;
      const r = router.cover(c.lat, c.lng, radius.km);
      return { name: c.name, state: c.state, lat: c.lat, lng: c.lng, radius: label, cells: r.ordinals.length, shardCount: formatShardCount(r.shards.length, router.numberOfShards), routing: r.routing };
    }),
  );
  return {
    generatedBy: `npx geoshard golden --cities ${paths.cities} --radii ${radii.map((r) => `${Number(r.value.toFixed(6))}${r.unit}`).join(',')} (src/cli/commands/goldenCsv.ts): computed by the routing core (Router.cover); do not edit by hand, regenerate and review the diff`,
    boundaryFile: paths.boundaries,
    boundaryHash: router.file.hash,
    boundaryVersion: router.file.version,
    numberOfShards: router.numberOfShards,
    citiesFile: paths.cities,
    straddleRule: CUSTOM_RULE,
    straddling: [],
    cities: entries,
  };
}

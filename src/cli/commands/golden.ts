import { existsSync } from 'node:fs';
import { join, relative, resolve, isAbsolute } from 'node:path';
import { parseRadius, type Router } from '../../core/index.ts';
import { formatShardCount, PRESET_CITIES } from '../../core/searches.ts';
import type { Place } from '../../core/place.ts';
import { parse } from '../args.ts';
import { loadRouter, readText, writeFileAtomic, resolveTarget, CliError, DEFAULT_BOUNDARIES, DEFAULT_CITIES, ROOT } from '../io.ts';
import { loadCities, readRadii } from './searches.ts';
import { parseCitiesCsv, buildCustomGolden } from './goldenCsv.ts';
import type { Command } from '../command.ts';
import type { GoldenEntry, GoldenFile } from './goldenFile.ts';
// The file's shape lives in goldenFile.ts (goldenCsv.ts builds one too, and imports no command).
export type { GoldenEntry, GoldenFile } from './goldenFile.ts';

/** Where the e2e tests read their expected values. */
export const DEFAULT_GOLDEN = join(ROOT, 'e2e', 'cities.golden.json');

/** The explorer's preset cities (issue 4), by their names in data/cities.json. */
export const GOLDEN_PRESETS: readonly string[] = PRESET_CITIES.map((c) => c.name);

/** The radii every preset is searched at. */
export const GOLDEN_RADII: readonly string[] = ['15mi', '50mi'];

/** The radii tried, in order, when looking for cities that straddle a boundary. */
export const STRADDLE_RADII: readonly string[] = ['15mi', '25mi', '50mi'];

/** How the straddling cities are chosen, recorded in the golden file. */
export const STRADDLE_RULE =
  'the two most populous cities of the cities file other than the presets (ties: file order) whose 15mi search asks at least 2 shards; if fewer than two do, the search widens to 25mi, then 50mi, and each city keeps the first radius at which it straddles';

function entry(router: Router, c: Place, radius: string): GoldenEntry {
  const r = router.cover(c.lat, c.lng, parseRadius(radius).km);
  return { name: c.name, state: c.state, lat: c.lat, lng: c.lng, radius, cells: r.ordinals.length, shardCount: formatShardCount(r.shards.length, router.numberOfShards), routing: r.routing };
}

/**
 * pickStraddling returns the cities (with their radius) that straddle a
 * boundary, by STRADDLE_RULE: deterministic for a given cities file and
 * boundary file. Returns fewer than `count` when not enough cities straddle.
 */
export function pickStraddling(router: Router, cities: readonly Place[], count = 2): { city: Place; radius: string }[] {
  const byPopulation = cities
    .map((city, i) => ({ city, i }))
    .filter(({ city }) => !GOLDEN_PRESETS.includes(city.name))
    .sort((a, b) => (b.city.population ?? 0) - (a.city.population ?? 0) || a.i - b.i);
  const out: { city: Place; radius: string }[] = [];
  for (const radius of STRADDLE_RADII) {
    const km = parseRadius(radius).km;
    for (const { city } of byPopulation) {
      if (out.length === count) return out;
      if (out.some((o) => o.city === city)) continue;
      if (router.shardsAsked(city.lat, city.lng, km).length >= 2) out.push({ city, radius });
    }
  }
  return out;
}

/**
 * buildGolden computes the golden file from a router and the cities: the
 * presets at GOLDEN_RADII, then the straddling cities. Throws a CliError
 * naming a missing preset, or when fewer than two cities straddle.
 */
export function buildGolden(router: Router, cities: readonly Place[], paths: { boundaries: string; cities: string }): GoldenFile {
  const entries: GoldenEntry[] = [];
  for (const name of GOLDEN_PRESETS) {
    const c = cities.find((x) => x.name === name);
    if (!c) throw new CliError(`geoshard golden: preset city "${name}" is not in ${paths.cities}: the golden file needs ${GOLDEN_PRESETS.join(', ')}`);
    for (const radius of GOLDEN_RADII) entries.push(entry(router, c, radius));
  }
  const straddling = pickStraddling(router, cities);
  if (straddling.length < 2) {
    throw new CliError(`geoshard golden: only ${straddling.length} city of ${paths.cities} straddles a boundary of ${paths.boundaries} (searched at ${STRADDLE_RADII.join(', ')}): the golden file needs two`);
  }
  for (const s of straddling) entries.push(entry(router, s.city, s.radius));
  return {
    generatedBy: 'npx geoshard golden (src/cli/commands/golden.ts): computed by the routing core (Router.cover) from the boundary and cities files below; do not edit by hand, regenerate and review the diff',
    boundaryFile: paths.boundaries,
    boundaryHash: router.file.hash,
    boundaryVersion: router.file.version,
    numberOfShards: router.numberOfShards,
    citiesFile: paths.cities,
    straddleRule: STRADDLE_RULE,
    straddling: straddling.map((s) => s.city.name),
    cities: entries,
  };
}

/** formatGolden writes the golden file: 2-space JSON with one search per line, so a diff reads search by search. */
export function formatGolden(g: GoldenFile): string {
  const { cities, ...head } = g;
  const top = JSON.stringify(head, null, 2).replace(/\n\}$/, '');
  return `${top},\n  "cities": [\n${cities.map((c) => `    ${JSON.stringify(c)}`).join(',\n')}\n  ]\n}\n`;
}

/** diffGolden lists, line by line, how `now` differs from `was` (empty when they agree). */
export function diffGolden(was: Partial<GoldenFile>, now: GoldenFile): string[] {
  const out: string[] = [];
  for (const k of ['boundaryFile', 'boundaryHash', 'boundaryVersion', 'numberOfShards', 'citiesFile', 'straddling'] as const) {
    if (JSON.stringify(was[k]) !== JSON.stringify(now[k])) out.push(`${k}: ${JSON.stringify(was[k])} → ${JSON.stringify(now[k])}`);
  }
  const key = (e: Partial<GoldenEntry>) => `${e.name} (${e.state}) @ ${e.radius}`;
  const old = new Map((Array.isArray(was.cities) ? was.cities : []).map((e) => [key(e), e]));
  const seen = new Set<string>();
  for (const e of now.cities) {
    const k = key(e);
    seen.add(k);
    const o = old.get(k);
    if (!o) {
      out.push(`${k}: new search (${e.cells} cells, ${e.shardCount}, routing=${e.routing})`);
      continue;
    }
    for (const f of ['lat', 'lng', 'cells', 'shardCount', 'routing'] as const) {
      if (o[f] !== e[f]) out.push(`${k}: ${f} ${JSON.stringify(o[f])} → ${JSON.stringify(e[f])}`);
    }
  }
  for (const k of old.keys()) if (!seen.has(k)) out.push(`${k}: no longer in the golden file`);
  return out;
}

export const golden: Command = {
  name: 'golden',
  summary: 'write (or --check) e2e/cities.golden.json, the explorer tests\' expected searches',
  usage: `geoshard golden [--out FILE] [--check] [--boundaries FILE] [--cities FILE] [--json]

Computes the expected cell count, "k / N" and routing string of the explorer's end-to-end
searches from the routing core: ${GOLDEN_PRESETS.join(', ')} at ${GOLDEN_RADII.join(' and ')},
plus two cities that straddle a boundary (${STRADDLE_RULE}).
Writes them with the boundary file's hash and version, atomically.

  --out FILE         golden file (default e2e/cities.golden.json)
  --check            write nothing; exit 1 with a summary of the differences if FILE does not
                     match what the current boundary file gives, 0 if it does
  --boundaries FILE  boundary file (default data/boundaries.json)
  --cities FILE      cities file (default data/cities.json); a .csv file (header name,state,lat,lng
                     or name,lat,lng) writes a golden file for those cities instead: every city at
                     every --radii, no straddling cities, to --out (default: the CSV's name with
                     .golden.json)
  --radii LIST       radii for a .csv cities file (default 5,15,50; bare numbers are miles)
  --json             print { "file", "boundaryFile", "boundaryVersion", "boundaryHash", "searches", ... }`,
  run(argv, io) {
    const { values } = parse(argv, { out: { type: 'string' }, check: { type: 'boolean' }, boundaries: { type: 'string' }, cities: { type: 'string' }, radii: { type: 'string' }, json: { type: 'boolean' } }, 'golden');
    const boundariesPath = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const citiesPath = (values.cities as string | undefined) ?? DEFAULT_CITIES;
    const csv = /\.csv$/i.test(citiesPath);
    if (values.radii !== undefined && !csv) throw new CliError('geoshard golden: --radii applies to a .csv cities file (--cities my-cities.csv); the default golden file uses fixed radii', 2);
    const out = (values.out as string | undefined) ?? (csv ? citiesPath.replace(/\.csv$/i, '.golden.json') : DEFAULT_GOLDEN);
    // Paths inside the repository are recorded relative to it, so the file does not depend on the checkout.
    const rel = (p: string) => {
      const r = relative(ROOT, resolve(p)).split('\\').join('/');
      return r === '' || r.startsWith('../') || isAbsolute(r) ? resolve(p) : r;
    };
    if (!values.check) resolveTarget(out, 'golden file');
    const router = loadRouter(boundariesPath);
    const paths = { boundaries: rel(boundariesPath), cities: rel(citiesPath) };
    const g = csv ? buildCustomGolden(router, parseCitiesCsv(readText(citiesPath, 'cities file'), citiesPath), readRadii(values.radii, 'golden', '5,15,50'), paths) : buildGolden(router, loadCities(citiesPath), paths);
    const text = formatGolden(g);
    if (values.check) {
      if (!existsSync(out)) throw new CliError(`geoshard golden --check: no golden file at ${out}: run "npx geoshard golden" to write it`);
      const current = readText(out, 'golden file');
      const summary = { file: rel(out), boundaryFile: g.boundaryFile, boundaryVersion: g.boundaryVersion, boundaryHash: g.boundaryHash, searches: g.cities.length };
      if (values.json) {
        io.out(JSON.stringify({ ...summary, matches: current === text }) + '\n');
        return current === text ? 0 : 1;
      }
      if (current === text) {
        io.out(`${rel(out)} matches ${g.boundaryFile} (version ${g.boundaryVersion}, hash ${g.boundaryHash.slice(0, 12)}…): ${g.cities.length} searches\n`);
        return 0;
      }
      let was: Partial<GoldenFile>;
      try {
        was = JSON.parse(current) as Partial<GoldenFile>;
      } catch {
        was = {};
      }
      const diff = diffGolden(was, g);
      io.err(
        `geoshard golden --check: ${rel(out)} does not match ${g.boundaryFile} (version ${g.boundaryVersion}, hash ${g.boundaryHash.slice(0, 12)}…):\n` +
          (diff.length ? diff.map((d) => `  ${d}\n`).join('') : '  same values, different text (formatting or metadata): regenerate it\n') +
          `Run "npx geoshard golden" and review the diff of ${rel(out)}.\n`,
      );
      return 1;
    }
    writeFileAtomic(out, text, 'golden file');
    if (values.json) {
      io.out(JSON.stringify({ file: rel(out), boundaryFile: g.boundaryFile, boundaryVersion: g.boundaryVersion, boundaryHash: g.boundaryHash, searches: g.cities.length, written: true }) + '\n');
      return 0;
    }
    if (csv) {
      io.out(`wrote ${rel(out)}: ${g.cities.length} searches from ${g.boundaryFile} (version ${g.boundaryVersion}, hash ${g.boundaryHash.slice(0, 12)}…)\n`);
      return 0;
    }
    io.out(`wrote ${rel(out)}: ${g.cities.length} searches from ${g.boundaryFile} (version ${g.boundaryVersion}, hash ${g.boundaryHash.slice(0, 12)}…); straddling: ${g.straddling.map((n, i) => `${n} at ${g.cities[g.cities.length - 2 + i].radius}`).join(', ')}\n`);
    return 0;
  },
};

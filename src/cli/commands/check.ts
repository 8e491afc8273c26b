import { diffBoundaries, evenness, parseRadius, Router } from '../../core/index.ts';
import { searchWorkload } from '../../core/searchWorkload.ts';
import { expectedFanout } from '../../core/expectedFanout.ts';
import { workloadFanout, requestRates, cellLoads, shardTotals } from '../../core/requestLoad.ts';
import { evaluateGate, type GateThresholds, type GateResult } from '../../core/gate.ts';
import { formatShardCount } from '../../core/searches.ts';
import { parse } from '../args.ts';
import { loadBoundaryFile, loadCells, readText, writeFileAtomic, CliError, DEFAULT_CELLS, DEFAULT_BOUNDARIES } from '../io.ts';
import { loadWorkload, WORKLOAD_OPTION } from './workload.ts';
import { junitXml, type JunitCase } from '../junit.ts';
import type { GoldenEntry } from './goldenFile.ts';
import type { Command } from '../command.ts';

/** A golden search whose expected values change under the candidate. */
export interface GoldenChange {
  name: string;
  state: string;
  radius: string;
  /** The fields that change, each golden → candidate. */
  changes: { field: 'cells' | 'shardCount' | 'routing'; golden: string | number; candidate: string | number }[];
}

/** readLimit reads a threshold: a number, or for --max-moved also a percentage ("5%" = 0.05). */
export function readLimit(value: unknown, name: string, percent: boolean): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value).trim();
  const m = /^((?:\d+\.?\d*|\.\d+))(%?)$/.exec(text);
  if (!m || (m[2] === '%' && !percent)) throw new CliError(`geoshard check: --${name} ${JSON.stringify(value)} is invalid: expected ${percent ? 'a percentage such as 5% or a fraction such as 0.05' : 'a non-negative number such as 1.6'}`, 2);
  const x = Number(m[1]);
  return m[2] === '%' ? x / 100 : x;
}

/** goldenChanges compares a golden file's searches with what the candidate gives (cells, "k / N", routing). */
export function goldenChanges(candidate: Router, entries: readonly GoldenEntry[], source: string): { entry: GoldenEntry; change: GoldenChange | null }[] {
  return entries.map((e, i) => {
    if (!e || typeof e.name !== 'string' || typeof e.lat !== 'number' || typeof e.lng !== 'number' || typeof e.radius !== 'string') {
      throw new CliError(`geoshard check: ${source} cities[${i}] is not a golden search: expected name, state, lat, lng, radius, cells, shardCount, routing (as "geoshard golden" writes)`);
    }
    const r = candidate.cover(e.lat, e.lng, parseRadius(e.radius).km);
    const now = { cells: r.ordinals.length, shardCount: formatShardCount(r.shards.length, candidate.numberOfShards), routing: r.routing };
    const changes = (['cells', 'shardCount', 'routing'] as const).filter((f) => now[f] !== e[f]).map((f) => ({ field: f, golden: e[f], candidate: now[f] }));
    return { entry: e, change: changes.length ? { name: e.name, state: e.state, radius: e.radius, changes } : null };
  });
}

export const check: Command = {
  name: 'check',
  summary: 'gate a candidate boundary file in CI: thresholds on moves, fan-out and evenness; golden cities; JUnit XML',
  usage: `geoshard check [--boundaries CURRENT] --candidate CANDIDATE [--workload FILE] [--max-moved 5%] [--max-mean-shards 1.6]
                [--max-heaviest 1.05] [--max-heaviest-load X] [--cities e2e/cities.golden.json]
                [--cells FILE] [--junit out.xml] [--json]

Exits 0 when every threshold given holds (value ≤ limit) and no golden search changes, 1
naming each threshold broken with its value and each golden search that changes.

  --boundaries CURRENT  the boundary file in use (default data/boundaries.json)
  --candidate FILE      the proposed boundary file (required); the old positional form
                        CURRENT CANDIDATE still works for this release, with a notice
  --max-moved P          share of documents whose shard changes (the diff's "moved"), as 5% or 0.05
  --max-mean-shards X    mean shards a search asks under the candidate: over --workload, or over
                         the built-in mix (2,000 centres ∝ restaurants × 5/15/25/50 mi, seed 1)
  --max-heaviest X       candidate's heaviest shard / mean shard, in documents
  --max-heaviest-load X  the same in load (searches × documents scanned; needs --workload)
  --cities FILE          a golden file ("geoshard golden" format): each search whose cells, "k / N"
                         or routing differ under the candidate is listed and fails
${WORKLOAD_OPTION}
  --cells FILE           cells file (default data/cells.csv)
  --junit FILE           also write JUnit XML, atomically: one testcase per threshold and per
                         golden search, failures with their messages
  --json                 print JSON instead of text`,
  run(argv, io) {
    const { values } = parse(
      argv,
      { boundaries: { type: 'string' }, candidate: { type: 'string' },
        workload: { type: 'string' },
        'max-moved': { type: 'string' },
        'max-mean-shards': { type: 'string' },
        'max-heaviest': { type: 'string' },
        'max-heaviest-load': { type: 'string' },
        cities: { type: 'string' },
        cells: { type: 'string' },
        junit: { type: 'string' },
        json: { type: 'boolean' },
      },
      'check',
      false,
      { positional: ['boundaries', 'candidate'] },
    );
    if (values.candidate === undefined) throw new CliError('geoshard check: --candidate FILE is required: the boundary file to compare with --boundaries (default data/boundaries.json)\nRun "geoshard check --help" for usage.', 2);
    const thresholds: GateThresholds = {
      maxMoved: readLimit(values['max-moved'], 'max-moved', true),
      maxMeanShards: readLimit(values['max-mean-shards'], 'max-mean-shards', false),
      maxHeaviest: readLimit(values['max-heaviest'], 'max-heaviest', false),
      maxHeaviestLoad: readLimit(values['max-heaviest-load'], 'max-heaviest-load', false),
    };
    const currentPath = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const candidatePath = values.candidate as string;
    const current = new Router(loadBoundaryFile(currentPath), currentPath);
    const candidate = new Router(loadBoundaryFile(candidatePath), candidatePath);
    const cells = loadCells((values.cells as string | undefined) ?? DEFAULT_CELLS);
    const d = diffBoundaries(current, candidate, cells);
    const w = values.workload === undefined ? null : loadWorkload(values.workload as string);
    const meanShards = w ? workloadFanout(candidate, w.searches, w.coverings).meanShards : expectedFanout(candidate, searchWorkload(cells)).meanShards;
    const heaviestLoad = w ? evenness(shardTotals(candidate, cells, cellLoads(cells, requestRates(w.searches, w.coverings)))).heaviestOverMean : null;
    const results: GateResult[] = evaluateGate({ moved: d.totals.share, meanShards, heaviest: d.evenness.after.heaviestOverMean, heaviestLoad }, thresholds);
    let golden: ReturnType<typeof goldenChanges> = [];
    const citiesPath = values.cities as string | undefined;
    if (citiesPath !== undefined) {
      let json: { cities?: unknown };
      try {
        json = JSON.parse(readText(citiesPath, 'golden file'));
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw new CliError(`geoshard check: golden file ${citiesPath} is not JSON: ${(e as Error).message}`);
      }
      if (!json || !Array.isArray(json.cities)) throw new CliError(`geoshard check: golden file ${citiesPath} has no "cities" list: write one with "geoshard golden"`);
      golden = goldenChanges(candidate, json.cities as GoldenEntry[], citiesPath);
    }
    const broken = results.filter((r) => !r.pass);
    const changed = golden.filter((g) => g.change !== null);
    const pass = broken.length === 0 && changed.length === 0;
    const describe = (c: GoldenChange) => `${c.name} (${c.state}) @ ${c.radius}: ${c.changes.map((x) => `${x.field} ${JSON.stringify(x.golden)} → ${JSON.stringify(x.candidate)}`).join(', ')}`;
    if (values.junit) {
      const cases: JunitCase[] = [
        ...results.map((r) => ({ name: `${r.name} ${r.limit}`, classname: 'geoshard.check.thresholds', failure: r.pass ? null : r.message })),
        ...golden.map((g) => ({ name: `${g.entry.name} (${g.entry.state}) @ ${g.entry.radius}`, classname: 'geoshard.check.golden', failure: g.change ? `${describe(g.change)} (regenerate the golden file with "geoshard golden" if the change is intended)` : null })),
      ];
      writeFileAtomic(values.junit as string, junitXml(`geoshard check ${candidatePath}`, cases));
    }
    if (values.json) {
      io.out(JSON.stringify({ pass, current: currentPath, candidate: candidatePath, workload: w ? w.path : null, thresholds: results, golden: { file: citiesPath ?? null, searches: golden.length, changed: changed.map((g) => g.change) } }, null, 2) + '\n');
      return pass ? 0 : 1;
    }
    let out = '';
    for (const r of results) out += `${r.pass ? 'ok  ' : 'FAIL'}  --${r.name} ${r.limit}: ${r.message}\n`;
    if (citiesPath !== undefined) {
      out += changed.length === 0 ? `ok    ${citiesPath}: all ${golden.length} golden searches unchanged\n` : `FAIL  ${citiesPath}: ${changed.length} of ${golden.length} golden searches change:\n${changed.map((g) => `        ${describe(g.change!)}\n`).join('')}`;
    }
    out += pass ? 'check passed\n' : `check failed: ${[...broken.map((r) => `--${r.name}`), ...(changed.length ? [`${changed.length} golden search${changed.length === 1 ? '' : 'es'}`] : [])].join(', ')}\n`;
    (pass ? io.out : io.err)(out);
    return pass ? 0 : 1;
  },
};

/**
 * The facts the docs state, each from one source, and their marks: a doc writes a fact as
 * `<!-- fact:KEY -->VALUE<!-- /fact -->`; `npm run docs:reference` (src/docs/generate.ts) writes
 * every VALUE from its source, and src/docs/docs.test.ts fails when one differs. A figure changes
 * in one place: its source.
 *
 * Two kinds of key:
 * - a fact about the bundled files and the API reports (`bundledShards`, `apiExportsCore`, …),
 *   computed here from data/boundaries.json, data/cells.csv and docs/api/*.api.md;
 * - a measured figure, `RUN.NAME`, from the results file, bench/results.json: `RUN` is a run
 *   (what was measured, the command, machine, load and date), `NAME` one of its figures, or
 *   `what`, `command`, `date`, `machine` or `load` of the run itself.
 *
 * The results file is committed. A benchmark writes its run there (bench/harness.ts
 * `recordRun`); runs measured before benchmarks wrote it were entered from the pages that
 * reported them, and say where (`source`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prose, ROOT } from './markdown.ts';

/** Where the results file is, relative to the repository. */
export const RESULTS_PATH = 'bench/results.json';

/** The results file's format name. */
export const RESULTS_FORMAT = 'geoshard-results/1';

/** One measured run: what, how, where, when, and its figures as the docs print them. */
export interface ResultRun {
  /** What was measured, in a sentence. */
  what: string;
  /** The command that reruns it. */
  command: string;
  /** When (UTC), as precisely as it was recorded: `2026-12-02`, `2026-12-02 00:07`, or `not recorded`. */
  date: string;
  /** The machine: cores, CPU model as recorded, memory, Node; the cluster. */
  machine: string;
  /** The 1-minute load average during the run, as recorded (`1.4–3.0`), or `not recorded`. */
  load: string;
  /** Where the run is written up, when it was entered by hand (a doc path and anchor). */
  source?: string;
  /** Each figure by name, exactly as the docs print it (`88×`, `956.6 s`, `1.70`). */
  figures: Record<string, string>;
}

/** The results file. */
export interface Results {
  format: typeof RESULTS_FORMAT;
  about: string;
  runs: Record<string, ResultRun>;
}

/** The fields of a run that a fact may quote besides its figures. */
export const RUN_FIELDS = ['what', 'command', 'date', 'machine', 'load'] as const;

/** readResults reads and checks the results file. Throws naming what is wrong. */
export function readResults(root = ROOT): Results {
  const r = JSON.parse(readFileSync(join(root, RESULTS_PATH), 'utf8')) as Results;
  if (r.format !== RESULTS_FORMAT) throw new Error(`${RESULTS_PATH}: format ${JSON.stringify(r.format)}, expected ${RESULTS_FORMAT}`);
  for (const [id, run] of Object.entries(r.runs)) {
    if (!/^[a-z][\w-]*$/i.test(id)) throw new Error(`${RESULTS_PATH}: run id ${JSON.stringify(id)} is not a word`);
    for (const k of [...RUN_FIELDS]) if (typeof run[k] !== 'string' || run[k] === '') throw new Error(`${RESULTS_PATH}: run ${id} has no ${k}`);
    for (const [name, v] of Object.entries(run.figures ?? {})) {
      if ((RUN_FIELDS as readonly string[]).includes(name)) throw new Error(`${RESULTS_PATH}: run ${id}: a figure may not be named ${name}`);
      if (typeof v !== 'string' || v === '') throw new Error(`${RESULTS_PATH}: run ${id}: figure ${name} is not a non-empty string`);
    }
  }
  return r;
}

/** The facts about the bundled files and the API reports, by key. */
export function bundledFacts(root = ROOT): Record<string, string> {
  const file = JSON.parse(readFileSync(join(root, 'data', 'boundaries.json'), 'utf8')) as { numberOfShards: number; index: string; shards: { name: string }[] };
  const rows = readFileSync(join(root, 'data', 'cells.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
  const n = (x: number) => x.toLocaleString('en-US');
  const sum = (k: number) => rows.reduce((s, r) => s + Number(r[k]), 0);
  const exports = (report: string) => /^(\d+) exports\./m.exec(readFileSync(join(root, 'docs', 'api', report), 'utf8'))![1];
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const entries = Object.keys(pkg.exports).filter((k) => k === '.' || /^\.\/[a-z]+$/.test(k)).length;
  return {
    bundledShards: String(file.numberOfShards),
    bundledIndex: file.index,
    bundledShardNames: file.shards.map((s) => s.name).join(', '),
    cellsRows: n(rows.length),
    cellsRestaurants: n(sum(1)),
    cellsDishes: n(sum(2)),
    cellsDocuments: n(sum(1) + sum(2)),
    apiExportsCore: exports('geoshard.api.md'),
    apiExportsOpensearch: exports('geoshard-opensearch.api.md'),
    apiExportsOps: exports('geoshard-ops.api.md'),
    packageEntries: ['no', 'one', 'two', 'three', 'four', 'five'][entries] ?? String(entries),
  };
}

/** Every fact by key: the bundled files' and every run's figures and fields. */
export function factValues(root = ROOT): Record<string, string> {
  const out = bundledFacts(root);
  for (const [id, run] of Object.entries(readResults(root).runs)) {
    for (const k of RUN_FIELDS) out[`${id}.${k}`] = run[k];
    for (const [name, v] of Object.entries(run.figures)) out[`${id}.${name}`] = v;
  }
  return out;
}

/** A fact mark: its key and the value written between its comments. */
export const FACT = /<!-- fact:([\w.-]+) -->([\s\S]*?)<!-- \/fact -->/g;

/**
 * fillFacts writes every fact mark's value from `values`; keys it does not know are listed, their
 * text left. Marks inside code (fenced or inline) are text, not marks, and are left alone.
 */
export function fillFacts(md: string, values: Record<string, string>): { text: string; unknown: string[] } {
  const unknown: string[] = [];
  // prose() keeps every offset and empties code, so a mark found at an offset there is a mark in md too.
  const outside = prose(md);
  const text = md.replace(FACT, (whole, key: string, _value: string, offset: number) => {
    if (!outside.startsWith('<!-- fact:', offset)) return whole;
    if (values[key] === undefined) {
      unknown.push(key);
      return whole;
    }
    return `<!-- fact:${key} -->${values[key]}<!-- /fact -->`;
  });
  return { text, unknown };
}

/**
 * `npx tsx bench/checkouts.bench.ts --base DIR [--rounds N] [--restaurants R] [--record ID]`:
 * whether a change of the code (a refactor, a move of files) made loading, reindexing or
 * searching slower, measured in ONE run against another checkout of this repository (DIR: a
 * `git worktree` of the commit before the change, its node_modules linked or installed).
 *
 * Each round runs three benches in each checkout, the checkouts' order alternating round by
 * round (base first in odd rounds), on the same node:
 *
 *   bulk:    bench/bulk.bench.ts --paths seed,bulk: the package's writer (seedIndex) and, as
 *            the node's own reference in the same bench, plain `_bulk` of the same documents;
 *   reindex: bench/reindex.bench.ts on an index of its own (ri-cmp): the copy's documents/s,
 *            the whole reindex's time, and search latency through the alias before it starts;
 *   search:  bench/live.bench.ts --quick: routed searches, p50 latency and searches/s.
 *
 * Every bench is its checkout's own file run in its own directory, so each measures the code
 * of its commit. The figures are the medians over rounds, and the ratios are new / base (above
 * 1 is faster for rates, slower for times). With --record ID the run goes into
 * bench/results.json. Needs a node (OPENSEARCH_URL); each bench deletes what it created.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSampler, machine, recordRun, utcMinute } from './harness.ts';

const ROOT = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const arg = (name: string): string | undefined => (argv.includes(`--${name}`) ? argv[argv.indexOf(`--${name}`) + 1] : undefined);
const positive = (name: string, dflt: number): number => {
  const raw = arg(name);
  const v = raw === undefined ? dflt : Number(raw);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`--${name} ${raw}: expected a positive whole number`);
  return v;
};

const BASE = arg('base');
if (!BASE) throw new Error('--base DIR is required: a checkout of the commit to compare against (git worktree add DIR COMMIT)');
const base = resolve(BASE);
if (!existsSync(join(base, 'bench', 'bulk.bench.ts'))) throw new Error(`--base ${BASE}: no bench/bulk.bench.ts there; expected a checkout of this repository`);
if (!existsSync(join(base, 'node_modules'))) throw new Error(`--base ${BASE}: no node_modules there; link this checkout's (ln -s) or run npm ci in it`);
const ROUNDS = positive('rounds', 2);
const RESTAURANTS = positive('restaurants', 10_000);
const RECORD = arg('record');

type Side = 'base' | 'new';
interface Sample {
  seedPerS: number;
  bulkPerS: number;
  reindexS: number;
  copyPerS: number;
  aliasP50: number;
  searchP50: number;
  searchPerS: number;
}

function run(dir: string, label: string, args: string[]): void {
  const t0 = Date.now();
  const r = spawnSync(process.execPath, ['--import', 'tsx', ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: process.env, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${label} in ${dir} exited ${r.status}:\n${(r.stdout ?? '').slice(-2000)}\n${(r.stderr ?? '').slice(-2000)}`);
  console.log(`    ${label}: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
const resultOf = <T>(dir: string, name: string): T => JSON.parse(readFileSync(join(dir, 'test-results', name), 'utf8')) as T;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function benches(dir: string): Sample {
  run(dir, 'bulk', ['bench/bulk.bench.ts', '--restaurants', String(RESTAURANTS), '--rounds', '1', '--paths', 'seed,bulk', '--index', 'gs-cmp-bulk']);
  const bulk = resultOf<{ median: { seed: number; bulk: number } }>(dir, 'bench-bulk.json');
  run(dir, 'reindex', ['bench/reindex.bench.ts', '--restaurants', String(RESTAURANTS), '--seconds', '5', '--index', 'ri-cmp']);
  const ri = resultOf<{ reindexSeconds: number; copyDocsPerSecond: number; search: { before: { p50: number } } }>(dir, 'bench-reindex.json');
  run(dir, 'search', ['bench/live.bench.ts', '--quick']);
  const live = resultOf<{ rows: { latency: { routed: { p50: number } }; throughput: { routedPerS: number } }[] }>(dir, 'bench-live.json');
  return {
    seedPerS: bulk.median.seed,
    bulkPerS: bulk.median.bulk,
    reindexS: ri.reindexSeconds,
    copyPerS: ri.copyDocsPerSecond,
    aliasP50: ri.search.before.p50,
    searchP50: median(live.rows.map((r) => r.latency.routed.p50)),
    searchPerS: median(live.rows.map((r) => r.throughput.routedPerS)),
  };
}

const load = loadSampler();
const samples: Record<Side, Sample[]> = { base: [], new: [] };
const started = utcMinute();
for (let k = 0; k < ROUNDS; k++) {
  const order: Side[] = k % 2 === 0 ? ['base', 'new'] : ['new', 'base'];
  for (const side of order) {
    console.log(`round ${k + 1}, ${side} (${side === 'base' ? base : ROOT})`);
    samples[side].push(benches(side === 'base' ? base : ROOT));
    load.sample();
  }
}

const keys = Object.keys(samples.base[0]) as (keyof Sample)[];
const med = (side: Side) => Object.fromEntries(keys.map((key) => [key, median(samples[side].map((s) => s[key]))])) as unknown as Sample;
const [b, n] = [med('base'), med('new')];
const f0 = (x: number) => Math.round(x).toLocaleString('en-US');
const rows: [string, string, string, number][] = [
  ['seed (package writer), docs/s', f0(b.seedPerS), f0(n.seedPerS), n.seedPerS / b.seedPerS],
  ['plain _bulk in the same bench, docs/s', f0(b.bulkPerS), f0(n.bulkPerS), n.bulkPerS / b.bulkPerS],
  ['reindex, s', b.reindexS.toFixed(1), n.reindexS.toFixed(1), n.reindexS / b.reindexS],
  ['reindex copy, docs/s', f0(b.copyPerS), f0(n.copyPerS), n.copyPerS / b.copyPerS],
  ['search through the alias, p50 ms', b.aliasP50.toFixed(1), n.aliasP50.toFixed(1), n.aliasP50 / b.aliasP50],
  ['routed search, p50 ms', b.searchP50.toFixed(1), n.searchP50.toFixed(1), n.searchP50 / b.searchP50],
  ['routed search, searches/s', f0(b.searchPerS), f0(n.searchPerS), n.searchPerS / b.searchPerS],
];
console.log(`\n| measure | base | new | new / base |\n|---|---|---|---|`);
for (const [what, x, y, r] of rows) console.log(`| ${what} | ${x} | ${y} | ${r.toFixed(2)}x |`);
console.log(`(${ROUNDS} rounds, medians; load ${load.range()}; ${machine()})`);
const spread = (side: Side, key: keyof Sample) => {
  const xs = samples[side].map((s) => s[key]);
  return `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
};
console.log('spreads (min–max over rounds):', keys.map((key) => `${key} base ${spread('base', key)}, new ${spread('new', key)}`).join('; '));

if (RECORD) {
  const ratio = (x: number) => `${x.toFixed(2)}x`;
  recordRun(RECORD, {
    what: `Two checkouts in one run (base ${base}, new this one): bench/bulk.bench.ts (seed and plain _bulk, ${f0(RESTAURANTS)} restaurants), bench/reindex.bench.ts (split to N+1), bench/live.bench.ts --quick; ${ROUNDS} rounds, order alternating, medians; new / base`,
    command: `npx tsx bench/checkouts.bench.ts --base ${BASE} --rounds ${ROUNDS} --restaurants ${RESTAURANTS} --record ${RECORD}`,
    date: `${started}–${utcMinute().slice(11)}`,
    machine: machine(),
    load: load.range(),
    source: 'docs/performance-lab-notes.md',
    figures: {
      seedBase: f0(b.seedPerS),
      seedNew: f0(n.seedPerS),
      seedRatio: ratio(n.seedPerS / b.seedPerS),
      bulkRatio: ratio(n.bulkPerS / b.bulkPerS),
      reindexBase: `${b.reindexS.toFixed(1)} s`,
      reindexNew: `${n.reindexS.toFixed(1)} s`,
      reindexRatio: ratio(n.reindexS / b.reindexS),
      copyRatio: ratio(n.copyPerS / b.copyPerS),
      aliasP50Ratio: ratio(n.aliasP50 / b.aliasP50),
      searchP50Base: `${b.searchP50.toFixed(1)} ms`,
      searchP50New: `${n.searchP50.toFixed(1)} ms`,
      searchP50Ratio: ratio(n.searchP50 / b.searchP50),
      searchRateRatio: ratio(n.searchPerS / b.searchPerS),
    },
  });
}

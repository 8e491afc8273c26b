import { diffBoundaries, parseRadius, formatRadius, Router, type BoundaryDiff, type Evenness } from '../../core/index.ts';
import { searchWorkload, type RadiusShare } from '../../core/searchWorkload.ts';
import { expectedFanout, type Fanout } from '../../core/expectedFanout.ts';
import { parse, int, decimal } from '../args.ts';
import { loadBoundaryFile, loadCells, DEFAULT_CELLS, CliError, DEFAULT_BOUNDARIES } from '../io.ts';
import type { Command } from '../command.ts';
import { loadWorkload, WORKLOAD_OPTION } from './workload.ts';
import { workloadLoadFigures, workloadLoadTable } from './diffWorkload.ts';

const n = (x: number) => x.toLocaleString('en-US');
const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)}%`;

/** parseRadii reads a radius mix such as "5mi,15mi,25mi,50mi" or "10km:2,50km:1" (radius[:weight]). */
export function parseRadii(text: string, command: string): RadiusShare[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new CliError(`geoshard ${command}: --radii ${JSON.stringify(text)} is not a list: write radii separated by commas, such as 5mi,15mi,25mi,50mi`, 2);
  return parts.map((p) => {
    const [r, w, extra] = p.split(':');
    if (extra !== undefined) throw new CliError(`geoshard ${command}: --radii entry ${JSON.stringify(p)} is not radius[:weight]`, 2);
    const radius = parseRadius(r, 'mi', '--radii');
    const weight = w === undefined ? 1 : decimal(w);
    if (weight === undefined || weight <= 0) {
      throw new CliError(`geoshard ${command}: --radii weight ${JSON.stringify(w)} in ${JSON.stringify(p)} is invalid: expected a number greater than 0`, 2);
    }
    return { km: radius.km, weight, label: formatRadius(radius) };
  });
}

function evennessTable(before: Evenness, after: Evenness): string {
  const row = (label: string, a: number, b: number) => `  ${label.padEnd(26)} ${a.toFixed(4).padStart(8)}  ${b.toFixed(4).padStart(8)}\n`;
  return (
    `evenness                     current  candidate\n` +
    row('heaviest / mean', before.heaviestOverMean, after.heaviestOverMean) +
    row('coefficient of variation', before.cv, after.cv) +
    row('Gini', before.gini, after.gini)
  );
}

function fanoutTable(a: Fanout, b: Fanout, qps: number, workload: string): string {
  const row = (label: string, mean: number, one: number, sq: number) =>
    `  ${label.padEnd(24)} ${mean.toFixed(3).padStart(11)}  ${pct(one, 1).padStart(9)}  ${n(Math.round(sq)).padStart(14)}\n`;
  let out = `expected fan-out (${workload})\n`;
  out += `  ${''.padEnd(24)} ${'mean shards'.padStart(11)}  ${'one shard'.padStart(9)}  ${`shard-q/s at ${n(qps)} q/s`.padStart(14)}\n`;
  out += row(`current (${a.numberOfShards} shards)`, a.meanShards, a.oneShardShare, a.shardQueriesPerSecond);
  out += row(`candidate (${b.numberOfShards} shards)`, b.meanShards, b.oneShardShare, b.shardQueriesPerSecond);
  out += row(`hash-sharded, ${a.numberOfShards} shards`, a.hash.meanShards, a.hash.oneShardShare, a.hash.shardQueriesPerSecond);
  if (b.numberOfShards !== a.numberOfShards) out += row(`hash-sharded, ${b.numberOfShards} shards`, b.hash.meanShards, b.hash.oneShardShare, b.hash.shardQueriesPerSecond);
  out += `  by radius: ${a.byRadius.map((r, k) => `${r.label} ${r.meanShards.toFixed(2)} → ${b.byRadius[k].meanShards.toFixed(2)}`).join(', ')}\n`;
  return out;
}

function movesTable(d: BoundaryDiff): string {
  if (d.moves.length === 0) return 'no key range changes owner\n';
  const w = Math.max(4, ...d.moves.flatMap((m) => [m.from.length, m.to.length]));
  let out = `${d.moves.length} key range${d.moves.length === 1 ? '' : 's'} change owner (matched by shard ${d.match === 'name' ? 'name' : 'range overlap'}; start inclusive, end exclusive)\n`;
  out += `  ${'start'.padEnd(6)}  ${'end'.padEnd(6)}  ${'from'.padEnd(w)}    ${'to'.padEnd(w)}  ${'restaurants'.padStart(11)}  ${'dishes'.padStart(11)}  ${'of index'.padStart(8)}\n`;
  for (const m of d.moves) {
    out += `  ${m.start.padEnd(6)}  ${(m.end ?? 'end').padEnd(6)}  ${m.from.padEnd(w)} →  ${m.to.padEnd(w)}  ${n(m.restaurants).padStart(11)}  ${n(m.dishes).padStart(11)}  ${pct(m.share).padStart(8)}${m.sameShard ? '  (same OpenSearch shard: a rename, nothing moves)' : ''}\n`;
  }
  return out;
}

function shardsTable(d: BoundaryDiff): string {
  const w = Math.max(5, ...d.shards.map((s) => s.name.length));
  const mb = d.evenness.before.mean;
  const ma = d.evenness.after.mean;
  let out = `documents per shard (restaurants + dishes; vs the mean: current ${n(Math.round(mb))}, candidate ${n(Math.round(ma))})\n`;
  out += `  ${'shard'.padEnd(w)}  ${'current'.padStart(11)}  ${'vs mean'.padStart(8)}  ${'candidate'.padStart(11)}  ${'vs mean'.padStart(8)}\n`;
  const rel = (x: number, mean: number) => (mean > 0 ? `${x >= mean ? '+' : ''}${pct(x / mean - 1, 1)}` : '');
  for (const s of d.shards) {
    const b = s.before ? `${n(s.before.documents).padStart(11)}  ${rel(s.before.documents, mb).padStart(8)}` : `${'—'.padStart(11)}  ${''.padStart(8)}`;
    const a = s.after ? `${n(s.after.documents).padStart(11)}  ${rel(s.after.documents, ma).padStart(8)}` : `${'—'.padStart(11)}  ${''.padStart(8)}`;
    out += `  ${s.name.padEnd(w)}  ${b}  ${a}\n`;
  }
  return out;
}

export const diff: Command = {
  name: 'diff',
  summary: 'what a candidate boundary file changes: moves, documents moved, evenness, fan-out',
  usage: `geoshard diff [--boundaries CURRENT] --candidate CANDIDATE [--cells FILE] [--json] [--qps N] [--centres N] [--seed N] [--radii LIST] [--match name|range]

Compares two boundary files over the cells file and prints
  - the key ranges whose owner changes (owners matched by shard name: a range moves when the
    shard name searches read it from differs), each with from → to, [start, end) as level-10
    tokens (start inclusive, end exclusive, "end" = end of the curve), restaurants and dishes;
  - totals: documents (restaurants + dishes) moved and their share of the index;
  - documents per shard before and after, and evenness (heaviest/mean, coefficient of
    variation, Gini);
  - expected fan-out before and after beside a hash-sharded index (every search asks all N):
    mean shards asked, share of searches asking one shard, shard-queries/s at --qps, over a
    seeded workload: centres drawn in proportion to restaurants (a cell picked by its
    restaurants, then a uniform point in it), each searched at every radius of the mix.
A candidate with another index name, shard count or routing shards needs a new index: every
document is written again, and the diff says so. An invalid file is rejected with every
problem the validator finds (exit 1).

  --boundaries CURRENT  the boundary file in use (default data/boundaries.json)
  --candidate FILE      the proposed boundary file (required); the old positional form
                        CURRENT CANDIDATE still works for this release, with a notice
  --cells FILE    cells file, header token,restaurants,dishes (default data/cells.csv)
  --qps N         query rate for shard-queries per second (default 1000)
  --centres N     search centres in the workload (default 2000)
  --seed N        workload seed (default 1)
  --radii LIST    radius mix, radius[:weight] separated by commas (default 5mi,15mi,25mi,50mi)
  --match M       pair shards by "name" (default) or by "range" overlap (names aside)
${WORKLOAD_OPTION}
                   adds, over those searches: load per shard before/after (Σ weight × documents
                   scanned), the hottest shards, mean shards asked and the one-shard share
  --json          print JSON: { moves: [{ from, to, start, end, restaurants, dishes, ... }],
                  totals: { restaurants, dishes, share, ... }, shards, evenness, fanout, ... }`,
  run(argv, io) {
    const { values } = parse(
      argv,
      { boundaries: { type: 'string' }, candidate: { type: 'string' }, cells: { type: 'string' }, json: { type: 'boolean' }, qps: { type: 'string' }, centres: { type: 'string' }, seed: { type: 'string' }, radii: { type: 'string' }, match: { type: 'string' }, workload: { type: 'string' } },
      'diff',
      false,
      { positional: ['boundaries', 'candidate'] },
    );
    if (values.candidate === undefined) throw new CliError('geoshard diff: --candidate FILE is required: the boundary file to compare with --boundaries (default data/boundaries.json)\nRun "geoshard diff --help" for usage.', 2);
    const qps = values.qps === undefined ? 1000 : decimal(values.qps as string);
    if (qps === undefined || qps < 0) throw new CliError(`geoshard diff: --qps ${JSON.stringify(values.qps)} is invalid: expected a non-negative number of queries per second`, 2);
    const centres = int(values.centres, 'centres', 'diff', 2000, 1, 1_000_000);
    const seed = int(values.seed, 'seed', 'diff', 1, -2147483648, 2147483647);
    const match = (values.match as string | undefined) ?? 'name';
    if (match !== 'name' && match !== 'range') throw new CliError(`geoshard diff: --match ${JSON.stringify(match)} is invalid: expected "name" or "range"`, 2);
    const radii = values.radii === undefined ? undefined : parseRadii(values.radii as string, 'diff');
    const currentPath = (values.boundaries as string | undefined) ?? DEFAULT_BOUNDARIES;
    const candidatePath = values.candidate as string;
    const current = new Router(loadBoundaryFile(currentPath), currentPath);
    const candidate = new Router(loadBoundaryFile(candidatePath), candidatePath);
    const cellsPath = (values.cells as string | undefined) ?? DEFAULT_CELLS;
    const cells = loadCells(cellsPath);
    const d = diffBoundaries(current, candidate, cells, { match });
    const byRange = match === 'name' && !d.sameLayout ? diffBoundaries(current, candidate, cells, { match: 'range' }).totals : null;
    const workload = searchWorkload(cells, { seed, centres, radii });
    const fa = expectedFanout(current, workload, qps);
    const fb = expectedFanout(candidate, workload, qps);
    const workloadText = `${n(centres)} centres ∝ restaurants × ${workload.radii.map((r) => `${r.label}${workload.radii.some((x) => Math.abs(x.weight - r.weight) > 1e-12) ? `:${+(r.weight * 100).toFixed(1)}%` : ''}`).join(', ')}, seed ${seed}`;

    const wl = values.workload === undefined ? null : workloadLoadFigures(loadWorkload(values.workload as string), current, candidate, cells);

    if (values.json) {
      const fanout = (f: Fanout) => ({ meanShards: f.meanShards, oneShardShare: f.oneShardShare, shardQueriesPerSecond: f.shardQueriesPerSecond, byRadius: f.byRadius.map((r) => ({ label: r.label, km: r.km, weight: r.weight, meanShards: r.meanShards, oneShardShare: r.oneShardShare })) });
      io.out(
        JSON.stringify(
          {
            current: { path: currentPath, ...d.current },
            candidate: { path: candidatePath, ...d.candidate },
            cells: cellsPath,
            match: d.match,
            sameLayout: d.sameLayout,
            reindex: d.reindex,
            moves: d.moves,
            totals: d.totals,
            ...(byRange ? { byRange } : {}),
            all: d.all,
            shards: d.shards,
            evenness: d.evenness,
            fanout: {
              workload: { seed, centres, searches: fa.searches, radii: workload.radii },
              qps,
              current: fanout(fa),
              candidate: fanout(fb),
              hash: { current: fa.hash, candidate: fb.hash },
            },
            ...(wl ? { workload: wl } : {}),
          },
          null,
          2,
        ) + '\n',
      );
      return 0;
    }
    const same = d.current.hash === d.candidate.hash;
    let out = `current    ${currentPath}  v${d.current.version}, ${d.current.numberOfShards} shards, hash ${d.current.hash.slice(0, 12)}\n`;
    out += `candidate  ${candidatePath}  v${d.candidate.version}, ${d.candidate.numberOfShards} shards, hash ${d.candidate.hash.slice(0, 12)}${same ? ' (the same file)' : ''}\n`;
    out += `cells      ${cellsPath}  ${n(d.all.cells)} cells, ${n(d.all.restaurants)} restaurants, ${n(d.all.dishes)} dishes\n\n`;
    if (d.reindex) out += `! reindex: ${d.reindex}.\n\n`;
    out += movesTable(d);
    out += `moved: ${n(d.totals.restaurants)} restaurants and ${n(d.totals.dishes)} dishes = ${pct(d.totals.share)} of the index's ${n(d.all.documents)} documents\n`;
    if (byRange) out += `       paired by range overlap instead of name (names aside): ${pct(byRange.share)} of documents change shard (geoshard diff --match range)\n`;
    out += '\n' + shardsTable(d) + '\n' + evennessTable(d.evenness.before, d.evenness.after) + '\n' + fanoutTable(fa, fb, qps, workloadText);
    if (wl) out += '\n' + workloadLoadTable(wl);
    io.out(out);
    return 0;
  },
};

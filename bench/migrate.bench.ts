/**
 * `npx tsx bench/migrate.bench.ts [--restaurants R] [--share 0.01] [--seconds S] [--ranges K] [--writer]`: how long
 * `geoshard migrate` takes to move about `share` of the documents on a seeded sample, and the
 * live API's search latency (compare=1, one request at a time) before vs during the move.
 *
 *   1. seed a dedicated index (`geoshard-bench-migrate`, the bundled boundaries) with R
 *      restaurants (default 2,000) unless it already holds them, settled on the bundled file;
 *   2. baseline: searches on seeded circles for S seconds (default 20): p50/p99 wall time;
 *   3. the move: two boundaries moved so that about share × R restaurants change shard, run
 *      by the real CLI (default grace: the API's search deadline + 1 s), searches running
 *      throughout: total time, p50/p99 during the move, and whether any answer changed;
 *   4. the move back (timed for the cutover windows only), so the index is ready for the next run.
 *
 * `--ranges K` moves K boundaries (default 2). `--writer` runs a writer beside both moves
 * (src/testing/writeLoad.ts: creates, full updates and deletes through both write paths, half in
 * the moving ranges); the searches are then filtered by a diet its dishes lack, and afterwards
 * every acknowledged write is checked (lost, duplicated, orphaned, stale, misplaced). Either way
 * the bench reports each range's cutover window (how long writes were blocked) and its p50/p99.
 *
 * Needs a node (OPENSEARCH_URL or OPENSEARCH_PORT). Results also go to test-results/bench-migrate.json.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import os from 'node:os';
import { Router, formatBoundaryFile } from '../src/core/index.ts';
import { mulberry32 } from '../src/core/testutil.ts';
import { seedIndex } from '../src/ops/seed/seeder.ts';
import { sampleOf } from '../src/data/sample.ts';
import { movedCandidate } from '../src/testing/migrationFixture.ts';
import { ROOT, derivedFile, liveClient, startApi, getJson, type RunningApi } from '../src/testing/testkit.ts';
import { WriteLoad, type WriteCheck } from '../src/testing/writeLoad.ts';
import { cellOrdinal, ordinalAt, parseToken } from '../src/core/index.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(argv[i + 1]) : dflt;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} ${argv[i + 1]} is invalid: expected a positive number`);
  return v;
};
const RESTAURANTS = opt('restaurants', 2000);
const SHARE = opt('share', 0.01);
const SECONDS = opt('seconds', 20);
const RANGES = opt('ranges', 2);
const WRITER = argv.includes('--writer');
const DISHES = 10;
const INDEX = 'geoshard-bench-migrate';

const client = liveClient();
const base = derivedFile(INDEX);
const which = RANGES === 2 ? [3, 12] : Array.from({ length: RANGES }, (_, k) => 1 + Math.floor((k * (base.boundaries.length - 1)) / RANGES));
const perBoundary = Math.max(1, Math.round((SHARE * RESTAURANTS) / which.length));
const candidate = movedCandidate(base, RESTAURANTS, which, perBoundary);
const dir = mkdtempSync(join(tmpdir(), 'geoshard-bench-migrate-'));
const basePath = join(dir, 'base.json');
const candidatePath = join(dir, 'candidate.json');
writeFileSync(basePath, formatBoundaryFile(base));
writeFileSync(candidatePath, formatBoundaryFile(candidate));

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};

const rand = mulberry32(7);
const sample = sampleOf(RESTAURANTS);
const circles = Array.from({ length: 32 }, () => {
  const r = sample[Math.floor(rand() * sample.length)];
  return { lat: r.lat, lng: r.lng, radiusKm: 5 + Math.round(rand() * 60) };
});

async function loop(api: RunningApi, until: () => boolean, expected?: Map<number, number>) {
  const ms: number[] = [];
  let changed = 0;
  let errors = 0;
  for (let k = 0; !until(); k++) {
    const c = circles[k % circles.length];
    const t0 = performance.now();
    const r = await getJson(`${api.url}/api/search?lat=${c.lat}&lng=${c.lng}&radius=${c.radiusKm}km${WRITER ? '&diet=vegetarian' : ''}&compare=1&size=10`);
    ms.push(performance.now() - t0);
    if (r.status !== 200 || r.body.identical !== true) errors++;
    else if (expected && expected.get(k % circles.length) !== r.body.total) changed++;
    expected?.has(k % circles.length) || expected?.set(k % circles.length, r.body.total);
  }
  return { ms, changed, errors, n: ms.length };
}

/** Runs the CLI; `started` resolves when it has written the migration state (the candidate's server answers from then on). */
function cli(to: string): { started: Promise<void>; done: Promise<{ code: number | null; ms: number; err: string }> } {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src/cli/bin.ts'), 'migrate', '--candidate', to], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let onStart = () => {};
  const started = new Promise<void>((r) => (onStart = r));
  child.stderr.on('data', (b) => ((err += b), /started: /.test(err) && onStart()));
  const done = new Promise<{ code: number | null; ms: number; err: string }>((r) => child.on('exit', (code) => (onStart(), r({ code, ms: performance.now() - t0, err }))));
  return { started, done };
}

const meta = await fetchIndexMeta(client, INDEX);
if (meta?.hash !== base.hash || meta.migration || !meta.file || meta.sample?.restaurants !== RESTAURANTS || !meta.sample.complete) {
  console.error(`seeding ${INDEX} with ${RESTAURANTS} restaurants...`);
  await seedIndex({ client, router: new Router(base), restaurants: RESTAURANTS, dishesPerRestaurant: DISHES, recreate: true });
}
const total = (await fetchIndexMeta(client, INDEX))!.sample!;
const docs = (total.restaurantDocs ?? 0) + (total.dishDocs ?? 0);

const before = await startApi({ file: base, client });
const expected = new Map<number, number>();
// Warm-up: one round of every circle (also records each circle's total before the move).
let warm = 0;
await loop(before, () => warm++ >= circles.length, expected);
const tBase = performance.now();
const baseline = await loop(before, () => performance.now() - tBase > SECONDS * 1000, expected);
await before.close();

const inMove = sample.filter((r) => {
  const o = ordinalAt(r.lat, r.lng);
  return which.some((i) => o >= cellOrdinal(parseToken(candidate.boundaries[i])) && o < cellOrdinal(parseToken(base.boundaries[i])));
});
const writer = (seed: number, prefix: string) => {
  if (!WRITER) return null;
  const w = new WriteLoad({ client, base, hot: inMove, any: sample, prefix, seed, paths: ['routed', 'plain'], pipeline: false });
  return { w, running: w.run() };
};
const checked = async (x: ReturnType<typeof writer>, final: typeof base): Promise<(WriteCheck & { stats: WriteLoad['stats'] }) | null> => {
  if (!x) return null;
  x.w.stop();
  await x.running;
  const c = await x.w.check(new Router(final));
  await x.w.cleanup();
  return { ...c, stats: x.w.stats };
};
const windowsOf = (err: string) => [...err.matchAll(/writes blocked (\d+) ms/g)].map((x) => Number(x[1]));

const during = await startApi({ file: candidate, client });
let moving = true;
const fwdWriter = writer(11, 'wbench-f');
const run = cli(candidatePath);
const move = run.done.finally(() => (moving = false));
await run.started;
const duringLoop = loop(during, () => !moving, expected);
const [m, d] = await Promise.all([move, duringLoop]);
await during.close();
if (m.code !== 0) throw new Error(`geoshard migrate failed:\n${m.err}`);
const movedDocs = [...m.err.matchAll(/verified under the write block: (\d+) restaurants and (\d+) dishes/g)].reduce((s, x) => s + Number(x[1]) + Number(x[2]), 0);
const fwdCheck = await checked(fwdWriter, candidate);
const backWriter = writer(12, 'wbench-b');
const back = await cli(basePath).done;
if (back.code !== 0) throw new Error(`geoshard migrate (back) failed:\n${back.err}`);
const backCheck = await checked(backWriter, base);
const windows = [...windowsOf(m.err), ...windowsOf(back.err)];
const problems = (c: WriteCheck | null) => (c ? c.lost.length + c.duplicated.length + c.orphaned.length + c.stale.length + c.misplaced.length : 0);

const result = {
  machine: { cpus: os.cpus().length, load1: os.loadavg()[0] },
  sample: { restaurants: RESTAURANTS, documents: docs },
  moved: { documents: movedDocs, share: movedDocs / docs },
  moveSeconds: m.ms / 1000,
  // Three waits per range: after dual writes go on, after the switch, before the delete.
  graceSeconds: 6 * 3 * which.length,
  before: { searches: baseline.n, p50: pct(baseline.ms, 50), p99: pct(baseline.ms, 99), errors: baseline.errors },
  during: { searches: d.n, p50: pct(d.ms, 50), p99: pct(d.ms, 99), errors: d.errors, changedTotals: d.changed },
  ranges: which.length * 2,
  cutoverWindowsMs: { all: windows, p50: pct(windows, 50), p99: pct(windows, 99), max: Math.max(...windows) },
  writer: WRITER ? { forward: fwdCheck, back: backCheck, problems: problems(fwdCheck) + problems(backCheck) } : null,
};
mkdirSync(join(ROOT, 'test-results'), { recursive: true });
writeFileSync(join(ROOT, 'test-results', 'bench-migrate.json'), JSON.stringify(result, null, 2));
console.log(
  `moved ${movedDocs} of ${docs} documents (${(100 * result.moved.share).toFixed(2)}%) in ${result.moveSeconds.toFixed(1)} s (of which ${result.graceSeconds} s are the grace waits)\n` +
    `search (compare=1) before: p50 ${result.before.p50.toFixed(0)} ms, p99 ${result.before.p99.toFixed(0)} ms over ${baseline.n}\n` +
    `search (compare=1) during: p50 ${result.during.p50.toFixed(0)} ms, p99 ${result.during.p99.toFixed(0)} ms over ${d.n}; ${d.errors} errors, ${d.changed} changed totals\n` +
    `cutover windows (writes blocked) over ${windows.length} tries of ${result.ranges} ranges (forward and back): p50 ${result.cutoverWindowsMs.p50} ms, p99 ${result.cutoverWindowsMs.p99} ms, max ${result.cutoverWindowsMs.max} ms\n` +
    (result.writer
      ? `writer: forward ${JSON.stringify(fwdCheck!.stats)}, back ${JSON.stringify(backCheck!.stats)}; ${fwdCheck!.checked + backCheck!.checked} documents checked, ${result.writer.problems} lost/duplicated/orphaned/stale/misplaced\n`
      : '') +
    `machine: ${result.machine.cpus} cores, load ${result.machine.load1.toFixed(1)}`,
);
if (result.writer && result.writer.problems > 0) {
  console.error(JSON.stringify({ forward: fwdCheck, back: backCheck }, null, 2));
  process.exitCode = 1;
}
await client.close();

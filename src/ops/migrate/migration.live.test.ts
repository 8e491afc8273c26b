/**
 * `geoshard migrate` on the real node while the live API serves searches:
 * two boundaries of the bundled file move (forward), then move back with the
 * CLI killed (kill -9) at three points and started again. Throughout, a loop
 * of seeded searches (compare=1, some circles straddling the moving ranges)
 * must answer exactly what it answered before the move. The CLI runs as a real
 * process; it stops at a named point through GEOSHARD_MIGRATE_PAUSE and says
 * so on stderr, so the test kills it there (no sleeps).
 *
 * Both runs have a writer beside them (writeLoad.ts: creates, full updates
 * and deletes of restaurants with their dishes, half in the moving ranges,
 * through both paths: the package's writer, GeoIndexer, writing every owner,
 * and a plain client sending no routing, so the index's routing pipeline
 * places its writes, and deleting the copies a search finds). Afterwards every write
 * it had acknowledged is in the index exactly once, on its new owner, with
 * its last content, and nothing it deleted is left. Its dishes have no diet,
 * so the searches (filtered by a diet) still answer what they did before.
 *
 * Expected values: the totals and hit ids the node itself returned before the
 * move; per-shard counts predicted by the core from the sample (verify-routing);
 * the writer's own record of what the cluster acknowledged.
 */
import { describe, it, expect, beforeAll, afterAll, onTestFinished } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Router, formatBoundaryFile, ordinalAt, cellOrdinal, parseToken, type BoundaryFile } from '../../core/index.ts';
import { mulberry32 } from '../../core/testutil.ts';
import { derivedFile, liveClient, startApi, getJson, ROOT, type RunningApi } from '../../testing/testkit.ts';
import { seedIndex } from '../seed/seeder.ts';
import { sampleOf } from '../../data/sample.ts';
import { verifyRouting } from '../routing/verifyRouting.ts';
import { movedCandidate } from '../../testing/migrationFixture.ts';
import { writeBlocked } from './cutover.ts';
import { auditIndex } from '../audit/audit.ts';
import { installPipeline, readPipeline } from '../routing/pipelineInstall.ts';
import { WriteLoad, type WritePath } from '../../testing/writeLoad.ts';
import type { Restaurant } from '../../data/generator.ts';
import { main } from '../../cli/main.ts';
import { fetchIndexMeta } from '../../opensearch/indexMeta.ts';
import { LOCK_INDEX } from './migrationLock.ts';

const INDEX = 'geoshard-live-migrate';
const SAMPLE = { restaurants: 800, dishesPerRestaurant: 8 };
const client = liveClient();
const base = derivedFile(INDEX);
const candidate = movedCandidate(base, SAMPLE.restaurants, [3, 12], 6);
const dir = mkdtempSync(join(tmpdir(), 'geoshard-migrate-live-'));
const BASE_PATH = join(dir, 'base.json');
const CANDIDATE_PATH = join(dir, 'candidate.json');
/** Wait after publishing dual writes and the switch: searches here re-check the epoch after running, so this only needs to be short. */
const GRACE_MS = '300';

/** A seeded circle, with the total and top hit ids the node answered before any move. */
interface Circle {
  lat: number;
  lng: number;
  radiusKm: number;
  straddles: boolean;
  total?: number;
  ids?: string[];
}

let circles: Circle[];
let hotPlaces: Restaurant[];
let anyPlaces: Restaurant[];
/** Searches are filtered by this diet: the writer's dishes have none, so they never change an answer. */
const DIET = 'vegetarian';

beforeAll(async () => {
  writeFileSync(BASE_PATH, formatBoundaryFile(base));
  writeFileSync(CANDIDATE_PATH, formatBoundaryFile(candidate));
  // A clean index for the base file, unless it already is one (a run that finished leaves it so).
  const meta = await fetchIndexMeta(client, INDEX);
  const s = meta?.sample;
  if (!(meta?.hash === base.hash && meta.file && !meta.migration && s?.complete && s.restaurants === SAMPLE.restaurants && s.dishesPerRestaurant === SAMPLE.dishesPerRestaurant)) {
    await seedIndex({ client, router: new Router(base), ...SAMPLE, recreate: true });
  }
  await client.request('DELETE', `/${LOCK_INDEX}/_doc/${INDEX}`, { okStatuses: [404] });
  // The routing pipeline the plain writer's documents go through (seed installs it; an index seeded
  // before it existed gets it here).
  await installPipeline(client, INDEX, base, null);
  // A run stopped before its writer cleaned up leaves the writer's documents: the sample alone again.
  await new WriteLoad({ client, base, hot: [], any: [], prefix: 'w', seed: 0, paths: ['plain'], pipeline: false }).cleanup();
  // Circles: half centred on restaurants whose cell moves (they straddle a moving range), half anywhere.
  const rand = mulberry32(14);
  const sample = sampleOf(SAMPLE.restaurants);
  const moving = (lat: number, lng: number) => {
    const o = ordinalAt(lat, lng);
    return [3, 12].some((i) => o >= cellOrdinal(parseToken(candidate.boundaries[i])) && o < cellOrdinal(parseToken(base.boundaries[i])));
  };
  const inMove = sample.filter((r) => moving(r.lat, r.lng));
  expect(inMove.length).toBeGreaterThanOrEqual(12);
  hotPlaces = inMove;
  anyPlaces = sample;
  circles = [];
  for (let k = 0; k < 8; k++) {
    const r = inMove[Math.floor(rand() * inMove.length)];
    circles.push({ lat: r.lat, lng: r.lng, radiusKm: 2 + Math.round(rand() * 60), straddles: true });
  }
  for (let k = 0; k < 8; k++) {
    const r = sample[Math.floor(rand() * sample.length)];
    circles.push({ lat: r.lat, lng: r.lng, radiusKm: 5 + Math.round(rand() * 200), straddles: false });
  }
  const api = await startApi({ file: base, client });
  try {
    for (const c of circles) {
      const r = await search(api, c);
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      expect(r.body.identical).toBe(true);
      c.total = r.body.total;
      c.ids = r.body.hits.map((h: { id: string }) => h.id);
    }
  } finally {
    await api.close();
  }
  // Some straddling circles hold documents that move, or the test proves little.
  expect(circles.filter((c) => c.straddles && c.total! > 0).length).toBeGreaterThanOrEqual(4);
}, 300_000);

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await client.close();
});

function search(api: RunningApi, c: Circle) {
  return getJson(`${api.url}/api/search?lat=${c.lat}&lng=${c.lng}&radius=${c.radiusKm}km&diet=${DIET}&compare=1&size=10`);
}

/** A running `geoshard migrate`: its stderr lines, a wait for a line, its exit. */
interface Cli {
  child: ChildProcess;
  err: () => string;
  waitFor: (re: RegExp) => Promise<void>;
  exit: Promise<number | null>;
}

function migrate(to: string, pause?: string, extra: string[] = []): Cli {
  const env = { ...process.env, GEOSHARD_MIGRATE_PAUSE: pause ?? '' };
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src', 'cli', 'bin.ts'), 'migrate', '--candidate', to, '--grace-ms', GRACE_MS, ...extra], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  const waiters: { re: RegExp; resolve: () => void }[] = [];
  const check = () => {
    for (const w of [...waiters]) if (w.re.test(err)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  };
  child.stderr!.on('data', (b) => ((err += b), check()));
  child.stdout!.on('data', (b) => (out += b));
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return {
    child,
    err: () => err + out,
    exit,
    waitFor: (re) =>
      new Promise<void>((res, rej) => {
        if (re.test(err)) return res();
        waiters.push({ re, resolve: res });
        // A process that ends without the line fails the wait with what it said.
        void exit.then((code) => (re.test(err) ? res() : rej(new Error(`geoshard migrate exited ${code} before printing ${re}:\n${err}${out}`))));
      }),
  };
}

/** Runs searches on the circles, 3 at a time, until `done()` and at least `min` answers; returns every answer. */
async function searchLoop(api: RunningApi, done: () => boolean, min: number) {
  const answers: { c: Circle; status: number; body: any }[] = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && (!done() || answers.length < min)) {
      const c = circles[next++ % circles.length];
      try {
        answers.push({ c, ...(await search(api, c)) });
      } catch (e) {
        failed = true;
        answers.push({ c, status: 0, body: { error: String(e) } });
      }
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return answers;
}

function expectEveryAnswerUnchanged(answers: Awaited<ReturnType<typeof searchLoop>>) {
  const wrong = answers.filter((a) => a.status !== 200 || a.body.status !== 'complete' || a.body.identical !== true || a.body.total !== a.c.total || JSON.stringify(a.body.hits.map((h: { id: string }) => h.id)) !== JSON.stringify(a.c.ids));
  const show = wrong.slice(0, 3).map((a) => `${a.status} ${a.body.status} identical=${a.body.identical} total ${a.body.total} (before: ${a.c.total}) epoch ${a.body.migration?.epoch} ${JSON.stringify(a.body.differences ?? a.body.error)}`);
  expect(show, `${wrong.length} of ${answers.length} answers differ from before the move`).toEqual([]);
}

async function expectSettledOn(file: BoundaryFile) {
  const meta = await fetchIndexMeta(client, INDEX);
  expect(meta?.hash).toBe(file.hash);
  expect(meta?.migration).toBeUndefined();
  const v = await verifyRouting(client, new Router(file));
  if (v.problems.length > 0) {
    // Say which documents are not the sample's (sample ids are r + digits).
    const { body } = await client.request<{ hits: { hits: { _id: string; _routing: string }[] } }>('POST', `/${INDEX}/_search`, { body: { size: 50, _source: false, query: { bool: { must_not: { regexp: { id: 'r[0-9]+(-d[0-9]+)?' } } } } } });
    console.log(`not the sample's: ${body.hits.hits.map((h) => `${h._id}@${h._routing}`).join(', ')}`);
  }
  expect(v.problems).toEqual([]);
  expect(v.counts?.length).toBe(file.numberOfShards);
  // The routing pipeline routes with the settled file too.
  const p = await readPipeline(client, INDEX);
  expect(p?.defaultPipeline).toBe(p?.id);
  expect(p?.identity).toMatchObject({ hash: file.hash, epoch: 0 });
}

async function stateOf() {
  return (await fetchIndexMeta(client, INDEX))?.migration as { epoch: number; moves: { step: string; copied: { restaurants: number; dishes: number }; cutover?: { blockedAt: string | null; windowsMs: number[] } }[] };
}

/** A writer through both paths beside a migration; `finish` stops it and checks the index against `final`. */
function startWriter(seed: number, prefix: string) {
  const paths: WritePath[] = ['routed', 'plain'];
  // The package writer reuses _meta for 100 ms, under the test's 300 ms grace (as its default 1 s is under the default 6 s).
  const w = new WriteLoad({ client, base, hot: hotPlaces, any: anyPlaces, prefix: `${prefix}${Date.now().toString(36)}-`, seed, paths, pipeline: true, metaTtlMs: 100 });
  const running = w.run();
  return {
    w,
    async finish(final: BoundaryFile) {
      w.stop();
      // Whatever happens below, the writer's documents go, so the next test starts from the sample.
      onTestFinished(() => w.cleanup().then(() => {}));
      await running;
      const check = await w.check(new Router(final));
      const problems = { lost: check.lost, duplicated: check.duplicated, orphaned: check.orphaned, misplaced: check.misplaced, stale: check.stale };
      expect(problems, `writer: ${JSON.stringify(w.stats)}`).toEqual({ lost: [], duplicated: [], orphaned: [], misplaced: [], stale: [] });
      expect(check.checked).toBeGreaterThan(0);
      expect(w.stats.creates + w.stats.updates + w.stats.deletes).toBeGreaterThanOrEqual(30);
      expect(w.stats.deletes).toBeGreaterThan(0);
      expect(w.stats.hot).toBeGreaterThan(0);
      // The audit reads every shard: nothing on a wrong shard, no dish apart from its restaurant.
      const audit = await auditIndex(client, INDEX);
      expect(audit.clean, JSON.stringify(audit.tally).slice(0, 2000)).toBe(true);
      expect(audit.documents.total).toBeGreaterThan(SAMPLE.restaurants);
      // The sample alone again, for verify-routing's per-shard prediction.
      await w.cleanup();
      return w.stats;
    },
  };
}

/** The cutover windows the migration recorded, from its progress lines (ms). */
const windowsOf = (err: string) => [...err.matchAll(/writes blocked (\d+) ms/g)].map((x) => Number(x[1]));

describe('geoshard migrate on a live index', () => {
  it('moves two boundaries while searches answer exactly as before, and leaves the index on the candidate', async () => {
    const api = await startApi({ file: candidate, client });
    try {
      const writer = startWriter(1, 'wfwd');
      onTestFinished(() => writer.w.stop());
      const cli = migrate(CANDIDATE_PATH);
      // The candidate's server answers from the moment the migration names it as its target.
      await cli.waitFor(/started: 2 range/);
      let finished = false;
      const loop = searchLoop(api, () => finished, 300);
      onTestFinished(() => void (finished = true));
      const code = await cli.exit;
      finished = true;
      const answers = await loop;
      expect(code, cli.err()).toBe(0);
      expect(cli.err()).toMatch(/range 2\/2 .*: copy done: \d+ documents read \(\d+ counted before the copy\)/);
      expect(cli.err()).toMatch(/range 1\/2 .*: verified under the write block/);
      const windows = windowsOf(cli.err());
      console.log(`forward migration with a writer: ${JSON.stringify(writer.w.stats)}; cutover windows ${windows.join(', ')} ms\n${cli.err()}`);
      expect(windows.length).toBeGreaterThanOrEqual(2);
      await writer.finish(candidate);
      expectEveryAnswerUnchanged(answers);
      expect(answers.length).toBeGreaterThanOrEqual(300);
      // The loop ran through the move: answers routed with several epochs of the migration.
      const epochs = new Set(answers.map((a) => a.body.migration?.epoch).filter((e) => e !== undefined));
      expect(epochs.size).toBeGreaterThanOrEqual(3);
      await expectSettledOn(candidate);
    } finally {
      await api.close();
    }
  }, 240_000);

  it('moves them back with the CLI killed during the copy, between verify and switch, and during the delete, and ends in the same state', async () => {
    const api = await startApi({ file: base, client });
    try {
      const writer = startWriter(2, 'wback');
      onTestFinished(() => writer.w.stop());
      const first = migrate(BASE_PATH, 'copying:1', ['--batch', '2']);
      await first.waitFor(/started: 2 range/);
      let finished = false;
      const loop = searchLoop(api, () => finished, 150);
      onTestFinished(() => void (finished = true));

      await first.waitFor(/paused at copying of range 1/);
      first.child.kill('SIGKILL');
      await first.exit;
      let s = await stateOf();
      expect(s.moves.map((m) => m.step)).toEqual(['copying', 'pending']);
      expect(s.moves[0].copied.restaurants).toBeGreaterThan(0);

      const second = migrate(BASE_PATH, 'verified:1');
      await second.waitFor(/paused at verified of range 1/);
      expect(second.err()).toMatch(/took over the lock of process \d+ on .* \(no longer running\)/);
      expect(second.err()).toMatch(/resuming at epoch \d+: range 1 copying, range 2 pending/);
      second.child.kill('SIGKILL');
      await second.exit;
      s = await stateOf();
      expect(s.moves.map((m) => m.step)).toEqual(['verified', 'pending']);
      expect(s.moves[0].cutover?.blockedAt).toEqual(expect.any(String));

      // Killed at verified, it held the write block; the next run switches, then lifts it. Killed during the
      // cutover of range 2 (the block held, the range still copying), the run after lifts it and copies again.
      expect(await writeBlocked(client, INDEX)).toBe(true);
      const blocked = migrate(BASE_PATH, 'cutover:2');
      await blocked.waitFor(/paused at cutover of range 2/);
      expect(blocked.err()).toMatch(/range 1\/2 .*: switched/);
      expect(blocked.err()).toMatch(/range 1\/2 .*: lifted the write block a killed run set at/);
      blocked.child.kill('SIGKILL');
      await blocked.exit;
      s = await stateOf();
      expect(s.moves.map((m) => m.step)).toEqual(['done', 'copying']);
      expect(s.moves[1].cutover?.blockedAt).toEqual(expect.any(String));
      expect(await writeBlocked(client, INDEX)).toBe(true);

      const third = migrate(BASE_PATH, 'deleting:2');
      await third.waitFor(/paused at deleting of range 2/);
      expect(third.err()).toMatch(/range 2\/2 .*: lifted the write block a killed run set at/);
      expect(await writeBlocked(client, INDEX)).toBe(false);
      // While it runs (paused, alive), a second migration is refused.
      const rival = migrate(BASE_PATH);
      expect(await rival.exit).toBe(1);
      expect(rival.err()).toMatch(/a migration of "geoshard-live-migrate" is already running: process \d+/);
      third.child.kill('SIGKILL');
      await third.exit;
      s = await stateOf();
      expect(s.moves.map((m) => m.step)).toEqual(['done', 'deleting']);

      const last = migrate(BASE_PATH);
      const code = await last.exit;
      finished = true;
      const answers = await loop;
      expect(code, last.err()).toBe(0);
      expectEveryAnswerUnchanged(answers);
      expect(answers.length).toBeGreaterThanOrEqual(150);
      const stats = await writer.finish(base);
      console.log(`migration back with kills and a writer: ${JSON.stringify(stats)}`);
      await expectSettledOn(base);
      // The same final state as a fresh seed: verify-routing's prediction for the base file holds on every shard.
    } finally {
      await api.close();
    }
  }, 300_000);

  it('refuses a shard-count change with the reindex plan, changing nothing', async () => {
    const p = join(dir, 'merged.json');
    // One shard fewer: the core's merge of the first two shards.
    expect(await main(['merge', '--boundaries', BASE_PATH, base.shards[0].name, base.shards[1].name, '--out', p, '--created-at', '2026-12-01T00:00:00.000Z'], { out: () => {}, err: () => {} })).toBe(0);
    const before = await fetchIndexMeta(client, INDEX);
    const cli = migrate(p);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/refused: .*14/);
    expect(cli.err()).toMatch(/Create the new index with 14 primary shards/);
    expect(await fetchIndexMeta(client, INDEX)).toEqual(before);
  }, 60_000);
});

/**
 * `npx tsx bench/reindex.bench.ts [--restaurants R] [--seconds S] [--index NAME]`: `geoshard
 * reindex` on the restaurant sample split from N to N+1 shards (`splitShard` of the bundled
 * file, as `geoshard split` makes it): the copy's throughput (documents/s), the switch's write
 * block (ms), and search latency through the alias before, during and after (p50/p99).
 *
 *   1. seed `NAME` (default ri-big; the bundled boundaries, R restaurants, default 200,000,
 *      10 dishes each: 2.19 M documents) unless it already holds that sample; clients reach
 *      it through the alias NAME-live;
 *   2. baseline: geo_distance searches on seeded circles through the alias, one at a time, for
 *      S seconds (default 20), routed by the boundary file in the `_meta` the alias resolves to
 *      (read again every second, as a careful searcher does: the alias moves to an index of
 *      another shard count mid-run);
 *   3. the real CLI in a child process (`geoshard reindex --from NAME --to NAME-n1 ...`), the
 *      searches running throughout: total time, the copy's documents/s, the switch window;
 *   4. S seconds after the switch; then `--rollback` and the new index deleted, so the next
 *      run starts alike.
 *
 * Needs a node (OPENSEARCH_URL). Results: test-results/bench-reindex.json and stdout, with the
 * machine's load average before and after (the figure means little without it).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { Router, formatBoundaryFile, type BoundaryFile } from '../src/core/index.ts';
import { mulberry32 } from '../src/core/testutil.ts';
import { loadCells, DEFAULT_CELLS } from '../src/cli/io.ts';
import { sampleOf } from '../src/data/sample.ts';
import { ROOT, derivedFile, ensureSeeded, liveClient } from '../src/testing/testkit.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { splitShard } from '../src/core/edit.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(argv[i + 1]) : dflt;
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} ${argv[i + 1]} is invalid: expected a positive number`);
  return v;
};
const RESTAURANTS = opt('restaurants', 200_000);
const SECONDS = opt('seconds', 20);
const INDEX = argv.includes('--index') ? argv[argv.indexOf('--index') + 1] : 'ri-big';
if (!/^ri-/.test(INDEX)) throw new Error(`--index ${INDEX}: the bench writes, blocks and aliases it: give a name of your own (ri-*)`);
const DEST = `${INDEX}-n1`;
const ALIAS = `${INDEX}-live`;
const LOCKS = process.env.GEOSHARD_LOCK_INDEX || 'ri-locks';

const client = liveClient();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(p * s.length))] : NaN;
};

const base = derivedFile(INDEX);
const t0 = performance.now();
const seeded = await ensureSeeded(client, base, RESTAURANTS, 10);
const docs = (await client.request<{ count: number }>('POST', `/${INDEX}/_count`)).body.count;
console.log(`${INDEX}: ${docs.toLocaleString('en-US')} documents (${seeded ? `seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s` : 'already seeded'})`);

// Start alike: no new index, no block, the alias on the source.
await client.request('DELETE', `/${DEST}`, { okStatuses: [404] });
await client.admin('PUT', `/${INDEX}/_settings`, { body: { index: { 'blocks.write': null } } });
await client.admin('POST', '/_aliases', { body: { actions: [{ add: { index: INDEX, alias: ALIAS } }] } });
const dir = mkdtempSync(join(tmpdir(), 'bench-reindex-'));
const split = splitShard(base, loadCells(DEFAULT_CELLS), base.shards[0].name, { createdAt: '2026-12-01T00:00:00.000Z' }).file;
const splitPath = join(dir, 'split.json');
writeFileSync(splitPath, formatBoundaryFile({ ...split } as BoundaryFile));

// Searches through the alias, routed by the file its index's _meta holds (re-read every second).
const rand = mulberry32(11);
const places = sampleOf(2000);
// A fresh circle per search (a place of the sample, a radius in [2, 32) km): repeated circles are
// answered from the node's filter cache after the first round, which made "before" (cold) and
// "during"/"after" (warm) incomparable in the first run of this bench.
const circle = () => {
  const p = places[Math.floor(rand() * places.length)];
  return { lat: p.lat, lng: p.lng, km: 2 + rand() * 30 };
};
let router = new Router(base);
let routerAt = 0;
const refreshRouter = async () => {
  const meta = await fetchIndexMeta(client, ALIAS);
  if (meta?.file && meta.file.hash !== router.file.hash) router = new Router(meta.file);
  routerAt = performance.now();
};
let phase: 'before' | 'during' | 'after' = 'before';
const lat: Record<string, number[]> = { before: [], during: [], after: [] };
const failures: Record<string, number> = { before: 0, during: 0, after: 0 };
let searching = true;
const searcher = (async () => {
  while (searching) {
    if (performance.now() - routerAt > 1000) await refreshRouter();
    const c = circle();
    const p = phase;
    const t = performance.now();
    try {
      await client.request('POST', `/${ALIAS}/_search`, {
        query: { routing: router.cover(c.lat, c.lng, c.km).routing },
        body: { size: 10, query: { bool: { filter: [{ term: { join: 'restaurant' } }, { geo_distance: { distance: `${c.km}km`, location: { lat: c.lat, lon: c.lng } } }] } } },
      });
      lat[p].push(performance.now() - t);
    } catch {
      failures[p]++;
    }
  }
})();

const loadBefore = os.loadavg();
await sleep(SECONDS * 1000);
phase = 'during';
const tr = performance.now();
const child = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src', 'cli', 'bin.ts'), 'reindex', '--from', INDEX, '--to', DEST, '--boundaries', splitPath, '--alias', ALIAS], {
  env: { ...process.env, GEOSHARD_LOCK_INDEX: LOCKS, GEOSHARD_REINDEX_PAUSE: '' },
  stdio: ['ignore', 'pipe', 'pipe'],
});
let text = '';
child.stderr.on('data', (b) => {
  text += b;
  process.stderr.write(b);
});
child.stdout.on('data', (b) => (text += b));
const code = await new Promise<number | null>((r) => child.on('exit', r));
const reindexSeconds = (performance.now() - tr) / 1000;
phase = 'after';
await sleep(SECONDS * 1000);
searching = false;
await searcher;
const loadAfter = os.loadavg();
if (code !== 0) throw new Error(`geoshard reindex exited ${code}:\n${text}`);

const rate = Number(/at ([\d,]+) documents\/s/.exec(text)?.[1].replace(/,/g, ''));
const windowMs = Number(/blocked (\d+) ms before the alias moved/.exec(text)?.[1]);
const parts = /\(block (\d+), exact check (\d+) with presence by (\w+), alias call (\d+)\)/.exec(text);
const result = {
  at: new Date().toISOString(),
  machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${Math.round(os.totalmem() / 2 ** 30)} GB`,
  loadBefore: loadBefore.map((x) => +x.toFixed(2)),
  loadAfter: loadAfter.map((x) => +x.toFixed(2)),
  documents: docs,
  shards: `${base.numberOfShards} → ${split.numberOfShards}`,
  reindexSeconds: +reindexSeconds.toFixed(1),
  copyDocsPerSecond: rate,
  switchWindowMs: windowMs,
  switchParts: parts ? { blockMs: +parts[1], exactCheckMs: +parts[2], presence: parts[3], aliasCallMs: +parts[4] } : null,
  search: Object.fromEntries((['before', 'during', 'after'] as const).map((p) => [p, { n: lat[p].length, p50: +pct(lat[p], 0.5).toFixed(1), p99: +pct(lat[p], 0.99).toFixed(1), failures: failures[p] }])),
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(resolve(ROOT, 'test-results'), { recursive: true });
writeFileSync(resolve(ROOT, 'test-results', 'bench-reindex.json'), JSON.stringify(result, null, 2) + '\n');

// Back as it was: the alias on the source, the new index gone.
const rb = spawn(process.execPath, ['--import', 'tsx', resolve(ROOT, 'src', 'cli', 'bin.ts'), 'reindex', '--to', DEST, '--rollback'], { env: { ...process.env, GEOSHARD_LOCK_INDEX: LOCKS }, stdio: 'inherit' });
await new Promise((r) => rb.on('exit', r));
await client.request('DELETE', `/${DEST}`, { okStatuses: [404] });
await client.close();

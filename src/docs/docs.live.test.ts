/**
 * The docs' commands, run as printed against the tests' cluster: every command block marked
 * `<!-- run: src/docs/docs.live.test.ts -->`, page by page, in order. src/docs/commands.test.ts
 * holds every block to its mark; this test holds the marks to the truth (each page's run-marked
 * blocks are exactly the ones it runs, and each must exit 0).
 *
 * Pages and how:
 * - README.md (its adoption block) and docs/adopting.md, from the installed package: geoshard and
 *   its explorer companion are packed from this checkout (scripts/packKit.ts) and the blocks run
 *   in an empty folder, as a team would after `npm install`. The adoption guide runs to its last
 *   command: install, config, cells, balance, reindex behind the alias, audit, finalize, then
 *   route, cover, explore (its page and /api/status fetched) and a boundary moved in place with
 *   diff and migrate. The guide says the moved boundary comes from the explorer's Review tab; the
 *   test makes that candidate as Review's editor does (one boundary moved back over some
 *   documents, version + 1, re-hashed: src/testing/migrationFixture.ts movedCandidateOf).
 * - docs/demo.md, docs/auditing.md, docs/writing.md and docs/live-mode.md, in a checkout: the CLI
 *   is this checkout's build, with the bundled boundary file renamed for the test's own index
 *   (`gs-docs-dishes`, same boundaries and shard names: src/testing/testkit.ts derivedFile), so
 *   `npx geoshard seed` and the other commands that default to the bundled file's index never
 *   touch a reader's `dishes`; `npm start` serves the explorer with that file. docs/live-mode.md's
 *   Measure request runs against the demo's explorer while it serves.
 * - docs/cli.md and docs/reviewing.md, in a checkout, with this checkout's CLI as it is: their
 *   blocks read and write files only (and `review` serves them).
 *
 * Stand-ins for what a reader's machine does otherwise (shell functions before each block):
 * `npx geoshard` runs the geoshard the page is about (`npx --offline`, installed; the build, in a
 * checkout); `npm install geoshard geoshard-explorer` installs the packed tarballs (the packages
 * are not on the registry for a test to fetch); `npm run cluster:start` checks that the tests'
 * cluster answers, and stands in for it (the tests start the cluster: scripts/test.sh); `npm start`
 * runs this checkout's `npm start`. A reader's names become the test's: `shops` → `gs-adopt-shops`,
 * `places` → `gs-readme-places`, `dishes` → `gs-docs-dishes`, `/tmp/` → the test's folder,
 * `localhost:9200` → the tests' cluster, the explorer's port 5173 → a free one. A command that
 * serves until Ctrl-C runs in the background on a free port (`PORT`), the test checks what it
 * serves, the rest of its block runs against it, then it gets SIGINT, as from a reader's Ctrl-C.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, parseBoundaryFile, formatBoundaryFile, cellOrdinal, cellAt } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import { liveClient, derivedFile } from '../testing/testkit.ts';
import { movedCandidateOf } from '../testing/migrationFixture.ts';
import { consumer, freePort, pack, packExplorer } from '../../scripts/packKit.ts';
import { commandBlocks, docFiles, rel, type CommandBlock, ROOT } from './markdown.ts';

const TEST = 'src/docs/docs.live.test.ts';
const client = liveClient();
const LOCKS = 'gs-docs-locks';
const clusterUrl = client.url.replace(/\/$/, '');

/** The command blocks of `page` this test runs, in order. */
function blocksOf(page: string): CommandBlock[] {
  return commandBlocks(readFileSync(join(ROOT, page), 'utf8')).filter((b) => b.mark?.kind === 'run' && b.mark.test === TEST);
}

// ---------------------------------------------------------------------------------------------
// Running a block.

/** Where and how blocks run. */
interface Sandbox {
  /** The folder blocks run in. */
  dir: string;
  /** The environment blocks see. */
  env: NodeJS.ProcessEnv;
  /** What `npx geoshard` runs: the installed package (`installed`) or a built bin (a path). */
  geoshard: 'installed' | string;
  /** Tarballs `npm install NAME` installs instead of NAME. */
  tarballs?: Record<string, string>;
  /** A reader's names and the test's: a word is replaced as a whole word, anything else as it is. */
  names: [from: string, to: string][];
}

interface Ran {
  script: string;
  status: number | null;
  stdout: string;
  stderr: string;
}

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

function rename(text: string, s: Sandbox): string {
  let out = text;
  for (const [from, to] of s.names) out = out.replace(new RegExp(/^[\w-]+$/.test(from) ? `\\b${escape(from)}\\b` : escape(from), 'g'), to);
  return out;
}

/** The stand-ins, as shell functions. */
function prelude(s: Sandbox): string {
  const geoshard = s.geoshard === 'installed' ? './node_modules/.bin/geoshard "$@"' : `node ${q(s.geoshard)} "$@"`;
  const tarballs = Object.entries(s.tarballs ?? {})
    .map(([name, tarball]) => `        ${name}) args+=(${q(tarball)}) ;;`)
    .join('\n');
  return `set -euo pipefail
npx() { if [ "$1" = geoshard ]; then shift; ${geoshard}; else command npx "$@"; fi; }
npm() {
  case "$1" in
    install)
      shift; local args=()
      for a in "$@"; do case "$a" in
${tarballs}
        *) args+=("$a") ;;
      esac; done
      command npm install --offline --no-audit --no-fund --ignore-scripts --loglevel=error "\${args[@]}" >/dev/null 2>&1 \\
        || command npm install --prefer-offline --no-audit --no-fund --ignore-scripts --loglevel=error "\${args[@]}" ;;
    start) (cd ${q(ROOT)} && exec node scripts/start.mjs) ;;
    run)
      if [ "\${2:-}" = cluster:start ]; then
        curl -fsS ${q(clusterUrl)}/_cluster/health >/dev/null && echo "(the tests' cluster stands in for npm run cluster:start)"
      else command npm "$@"; fi ;;
    *) command npm "$@" ;;
  esac
}
`;
}

function runScript(text: string, s: Sandbox, timeoutMs = 600_000): Ran {
  const script = rename(text, s);
  const r = spawnSync('bash', ['-c', prelude(s) + script], { cwd: s.dir, env: s.env, encoding: 'utf8', timeout: timeoutMs });
  return { script, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A command that serves until Ctrl-C. */
const SERVES = /^(?:[A-Z][A-Z0-9_]*=\S*\s+)*(?:npx geoshard (?:explore|review)\b|npm start\b)/;

/** The lines of a block's text split at its serving command: before, the command, after. */
function splitAtServer(b: CommandBlock): { before: string; server: string | null; after: string } {
  const lines = b.body.replace(/\\\n\s*/g, ' ').split('\n');
  const k = lines.findIndex((l) => SERVES.test(l.trim()));
  if (k < 0) return { before: b.body, server: null, after: '' };
  return { before: lines.slice(0, k).join('\n'), server: lines[k].trim(), after: lines.slice(k + 1).join('\n') };
}

/**
 * runBlock runs a block as printed. When a line of it serves, the lines before it run first, then
 * it starts in the background on `port` and prints its address; `whileServing(url)` checks it, the
 * lines after it run against it, then it gets SIGINT and must exit 0.
 */
async function runBlock(b: CommandBlock, s: Sandbox, whileServing?: (url: string, log: () => string) => Promise<void>): Promise<Ran> {
  const { before, server, after } = splitAtServer(b);
  const ran: Ran = { script: '', status: 0, stdout: '', stderr: '' };
  const add = (r: Ran) => {
    ran.script += r.script + '\n';
    ran.stdout += r.stdout;
    ran.stderr += r.stderr;
    ran.status = r.status;
  };
  if (before.trim() !== '') {
    add(runScript(before, s));
    if (ran.status !== 0 || server === null) return ran;
  }
  if (server === null) return ran;
  const port = await freePort();
  // exec: the server is the shell itself, so SIGINT reaches it as a reader's Ctrl-C does.
  const command = rename(server, s)
    .replace(/^((?:[A-Z][A-Z0-9_]*=\S*\s+)*)npx geoshard /, s.geoshard === 'installed' ? '$1exec ./node_modules/.bin/geoshard ' : `$1exec node ${q(s.geoshard)} `)
    .replace(/^((?:[A-Z][A-Z0-9_]*=\S*\s+)*)npm start\b.*$/, `cd ${q(ROOT)} && $1exec node scripts/start.mjs`);
  // Its own process group, so Ctrl-C's SIGINT reaches the whole group, as from a terminal.
  const child = spawn('bash', ['-c', `set -euo pipefail\n${command}`], { cwd: s.dir, env: { ...s.env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  let exitCode: number | null | undefined;
  const exited = new Promise<number | null>((done) => child.on('exit', (code, signal) => done((exitCode = code ?? (signal ? 128 : null)))));
  const deadline = Date.now() + 300_000;
  let url: string | null = null;
  while (!url && exitCode === undefined && Date.now() < deadline) {
    url = new RegExp(`(http://127\\.0\\.0\\.1:${port}/)`).exec(out + err)?.[1] ?? null;
    if (!url) await new Promise((r) => setTimeout(r, 200));
  }
  ran.script += command + '\n';
  if (!url) {
    signal('SIGKILL');
    await exited;
    ran.status = exitCode ?? -1;
    ran.stderr += `${out}${err}\n(${command}: no address on port ${port})`;
    return ran;
  }
  try {
    await whileServing?.(url, () => out + err);
    if (after.trim() !== '') {
      const r = runScript(after, { ...s, names: [...s.names, ['127.0.0.1:5173', `127.0.0.1:${port}`]] });
      add(r);
      if (r.status !== 0) return ran;
    }
  } finally {
    signal('SIGINT');
    const t = setTimeout(() => signal('SIGKILL'), 30_000);
    await exited;
    clearTimeout(t);
    ran.stdout += out;
    ran.stderr += err;
  }
  ran.status = exitCode ?? -1;
  return ran;
}

/** expectRan fails with the block's script and output unless it exited 0. */
function expectRan(r: Ran, where: string): void {
  expect(r.status, `${where}:\n${r.script}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`).toBe(0);
}

async function getJson<T = any>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const r = await fetch(url, init);
  return { status: r.status, body: (await r.json()) as T };
}

async function drop(pattern: string): Promise<void> {
  await client.request('DELETE', `/${pattern}`, { okStatuses: [404], query: { ignore_unavailable: 'true', expand_wildcards: 'all' } });
}

/** An index as a team has it: OpenSearch's defaults (hash-sharded by _id), a geo_point, no routing; points around a few US cities. */
async function plainIndex(index: string, field: string, docs: number, seed: number): Promise<{ lat: number; lon: number }[]> {
  await client.admin('PUT', `/${index}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { [field]: { type: 'geo_point' }, name: { type: 'text' } } } } });
  const rand = mulberry32(seed);
  const points: { lat: number; lon: number }[] = [];
  const body: unknown[] = [];
  for (let i = 0; i < docs; i++) {
    const [lat, lng] = [[40.71, -74.0], [37.77, -122.42], [41.88, -87.63], [29.76, -95.37], [47.61, -122.33]][i % 5];
    const p = { lat: lat + (rand() - 0.5) * 2, lon: lng + (rand() - 0.5) * 2 };
    points.push(p);
    body.push({ index: { _index: index, _id: `s${i}` } }, { name: `place ${i}`, [field]: p });
  }
  const r = await client.os.bulk({ body: body as never, refresh: true });
  expect((r.body as { errors: boolean }).errors).toBe(false);
  return points;
}

/** docsByShard reads every document of `index` from each shard: id → the shard holding it. */
async function shardOfEach(index: string, shards: number, field: string): Promise<Map<string, { shard: number; lat: number; lon: number }>> {
  const out = new Map<string, { shard: number; lat: number; lon: number }>();
  for (let shard = 0; shard < shards; shard++) {
    const res = await client.get<{ hits: { hits: { _id: string; _source: Record<string, { lat: number; lon: number }> }[] } }>(`/${index}/_search?preference=_shards:${shard}&size=10000&_source=${field}`);
    for (const h of res.hits.hits) out.set(h._id, { shard, ...h._source[field] });
  }
  return out;
}

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await client.close().catch(() => {});
});

// ---------------------------------------------------------------------------------------------
// The adopting team: the README, then the adoption guide to its last command, installed.

describe('the adopting team\'s path, from the installed package', () => {
  const SHOPS = 'gs-adopt-shops';
  const PLACES = 'gs-readme-places';
  const DOCS = 3000;
  let s: Sandbox;
  let shopPoints: { lat: number; lon: number }[];

  beforeAll(async () => {
    for (const p of [`${SHOPS}*`, `${PLACES}*`, LOCKS]) await drop(p);
    const dir = mkdtempSync(join(tmpdir(), 'geoshard-docs-adopt-'));
    dirs.push(dir);
    const geoshard = pack(dir);
    const explorer = packExplorer(dir);
    s = {
      dir: consumer(dir, 'team'),
      env: { ...process.env, NODE_OPTIONS: '', OPENSEARCH_URL: clusterUrl, GEOSHARD_LOCK_INDEX: LOCKS },
      geoshard: 'installed',
      tarballs: { geoshard: geoshard.tarball, 'geoshard-explorer': explorer.tarball },
      names: [['shops', SHOPS], ['places', PLACES]],
    };
    shopPoints = await plainIndex(SHOPS, 'location', DOCS, 32);
    await plainIndex(PLACES, 'geo', 2000, 33);
  }, 600_000);

  afterAll(async () => {
    for (const p of [`${SHOPS}*`, `${PLACES}*`, LOCKS]) await drop(p);
  });

  it('README: the adoption block, after the install the guide starts with', async () => {
    const [install] = blocksOf('docs/adopting.md');
    expectRan(runScript(install.body, s), 'docs/adopting.md: install');
    const blocks = blocksOf('README.md');
    expect(blocks).toHaveLength(1);
    const r = await runBlock(blocks[0], s);
    expectRan(r, 'README.md');
    expect(r.stdout).toContain('every document is on a right shard');
    const aliases = await client.get<Record<string, unknown>>(`/_alias/${PLACES}-live`);
    expect(Object.keys(aliases)).toEqual([`${PLACES}-geo`]);
  }, 900_000);

  it('docs/adopting.md: every block, in order, to the last', async () => {
    const blocks = blocksOf('docs/adopting.md');
    // The numbered steps, then the After section to the guide's last command (the move in place).
    expect(blocks.map((b) => b.heading.split('.')[0])).toEqual(['0', '1', '2', '3', '4', '5', '6', 'After', 'After', 'After', 'After']);
    expect(blocks[blocks.length - 1].commands.at(-1)).toMatch(/^npx geoshard migrate /);
    const outputs: string[] = [];
    let file = null as ReturnType<typeof parseBoundaryFile> | null;
    for (const b of blocks) {
      // The candidate the guide saves from the Review tab, before the block that reads it.
      if (b.body.includes('shops.v2.boundaries.json')) {
        file = parseBoundaryFile(readFileSync(join(s.dir, `${SHOPS}.boundaries.json`), 'utf8'));
        const ordinals = shopPoints.map((p) => cellOrdinal(cellAt(p.lat, p.lon)));
        // The boundary after the fullest shard moves back over 40 of its documents.
        const counts = new Array<number>(file.numberOfShards).fill(0);
        const router = new Router(file);
        for (const p of shopPoints) counts[router.route(p.lat, p.lon).shard]++;
        const byRange = file.shards.map((sh) => counts[sh.shard]);
        const k = byRange.slice(0, -1).indexOf(Math.max(...byRange.slice(0, -1))) + 1;
        writeFileSync(join(s.dir, `${SHOPS}.v2.boundaries.json`), formatBoundaryFile(movedCandidateOf(file, ordinals, [k], 40)));
      }
      const r = await runBlock(b, s, async (url) => {
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root"');
        const status = await getJson(`${url}api/status`);
        expect(status.status).toBe(200);
        expect(JSON.stringify(status.body)).toContain(`${SHOPS}-live`);
        expect(status.body.drift?.status ?? 'ok').toBe('ok');
      });
      expectRan(r, `docs/adopting.md: ${b.heading}`);
      outputs.push(r.stdout);
    }
    const all = outputs.join('\n');
    expect(all).toMatch(new RegExp(`audited index "${SHOPS}-live" .*: ${DOCS.toLocaleString('en-US')} documents \\(flat, located by location\\)`));
    expect(all).toContain('every document is on a right shard');

    // What the guide promises: the alias (and, after --finalize, the old name) on a geosharded
    // index with the file's shard count, every document there, each on the shard its location names.
    const candidate = parseBoundaryFile(readFileSync(join(s.dir, `${SHOPS}.v2.boundaries.json`), 'utf8'));
    expect(file!.index).toBe(`${SHOPS}-live`);
    const aliases = await client.get<Record<string, { aliases: Record<string, unknown> }>>(`/_alias/${SHOPS}-live,${SHOPS}`);
    expect(Object.keys(aliases)).toEqual([`${SHOPS}-geo`]);
    expect(Object.keys(aliases[`${SHOPS}-geo`].aliases).sort()).toEqual([SHOPS, `${SHOPS}-live`]);
    const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${SHOPS}-geo/_settings`);
    expect(Number(settings[`${SHOPS}-geo`].settings.index.number_of_shards)).toBe(file!.numberOfShards);
    expect((await client.get<{ count: number }>(`/${SHOPS}-live/_count`)).count).toBe(DOCS);
    // After the in-place move the candidate is the index's file, and every document is where it routes.
    const mapping = await client.get<Record<string, { mappings: { _meta: { hash: string } } }>>(`/${SHOPS}-geo/_mapping`);
    expect(mapping[`${SHOPS}-geo`].mappings._meta.hash).toBe(candidate.hash);
    const router = new Router(candidate);
    const wrong = [...(await shardOfEach(`${SHOPS}-geo`, candidate.numberOfShards, 'location'))].filter(([, d]) => router.route(d.lat, d.lon).shard !== d.shard).map(([id]) => id);
    expect(wrong).toEqual([]);
  }, 1_200_000);
});

// ---------------------------------------------------------------------------------------------
// The checkout pages.

describe('the demo and the guides, in a checkout', () => {
  const DISHES = 'gs-docs-dishes';
  let s: Sandbox;
  let checkout: Sandbox;

  beforeAll(async () => {
    await drop(DISHES);
    await client.request('DELETE', `/_ingest/pipeline/geoshard-${DISHES}`, { okStatuses: [404] });
    const dir = mkdtempSync(join(tmpdir(), 'geoshard-docs-checkout-'));
    dirs.push(dir);
    // The checkout's build with the bundled file renamed: the CLI reads data/ beside its dist/.
    const pkg = join(dir, 'geoshard');
    for (const d of ['cli', 'core', 'opensearch']) cpSync(join(ROOT, 'dist', d), join(pkg, 'dist', d), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
    mkdirSync(join(pkg, 'data'));
    for (const f of ['cells.csv', 'cities.json', 'places.config.json', 'workload.csv']) if (existsSync(join(ROOT, 'data', f))) cpSync(join(ROOT, 'data', f), join(pkg, 'data', f));
    const boundaries = join(pkg, 'data', 'boundaries.json');
    writeFileSync(boundaries, formatBoundaryFile(derivedFile(DISHES)));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
    const work = join(dir, 'work');
    mkdirSync(work);
    const env = { ...process.env, NODE_OPTIONS: '', OPENSEARCH_URL: clusterUrl, GEOSHARD_LOCK_INDEX: LOCKS, GEOSHARD_BOUNDARIES: boundaries };
    // The sample's index where a page names it: in a URL to the cluster, and as --index (`dishes` alone is also an API path).
    const host = clusterUrl.replace(/^https?:\/\//, '');
    const names: [string, string][] = [['localhost:9200/dishes/', `${host}/${DISHES}/`], ['--index dishes', `--index ${DISHES}`], ['/tmp/', `${work}/`], ['localhost:9200', host]];
    s = { dir: work, env, geoshard: join(pkg, 'dist', 'cli', 'bin.js'), names };
    // A clone's folder for the pages that run in one: its data/ and e2e/ are the checkout's.
    const clone = join(dir, 'clone');
    mkdirSync(clone);
    for (const d of ['data', 'e2e']) symlinkSync(join(ROOT, d), join(clone, d));
    checkout = { dir: clone, env: { ...process.env, NODE_OPTIONS: '' }, geoshard: join(ROOT, 'dist', 'cli', 'bin.js'), names: [['/tmp/', `${work}/`]] };
  }, 300_000);

  afterAll(async () => {
    await drop(DISHES);
    await drop(LOCKS);
    await client.request('DELETE', `/_ingest/pipeline/geoshard-${DISHES}`, { okStatuses: [404] });
  });

  it('docs/demo.md: the cluster, the sample, and the explorer on it; docs/live-mode.md: Measure against it', async () => {
    const [block] = blocksOf('docs/demo.md');
    const measure = blocksOf('docs/live-mode.md');
    expect(measure).toHaveLength(1);
    const r = await runBlock(block, s, async (url) => {
      const page = await fetch(url);
      expect(page.status).toBe(200);
      const status = await getJson(`${url}api/status`);
      expect(JSON.stringify(status.body)).toContain(DISHES);
      // docs/live-mode.md's Measure, from a terminal, against this explorer.
      const m = runScript(measure[0].body, { ...s, names: [...s.names, ['127.0.0.1:5173', url.replace(/^http:\/\//, '').replace(/\/$/, '')]] });
      expectRan(m, 'docs/live-mode.md: Measure');
      const answer = JSON.parse(m.stdout) as { status: string; identical: boolean };
      expect(answer.status).toBe('complete');
      expect(answer.identical).toBe(true);
    });
    expectRan(r, 'docs/demo.md');
    expect(r.stdout).toMatch(/seeded index "gs-docs-dishes"/);
    expect(r.stdout).toContain('land on their declared shards');
  }, 900_000);

  it('docs/auditing.md: the audits of the sample', async () => {
    for (const b of blocksOf('docs/auditing.md')) expectRan(await runBlock(b, s), 'docs/auditing.md');
  }, 600_000);

  it('docs/writing.md: the API\'s writes and a plain writer\'s', async () => {
    const blocks = blocksOf('docs/writing.md');
    expect(blocks).toHaveLength(2);
    const [api, plain] = blocks;
    const a = await runBlock(api, s);
    expectRan(a, 'docs/writing.md: the API');
    // Three writes and a delete, each answered; the move takes the restaurant to New York's shard.
    expect(a.stdout.match(/"status":"written"/g)?.length, `${a.stdout}\n${a.stderr.slice(-3000)}`).toBe(3);
    expect(a.stdout).toMatch(/"status":"deleted"/);
    const p = await runBlock(plain, s);
    expectRan(p, 'docs/writing.md: a plain writer');
    expect(p.stdout).toMatch(/"result":"created"[\s\S]*"result":"deleted"/);
    await client.request('POST', `/${DISHES}/_refresh`);
    const left = await client.get<{ count: number }>(`/${DISHES}/_count?q=id:my-fig%20OR%20id:r-demo`);
    expect(left.count).toBe(0);
  }, 600_000);

  it('docs/cli.md and docs/reviewing.md: the file commands and a review', async () => {
    for (const page of ['docs/cli.md', 'docs/reviewing.md']) {
      const blocks = blocksOf(page);
      expect(blocks.length).toBeGreaterThan(0);
      for (const b of blocks) {
        const r = await runBlock(b, checkout, async (url) => {
          const page = await fetch(url);
          expect(page.status).toBe(200);
        });
        expectRan(r, `${page}:${b.line}`);
      }
    }
  }, 600_000);

  it('no other page has a block marked for this test', () => {
    const pages = ['README.md', 'docs/adopting.md', 'docs/demo.md', 'docs/live-mode.md', 'docs/auditing.md', 'docs/writing.md', 'docs/cli.md', 'docs/reviewing.md'];
    expect(docFiles().map(rel).filter((p) => blocksOf(p).length > 0 && !pages.includes(p))).toEqual([]);
  });
});

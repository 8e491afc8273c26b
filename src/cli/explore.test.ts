/**
 * geoshard explore's checks, with a stand-in world (no server, no cluster): every bad input is
 * refused naming the flag, the value and what is valid, exits non-zero and starts nothing; good
 * files start one server with the files at fixed paths, the page told which, and the API handed
 * the same boundary file and index. The cluster's own checks (a missing index, a field that is
 * not a geo_point, drift) run against the real node in src/cli/explore.live.test.ts.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { main } from './main.ts';
import { CliError, DEFAULT_BOUNDARIES, DEFAULT_CELLS } from './io.ts';
import { runExplore, SERVED_BOUNDARIES, SERVED_CELLS, type ExploreDeps } from './commands/explore.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, cellFromOrdinal, cellToken, withHash, type BoundaryFile } from '../core/index.ts';

let dir: string;
const p = (name: string) => join(dir, name);
const tok = (o: number) => cellToken(cellFromOrdinal(o));
let file: BoundaryFile;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-explore-cmd-'));
  const { hash: _h, ...rest } = fileWithCuts([150, 200]);
  file = withHash({ ...rest, index: 'exp-unit' });
  writeFileSync(p('b.json'), formatBoundaryFile(file));
  writeFileSync(p('cells.csv'), `token,docs\n${tok(10)},3\n${tok(160)},5\n${tok(300)},2\n`);
  writeFileSync(p('sample.csv'), `token,restaurants,dishes\n${tok(10)},1,4\n${tok(300)},2,9\n`);
  writeFileSync(p('points.csv'), 'lat,lng\n48.85,2.35\n');
  writeFileSync(p('photo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  writeFileSync(p('unsorted.csv'), `token,docs\n${tok(300)},2\n${tok(10)},3\n`);
  writeFileSync(p('geoshard.config.json'), JSON.stringify({ index: 'exp-unit', location: 'pos', name: 'title' }));
  writeFileSync(p('other.config.json'), JSON.stringify({ index: 'exp-other', location: 'pos' }));
  writeFileSync(p('bad.config.json'), JSON.stringify({ index: 'exp-unit', locaton: 'pos' }));
});

/** A stand-in world: records what the command started, checked and opened; stops at once. */
function fakeWorld(report: Awaited<ReturnType<ExploreDeps['checkCluster']>> = { url: 'http://127.0.0.1:9200', docs: 10, refusal: null }) {
  const seen = { started: [] as Parameters<ExploreDeps['start']>[0][], checked: [] as Parameters<ExploreDeps['checkCluster']>[], opened: [] as string[], closed: 0, config: null as unknown };
  const deps: ExploreDeps = {
    start: async (opts) => {
      seen.started.push(opts);
      // The API's config file exists while the server runs.
      seen.config = JSON.parse(readFileSync(opts.env!.GEOSHARD_CONFIG, 'utf8'));
      return { url: 'http://127.0.0.1:5998/', close: () => void seen.closed++ };
    },
    checkCluster: async (...args) => {
      seen.checked.push(args);
      return report;
    },
    untilStopped: async () => {},
    open: (url) => void seen.opened.push(url),
  };
  return { seen, deps };
}

async function run(argv: string[], deps: ExploreDeps, env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const code = await runExplore(argv, { out: (t) => (out += t), err: (t) => (err += t) }, deps, env);
  return { code, out, err };
}

/** The command's refusal through the CLI (message and exit code), and that the stand-in world was never started. */
async function refused(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; message: string }> {
  const { seen, deps } = fakeWorld();
  let error: unknown = null;
  try {
    await run(argv, deps, env);
  } catch (e) {
    error = e;
  }
  expect(error, `${argv.join(' ')} is refused`).toBeInstanceOf(CliError);
  expect(seen.started, 'nothing started').toEqual([]);
  return { code: (error as CliError).exitCode, message: (error as CliError).message };
}

describe('geoshard explore', () => {
  it('serves the boundary and cells files at fixed paths, tells the page their names, hands the API the same file, and prints the URL', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--field', 'pos', '--port', '5998', '--open'], deps);
    expect(r.code).toBe(0);
    expect(seen.started).toHaveLength(1);
    const s = seen.started[0];
    expect(s.port).toBe(5998);
    expect(s.files).toEqual({ [SERVED_BOUNDARIES]: resolve(p('b.json')), [SERVED_CELLS]: resolve(p('cells.csv')) });
    expect(s.page).toEqual({ boundaries: { url: SERVED_BOUNDARIES, name: 'b.json' }, cells: { url: SERVED_CELLS, name: 'cells.csv' } });
    expect(s.env!.GEOSHARD_BOUNDARIES).toBe(resolve(p('b.json')));
    expect(s.env!.OPENSEARCH_URL).toBeUndefined();
    // --field without --config: a flat index, the one the boundary file names.
    expect(seen.config).toEqual({ index: 'exp-unit', location: 'pos', weight: 'docs', name: null, join: null, facets: [] });
    // The temporary config is gone once the server stopped.
    expect(existsSync(s.env!.GEOSHARD_CONFIG)).toBe(false);
    expect(seen.checked).toEqual([]);
    expect(r.out).toContain('http://127.0.0.1:5998/\n');
    expect(r.out).toContain('index exp-unit, 3 shards');
    expect(r.out).toContain('3 cells, 10 documents');
    expect(r.out).toContain('no OpenSearch URL given');
    expect(seen.opened).toEqual(['http://127.0.0.1:5998/']);
    expect(seen.closed).toBe(1);
  });

  it('opens the bundled sample when neither file is given, as npm start does in a checkout', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run(['--port', '5998'], deps);
    expect(r.code).toBe(0);
    const s = seen.started[0];
    expect(s.files).toEqual({ [SERVED_BOUNDARIES]: DEFAULT_BOUNDARIES, [SERVED_CELLS]: DEFAULT_CELLS });
    expect(s.page).toEqual({ boundaries: { url: SERVED_BOUNDARIES, name: 'boundaries.json' }, cells: { url: SERVED_CELLS, name: 'cells.csv' } });
    expect(r.out).toContain('the bundled sample');
    const bundled = JSON.parse(readFileSync(DEFAULT_BOUNDARIES, 'utf8')) as { index: string };
    expect(r.out).toContain(`(index ${bundled.index}, `);
  });

  it('reads the sample form of cells files too (token,restaurants,dishes)', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run(['--boundaries', p('b.json'), '--cells', p('sample.csv')], deps);
    expect(r.code).toBe(0);
    expect(r.out).toContain('2 cells, 16 documents');
    expect(seen.started).toHaveLength(1);
  });

  it('checks the index on the cluster OPENSEARCH_URL or --opensearch names before it starts, and passes that cluster to the API', async () => {
    const { seen, deps } = fakeWorld();
    const r = await run(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--config', p('geoshard.config.json')], deps, { OPENSEARCH_URL: 'http://127.0.0.1:9200' });
    expect(r.code).toBe(0);
    expect(seen.checked).toHaveLength(1);
    const [config, checkedFile, url] = seen.checked[0];
    expect(config).toMatchObject({ index: 'exp-unit', location: 'pos', name: 'title' });
    expect(checkedFile.hash).toBe(file.hash);
    expect(url).toBe('http://127.0.0.1:9200');
    // The --config file itself is the API's when no flag changes it.
    expect(seen.started[0].env!.GEOSHARD_CONFIG).toBe(resolve(p('geoshard.config.json')));
    expect(r.out).toContain('live mode: index "exp-unit" (field pos, 10 documents) on http://127.0.0.1:9200');

    const other = fakeWorld();
    await run(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--field', 'pos', '--opensearch', 'http://10.0.0.9:9200'], other.deps, { OPENSEARCH_URL: 'http://127.0.0.1:9200' });
    expect(other.seen.checked[0][2]).toBe('http://10.0.0.9:9200');
    expect(other.seen.started[0].env!.OPENSEARCH_URL).toBe('http://10.0.0.9:9200');
  });

  it('still opens an index not written with this boundary file, and says that live searches will be refused and why', async () => {
    const refusal = 'index "exp-unit" has no geoshard _meta hash, so nothing says which boundary file its documents were routed with: run "geoshard reindex"';
    const { seen, deps } = fakeWorld({ url: 'http://127.0.0.1:9200', docs: 10, refusal });
    const r = await run(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--field', 'pos'], deps, { OPENSEARCH_URL: 'http://127.0.0.1:9200' });
    expect(r.code).toBe(0);
    expect(seen.started).toHaveLength(1);
    expect(r.err).toContain(`live searches will be refused: ${refusal}`);
  });

  describe('refuses bad input before anything starts, naming the flag, the value and what is valid', () => {
    it('a cells file given as --boundaries', async () => {
      const r = await refused(['--boundaries', p('cells.csv'), '--cells', p('cells.csv')]);
      expect(r.code).toBe(1);
      expect(r.message).toBe(`--boundaries ${p('cells.csv')} is a cells file (header "token,docs"), not a boundary file: give the JSON file "geoshard balance" writes as --boundaries, and this file as --cells`);
    });

    it('a boundary file given as --cells', async () => {
      const r = await refused(['--boundaries', p('b.json'), '--cells', p('b.json')]);
      expect(r.code).toBe(1);
      expect(r.message).toMatch(/^--cells .*b\.json is JSON \(a boundary file\?\), not a cells file: give the CSV "geoshard cells" writes \(header token,docs\)/);
    });

    it('a file that is not CSV, or a CSV that is not a cells file, or one out of key order', async () => {
      for (const [name, want] of [
        ['photo.png', /^--cells .*photo\.png line 1: header .* is not a cells header: expected "token,restaurants,dishes" or "token,docs\[,<weight columns>\]"/],
        ['points.csv', /^--cells .*points\.csv line 1: header "lat,lng" is not a cells header/],
        ['unsorted.csv', /^--cells .*unsorted\.csv line 3: token "[0-9a-f]+" is not after the previous row's token: rows must ascend in key order/],
      ] as const) {
        const r = await refused(['--boundaries', p('b.json'), '--cells', p(name)]);
        expect(r.code, name).toBe(1);
        expect(r.message, name).toMatch(want);
      }
      const r = await refused(['--boundaries', p('photo.png'), '--cells', p('cells.csv')]);
      expect(r.message).toMatch(/^--boundaries .*photo\.png is not a boundary file: it does not start with "\{"/);
    });

    it('a boundary file the core refuses, listing its problems', async () => {
      writeFileSync(p('bad.json'), formatBoundaryFile({ ...file, boundaries: [tok(200), tok(150)] }));
      const r = await refused(['--boundaries', p('bad.json'), '--cells', p('cells.csv')]);
      expect(r.code).toBe(1);
      expect(r.message).toMatch(/^--boundaries .*bad\.json is invalid \(\d+ problems?\):\n  /);
      expect(r.message).toMatch(/boundaries\[1\]/);
    });

    it('a missing file, naming the flag', async () => {
      const r = await refused(['--boundaries', p('nope.json'), '--cells', p('cells.csv')]);
      expect(r.message).toBe(`cannot read boundary file (--boundaries) ${p('nope.json')}: no such file or directory`);
      const c = await refused(['--boundaries', p('b.json'), '--cells', p('nope.csv')]);
      expect(c.message).toBe(`cannot read cells file (--cells) ${p('nope.csv')}: no such file or directory`);
    });

    it('an index other than the boundary file names, from --index or the config', async () => {
      const r = await refused(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--index', 'places']);
      expect(r.code).toBe(1);
      expect(r.message).toMatch(/^geoshard explore: index "places" \(the config's, or --index\) is not valid with .*b\.json: expected its index "exp-unit", the index the boundary file was made for \(a file for "places": "geoshard balance --index places --out FILE"\)$/);
      const c = await refused(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--config', p('other.config.json')]);
      expect(c.message).toMatch(/^geoshard explore: index "exp-other" \(the config's, or --index\) is not valid with .*b\.json: expected its index "exp-unit"/);
    });

    it('a config with a bad key, and a --field that is not a field path', async () => {
      const r = await refused(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--config', p('bad.config.json')]);
      expect(r.code).toBe(1);
      expect(r.message).toMatch(/locaton: unknown field/);
      expect(r.message).toMatch(/location: missing/);
      const f = await refused(['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--field', 'a..b']);
      expect(f.message).toMatch(/--field "a\.\.b" is not a field path/);
    });

    it('usage errors exit 2: a missing file flag, a bad port, a bad URL, a stray argument', async () => {
      for (const [argv, want] of [
        [['--cells', p('cells.csv')], /^geoshard explore: --boundaries is required with --cells \(the boundary file "geoshard balance" wrote\); give neither to open the bundled sample/],
        [['--boundaries', p('b.json')], /^geoshard explore: --cells is required/],
        [['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--port', '70000'], /^geoshard explore: --port "70000" is not a port: expected an integer from 1 to 65535$/],
        [['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--port', '80a'], /--port "80a" is not a port/],
        [['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--opensearch', 'localhost:9200'], /^geoshard explore: --opensearch "localhost:9200" is not an http\(s\) URL: expected e\.g\. http:\/\/127\.0\.0\.1:9200$/],
        [['--boundaries', p('b.json'), '--cells', p('cells.csv'), 'extra.json'], /^geoshard explore: unexpected argument "extra\.json"/],
        [['--boundaries', p('b.json'), '--cells', p('cells.csv'), '--weight', 'x'], /^geoshard explore: Unknown option '--weight'/],
      ] as const) {
        const r = await refused([...argv]);
        expect(r.code, argv.join(' ')).toBe(2);
        expect(r.message, argv.join(' ')).toMatch(want);
      }
    });

    it('through the CLI: one line naming the command, exit 1 for a bad file', async () => {
      let err = '';
      const code = await main(['explore', '--boundaries', p('cells.csv'), '--cells', p('cells.csv')], { out: () => {}, err: (t) => (err += t) });
      expect(code).toBe(1);
      expect(err).toBe(`geoshard explore: --boundaries ${p('cells.csv')} is a cells file (header "token,docs"), not a boundary file: give the JSON file "geoshard balance" writes as --boundaries, and this file as --cells\n`);
    });
  });
});

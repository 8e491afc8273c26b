/**
 * The CLI's one convention (issue 32), walked over every command: --help and `geoshard help CMD`
 * print the command's usage and exit 0; every option the parser takes is in the usage, once;
 * boundary files are named with --boundaries (a second one with --candidate), never
 * positionally; --json on every command that prints a result; an unknown option, a stray
 * positional (with a hint naming the flag), a missing required option or an invalid option
 * value exit 2; a missing or invalid input file exits 1; --version / -V print the version.
 * The exit-code rule is main.ts's EXIT_CODES, which the reference states.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, loadCommands, EXIT_CODES } from './main.ts';
import { describeOptions, type ParseSpec } from './args.ts';
import { ROOT } from './io.ts';
import type { Command } from './command.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** Commands that print no result to parse: they serve the explorer until Ctrl-C. */
const NO_RESULT = new Set(['explore', 'review']);

/** The commands that read a boundary file from disk (the others read the index's _meta, or none). */
const READS_BOUNDARY_FILE = ['route', 'cover', 'validate', 'hash', 'diff', 'check', 'plan', 'split', 'merge', 'migrate', 'seed', 'golden', 'searches', 'hotspots', 'verify-routing', 'bench', 'review', 'explore', 'pipeline', 'reindex'];

let commands: Command[];
const specs = new Map<string, ParseSpec>();
let dir: string;
const BOUNDARIES = join(ROOT, 'data', 'boundaries.json');

beforeAll(async () => {
  commands = await loadCommands();
  for (const c of commands) specs.set(c.name, await describeOptions(c.run));
  dir = mkdtempSync(join(tmpdir(), 'geoshard-convention-'));
  writeFileSync(join(dir, 'bad.json'), '{"format": "geoshard.boundaries/1", "level": 3}');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every command', () => {
  it('parses its arguments first, through the one parser (its definition is readable)', () => {
    expect(specs.size).toBe(commands.length);
    expect(commands.length).toBeGreaterThanOrEqual(26);
  });

  it('prints its usage for --help, -h and `geoshard help CMD`, exit 0', async () => {
    for (const c of commands) {
      for (const argv of [[c.name, '--help'], [c.name, '-h'], ['help', c.name]]) {
        const r = await run(...argv);
        expect(r.code, argv.join(' ')).toBe(0);
        expect(r.out, argv.join(' ')).toBe(c.usage + '\n');
      }
    }
  });

  it('lists every option it takes in its usage, each once', () => {
    for (const c of commands) {
      for (const name of Object.keys(specs.get(c.name)!.options)) {
        const lines = c.usage.split('\n').filter((l) => new RegExp(`^  (?:--[\\w-]+(?: [A-Z]\\w*)?,? )*--${name}(?![\\w-])`).test(l));
        expect(lines.length, `${c.name} --${name} described in its usage`).toBe(1);
      }
    }
  });

  it('names boundary files with --boundaries (and --candidate), never positionally', () => {
    for (const c of commands) {
      const synopsis = c.usage.split('\n\n')[0];
      expect(synopsis, c.name).not.toMatch(/\b(FILE|CURRENT|CANDIDATE)\b(?![^[]*\])(?<!--\w+ \w+)/);
      expect(synopsis, c.name).not.toMatch(/^geoshard \S+ (\[?FILE|CURRENT|CANDIDATE)/m);
      if (READS_BOUNDARY_FILE.includes(c.name)) expect(specs.get(c.name)!.options.boundaries, `${c.name} --boundaries`).toBeDefined();
    }
  });

  it('has --json when it prints a result', () => {
    for (const c of commands) {
      if (NO_RESULT.has(c.name)) continue;
      const o = specs.get(c.name)!.options;
      // pipeline --print's result is JSON already; its other modes print one line.
      if (c.name === 'pipeline') continue;
      expect(o.json?.type, `${c.name} --json`).toBe('boolean');
    }
  });

  it('exits 2 naming an unknown option', async () => {
    for (const c of commands) {
      const r = await run(c.name, '--no-such-option', 'x');
      expect(r.code, c.name).toBe(2);
      expect(r.err, c.name).toMatch(/no-such-option/);
      expect(r.err, c.name).toMatch(new RegExp(`geoshard ${c.name} --help`));
      expect(r.out, c.name).toBe('');
    }
  });

  it('exits 2 on a stray argument where options are expected', async () => {
    for (const c of commands) {
      const s = specs.get(c.name)!;
      if (s.allowPositionals || s.legacy?.positional) continue;
      const r = await run(c.name, 'stray');
      expect(r.code, c.name).toBe(2);
      expect(r.err, c.name).toMatch(/unexpected argument "stray": options are named/);
    }
  });
});

describe('the exit-code rule', () => {
  it('is stated once, in main.ts, with 0, 1 and 2', () => {
    expect(EXIT_CODES.map((e) => e.code)).toEqual([0, 1, 2]);
  });

  // Each row: argv, exit code, what stderr names. 2: the command line alone is wrong; 1: the input it reads is.
  const cases: [string[], number, RegExp][] = [
    [['route'], 2, /--lat is required/],
    [['route', '--lat', '0x10', '--lng', '1'], 2, /--lat "0x10" is not a number/],
    [['route', '--lat', '91', '--lng', '1'], 2, /--lat 91 is not a latitude/],
    [['route', '--lat', '1', '--lng', '1', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['cover', '--lat', '91', '--lng', '0', '--radius', '5mi'], 2, /--lat 91 is not a latitude/],
    [['cover', '--lat', '37', '--lng', '-122', '--radius', 'abc'], 2, /--radius/],
    [['cover', '--lat', '37', '--lng', '-122'], 2, /--radius is required/],
    [['searches', '--radii', '5,abc'], 2, /--radii/],
    [['shard-of', '--shards', 'x', 'a'], 2, /--shards "x" is invalid/],
    [['shard-of', '--shards', '3'], 2, /NAME/],
    [['validate', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['validate', '--boundaries', 'BAD'], 1, /problem/],
    [['hash', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['diff'], 2, /--candidate FILE is required/],
    [['diff', '--candidate', '/nonexistent/c.json'], 1, /nonexistent/],
    [['check'], 2, /--candidate FILE is required/],
    [['check', '--candidate', 'BAD'], 1, /BAD|bad\.json/],
    [['plan'], 2, /--candidate FILE is required/],
    [['plan', '--candidate', '/nonexistent/c.json'], 1, /nonexistent/],
    [['split'], 2, /SHARD/],
    [['split', 'no-such-shard'], 1, /no-such-shard/],
    [['merge', 'a'], 2, /two neighbouring shards/],
    [['balance', '--min', 'x'], 2, /--min/],
    [['balance', '--cells', '/nonexistent/c.csv'], 1, /nonexistent/],
    [['cells', '--out', join(tmpdir(), 'never.csv'), '--from-file', '/nonexistent/p.csv'], 1, /nonexistent/],
    [['migrate'], 2, /--candidate is required/],
    [['migrate', '--candidate', '/nonexistent/c.json'], 1, /nonexistent/],
    [['reindex'], 2, /--to is required/],
    [['reindex', '--to', 'b', '--from', 'a', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['seed', '--restaurants', '0'], 2, /--restaurants "0" is invalid/],
    [['seed', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['audit', '--limit', '-1'], 2, /--limit/],
    [['verify-routing', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['pipeline'], 2, /--install|--print|--uninstall/],
    [['bench', '--lat', '37'], 2, /--lng|--radius/],
    [['golden', '--radii', '5'], 2, /--radii applies to a \.csv/],
    [['golden', '--check', '--out', '/nonexistent/g.json'], 1, /nonexistent/],
    [['workload', '--searches', '0', '--out', join(tmpdir(), 'never.csv')], 2, /--searches/],
    [['workload', '--out', join(tmpdir(), 'never.csv')], 2, /--searches is required/],
    [['hotspots'], 2, /--workload/],
    [['hotspots', '--workload', '/nonexistent/w.csv'], 1, /nonexistent/],
    [['hotspots', '--from-cluster', '--sustain', '5'], 2, /--sustain "5" is not a duration/],
    [['hotspots', '--since', '1h', '--workload', '/nonexistent/w.csv'], 2, /--since is for --from-cluster/],
    [['traffic', '--since', '15'], 2, /--since "15" is not a duration/],
    [['traffic', '--once'], 2, /--once is for --record/],
    [['traffic', '--record', '--interval', '2h'], 2, /--interval "2h" is invalid/],
    [['traffic', '--boundaries', '/nonexistent/b.json'], 1, /nonexistent/],
    [['workload', '--from-cluster', '--out', join(tmpdir(), 'never.csv')], 2, /--since is required with --from-cluster/],
    [['workload', '--from-cluster', '--since', '1h', '--searches', '5', '--out', join(tmpdir(), 'never.csv')], 2, /--searches is for the generator/],
    [['cache', '--workload', '/nonexistent/w.csv', '--size', '10'], 1, /nonexistent/],
    [['cache', '--size', '10'], 2, /--workload/],
    [['review'], 2, /--candidate FILE is required/],
    [['review', '--candidate', '/nonexistent/c.json'], 1, /nonexistent/],
    [['plugin'], 2, /--opensearch VERSION/],
    [['plugin', '--opensearch', '2.19'], 2, /not a version/],
    [['explore', '--cells', '/nonexistent/c.csv'], 2, /--boundaries is required with --cells/],
    [['explore', '--boundaries', '/nonexistent/b.json', '--cells', '/nonexistent/c.csv'], 1, /nonexistent/],
  ];

  it('covers every command with at least one bad invocation', () => {
    const covered = new Set(cases.map(([argv]) => argv[0]));
    for (const c of commands) expect(covered.has(c.name), `a bad invocation of ${c.name}`).toBe(true);
  });

  it.each(cases.map((c) => [c[0].join(' '), c] as const))('geoshard %s', async (_, [argv, code, names]) => {
    const r = await run(...argv.map((a) => (a === 'BAD' ? join(dir, 'bad.json') : a)));
    expect(r.code, r.err).toBe(code);
    expect(r.err).toMatch(names);
    expect(r.err).not.toMatch(/internal error|\n\s+at /);
  });
});

describe('hints and the old forms', () => {
  it('names the flags a positional latitude and longitude meant', async () => {
    const r = await run('route', '37.77', '-122.42');
    expect(r.code).toBe(2);
    expect(r.err).toContain('did you mean: geoshard route --lat 37.77 --lng -122.42');
    const c = await run('cover', '37.77', '-122.42', '15mi');
    expect(c.code).toBe(2);
    expect(c.err).toContain('--lat 37.77 --lng -122.42 --radius 15mi');
  });

  it('still takes a positional boundary file for a release, with a notice naming the flag', async () => {
    const now = await run('validate', '--boundaries', BOUNDARIES);
    const old = await run('validate', BOUNDARIES);
    expect([old.code, old.out]).toEqual([now.code, now.out]);
    expect(now.err).toBe('');
    expect(old.err).toMatch(/deprecated.*--boundaries/);
    const d1 = await run('diff', '--boundaries', BOUNDARIES, '--candidate', BOUNDARIES, '--json', '--centres', '50');
    const d2 = await run('diff', BOUNDARIES, BOUNDARIES, '--json', '--centres', '50');
    expect(d2.code).toBe(0);
    expect(d2.out).toBe(d1.out);
    expect(d2.err).toMatch(/use --boundaries .* --candidate /);
  });

  it('prints the version for --version and -V', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V']) {
      const r = await run(flag);
      expect(r.code).toBe(0);
      expect(r.out).toBe(`geoshard ${version}\n`);
    }
  });

  it('exits 2 for `geoshard help` of an unknown command, 0 for plain help', async () => {
    expect((await run('help', 'nope')).code).toBe(2);
    const h = await run('help');
    expect(h.code).toBe(0);
    expect(h.out).toMatch(/Exit codes: 0 success, 1 bad input or failure, 2 usage/);
  });

  it('prints JSON with --json for the commands that gained it', async () => {
    const v = await run('validate', '--json');
    expect(JSON.parse(v.out)).toMatchObject({ ok: true, total: 0 });
    const h = await run('hash', '--json');
    expect(JSON.parse(h.out).hash).toMatch(/^[0-9a-f]{64}$/);
    const s = await run('shard-of', '--shards', '15', '--json', 'nova');
    expect(JSON.parse(s.out)).toEqual([{ name: 'nova', shard: expect.any(Number) }]);
  });
});

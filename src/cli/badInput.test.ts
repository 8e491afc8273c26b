/**
 * Bad input to the CLI (issue 10): every case runs the real command through
 * main(argv) and checks the exit code, that the message names the option or
 * file, the value and what is valid, that no stack is printed, and that no file
 * is written (each target is absent, or byte for byte what it was, and no
 * temporary file is left beside it). A few cases run the installed command as
 * a process, for what only a process shows (a failing write, the bin's output).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, mkdirSync, readdirSync, truncateSync, symlinkSync, chmodSync, statSync, lstatSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { main, COMMAND_LOADERS } from './main.ts';
import { ROOT, MAX_BOUNDARY_FILE_BYTES, writeBoundaryFile, CliError } from './io.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, cellOrdinal, parseToken, type BoundaryFile } from '../core/index.ts';
import { computeHash } from '../core/boundaries.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

// The built bin (npm run build:lib), what `npx geoshard` runs.
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const isRoot = process.getuid?.() === 0;

let dir: string;
/** Paths the cases use, set in beforeAll. */
const p = {} as Record<'file' | 'cur' | 'cand' | 'cells' | 'aFile' | 'aDir' | 'fifo' | 'socket' | 'device' | 'existing' | 'huge' | 'many' | 'deep' | 'out', string>;
let server: Server | null = null;
const sf = cellOrdinal(parseToken('808581'));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-bad-'));
  const at = (name: string) => join(dir, name);
  Object.assign(p, {
    file: at('b.json'),
    cur: at('cur.json'),
    cand: at('cand.json'),
    cells: join(ROOT, 'data', 'cells.csv'),
    aFile: at('a-file'),
    aDir: at('a-dir'),
    fifo: at('a-fifo'),
    socket: at('a-socket'),
    device: at('a-device'),
    existing: at('existing.json'),
    huge: at('huge.json'),
    many: at('many.json'),
    deep: at('deep.json'),
    out: at('out.json'),
  });
  writeFileSync(p.file, formatBoundaryFile(fileWithCuts([sf - 3, sf + 2, 3_000_000, 5_000_000])));
  copyFileSync(join(ROOT, 'data', 'boundaries.json'), p.cur);
  // A candidate with one more shard, made by the CLI itself: plan then has steps that publish files.
  expect((await run('split', '--boundaries', p.cur, 'india', '--out', p.cand, '--created-at', '2026-11-30T00:00:00.000Z')).code).toBe(0);
  writeFileSync(p.aFile, 'not a folder\n');
  mkdirSync(p.aDir);
  expect(spawnSync('mkfifo', [p.fifo]).status).toBe(0);
  server = createServer();
  await new Promise<void>((resolve) => server!.listen(p.socket, resolve));
  // The same device as /dev/full (char 1,7), made here so a wrong fix never touches /dev; needs root.
  if (isRoot) expect(spawnSync('mknod', [p.device, 'c', '1', '7']).status).toBe(0);
  writeFileSync(p.existing, 'the file before\n');
  // One byte over the limit; a sparse file, so it costs no disk and no time. It is refused before it is read.
  writeFileSync(p.huge, '');
  truncateSync(p.huge, MAX_BOUNDARY_FILE_BYTES + 1);
  // A small file with thousands of problems: 3,000 boundaries that are not tokens (z is not a hex digit).
  const many = JSON.parse(readFileSync(p.file, 'utf8'));
  // 1,000 bad tokens: under the core's MAX_SHARDS - 1, so each is checked and listed.
  many.boundaries = Array.from({ length: 1000 }, (_, i) => `zz${i}`);
  writeFileSync(p.many, JSON.stringify(many));
  writeFileSync(p.deep, `{"format":${'['.repeat(200_000)}${']'.repeat(200_000)}}`);
});

afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

interface Case {
  /** What the command is given, as a sentence. */
  name: string;
  argv: () => string[];
  code: number;
  /** The message: it names the option or file, the value and what is valid. */
  err: () => RegExp;
  /** Paths that must not exist afterwards, or keep their bytes when they existed. */
  untouched?: () => string[];
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const balance = (...more: string[]) => ['balance', '--cells', p.cells, '--min', '2', '--max', '3', '--targets', '10', ...more];
/** A balance whose file is larger than 1 KiB (20 shards), for the write that fails past a size limit. */
const balance20 = (...more: string[]) => ['balance', '--cells', p.cells, '--min', '20', '--max', '20', '--targets', '10', ...more];

const coordinates: Case[] = [
  ...['181', '-181', '1000000', '180.0000001'].flatMap((lng) => [
    { name: `cover --lng ${lng}`, argv: () => ['cover', '--lat', '0', '--lng', lng, '--radius', '15mi', '--boundaries', p.file], code: 2, err: () => new RegExp(`--lng ${esc(lng)} is not a longitude: expected a number of degrees in \\[-180, 180\\]`) },
    { name: `route --lng ${lng}`, argv: () => ['route', '--lat', '0', '--lng', lng, '--boundaries', p.file], code: 2, err: () => new RegExp(`--lng ${esc(lng)} is not a longitude: expected a number of degrees in \\[-180, 180\\]`) },
  ]),
  ...['90.5', '-91', '1e3'].flatMap((lat) => [
    { name: `cover --lat ${lat}`, argv: () => ['cover', '--lat', lat, '--lng', '0', '--radius', '15mi', '--boundaries', p.file], code: 2, err: () => new RegExp(`--lat ${esc(lat)} is not a latitude: expected a number of degrees in \\[-90, 90\\]`) },
    { name: `route --lat ${lat}`, argv: () => ['route', '--lat', lat, '--lng', '0', '--boundaries', p.file], code: 2, err: () => new RegExp(`--lat ${esc(lat)} is not a latitude: expected a number of degrees in \\[-90, 90\\]`) },
  ]),
  ...['0x10', '0b1', '0o7', '1e999', '-1e999', 'Infinity', '-Infinity', 'NaN', '', ' ', '1,5', '12abc', '1_0'].flatMap((v) =>
    (['lat', 'lng'] as const).flatMap((opt) => [
      {
        name: `route --${opt} ${JSON.stringify(v)}`,
        argv: () => ['route', `--${opt}=${v}`, `--${opt === 'lat' ? 'lng' : 'lat'}`, '1', '--boundaries', p.file],
        code: 2,
        err: () => new RegExp(`--${opt} ${esc(JSON.stringify(v))} is not a number: expected a finite decimal number`),
      },
      {
        name: `cover --${opt} ${JSON.stringify(v)}`,
        argv: () => ['cover', `--${opt}=${v}`, `--${opt === 'lat' ? 'lng' : 'lat'}`, '1', '--radius', '5mi', '--boundaries', p.file],
        code: 2,
        err: () => new RegExp(`--${opt} ${esc(JSON.stringify(v))} is not a number: expected a finite decimal number`),
      },
    ]),
  ),
  { name: 'diff --qps 0x10', argv: () => ['diff', '--boundaries', p.cur, '--candidate', p.cur, '--qps', '0x10', '--centres', '1'], code: 2, err: () => /--qps "0x10" is invalid: expected a non-negative number/ },
  { name: 'diff --radii 5mi:0x2', argv: () => ['diff', '--boundaries', p.cur, '--candidate', p.cur, '--radii', '5mi:0x2', '--centres', '1'], code: 2, err: () => /--radii weight "0x2" in "5mi:0x2" is invalid: expected a number greater than 0/ },
];

const optionValues: Case[] = [
  ...['BAD INDEX', 'Upper', '-dash', '', 'a,b', 'x'.repeat(256)].map((index) => ({
    name: `balance --index ${JSON.stringify(index.length > 20 ? index.slice(0, 20) + '…' : index)}`,
    argv: () => balance(`--index=${index}`, '--out', p.out),
    code: 2,
    err: () => new RegExp(`--index "${esc(index.slice(0, 20))}.* is not a valid OpenSearch index name: lower-case letters, digits`),
    untouched: () => [p.out],
  })),
  ...['yesterday-ish', '2026-11-30', '2026-02-30T00:00:00Z', '2026-11-30T24:00:00Z', '2026-11-30T00:00:00', '30/11/2026 00:00', 'Mon Nov 30 2026', ''].flatMap((t) => [
    { name: `balance --created-at ${JSON.stringify(t)}`, argv: () => balance('--created-at', t, '--out', p.out), code: 2, err: () => new RegExp(`--created-at ${esc(JSON.stringify(t))} is not an ISO-8601 time: expected .*"2026-11-30T00:00:00.000Z"`), untouched: () => [p.out] },
  ]),
  { name: 'split --created-at yesterday-ish', argv: () => ['split', '--boundaries', p.cur, 'india', '--cells', p.cells, '--created-at', 'yesterday-ish', '--out', p.out], code: 2, err: () => /--created-at "yesterday-ish" is not an ISO-8601 time/, untouched: () => [p.out] },
  { name: 'merge --created-at yesterday-ish', argv: () => ['merge', '--boundaries', p.cur, 'india', 'mike', '--cells', p.cells, '--created-at', 'yesterday-ish', '--out', p.out], code: 2, err: () => /--created-at "yesterday-ish" is not an ISO-8601 time/, untouched: () => [p.out] },
  { name: 'balance --index with an existing --out', argv: () => balance('--index', 'BAD INDEX', '--out', p.existing), code: 2, err: () => /--index "BAD INDEX" is not a valid OpenSearch index name/, untouched: () => [p.existing] },
];

const targets: Case[] = [
  ...(['balance', 'split', 'merge'] as const).map((cmd) => ({
    name: `${cmd} --out FILE/y.json`,
    argv: () => (cmd === 'balance' ? balance('--out', join(p.aFile, 'y.json')) : cmd === 'split' ? ['split', '--boundaries', p.cur, 'india', '--cells', p.cells, '--out', join(p.aFile, 'y.json')] : ['merge', '--boundaries', p.cur, 'india', 'mike', '--cells', p.cells, '--out', join(p.aFile, 'y.json')]),
    code: 1,
    err: () => new RegExp(`cannot write boundary file ${esc(join(p.aFile, 'y.json'))}: ${esc(p.aFile)} is a regular file, not a folder`),
    untouched: () => [p.aFile],
  })),
  { name: 'plan --out-dir FILE', argv: () => ['plan', '--boundaries', p.cur, '--candidate', p.cand, '--cells', p.cells, '--out-dir', p.aFile], code: 1, err: () => new RegExp(`${esc(p.aFile)} is a regular file, not a folder`), untouched: () => [p.aFile] },
  { name: 'plan --out-dir FILE/sub', argv: () => ['plan', '--boundaries', p.cur, '--candidate', p.cand, '--cells', p.cells, '--out-dir', join(p.aFile, 'sub')], code: 1, err: () => new RegExp(`${esc(p.aFile)} is a regular file, not a folder`), untouched: () => [p.aFile] },
  { name: 'balance --out DIR', argv: () => balance('--out', p.aDir), code: 1, err: () => new RegExp(`cannot write boundary file ${esc(p.aDir)}: it is a directory; the CLI writes only regular files`) },
  { name: 'balance --out DIR/', argv: () => balance('--out', p.aDir + '/'), code: 1, err: () => /give a file name, not a folder/ },
  { name: 'balance --out FIFO', argv: () => balance('--out', p.fifo), code: 1, err: () => new RegExp(`cannot write boundary file ${esc(p.fifo)}: it is a named pipe \\(FIFO\\); the CLI writes only regular files`) },
  { name: 'balance --out SOCKET', argv: () => balance('--out', p.socket), code: 1, err: () => new RegExp(`cannot write boundary file ${esc(p.socket)}: it is a socket; the CLI writes only regular files`) },
  { name: 'split --out FIFO', argv: () => ['split', '--boundaries', p.cur, 'india', '--cells', p.cells, '--out', p.fifo], code: 1, err: () => /it is a named pipe \(FIFO\)/ },
  { name: 'golden --out DIR', argv: () => ['golden', '--out', p.aDir], code: 1, err: () => new RegExp(`cannot write golden file ${esc(p.aDir)}: it is a directory; the CLI writes only regular files`) },
  { name: 'hash --write on a FIFO', argv: () => ['hash', '--boundaries', p.fifo, '--write'], code: 1, err: () => new RegExp(`cannot read boundary file ${esc(p.fifo)}: it is a named pipe \\(FIFO\\), not a regular file`) },
];

const bigFiles: Case[] = [
  ...(['validate', 'hash'] as const).map((cmd) => ({
    name: `${cmd} of a file over the size limit`,
    argv: () => [cmd, '--boundaries', p.huge],
    code: 1,
    err: () => new RegExp(`cannot read boundary file ${esc(p.huge)}: it is ${(MAX_BOUNDARY_FILE_BYTES + 1).toLocaleString('en-US')} bytes \\(1.0 MiB\\), over the limit of ${MAX_BOUNDARY_FILE_BYTES.toLocaleString('en-US')} bytes \\(1.0 MiB\\)`),
    untouched: () => [p.huge],
  })),
  { name: 'cover --boundaries of a file over the size limit', argv: () => ['cover', '--lat', '1', '--lng', '1', '--radius', '5mi', '--boundaries', p.huge], code: 1, err: () => new RegExp(`cannot read boundary file ${esc(p.huge)}: it is ${(MAX_BOUNDARY_FILE_BYTES + 1).toLocaleString('en-US')} bytes`) },
  { name: 'plan with a candidate over the size limit', argv: () => ['plan', '--boundaries', p.cur, '--candidate', p.huge, '--out-dir', join(dir, 'never')], code: 1, err: () => new RegExp(`cannot read boundary file ${esc(p.huge)}: .* over the limit`), untouched: () => [join(dir, 'never')] },
  { name: 'validate of 200,000 nested arrays', argv: () => ['validate', '--boundaries', p.deep], code: 1, err: () => new RegExp(`${esc(p.deep)}(: 1 problem:| is invalid \\(1 problem\\):)\\n  \\(file\\): nests arrays or objects more than 32 deep`) },
  { name: 'cover --boundaries of 200,000 nested arrays', argv: () => ['cover', '--lat', '1', '--lng', '1', '--radius', '5mi', '--boundaries', p.deep], code: 1, err: () => new RegExp(`${esc(p.deep)}(: 1 problem:| is invalid \\(1 problem\\):)\\n  \\(file\\): nests arrays or objects more than 32 deep`) },
  { name: 'hash --write of 200,000 nested arrays', argv: () => ['hash', '--boundaries', p.deep, '--write'], code: 1, err: () => new RegExp(`${esc(p.deep)}(: 1 problem:| is invalid \\(1 problem\\):)\\n  \\(file\\): nests arrays or objects more than 32 deep`), untouched: () => [p.deep] },
];

/** What each path holds: null when absent, else its kind and the sha256 of its bytes. */
function snapshot(paths: string[]) {
  return paths.map((f) => ({ f, bytes: !existsSync(f) ? null : statSync(f).isFile() ? createHash('sha256').update(readFileSync(f)).digest('hex') : 'not a file' }));
}

describe('the CLI refuses bad input with one clear message and writes nothing', () => {
  for (const [group, cases] of [
    ['coordinates and numbers', coordinates],
    ['option values', optionValues],
    ['write targets', targets],
    ['oversized and pathological files', bigFiles],
  ] as const) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('refuses %s', async (_, c) => {
        const watched = c.untouched?.() ?? [];
        const before = snapshot(watched);
        const tmpsBefore = readdirSync(dir).filter((f) => f.endsWith('.tmp'));
        const r = await run(...c.argv());
        expect(r.err).toMatch(c.err());
        expect(r.code).toBe(c.code);
        expect(r.err).not.toMatch(/\n\s+at /); // no stack
        expect(r.out).toBe('');
        expect(snapshot(watched)).toEqual(before);
        expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual(tmpsBefore);
        expect(lstatSync(p.fifo).isFIFO()).toBe(true);
        expect(lstatSync(p.socket).isSocket()).toBe(true);
      });
    });
  }

  it.skipIf(!isRoot)('refuses to replace a character device (as root, where a rename would succeed)', async () => {
    const r = await run(...balance('--out', p.device));
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/cannot write boundary file .*a-device: it is a character device; the CLI writes only regular files/) });
    expect(statSync(p.device).isCharacterDevice()).toBe(true);
  });

  it('accepts the edges of the ranges and decimal numbers written with an exponent', async () => {
    for (const [lat, lng] of [['90', '180'], ['-90', '-180'], ['+45.5', '-0'], ['1e1', '.5'], ['45.', '-122.4194']]) {
      const r = await run('route', '--lat', lat, '--lng', lng, '--boundaries', p.file);
      expect({ lat, lng, code: r.code, err: r.err }).toEqual({ lat, lng, code: 0, err: '' });
    }
    expect((await run(...balance('--created-at', '2026-11-30T09:30:00.5+01:00', '--index', 'dishes.v2_a-1', '--out', join(dir, 'ok.json')))).code).toBe(0);
    expect(await run('validate', '--boundaries', join(dir, 'ok.json'))).toEqual({ code: 0, out: 'ok\n', err: '' });
  });

  it('never writes a boundary file the validator rejects', () => {
    const bad = { ...(JSON.parse(readFileSync(p.file, 'utf8')) as BoundaryFile), index: 'BAD INDEX' };
    const target = join(dir, 'invalid-never.json');
    expect(() => writeBoundaryFile(target, bad, 'balance')).toThrow(CliError);
    expect(() => writeBoundaryFile(target, bad, 'balance')).toThrow(/not writing .*invalid-never.json: the boundary file would be invalid \(2 problems\):\n {2}index: "BAD INDEX" is not a valid OpenSearch index name[^]*hash: .* does not match the content/);
    expect(existsSync(target)).toBe(false);
  });

  it('lists the first 50 problems of a file with thousands, then says how many more', async () => {
    const r = await run('validate', '--boundaries', p.many);
    expect(r.code).toBe(1);
    const lines = r.err.trimEnd().split('\n');
    const total = Number(/: ([\d,]+) problems:$/.exec(lines[0])![1].replace(/,/g, ''));
    // 1,000 bad tokens, their count against numberOfShards, and the stale hash.
    expect(total).toBe(1002);
    expect(lines.slice(1, 51).every((l) => /^ {2}(boundaries|hash)/.test(l))).toBe(true);
    expect(lines[51]).toBe('  and 952 more');
    expect(lines.length).toBe(52);
    const c = await run('cover', '--lat', '1', '--lng', '1', '--radius', '5mi', '--boundaries', p.many);
    expect(c.code).toBe(1);
    // Through loadBoundaryFile the core's BoundaryFileError carries the problems (the core may cap them itself).
    expect(c.err).toMatch(new RegExp(`^geoshard cover: ${esc(p.many)} is invalid \\(1,?002 problems\\):\n`));
    const coverLines = c.err.trimEnd().split('\n');
    expect(coverLines.length).toBeLessThanOrEqual(52);
    expect(coverLines[coverLines.length - 1]).toMatch(/^ {2}and [\d,]+ more$/);
  });
});

describe('hash --write changes only the top-level hash', () => {
  /** A valid file whose first field is a nested object with its own "hash", written with a 4-space indent. */
  function nested(extra: Record<string, unknown> = {}) {
    const f = JSON.parse(readFileSync(p.file, 'utf8')) as Record<string, unknown>;
    const { hash: _, ...rest } = f;
    const obj: Record<string, unknown> = { balance: { hash: 'abc', method: 'hand' }, ...rest, ...extra, hash: 'stale' };
    return obj;
  }

  it('leaves a nested "hash" alone and keeps the rest of the text byte for byte', async () => {
    const obj = nested({ version: 3 });
    const text = JSON.stringify(obj, null, 4) + '\n';
    const path = join(dir, 'nested.json');
    writeFileSync(path, text);
    const r = await run('hash', '--boundaries', path, '--write');
    expect(r.code).toBe(0);
    const expected = computeHash(obj);
    expect(r.out).toBe(`${expected}\n`);
    expect(readFileSync(path, 'utf8')).toBe(text.replace('"hash": "stale"', `"hash": "${expected}"`));
    expect(JSON.parse(readFileSync(path, 'utf8')).balance).toEqual({ hash: 'abc', method: 'hand' });
    expect(await run('validate', '--boundaries', path)).toEqual({ code: 0, out: 'ok\n', err: '' });
    // Already right: the file is not rewritten.
    const mtime = statSync(path).mtimeMs;
    expect((await run('hash', '--boundaries', path, '--write')).code).toBe(0);
    expect(statSync(path).mtimeMs).toBe(mtime);
  });

  it('replaces a hash holding an escaped quote, on one line with other fields', async () => {
    const obj = nested();
    const text = JSON.stringify({ ...obj, hash: 'x"y' });
    const path = join(dir, 'quote.json');
    writeFileSync(path, text);
    const r = await run('hash', '--boundaries', path, '--write');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(readFileSync(path, 'utf8')).toBe(text.replace('"hash":"x\\"y"', `"hash":"${computeHash(obj)}"`));
    expect(await run('validate', '--boundaries', path)).toMatchObject({ code: 0 });
  });

  it('writes through a symbolic link to its target and keeps the file mode', async () => {
    const target = join(dir, 'target.json');
    const link = join(dir, 'link.json');
    const obj = nested({ version: 4 });
    writeFileSync(target, JSON.stringify(obj, null, 2));
    chmodSync(target, 0o600);
    symlinkSync(target, link);
    expect((await run('hash', '--boundaries', link, '--write')).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(target, 'utf8')).hash).toBe(computeHash(obj));
    expect(readdirSync(dirname(target)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a file with two top-level hash fields, writing nothing', async () => {
    const obj = nested();
    const text = JSON.stringify(obj, null, 2).replace('"hash": "stale"', '"hash": "one",\n  "hash": "stale"');
    const path = join(dir, 'twice.json');
    writeFileSync(path, text);
    const r = await run('hash', '--boundaries', path, '--write');
    expect(r).toMatchObject({ code: 1, err: expect.stringMatching(/twice.json is invalid \(1 problem\):\n {2}hash: appears twice in one object .*keep one/) });
    expect(readFileSync(path, 'utf8')).toBe(text);
  });
});

describe('the last-resort handler', () => {
  it('prints one line without a stack for an unexpected error, and the stack with GEOSHARD_DEBUG=1', async () => {
    COMMAND_LOADERS.set('boom', async () => ({ name: 'boom', summary: '', usage: '', run: () => (null as unknown as { x: () => number }).x() }));
    try {
      const r = await run('boom');
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^geoshard boom: internal error: Cannot read properties of null \(reading 'x'\) \(set GEOSHARD_DEBUG=1 for details\)\n$/);
      process.env.GEOSHARD_DEBUG = '1';
      const d = await run('boom');
      expect(d.code).toBe(1);
      expect(d.err).toMatch(/\n\s+at /);
    } finally {
      delete process.env.GEOSHARD_DEBUG;
      COMMAND_LOADERS.delete('boom');
    }
  });
});

describe('the installed command', () => {
  const cli = (args: string[], shell?: string) =>
    shell ? spawnSync('bash', ['-c', `${shell}; exec "$0" "$@"`, process.execPath, BIN, ...args], { encoding: 'utf8' }) : spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8' });

  it('refuses a longitude out of range and an unwritable path in one line, without a stack', () => {
    const r = cli(['cover', '--lat', '0', '--lng', '181', '--radius', '15mi']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('geoshard cover: --lng 181 is not a longitude: expected a number of degrees in [-180, 180]\n');
    expect(r.stdout).toBe('');
    const w = cli(['plan', '--boundaries', p.cur, '--candidate', p.cand, '--cells', p.cells, '--out-dir', join(p.aFile, 'sub')]);
    expect(w.status).toBe(1);
    expect(w.stderr).toBe(`geoshard plan: cannot write --out-dir folder ${join(p.aFile, 'sub')}: ${p.aFile} is a regular file, not a folder\n`);
  });

  it('reports a write that fails part way (file size limit), exits 1 and leaves no file', () => {
    // ulimit -f 1: writes past 1 KiB fail with EFBIG (node ignores SIGXFSZ); a boundary file is larger.
    const out = join(dir, 'efbig', 'b.json');
    mkdirSync(dirname(out));
    const r = cli(balance20('--out', out), 'ulimit -f 1');
    expect(r.stderr).toBe(`geoshard balance: cannot write boundary file ${out}: file too large for the file system or the process limit; nothing was written\n`);
    expect(r.status).toBe(1);
    expect(readdirSync(dirname(out))).toEqual([]);
  });
});

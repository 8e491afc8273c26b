import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { s2 } from 's2js';
import { main } from './main.ts';
import { fileURLToPath } from 'node:url';

import { fileWithCuts, mulberry32, randomPoint } from '../core/testutil.ts';
import { formatBoundaryFile, shardForRouting, cellOrdinal, parseToken, pickShardNames, KM_PER_MILE, EARTH_RADIUS_KM } from '../core/index.ts';

/** The repository root (where package.json and dist/ are). */
const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..');

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

let dir: string;
let file: string;
const sf = cellOrdinal(parseToken('808581'));
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-cli-'));
  file = join(dir, 'b.json');
  writeFileSync(file, formatBoundaryFile(fileWithCuts([sf - 3, sf + 2, 3_000_000, 5_000_000])));
});

describe('geoshard cover', () => {
  it('agrees with an independently configured s2js RegionCoverer on random circles', async () => {
    const rand = mulberry32(11);
    for (let t = 0; t < 25; t++) {
      const p = randomPoint(rand);
      const km = 1 + rand() * 150;
      const r = await run('cover', '--lat', String(p.lat), '--lng', String(p.lng), '--radius', `${km}km`, '--boundaries', file, '--json');
      expect(r.code).toBe(0);
      const json = JSON.parse(r.out);
      const cap = s2.Cap.fromCenterAngle(s2.Point.fromLatLng(s2.LatLng.fromDegrees(p.lat, p.lng)), km / EARTH_RADIUS_KM);
      const expected = [...new s2.RegionCoverer({ minLevel: 10, maxLevel: 10, maxCells: 1 << 30 }).covering(cap)].sort((a, b) => (a < b ? -1 : 1)).map(s2.cellid.toToken);
      expect(json.cells).toEqual(expected);
      expect(json.shards.reduce((a: number, s: { cells: number }) => a + s.cells, 0)).toBe(expected.length);
      expect(json.routing).toBe(json.shards.map((s: { name: string }) => s.name).join(','));
    }
  });

  it('prints the cell count, cells per shard and the routing string', async () => {
    const r = await run('cover', '--lat', '37.7749', '--lng', '-122.4194', '--radius', '15mi', '--boundaries', file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^40 cells, \d+ \/ 5 shards\n/);
    expect(r.out).toMatch(/routing=[a-z]+(,[a-z]+)*\n$/);
  });

  it('rejects bad input with a message naming the value, exiting non-zero', async () => {
    expect(await run('cover', '--lat', '95', '--lng', '0', '--radius', '5mi', '--boundaries', file)).toMatchObject({ code: 2, err: expect.stringMatching(/lat 95 is not a latitude/) });
    expect(await run('cover', '--lat', 'x', '--lng', '0', '--radius', '5mi')).toMatchObject({ code: 2, err: expect.stringMatching(/--lat "x" is not a number/) });
    expect(await run('cover', '--lat', '1', '--lng', '0', '--radius', '0mi', '--boundaries', file)).toMatchObject({ code: 2, err: expect.stringMatching(/radius "0mi" is out of range/) });
    expect(await run('cover', '--lat', '1', '--lng', '0', '--boundaries', file)).toMatchObject({ code: 2, err: expect.stringMatching(/--radius is required/) });
    expect(await run('cover', '--lat', '1', '--lng', '0', '--radius', '5', '--boundaries', join(dir, 'missing.json'))).toMatchObject({ code: 1, err: expect.stringMatching(/cannot read boundary file .*missing.json: no such file/) });
    expect(await run('cover', '--bogus')).toMatchObject({ code: 2, err: expect.stringMatching(/Unknown option '--bogus'/) });
  });
});

describe('geoshard route and shard-of', () => {
  it("routes a point to its token and shard", async () => {
    const r = await run('route', '--lat', '37.7749', '--lng', '-122.4194', '--boundaries', file, '--json');
    // Cuts in key order: 3,000,000 < sf - 3 < sf + 2 < 5,000,000, so San Francisco's cell is in shard 2.
    expect(JSON.parse(r.out)).toEqual({ token: '808581', name: pickShardNames(5)[2], shard: 2 });
  });

  it("agrees with OpenSearch's formula, one NAME<TAB>SHARD line per name", async () => {
    const r = await run('shard-of', '--shards', '18', 'yankee', 'zenith', 'nova');
    expect(r.out).toBe(`yankee\t${shardForRouting('yankee', 18)}\nzenith\t${shardForRouting('zenith', 18)}\nnova\t${shardForRouting('nova', 18)}\n`);
    expect(r.out).toBe('yankee\t14\nzenith\t15\nnova\t1\n'); // the article's shard bar order
    expect(await run('shard-of', '--shards', '0', 'x')).toMatchObject({ code: 2, err: expect.stringMatching(/--shards "0" is invalid: expected an integer in \[1, 1024\]/) });
  });
});

describe('geoshard validate and hash', () => {
  it('prints ok for a valid file and every problem for a broken one', async () => {
    expect(await run('validate', '--boundaries', file)).toEqual({ code: 0, out: 'ok\n', err: '' });
    const bad = JSON.parse(readFileSync(file, 'utf8'));
    bad.boundaries.reverse();
    bad.shards[0].name = bad.shards[1].name;
    const badPath = join(dir, 'bad.json');
    writeFileSync(badPath, JSON.stringify(bad));
    const r = await run('validate', '--boundaries', badPath);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/boundaries\[1\]: .* is not after boundaries\[0\]/);
    expect(r.err).toMatch(/shards\[1\]\.name: .* is already the name of shards\[0\]/);
    expect(r.err).toMatch(/hash: .* does not match the content/);
  });

  it('rewrites only the hash after a hand edit, and refuses to when the edit is invalid', async () => {
    const f = JSON.parse(readFileSync(file, 'utf8'));
    f.version = 7;
    const p = join(dir, 'edited.json');
    const text = JSON.stringify(f, null, 2);
    writeFileSync(p, text);
    expect((await run('validate', '--boundaries', p)).code).toBe(1);
    const h = await run('hash', '--boundaries', p, '--write');
    expect(h.code).toBe(0);
    const after = readFileSync(p, 'utf8');
    expect(after).toBe(text.replace(f.hash, h.out.trim()));
    expect(await run('validate', '--boundaries', p)).toMatchObject({ code: 0 });
    f.boundaries[0] = 'zz';
    writeFileSync(p, JSON.stringify(f));
    const before = readFileSync(p, 'utf8');
    expect(await run('hash', '--boundaries', p, '--write')).toMatchObject({ code: 1, err: expect.stringMatching(/not written: .*boundaries\[0\]: "zz"/s) });
    expect(readFileSync(p, 'utf8')).toBe(before);
  });
});

describe('geoshard balance', () => {
  it('writes a valid boundary file from a cells file and reports both methods per shard count', async () => {
    const rand = mulberry32(8);
    const seen = new Set<string>();
    const rows: [number, string][] = [];
    while (rows.length < 400) {
      const p = randomPoint(rand);
      const id = s2.cellid.parent(s2.cellid.fromLatLng(s2.LatLng.fromDegrees(p.lat, p.lng)), 10);
      const t = s2.cellid.toToken(id);
      if (!seen.has(t)) seen.add(t), rows.push([cellOrdinal(id), t]);
    }
    rows.sort((a, b) => a[0] - b[0]);
    const csv = 'token,restaurants,dishes\n' + rows.map(([, t]) => `${t},${1 + Math.floor(rand() * 20)},${Math.floor(rand() * 2000)}`).join('\n') + '\n';
    const cells = join(dir, 'cells.csv');
    writeFileSync(cells, csv);
    const out = join(dir, 'balanced.json');
    const r = await run('balance', '--cells', cells, '--min', '4', '--max', '8', '--targets', '300', '--out', out, '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report.rows.map((x: { shards: number }) => x.shards)).toEqual([4, 5, 6, 7, 8]);
    expect(await run('validate', '--boundaries', out)).toMatchObject({ code: 0, out: 'ok\n' });
    const written = JSON.parse(readFileSync(out, 'utf8'));
    expect(written.numberOfShards).toBe(report.chosen.shards);
    expect(written.shards.reduce((a: number, s: { restaurants: number; dishes: number }) => a + s.restaurants + s.dishes, 0)).toBe(report.totalWeight);

    writeFileSync(join(dir, 'bad.csv'), 'token,restaurants,dishes\n808581,1,2\n89c25b,x,3\n');
    const bad = await run('balance', '--cells', join(dir, 'bad.csv'), '--min', '1', '--max', '2', '--out', join(dir, 'never.json'));
    expect(bad).toMatchObject({ code: 1, err: expect.stringMatching(/line 3: restaurants "x" is not a non-negative integer/) });
    expect(existsSync(join(dir, 'never.json'))).toBe(false);
  });
});

describe('the installed command', () => {
  it('runs as `npx geoshard` with --help on every command and exit codes', () => {
    // npx resolves the package's bin (twice: help and an exit code); the per-command checks run
    // that same bin file with node, so the test costs two npx start-ups, not fourteen.
    const help = execFileSync('npx', ['geoshard', '--help'], { encoding: 'utf8' });
    expect(spawnSync('npx', ['geoshard', 'nope'], { encoding: 'utf8' }).status).toBe(2);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    const bin = join(ROOT, pkg.bin.geoshard);
    for (const c of ['cover', 'route', 'shard-of', 'balance', 'validate', 'hash']) {
      expect(help).toContain(c);
      expect(execFileSync(process.execPath, [bin, c, '--help'], { encoding: 'utf8' })).toMatch(new RegExp(`geoshard ${c}`));
    }
    expect(spawnSync(process.execPath, [bin, 'validate', '--boundaries', file], { encoding: 'utf8' }).stdout).toBe('ok\n');
  });
});

void KM_PER_MILE;

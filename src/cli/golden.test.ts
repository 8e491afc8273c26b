import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from './main.ts';
import { ROOT } from './io.ts';
import type { GoldenEntry as Entry } from './commands/golden.ts';
import { fileWithCuts } from '../core/testutil.ts';
import type { City } from '../core/place.ts';
import { regionCovererCells } from '../core/reference/regionCoverer.ts';
import { Router, formatBoundaryFile, cellOrdinal, parseToken, KM_PER_MILE } from '../core/index.ts';
import { computeHash } from '../core/boundaries.ts';

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

const BOUNDARIES = join(ROOT, 'data', 'boundaries.json');
const CITIES = join(ROOT, 'data', 'cities.json');
const GOLDEN = join(ROOT, 'e2e', 'cities.golden.json');
const PRESETS = ['San Francisco', 'Los Angeles', 'Dallas', 'Miami', 'New York', 'Chicago'];

/** The expected search, computed without the golden command: cover.ts's covering, each cell looked up on its own. */
function expected(router: Router, lat: number, lng: number, radius: string) {
  const m = /^(\d+(?:\.\d+)?)(mi|km)$/.exec(radius);
  if (!m) throw new Error(`golden radius ${radius} is not written as <number>mi or <number>km`);
  const km = Number(m[1]) * (m[2] === 'mi' ? KM_PER_MILE : 1);
  const cells = regionCovererCells(lat, lng, km);
  const shards = [...new Set(cells.map((c) => router.shardOfCell(c).index))].sort((a, b) => a - b);
  return { cells: cells.length, shardCount: `${shards.length} / ${router.numberOfShards}`, routing: shards.map((i) => router.shards[i].name).join(','), shards: shards.length };
}

describe('e2e/cities.golden.json', () => {
  const file = JSON.parse(readFileSync(BOUNDARIES, 'utf8'));
  const router = new Router(file);
  const cities = JSON.parse(readFileSync(CITIES, 'utf8')) as City[];
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as { boundaryHash: string; boundaryVersion: number; numberOfShards: number; straddling: string[]; cities: Entry[] };

  it('was made from the current data/boundaries.json', () => {
    expect(golden.boundaryHash).toBe(computeHash(file));
    expect(golden.boundaryVersion).toBe(file.version);
    expect(golden.numberOfShards).toBe(file.numberOfShards);
  });

  it('holds every preset city at 15 and 50 miles, at the coordinates of data/cities.json', () => {
    for (const name of PRESETS) {
      const c = cities.find((x) => x.name === name)!;
      expect(c, name).toBeDefined();
      for (const radius of ['15mi', '50mi']) {
        expect(golden.cities.filter((e) => e.name === name && e.radius === radius).map((e) => [e.lat, e.lng, e.state])).toEqual([[c.lat, c.lng, c.state]]);
      }
    }
  });

  it('expects, for every search, the cells, shard count and routing the core computes', () => {
    expect(golden.cities.length).toBe(PRESETS.length * 2 + 2);
    for (const e of golden.cities) {
      const { shards, ...want } = expected(router, e.lat, e.lng, e.radius);
      void shards;
      expect({ cells: e.cells, shardCount: e.shardCount, routing: e.routing }, `${e.name} @ ${e.radius}`).toEqual(want);
    }
  });

  it('ends with the two most populous non-preset cities whose search straddles a boundary', () => {
    // The rule, restated: by population (file order on ties), first radius of 15, 25, 50 mi at which the search asks >= 2 shards.
    const ranked = cities
      .map((c, i) => ({ c, i }))
      .filter(({ c }) => !PRESETS.includes(c.name))
      .sort((a, b) => b.c.population - a.c.population || a.i - b.i)
      .map(({ c }) => c);
    const picked: { name: string; radius: string }[] = [];
    for (const radius of ['15mi', '25mi', '50mi']) {
      for (const c of ranked) {
        if (picked.length < 2 && !picked.some((p) => p.name === c.name) && expected(router, c.lat, c.lng, radius).shards >= 2) picked.push({ name: c.name, radius });
      }
    }
    expect(golden.straddling).toEqual(picked.map((p) => p.name));
    const tail = golden.cities.slice(-2);
    expect(tail.map((e) => ({ name: e.name, radius: e.radius }))).toEqual(picked);
    for (const e of tail) expect(Number(e.shardCount.split(' / ')[0])).toBeGreaterThanOrEqual(2);
  });

  it('passes geoshard golden --check', async () => {
    const r = await run('golden', '--check');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/e2e\/cities\.golden\.json matches data\/boundaries\.json/);
  });
});

describe('geoshard golden', () => {
  let dir: string;
  let bfile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'geoshard-golden-'));
    bfile = join(dir, 'b.json');
    // Cuts beside San Francisco's and New York's cells, so their searches straddle.
    const sf = cellOrdinal(parseToken('808581'));
    const ny = cellOrdinal(parseToken('89c259'));
    writeFileSync(bfile, formatBoundaryFile(fileWithCuts([sf - 30, sf + 2, ny - 2, ny + 30])));
  });

  it('writes the golden file, then --check accepts it and reports a changed search by name', async () => {
    const out = join(dir, 'g.json');
    const w = await run('golden', '--boundaries', bfile, '--out', out);
    expect(w.code).toBe(0);
    expect(w.out).toMatch(/^wrote .*g\.json: 14 searches .*straddling: /);
    const g = JSON.parse(readFileSync(out, 'utf8'));
    expect(g.boundaryHash).toBe(JSON.parse(readFileSync(bfile, 'utf8')).hash);
    expect(await run('golden', '--boundaries', bfile, '--out', out, '--check')).toMatchObject({ code: 0 });

    const router = new Router(JSON.parse(readFileSync(bfile, 'utf8')));
    for (const e of g.cities as Entry[]) expect({ cells: e.cells, shardCount: e.shardCount, routing: e.routing }).toEqual((({ shards, ...x }) => (void shards, x))(expected(router, e.lat, e.lng, e.radius)));

    g.cities[0].cells += 1;
    g.cities[3].routing = 'nowhere';
    writeFileSync(out, JSON.stringify(g));
    const c = await run('golden', '--boundaries', bfile, '--out', out, '--check');
    expect(c.code).toBe(1);
    expect(c.err).toContain(`San Francisco (CA) @ 15mi: cells ${g.cities[0].cells} → ${g.cities[0].cells - 1}`);
    expect(c.err).toMatch(/Los Angeles \(CA\) @ 50mi: routing "nowhere" → "[a-z,]+"/);
    expect(c.err).toMatch(/Run "npx geoshard golden"/);
  });

  it('--check names a boundary file change and a missing golden file', async () => {
    const out = join(dir, 'g2.json');
    expect((await run('golden', '--boundaries', bfile, '--out', out)).code).toBe(0);
    const other = join(dir, 'b2.json');
    writeFileSync(other, formatBoundaryFile(fileWithCuts([cellOrdinal(parseToken('808581')) - 1, cellOrdinal(parseToken('89c259')) + 1])));
    const c = await run('golden', '--boundaries', other, '--out', out, '--check');
    expect(c.code).toBe(1);
    expect(c.err).toMatch(/boundaryHash: "[0-9a-f]{64}" → "[0-9a-f]{64}"/);
    expect(await run('golden', '--boundaries', bfile, '--out', join(dir, 'none.json'), '--check')).toMatchObject({ code: 1, err: expect.stringMatching(/no golden file at .*none\.json: run "npx geoshard golden"/) });
  });

  it('never leaves a half-written file when the write fails', async () => {
    const sub = join(dir, 'blocked');
    mkdirSync(join(sub, 'g.json'), { recursive: true }); // a directory where the file should go
    const r = await run('golden', '--boundaries', bfile, '--out', join(sub, 'g.json'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot write .*g\.json/);
    expect(readdirSync(sub)).toEqual(['g.json']);
  });

  it('refuses a cities file without a preset, and a boundary file no city straddles', async () => {
    const cities = join(dir, 'cities.json');
    writeFileSync(cities, JSON.stringify([{ name: 'Dallas', state: 'TX', lat: 32.78, lng: -96.8 }]));
    expect(await run('golden', '--boundaries', bfile, '--cities', cities, '--out', join(dir, 'x.json'))).toMatchObject({ code: 1, err: expect.stringMatching(/preset city "San Francisco" is not in .*cities\.json/) });
    const one = join(dir, 'one.json');
    writeFileSync(one, formatBoundaryFile(fileWithCuts([])));
    expect(await run('golden', '--boundaries', one, '--out', join(dir, 'x.json'))).toMatchObject({ code: 1, err: expect.stringMatching(/only 0 city of data\/cities\.json straddles a boundary/) });
  });

  it('prints its usage for --help', async () => {
    const r = await run('golden', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^geoshard golden \[--out FILE\] \[--check\]/);
    expect(r.out).toContain('San Francisco, Los Angeles, Dallas, Miami, New York, Chicago at 15mi and 50mi');
  });

  it('rejects an unknown option as a usage error', async () => {
    expect(await run('golden', '--chek')).toMatchObject({ code: 2, err: expect.stringMatching(/Unknown option '--chek'/) });
  });
});

describe('geoshard searches', () => {
  let dir: string;
  let bfile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'geoshard-searches-'));
    bfile = join(dir, 'b.json');
    const sf = cellOrdinal(parseToken('808581'));
    writeFileSync(bfile, formatBoundaryFile(fileWithCuts([sf - 30, sf + 2, 3_000_000])));
  });
  const twoCities = () => {
    const f = join(dir, 'cities.json');
    writeFileSync(f, JSON.stringify([
      { name: 'San Francisco', state: 'CA', lat: 37.7749, lng: -122.4194 },
      { name: 'Suva', state: 'FJ', lat: -18.1416, lng: 178.4415 },
    ]));
    return f;
  };

  it('prints one table row per city and radius with cells, k / N and the routing string', async () => {
    const r = await run('searches', '--radii', '5,25km', '--cities', twoCities(), '--boundaries', bfile);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^city\s+radius\s+cells\s+shards\s+routing$/);
    expect(lines).toHaveLength(5);
    const router = new Router(JSON.parse(readFileSync(bfile, 'utf8')));
    const want = [
      ['San Francisco', 37.7749, -122.4194, '5mi'],
      ['San Francisco', 37.7749, -122.4194, '25km'],
      ['Suva', -18.1416, 178.4415, '5mi'],
      ['Suva', -18.1416, 178.4415, '25km'],
    ] as const;
    want.forEach(([name, lat, lng, radius], k) => {
      const e = expected(router, lat, lng, radius);
      expect(lines[k + 1].split(/\s{2,}/)).toEqual([name, radius, String(e.cells), e.shardCount, e.routing]);
    });
  });

  it('prints rows as JSON and as CSV', async () => {
    const j = await run('searches', '--radii', '15', '--cities', twoCities(), '--boundaries', bfile, '--json');
    expect(j.code).toBe(0);
    const rows = JSON.parse(j.out);
    expect(rows.map((r: { city: string; radius: { value: number; unit: string }; cells: number }) => [r.city, r.radius.value, r.radius.unit])).toEqual([
      ['San Francisco', 15, 'mi'],
      ['Suva', 15, 'mi'],
    ]);
    // The article: "A 15-mile search around San Francisco covers 40 cells".
    expect(rows[0].cells).toBe(40);
    const c = await run('searches', '--radii', '15', '--cities', twoCities(), '--boundaries', bfile, '--csv');
    expect(c.code).toBe(0);
    expect(c.out.split('\r\n')[0]).toBe('city,state,lat,lng,radius,radius_km,cells,shards_asked,number_of_shards,shard_count,routing');
    expect(c.out.split('\r\n')[1]).toMatch(/^San Francisco,CA,37\.7749,-122\.4194,15mi,24\.14016,40,\d+,4,\d+ \/ 4,"?[a-z,]+"?$/);
  });

  it('rejects a bad --radii as a usage error naming the value', async () => {
    expect(await run('searches', '--radii', '5,abc', '--boundaries', bfile)).toMatchObject({ code: 2, err: expect.stringMatching(/--radii "abc" is not a radius/) });
    expect(await run('searches', '--radii', '0', '--boundaries', bfile)).toMatchObject({ code: 2, err: expect.stringMatching(/--radii "0" is out of range/) });
    expect(await run('searches', '--radii', '5,,15', '--boundaries', bfile)).toMatchObject({ code: 2, err: expect.stringMatching(/--radii "5,,15": item 2 is empty/) });
    expect(await run('searches', '--radii', '2000km', '--boundaries', bfile)).toMatchObject({ code: 2, err: expect.stringMatching(/--radii "2000km" is out of range: .*at most 1000 km/) });
  });

  it('rejects other bad input naming the option, file or field', async () => {
    expect(await run('searches', '--json', '--csv', '--boundaries', bfile)).toMatchObject({ code: 2, err: expect.stringMatching(/--json and --csv are alternatives/) });
    expect(await run('searches', '--cities', join(dir, 'missing.json'), '--boundaries', bfile)).toMatchObject({ code: 1, err: expect.stringMatching(/cannot read cities file .*missing\.json: no such file/) });
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify([{ name: 'X', state: 'XX', lat: 95, lng: 0 }]));
    expect(await run('searches', '--cities', bad, '--boundaries', bfile)).toMatchObject({ code: 1, err: expect.stringMatching(/cities\[0\]\.lat 95 is not a latitude/) });
    const notJson = join(dir, 'nj.json');
    writeFileSync(notJson, '[{');
    expect(await run('searches', '--cities', notJson, '--boundaries', bfile)).toMatchObject({ code: 1, err: expect.stringMatching(/cities file .*nj\.json is not JSON/) });
    expect(await run('searches', '--boundaries', join(dir, 'none.json'))).toMatchObject({ code: 1, err: expect.stringMatching(/cannot read boundary file .*none\.json: no such file/) });
  });

  it('prints its usage for --help', async () => {
    const r = await run('searches', '--help');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^geoshard searches \[--radii LIST\]/);
    expect(r.out).toContain('--csv');
  });
});

import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import s2geometry from 's2-geometry';
import { main } from './main.ts';
import { mulberry32, randomPoint } from '../core/testutil.ts';

// Expected counts come from s2-geometry, an independent implementation of S2 cell ids; key
// order is the numeric order of the level-10 cell ids.
const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleId = (lat: number, lng: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10)));
const token = (id: bigint) => id.toString(16).padStart(16, '0').replace(/0+$/, '');

async function run(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** expectedCsv counts the points per cell with the oracle: the cells file `geoshard cells` must write. */
function expectedCsv(points: { lat: number; lng: number; w?: number }[], weight?: string): string {
  const m = new Map<bigint, { docs: number; w: number }>();
  for (const p of points) {
    const id = oracleId(p.lat, p.lng);
    const e = m.get(id) ?? { docs: 0, w: 0 };
    e.docs++;
    e.w += p.w ?? 0;
    m.set(id, e);
  }
  const ids = [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [weight ? `token,docs,${weight}` : 'token,docs', ...ids.map((id) => `${token(id)},${m.get(id)!.docs}${weight ? `,${m.get(id)!.w}` : ''}`)].join('\n') + '\n';
}

let dir: string;
let points: { lat: number; lng: number; w: number }[];
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'geoshard-cells-'));
  const rand = mulberry32(22);
  const towns = Array.from({ length: 12 }, () => randomPoint(rand));
  points = Array.from({ length: 3000 }, (_, i) => {
    const t = towns[i % towns.length];
    const p = i % 5 === 0 ? randomPoint(rand) : { lat: Math.max(-89.9, Math.min(89.9, t.lat + (rand() - 0.5) * 0.3)), lng: Math.max(-180, Math.min(180, t.lng + (rand() - 0.5) * 0.3)) };
    return { ...p, w: Math.floor(rand() * 50) };
  });
});

describe('geoshard cells --from-file', () => {
  it('counts a CSV of lat,lng columns per level-10 cell, in key order, as s2-geometry does', async () => {
    const src = join(dir, 'points.csv');
    writeFileSync(src, 'id,name,lat,lng\n' + points.map((p, i) => `${i},"Place, ${i}",${p.lat},${p.lng}`).join('\n') + '\n');
    const out = join(dir, 'cells.csv');
    const r = await run('cells', '--from-file', src, '--out', out);
    expect(r).toMatchObject({ code: 0, out: expect.stringMatching(/^wrote .*cells\.csv: 3,000 documents in [\d,]+ level-10 cells \(columns token,docs\)/) });
    expect(readFileSync(out, 'utf8')).toBe(expectedCsv(points));
  });

  it('reads columns named by --lat/--lng, and a quoted "lat,lon" column named by --field', async () => {
    const a = join(dir, 'named.csv');
    writeFileSync(a, 'y,x\n' + points.map((p) => `${p.lat},${p.lng}`).join('\n') + '\n');
    expect((await run('cells', '--from-file', a, '--lat', 'y', '--lng', 'x', '--out', join(dir, 'a.csv'))).code).toBe(0);
    const b = join(dir, 'field.csv');
    writeFileSync(b, 'id,pos\n' + points.map((p, i) => `${i},"${p.lat},${p.lng}"`).join('\r\n') + '\r\n');
    expect((await run('cells', '--from-file', b, '--field', 'pos', '--out', join(dir, 'b.csv'))).code).toBe(0);
    expect(readFileSync(join(dir, 'a.csv'), 'utf8')).toBe(expectedCsv(points));
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(expectedCsv(points));
  });

  it('reads NDJSON geo_points as {lat, lon}, "lat,lon" and [lon, lat] in a nested key', async () => {
    const src = join(dir, 'points.ndjson');
    const shape = (p: { lat: number; lng: number }, i: number) => (i % 3 === 0 ? { lat: p.lat, lon: p.lng } : i % 3 === 1 ? `${p.lat},${p.lng}` : [p.lng, p.lat]);
    writeFileSync(src, points.map((p, i) => JSON.stringify({ id: i, geo: { pos: shape(p, i) } })).join('\n') + '\n');
    const out = join(dir, 'nd.csv');
    expect(await run('cells', '--from-file', src, '--field', 'geo.pos', '--out', out)).toMatchObject({ code: 0 });
    expect(readFileSync(out, 'utf8')).toBe(expectedCsv(points));
  });

  it('sums the config\'s weight field into a weight column, and balance weighs by it', async () => {
    const src = join(dir, 'weighted.ndjson');
    writeFileSync(src, points.map((p) => JSON.stringify({ pos: { lat: p.lat, lon: p.lng }, visits: p.w })).join('\n') + '\n');
    const config = join(dir, 'geoshard.config.json');
    writeFileSync(config, JSON.stringify({ index: 'shops', location: 'pos', weight: { field: 'visits' } }));
    const out = join(dir, 'weighted.csv');
    expect(await run('cells', '--config', config, '--from-file', src, '--out', out)).toMatchObject({ code: 0, out: expect.stringMatching(/columns token,docs,visits/) });
    expect(readFileSync(out, 'utf8')).toBe(expectedCsv(points, 'visits'));
  });

  it('writes a file that balance accepts: its shards hold every document', async () => {
    const cells = join(dir, 'cells.csv');
    const b = join(dir, 'b.json');
    const r = await run('balance', '--cells', cells, '--min', '2', '--max', '4', '--index', 'places', '--out', b, '--created-at', '2026-12-01T00:00:00.000Z', '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).totalWeight).toBe(3000);
    const file = JSON.parse(readFileSync(b, 'utf8'));
    expect(file.shards.reduce((a: number, s: { restaurants: number; dishes: number }) => a + s.restaurants + s.dishes, 0)).toBe(3000);
    expect(await run('validate', '--boundaries', b)).toMatchObject({ code: 0 });
  });
});

describe('geoshard cells refuses bad input, naming the line, the column and the value, and writes nothing', () => {
  const cases: [string, string, string, string[], RegExp][] = [
    ['a latitude out of range', 'p.csv', 'lat,lng\n10,20\n95,20\n', [], /p\.csv line 3: column "lat" "95" is not a latitude: expected a number of degrees in \[-90, 90\]/],
    ['a longitude that is not a number', 'p.csv', 'lat,lng\n10,east\n', [], /p\.csv line 2: column "lng" "east" is not a longitude: expected a number of degrees in \[-180, 180\]/],
    ['a row with a missing field', 'p.csv', 'lat,lng,name\n10,20\n', [], /p\.csv line 2: 2 fields: expected 3 \(lat,lng,name\)/],
    ['a header without coordinates', 'p.csv', 'x,y\n10,20\n', [], /p\.csv line 1: the header "x,y" has no latitude and longitude columns .*--lat COL --lng COL/],
    ['a --field column that is not in the header', 'p.csv', 'lat,lng\n10,20\n', ['--field', 'pos'], /p\.csv line 1: the header "lat,lng" has no column "pos" \(--field\): its columns are lat, lng/],
    ['a "lat,lon" column that is not a point', 'p.csv', 'pos\n"10;20"\n', ['--field', 'pos'], /p\.csv line 2: column "pos" "10;20" is not a point/],
    ['an NDJSON line that is not JSON', 'p.ndjson', '{"location":{"lat":1,"lon":2}}\n{oops\n', [], /p\.ndjson line 2: not a JSON object/],
    ['an NDJSON key that is not a geo_point', 'p.ndjson', '{"pos":{"lat":1,"lon":2}}\n{"pos":{"lat":1}}\n', ['--field', 'pos'], /p\.ndjson line 2: key "pos" \{"lat":1\} is not a geo_point/],
    ['an NDJSON point out of range', 'p.ndjson', '{"pos":[200,10]}\n', ['--field', 'pos'], /p\.ndjson line 1: key "pos" \[200,10\] is not a geo_point/],
    ['a file with no points', 'p.csv', 'lat,lng\n', [], /p\.csv holds no points/],
  ];
  for (const [what, name, text, flags, re] of cases) {
    it(`refuses ${what}`, async () => {
      const src = join(dir, name);
      writeFileSync(src, text);
      const out = join(dir, 'never.csv');
      const r = await run('cells', '--from-file', src, ...flags, '--out', out);
      expect(r).toMatchObject({ code: 1, err: expect.stringMatching(re) });
      expect(existsSync(out)).toBe(false);
    });
  }

  it('refuses a missing points file, a bad config file and a bad flag', async () => {
    expect(await run('cells', '--from-file', join(dir, 'nope.csv'), '--out', join(dir, 'never.csv'))).toMatchObject({ code: 1, err: expect.stringMatching(/cannot read points file .*nope\.csv: no such file or directory/) });
    const config = join(dir, 'bad.config.json');
    writeFileSync(config, JSON.stringify({ index: 'shops', location: 'pos', weight: 'visits', join: {} }));
    const bad = await run('cells', '--config', config, '--from-file', join(dir, 'p.csv'), '--out', join(dir, 'never.csv'));
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/bad\.config\.json is invalid \(5 problems\):\n {2}weight: "visits" is invalid/);
    expect(bad.err).toMatch(/join\.field: missing/);
    expect(await run('cells', '--from-file', join(dir, 'p.csv'), '--field', 'a..b', '--out', join(dir, 'never.csv'))).toMatchObject({ code: 1, err: expect.stringMatching(/--field "a\.\.b" is not a field path/) });
    expect(await run('cells', '--out', join(dir, 'never.csv'))).toMatchObject({ code: 2, err: expect.stringMatching(/give --from-index INDEX or --from-file FILE/) });
    expect(await run('cells', '--from-file', join(dir, 'p.csv'))).toMatchObject({ code: 2, err: expect.stringMatching(/--out is required/) });
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
  });
});

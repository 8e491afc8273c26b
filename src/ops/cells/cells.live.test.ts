/**
 * `geoshard cells --from-index` as a user runs it (the built CLI, dist/: run
 * `npm run build:lib` first) against the real node, on an index shaped like
 * a real team's: a plain mapping with a geo_point `pos`, no join, no routing,
 * three shards. The expected counts are computed here from the documents the
 * test wrote, with s2-geometry (an independent implementation of S2 cell ids).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import s2geometry from 's2-geometry';
import { mulberry32, randomPoint } from '../../core/testutil.ts';
import { cellAt } from '../../core/index.ts';
import { cellVertices } from '../../core/cells.ts';
import { liveClient } from '../../testing/testkit.ts';

const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleId = (lat: number, lng: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10)));
const token = (id: bigint) => id.toString(16).padStart(16, '0').replace(/0+$/, '');

const ROOT = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const INDEX = 'gs-own-cells-live';
const MISSING = 'gs-own-cells-missing';
const SCATTERED = 3960;
/** Points a few millimetres from a cell corner: their doc values' centimetre boxes straddle a cell edge, so the reader takes them from _source. */
const NEAR_CORNERS = 40;
const DOCS = SCATTERED + NEAR_CORNERS;
/** Documents without a point (no pos): counted nowhere, and named in a warning. */
const UNLOCATED = 3;

const client = liveClient();
const dir = mkdtempSync(join(tmpdir(), 'geoshard-cells-live-'));
let points: { lat: number; lng: number }[] = [];

/** cli runs the built CLI with the node's URL, as a user would. */
function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, OPENSEARCH_URL: client.config.url } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build:lib" before the live tests`);
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.request('PUT', `/${INDEX}`, {
    body: {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings: { properties: { pos: { type: 'geo_point' }, name: { type: 'keyword' }, population: { type: 'long' } } },
    },
  });
  // Clusters (many documents per cell) and scattered points, in the three forms a geo_point takes.
  const rand = mulberry32(4242);
  const towns = Array.from({ length: 25 }, () => randomPoint(rand));
  points = Array.from({ length: SCATTERED }, (_, i) => {
    const t = towns[i % towns.length];
    return i % 7 === 0 ? randomPoint(rand) : { lat: Math.max(-89.9, Math.min(89.9, t.lat + (rand() - 0.5) * 0.4)), lng: Math.max(-180, Math.min(180, t.lng + (rand() - 0.5) * 0.4)) };
  });
  // The corners only place the inputs; the expected cells still come from s2-geometry.
  for (let i = 0; i < NEAR_CORNERS; i++) {
    const v = cellVertices(cellAt(towns[i % towns.length].lat, towns[i % towns.length].lng))[i % 4];
    points.push({ lat: v.lat + (rand() - 0.5) * 4e-8, lng: v.lng + (rand() - 0.5) * 8e-8 });
  }
  const form = (p: { lat: number; lng: number }, i: number) => (i % 3 === 0 ? { lat: p.lat, lon: p.lng } : i % 3 === 1 ? `${p.lat},${p.lng}` : [p.lng, p.lat]);
  const lines: string[] = [];
  points.forEach((p, i) => lines.push(JSON.stringify({ index: { _id: `p${i}` } }), JSON.stringify({ pos: form(p, i), name: `place ${i}`, population: i })));
  for (let i = 0; i < UNLOCATED; i++) lines.push(JSON.stringify({ index: { _id: `nowhere${i}` } }), JSON.stringify({ name: `nowhere ${i}` }));
  const { body } = await client.request<{ errors: boolean }>('POST', `/${INDEX}/_bulk`, { body: lines.join('\n') + '\n', query: { refresh: 'true' }, timeoutMs: 120_000 });
  expect(body.errors).toBe(false);
});

afterAll(async () => {
  await client.request('DELETE', `/${INDEX}`, { okStatuses: [404] });
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('geoshard cells --from-index (live)', () => {
  it('counts every document once in its level-10 cell, as s2-geometry does, in key order', () => {
    const out = join(dir, 'cells.csv');
    const r = cli('cells', '--from-index', INDEX, '--field', 'pos', '--out', out, '--page-size', '500');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^wrote .*cells\.csv: 4,000 documents in [\d,]+ level-10 cells/);
    // Progress with documents/s, and the documents without a point named.
    expect(r.err).toMatch(/geoshard cells: 4,003\/4,003 documents \(100%\), 3\/3 shards, [\d,]+ documents\/s/);
    expect(r.err).toMatch(/warning: 3 documents have no valid point in "pos" \(the first: _id "nowhere\d"\): they are not in the cells file/);
    const m = new Map<bigint, number>();
    for (const p of points) m.set(oracleId(p.lat, p.lng), (m.get(oracleId(p.lat, p.lng)) ?? 0) + 1);
    const ids = [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(readFileSync(out, 'utf8')).toBe(['token,docs', ...ids.map((id) => `${token(id)},${m.get(id)}`)].join('\n') + '\n');
  });

  it('sums a numeric weight field named by the config, and balance takes the file', () => {
    const config = join(dir, 'geoshard.config.json');
    const out = join(dir, 'weighted.csv');
    writeFileSync(config, JSON.stringify({ index: INDEX, location: 'pos', weight: { field: 'population' }, name: 'name' }));
    const r = cli('cells', '--config', config, '--from-index', INDEX, '--out', out, '--json');
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out);
    expect(summary).toMatchObject({ documents: DOCS, columns: ['token', 'docs', 'population'], unlocated: UNLOCATED, from: { index: INDEX, indices: [INDEX], shards: 3 } });
    // The near-corner points were located from _source (their doc values could not say which cell).
    expect(summary.exactReads).toBeGreaterThan(0);
    expect(summary.exactReads).toBeLessThanOrEqual(NEAR_CORNERS);
    const m = new Map<bigint, number>();
    points.forEach((p, i) => m.set(oracleId(p.lat, p.lng), (m.get(oracleId(p.lat, p.lng)) ?? 0) + i));
    const rows = readFileSync(out, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    expect(rows.map((r) => [r[0], Number(r[2])])).toEqual([...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map((id) => [token(id), m.get(id)]));
    // balance weighs the cells by the config's weight column: the sum of population, 0 + 1 + ... + 3999.
    const b = cli('balance', '--config', config, '--cells', out, '--min', '2', '--max', '6', '--json');
    expect(b.code).toBe(0);
    expect(JSON.parse(b.out).totalWeight).toBe((DOCS * (DOCS - 1)) / 2);
    const d = cli('balance', '--cells', join(dir, 'cells.csv'), '--min', '2', '--max', '6', '--index', INDEX, '--json');
    expect(JSON.parse(d.out).totalWeight).toBe(DOCS);
  });

  it('refuses a field that is not a geo_point, a field not in the mapping and a missing index, writing nothing', () => {
    const out = join(dir, 'never.csv');
    const keyword = cli('cells', '--from-index', INDEX, '--field', 'name', '--out', out);
    expect(keyword).toMatchObject({ code: 1, err: expect.stringMatching(/geoshard cells: field "name" of index "gs-own-cells-live" is a keyword, not a geo_point: name a geo_point field with --field/) });
    const absent = cli('cells', '--from-index', INDEX, '--field', 'location', '--out', out);
    expect(absent).toMatchObject({ code: 1, err: expect.stringMatching(/field "location" is not in the mapping of index "gs-own-cells-live"/) });
    const missing = cli('cells', '--from-index', MISSING, '--field', 'pos', '--out', out);
    expect(missing).toMatchObject({ code: 1, err: expect.stringMatching(/geoshard cells: index "gs-own-cells-missing" does not exist on http:\/\/.*: check --index/) });
    expect(existsSync(out)).toBe(false);
  });
});

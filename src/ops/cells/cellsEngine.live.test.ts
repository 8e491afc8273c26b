/**
 * The cluster path of `geoshard cells --from-index` (cellsEngine.ts: Painless
 * over doc values, a composite aggregation) equals the client path
 * (cellsReader.ts) on the same index, cell for cell, weight for weight: on a
 * flat index whose points include many within 10 cm of level-10 cell corners
 * (their doc values' centimetre boxes straddle edges), multi-valued points,
 * documents with no point and documents with no usable weight; and on a
 * joined index (children located by their copy of the parent's location).
 * The flat index's expected counts are computed here with s2-geometry (an
 * independent implementation of S2 cell ids), from the points the test wrote.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import s2geometry from 's2-geometry';
import { mulberry32, randomPoint } from '../../core/testutil.ts';
import { cellAt, cellVertices } from '../../core/cells.ts';
import { readIndexCells } from './cellsReader.ts';
import { readIndexCellsInCluster } from './cellsEngine.ts';
import { liveClient, ROOT } from '../../testing/testkit.ts';
import type { IndexConfig } from '../../opensearch/indexConfig.ts';

const { S2 } = s2geometry as unknown as { S2: { latLngToKey(lat: number, lng: number, level: number): string; keyToId(key: string): string } };
const oracleId = (lat: number, lng: number) => BigInt(S2.keyToId(S2.latLngToKey(lat, lng, 10)));
const token = (id: bigint) => id.toString(16).padStart(16, '0').replace(/0+$/, '');

const client = liveClient();
const FLAT = 'gs-cells-engine-flat';
const JOINED = 'gs-cells-engine-joined';
const BIN = join(ROOT, 'dist', 'cli', 'bin.js');
const dir = mkdtempSync(join(tmpdir(), 'geoshard-cells-engine-'));
/** Metres per degree of latitude (the mean Earth radius 6,371,008.8 m). */
const M_PER_DEG = (6_371_008.8 * Math.PI) / 180;

/** Points within 10 cm of a corner of the level-10 cell at (lat, lng): 0 to 9 cm off it, in eight directions. */
function nearCorners(lat: number, lng: number): { lat: number; lng: number }[] {
  const out: { lat: number; lng: number }[] = [];
  for (const v of cellVertices(cellAt(lat, lng))) {
    for (const cm of [0, 0.5, 2, 5, 9]) {
      for (let k = 0; k < 8; k++) {
        const a = (k * Math.PI) / 4 + 0.1;
        const m = cm / 100;
        out.push({ lat: v.lat + (m * Math.cos(a)) / M_PER_DEG, lng: v.lng + (m * Math.sin(a)) / (M_PER_DEG * Math.cos((v.lat * Math.PI) / 180)) });
        if (cm === 0) break;
      }
    }
  }
  return out;
}

interface Doc {
  id: string;
  /** The point counted (the first in source order), or null: none. */
  at: { lat: number; lng: number } | null;
  weight: number;
  source: Record<string, unknown>;
}
const docs: Doc[] = [];

async function bulk(index: string, lines: string[]) {
  const { body } = await client.request<{ errors: boolean; items: unknown[] }>('POST', `/${index}/_bulk`, { body: lines.join('\n') + '\n', query: { refresh: 'true' }, timeoutMs: 120_000 });
  if (body.errors) throw new Error(`bulk into ${index} failed: ${JSON.stringify(body.items.find((i) => JSON.stringify(i).includes('error')))}`);
}

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build:lib" before the live tests`);
  for (const index of [FLAT, JOINED]) await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.request('PUT', `/${FLAT}`, {
    body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { pos: { type: 'geo_point' }, w: { type: 'long' } } } },
  });
  const rand = mulberry32(2929);
  const towns = Array.from({ length: 30 }, () => randomPoint(rand));
  const points: { lat: number; lng: number }[] = [];
  for (let i = 0; i < 3000; i++) {
    const t = towns[i % towns.length];
    points.push(i % 5 === 0 ? randomPoint(rand) : { lat: Math.max(-89.9, Math.min(89.9, t.lat + (rand() - 0.5) * 0.3)), lng: Math.max(-180, Math.min(180, t.lng + (rand() - 0.5) * 0.3)) });
  }
  for (const t of towns.slice(0, 12)) points.push(...nearCorners(t.lat, t.lng));
  // A row of 200 cells along one parallel: more cells than a page in a band as thin as MIN_BAND_DEG.
  for (let k = 0; k < 200; k++) points.push({ lat: 10.0001, lng: -100 + k * 0.2 });
  const form = (p: { lat: number; lng: number }, i: number) => (i % 3 === 0 ? { lat: p.lat, lon: p.lng } : i % 3 === 1 ? `${p.lat},${p.lng}` : [p.lng, p.lat]);
  points.forEach((p, i) => {
    // Weights: mostly i, some missing or negative (weighed 0, counted unweighed).
    const w = i % 97 === 0 ? undefined : i % 89 === 0 ? -5 : i;
    docs.push({ id: `p${i}`, at: p, weight: w === undefined || w < 0 ? 0 : w, source: { pos: form(p, i), ...(w === undefined ? {} : { w }) } });
  });
  // Multi-valued: the first point in source order counts (near a corner, so doc values alone could not say).
  const corner = nearCorners(towns[20].lat, towns[20].lng);
  for (let i = 0; i < 6; i++) {
    const pair = [corner[i * 3], randomPoint(rand)];
    docs.push({ id: `multi${i}`, at: pair[0], weight: 7, source: { pos: pair.map((p) => ({ lat: p.lat, lon: p.lng })), w: 7 } });
  }
  for (let i = 0; i < 4; i++) docs.push({ id: `nowhere${i}`, at: null, weight: 0, source: { w: 1 } });
  await bulk(FLAT, docs.flatMap((d) => [JSON.stringify({ index: { _id: d.id } }), JSON.stringify(d.source)]));

  // A joined index: parents at `loc` (some at corners), children with only their copy `parent_loc`.
  await client.request('PUT', `/${JOINED}`, {
    body: {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { properties: { loc: { type: 'geo_point' }, parent_loc: { type: 'geo_point' }, rel: { type: 'join', relations: { shop: 'item' } } } },
    },
  });
  const lines: string[] = [];
  const parents = [...Array.from({ length: 150 }, () => randomPoint(rand)), ...nearCorners(towns[3].lat, towns[3].lng).slice(0, 30)];
  parents.forEach((p, i) => {
    lines.push(JSON.stringify({ index: { _id: `s${i}`, routing: `s${i}` } }), JSON.stringify({ loc: { lat: p.lat, lon: p.lng }, rel: 'shop' }));
    for (let k = 0; k < 3; k++) lines.push(JSON.stringify({ index: { _id: `s${i}-${k}`, routing: `s${i}` } }), JSON.stringify({ parent_loc: `${p.lat},${p.lng}`, rel: { name: 'item', parent: `s${i}` } }));
  });
  await bulk(JOINED, lines);
}, 180_000);

afterAll(async () => {
  for (const index of [FLAT, JOINED]) await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.close();
  rmSync(dir, { recursive: true, force: true });
});

const flatConfig: IndexConfig = { index: FLAT, location: 'pos', weight: { field: 'w' }, name: null, join: null, facets: [] };

describe('cells in the cluster equal cells in the client (live)', () => {
  it('on a flat index with points within 10 cm of cell corners: the same counts and weights, as s2-geometry says', async () => {
    const a = await readIndexCells(client, flatConfig, { pageSize: 500 });
    const b = await readIndexCellsInCluster(client, flatConfig);
    expect(b.counter.csv()).toBe(a.counter.csv());
    expect({ total: b.counter.total, unlocated: b.unlocated, unweighed: b.unweighed, exactReads: b.exactReads }).toEqual({ total: a.counter.total, unlocated: a.unlocated, unweighed: a.unweighed, exactReads: a.exactReads });
    // Some corner points straddled an edge and were located from _source, on both paths.
    expect(b.exactReads).toBeGreaterThan(0);
    // The independent oracle: count and weight per cell from the points written.
    const m = new Map<bigint, [number, number]>();
    for (const d of docs) {
      if (!d.at) continue;
      const id = oracleId(d.at.lat, d.at.lng);
      const c = m.get(id) ?? [0, 0];
      m.set(id, [c[0] + 1, c[1] + d.weight]);
    }
    const ids = [...m.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(b.counter.csv()).toBe(['token,docs,w', ...ids.map((id) => `${token(id)},${m.get(id)![0]},${m.get(id)![1]}`)].join('\n') + '\n');
    expect(b.unlocated).toBe(4);
    expect(b.unweighed).toBe(docs.filter((d) => d.at && !('w' in d.source && (d.source.w as number) >= 0)).length);
  }, 120_000);

  it('splits a band whose cells overflow a page, and pages a band too thin to split, with the same counts', async () => {
    const a = await readIndexCells(client, { ...flatConfig, weight: 'docs' } as IndexConfig);
    const b = await readIndexCellsInCluster(client, { ...flatConfig, weight: 'docs' } as IndexConfig, { pageSize: 100, bands: 1, concurrency: 3 });
    expect(b.splits).toBeGreaterThan(0);
    // More requests than bands: the 200-cell row was paged inside a band of MIN_BAND_DEG.
    expect(b.requests).toBeGreaterThan(2 * b.splits + 1);
    expect(b.counter.csv()).toBe(a.counter.csv());
  }, 120_000);

  it('on a joined index: children are located by their copy of the parent location', async () => {
    const config = { index: JOINED, location: 'loc', weight: 'docs', name: null, join: { field: 'rel', parent: 'shop', child: 'item', childLocation: 'parent_loc' }, facets: [] } as unknown as IndexConfig;
    const a = await readIndexCells(client, config);
    const b = await readIndexCellsInCluster(client, config);
    expect(b.counter.total).toBe(180 * 4);
    expect(b.counter.csv()).toBe(a.counter.csv());
    expect(b.exactReads).toBe(a.exactReads);
  }, 120_000);

  it('the CLI writes the same cells file with --engine cluster and --engine client, and refuses another engine', () => {
    const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', env: { ...process.env, OPENSEARCH_URL: client.config.url } });
    const config = join(dir, 'geoshard.config.json');
    writeFileSync(config, JSON.stringify({ index: FLAT, location: 'pos', weight: { field: 'w' }, name: null, join: null }));
    const out: Record<string, string> = {};
    for (const engine of ['cluster', 'client']) {
      const file = join(dir, `${engine}.csv`);
      const r = cli('cells', '--config', config, '--from-index', FLAT, '--engine', engine, '--out', file, '--json');
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ engine, documents: docs.length - 4 });
      out[engine] = readFileSync(file, 'utf8');
    }
    expect(out.cluster).toBe(out.client);
    const bad = cli('cells', '--from-index', FLAT, '--field', 'pos', '--engine', 'gpu', '--out', join(dir, 'never.csv'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('geoshard cells: --engine "gpu" is invalid: expected auto, cluster, client');
    expect(existsSync(join(dir, 'never.csv'))).toBe(false);
  }, 120_000);
});

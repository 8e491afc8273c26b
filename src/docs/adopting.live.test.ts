/**
 * The adoption guide (docs/adopting.md), run as printed against a real node: a fresh
 * hash-sharded flat index is written by plain _bulk (no routing, no pipeline), then every shell
 * block of the guide's numbered steps runs in order, in a fresh folder, through bash. Only the
 * example's index name is changed (`shops` → `gs-adopt-shops`, so the test never touches a user's
 * index) and `npx geoshard` runs the built CLI of this checkout. Asserts what the guide promises:
 * the alias points at a geosharded index with the boundary file's shard count, every document
 * copied, each on the shard its location's cell names (checked per document with the core), the
 * audit clean, and after --finalize the old name an alias of the new index.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, parseBoundaryFile } from '../core/index.ts';
import { mulberry32 } from '../core/testutil.ts';
import { liveClient, ROOT } from '../testing/testkit.ts';

const BASE = 'gs-adopt-shops';
const DOCS = 3000;
const client = liveClient();
let dir: string;

/** The shell blocks under the guide's numbered step headings, in order. */
function steps(): { heading: string; script: string }[] {
  const md = readFileSync(join(ROOT, 'docs', 'adopting.md'), 'utf8');
  const out: { heading: string; script: string }[] = [];
  for (const section of md.split(/^## /m).slice(1)) {
    const heading = section.split('\n', 1)[0];
    if (!/^\d+\. /.test(heading)) continue;
    for (const m of section.matchAll(/^```sh\n([\s\S]*?)^```/gm)) out.push({ heading, script: m[1].replace(/\bshops\b/g, BASE) });
  }
  return out;
}

async function drop(): Promise<void> {
  await client.request('DELETE', `/${BASE}*`, { okStatuses: [404] });
  await client.request('DELETE', '/gs-adopt-locks', { okStatuses: [404] });
}

beforeAll(async () => {
  await drop();
  dir = mkdtempSync(join(tmpdir(), 'geoshard-adopt-'));
  // The index as a team has it: OpenSearch's defaults (hash-sharded by _id), a geo_point, no routing.
  await client.admin('PUT', `/${BASE}`, { body: { settings: { number_of_shards: 3, number_of_replicas: 0 }, mappings: { properties: { location: { type: 'geo_point' }, name: { type: 'text' } } } } });
  const rand = mulberry32(32);
  const body: unknown[] = [];
  for (let i = 0; i < DOCS; i++) {
    // Around a few US cities, as real places cluster.
    const [lat, lng] = [[40.71, -74.0], [37.77, -122.42], [41.88, -87.63], [29.76, -95.37], [47.61, -122.33]][i % 5];
    body.push({ index: { _index: BASE, _id: `s${i}` } }, { name: `shop ${i}`, location: { lat: lat + (rand() - 0.5) * 2, lon: lng + (rand() - 0.5) * 2 } });
  }
  const r = await client.os.bulk({ body: body as never, refresh: true });
  expect((r.body as { errors: boolean }).errors).toBe(false);
}, 300_000);

afterAll(async () => {
  await drop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await client.close().catch(() => {});
});

describe('the adoption guide, as printed', () => {
  it('takes a hash-sharded index to a geosharded one behind an alias', async () => {
    const blocks = steps();
    expect(blocks.map((b) => b.heading.split('.')[0])).toEqual(['1', '2', '3', '4', '5', '6']);
    const bin = join(ROOT, 'dist', 'cli', 'bin.js');
    expect(existsSync(bin), 'npm run build:lib first').toBe(true);
    // `npx geoshard` in the guide: the built CLI of this checkout (a user's npx finds the installed package's).
    const prelude = `set -euo pipefail\nnpx() { if [ "$1" = geoshard ]; then shift; node ${JSON.stringify(bin)} "$@"; else command npx "$@"; fi; }\n`;
    const env = { ...process.env, GEOSHARD_LOCK_INDEX: 'gs-adopt-locks' };
    const outputs = new Map<string, string>();
    for (const { heading, script } of blocks) {
      const r = spawnSync('bash', ['-c', prelude + script], { cwd: dir, env, encoding: 'utf8', timeout: 600_000 });
      expect(r.status, `step ${heading}:\n${script}\n${r.stderr}`).toBe(0);
      outputs.set(heading.split('.')[0], r.stdout);
    }
    // Step 5's audit read every document and found each on a right shard.
    expect(outputs.get('5')).toMatch(new RegExp(`audited index "${BASE}-live" .*: ${DOCS.toLocaleString('en-US')} documents \\(flat, located by location\\)`));
    expect(outputs.get('5')).toContain('every document is on a right shard');

    const file = parseBoundaryFile(readFileSync(join(dir, `${BASE}.boundaries.json`), 'utf8'));
    expect(file.index).toBe(`${BASE}-live`);
    const aliases = await client.get<Record<string, { aliases: Record<string, unknown> }>>(`/_alias/${BASE}-live,${BASE}`);
    expect(Object.keys(aliases)).toEqual([`${BASE}-geo`]);
    expect(Object.keys(aliases[`${BASE}-geo`].aliases).sort()).toEqual([BASE, `${BASE}-live`]);
    const settings = await client.get<Record<string, { settings: { index: { number_of_shards: string } } }>>(`/${BASE}-geo/_settings`);
    expect(Number(settings[`${BASE}-geo`].settings.index.number_of_shards)).toBe(file.numberOfShards);
    expect(file.numberOfShards).toBeGreaterThan(3);
    const count = await client.get<{ count: number }>(`/${BASE}-live/_count`);
    expect(count.count).toBe(DOCS);

    // Independently of the audit: each document sits on the shard the core names for its location.
    const router = new Router(file);
    const wrong: string[] = [];
    for (let shard = 0; shard < file.numberOfShards; shard++) {
      const res = await client.get<{ hits: { hits: { _id: string; _source: { location: { lat: number; lon: number } } }[] } }>(
        `/${BASE}-geo/_search?preference=_shards:${shard}&size=${DOCS}&_source=location`,
      );
      for (const h of res.hits.hits) if (router.route(h._source.location.lat, h._source.location.lon).shard !== shard) wrong.push(h._id);
    }
    expect(wrong).toEqual([]);
  }, 900_000);
});

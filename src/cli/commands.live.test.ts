/**
 * `geoshard seed` and `geoshard verify-routing` as a user runs them: exit
 * codes and messages, against the real node (and a closed port for "down").
 */
import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatBoundaryFile } from '../core/index.ts';
import { main } from './main.ts';
import { derivedFile, ensureSeeded, liveClient, closedPortUrl, TEST_INDEX, TEST_RESTAURANTS } from '../testing/testkit.ts';
import { fetchIndexMeta } from '../opensearch/indexMeta.ts';
import { DOC_SHAPE, indexBody } from '../opensearch/sampleIndex.ts';

const client = liveClient();
const dir = mkdtempSync(join(tmpdir(), 'geoshard-cli-live-'));
const SMALL_INDEX = 'geoshard-live-cli';
const BAD_INDEX = 'geoshard-live-cli-bad';

function write(name: string, f: ReturnType<typeof derivedFile>): string {
  const p = join(dir, name);
  writeFileSync(p, formatBoundaryFile(f));
  return p;
}

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

const savedUrl = process.env.OPENSEARCH_URL;
afterEach(() => {
  if (savedUrl === undefined) delete process.env.OPENSEARCH_URL;
  else process.env.OPENSEARCH_URL = savedUrl;
});
beforeAll(async () => {
  await ensureSeeded(client, derivedFile(TEST_INDEX));
});
afterAll(async () => {
  await client.request('DELETE', `/${SMALL_INDEX}`, { okStatuses: [404] });
  await client.request('DELETE', `/${BAD_INDEX}`, { okStatuses: [404] });
  rmSync(dir, { recursive: true, force: true });
});

describe('geoshard verify-routing', () => {
  it('exits 0 and lists every name as ok on a correctly seeded index', async () => {
    const f = derivedFile(TEST_INDEX);
    const r = await run('verify-routing', '--boundaries', write('ok.json', f));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    for (const s of f.shards) expect(r.out).toMatch(new RegExp(`\\b${s.name}\\s+${s.shard}\\s+${s.shard}\\s+ok`));
    expect(r.out).toContain(`all ${f.numberOfShards} shard names land on their declared shards; every shard holds the predicted documents`);
    expect(r.out).toContain(`(${TEST_RESTAURANTS} restaurants`);
  });

  it('exits 1 naming the problem when the index belongs to another boundary file', async () => {
    const other = derivedFile(TEST_INDEX, 2);
    const r = await run('verify-routing', '--boundaries', write('v2.json', other));
    expect(r.code).toBe(1);
    expect(r.err).toContain('FAILED');
    expect(r.err).toContain(other.hash);
  });

  it('exits 1 when the index does not exist, saying how to create it', async () => {
    const r = await run('verify-routing', '--boundaries', write('missing.json', derivedFile('geoshard-live-nonexistent')));
    expect(r.code).toBe(1);
    expect(r.err).toContain('"geoshard-live-nonexistent" does not exist: run "geoshard seed" first');
  });

  it('exits 1 with the URL and how to start a node when nothing answers', async () => {
    process.env.OPENSEARCH_URL = await closedPortUrl();
    const r = await run('verify-routing', '--boundaries', write('down.json', derivedFile(TEST_INDEX)));
    expect(r.code).toBe(1);
    expect(r.err).toContain(process.env.OPENSEARCH_URL);
    expect(r.err).toContain('ECONNREFUSED');
    expect(r.err).toContain('npm run cluster:start');
  });
});

describe('geoshard seed', () => {
  it('creates, loads and refreshes an index, printing counts and time, then verifies', async () => {
    const f = derivedFile(SMALL_INDEX);
    const path = write('small.json', f);
    const r = await run('seed', '--boundaries', path, '--restaurants', '120', '--dishes-per-restaurant', '3', '--recreate');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/seeded index "geoshard-live-cli" on .*: 120 restaurants \+ \d+ dishes \(at most 3 per restaurant\) = \d+ documents on \d+ shards in [\d.]+ s/);
    expect(r.err).toContain('seeding 100%');
    const count = (await client.get<{ count: number }>(`/${SMALL_INDEX}/_count`)).count;
    expect(r.out).toContain(`the index holds ${count} documents`);
    expect((await run('verify-routing', '--boundaries', path)).code).toBe(0);
  });

  it('refuses, exit 1, to write into an index made for another boundary file', async () => {
    const r = await run('seed', '--boundaries', write('small-v2.json', derivedFile(SMALL_INDEX, 2)), '--restaurants', '120', '--dishes-per-restaurant', '3');
    expect(r.code).toBe(1);
    expect(r.err).toContain(derivedFile(SMALL_INDEX).hash);
    expect(r.err).toContain('--recreate');
  });

  it('refuses, exit 1, to write into an index whose documents have an older shape, naming --recreate', async () => {
    const path = write('small.json', derivedFile(SMALL_INDEX));
    expect((await run('seed', '--boundaries', path, '--restaurants', '120', '--dishes-per-restaurant', '3')).code).toBe(0);
    // As an index seeded before dishes carried their restaurant records it: no docShape in _meta.sample.
    const meta = (await fetchIndexMeta(client, SMALL_INDEX))!;
    const { docShape: _, ...older } = meta.sample!;
    await client.request('PUT', `/${SMALL_INDEX}/_mapping`, { body: { _meta: { ...meta, sample: older } } });
    const r = await run('seed', '--boundaries', path, '--restaurants', '120', '--dishes-per-restaurant', '3');
    expect(r.code).toBe(1);
    expect(r.err).toContain('shape 1');
    expect(r.err).toContain('--recreate');
    expect((await run('seed', '--boundaries', path, '--restaurants', '120', '--dishes-per-restaurant', '3', '--recreate')).code).toBe(0);
    expect((await fetchIndexMeta(client, SMALL_INDEX))!.sample!.docShape).toBe(DOC_SHAPE);
  });

  it('reports bulk errors item by item and exits 1 instead of swallowing them', async () => {
    // An index with the right _meta but a mapping that cannot take the documents' calories.
    const f = derivedFile(BAD_INDEX);
    const body = indexBody(f) as { mappings: { properties: Record<string, unknown> } };
    body.mappings.properties.calories = { type: 'boolean' };
    await client.request('DELETE', `/${BAD_INDEX}`, { okStatuses: [404] });
    await client.request('PUT', `/${BAD_INDEX}`, { body });
    const r = await run('seed', '--boundaries', write('bad.json', f), '--restaurants', '50', '--dishes-per-restaurant', '2');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bulk requests failed for \d+ of \d+ documents/);
    expect(r.err).toMatch(/r\d{6}-d\d \(routing [a-z]+\): 400 mapper_parsing_exception: failed to parse field \[calories\]/);
    expect(r.out).toBe('');
  });

  it('rejects bad options with exit 2 naming the option and the valid range', async () => {
    const r = await run('seed', '--restaurants', '0');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--restaurants "0" is invalid: expected an integer in [1, ');
    const r2 = await run('seed', '--dishes-per-restaurant', 'many');
    expect(r2.code).toBe(2);
    expect(r2.err).toContain('--dishes-per-restaurant "many"');
  });
});

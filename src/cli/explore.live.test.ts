/**
 * geoshard explore's checks of the index, against the real node, before anything starts: an
 * index that does not exist, a location field missing from the mapping or of another type, and
 * an index not written with the boundary file (it opens, and the command says its live searches
 * will be refused and what to run). The indices are this test's own (exp-explore-*): a flat one
 * as a team has it before geosharding, and a geosharded one whose `_meta` is the file's.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './io.ts';
import { runExplore, checkCluster, type ExploreDeps } from './commands/explore.ts';
import { fileWithCuts } from '../core/testutil.ts';
import { formatBoundaryFile, withHash, cellAt, cellToken, type BoundaryFile } from '../core/index.ts';
import { indexMeta } from '../opensearch/indexSpec.ts';
import { liveClient } from '../testing/testkit.ts';

const FLAT = 'exp-explore-flat';
const GEO = 'exp-explore-geo';
const MISSING = 'exp-explore-missing';
const client = liveClient();
const dir = mkdtempSync(join(tmpdir(), 'geoshard-explore-live-'));
const p = (name: string) => join(dir, name);

/** The same cuts for two indices (so two hashes). */
const fileFor = (index: string): BoundaryFile => {
  const { hash: _h, ...rest } = fileWithCuts([150, 200]);
  return withHash({ ...rest, index });
};

const mappings = { properties: { geo: { type: 'geo_point' }, name: { type: 'text' }, population: { type: 'long' } } };
const docs = [
  { name: 'Paris', geo: { lat: 48.8566, lon: 2.3522 }, population: 2138551 },
  { name: 'Lagos', geo: '6.4541,3.3947', population: 9000000 },
  { name: 'Tokyo', geo: [139.6917, 35.6895], population: 8336599 },
];

beforeAll(async () => {
  for (const index of [FLAT, GEO, MISSING]) await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.request('PUT', `/${FLAT}`, { body: { settings: { number_of_shards: 2, number_of_replicas: 0 }, mappings } });
  const geoFile = fileFor(GEO);
  await client.request('PUT', `/${GEO}`, { body: { settings: { number_of_shards: geoFile.numberOfShards, number_of_replicas: 0 }, mappings: { ...mappings, _meta: indexMeta(geoFile) } } });
  for (const index of [FLAT, GEO]) {
    const body = docs.map((d, i) => `{"index":{"_index":"${index}","_id":"${i}"${index === GEO ? `,"routing":"${geoFile.shards[0].name}"` : ''}}}\n${JSON.stringify(d)}\n`).join('');
    await client.request('POST', '/_bulk', { body, query: { refresh: 'true' } });
  }
  for (const index of [FLAT, GEO, MISSING]) writeFileSync(p(`${index}.json`), formatBoundaryFile(fileFor(index)));
  writeFileSync(p('cells.csv'), `token,docs\n${cellToken(cellAt(48.8566, 2.3522))},3\n`);
});

afterAll(async () => {
  for (const index of [FLAT, GEO]) await client.request('DELETE', `/${index}`, { okStatuses: [404] });
  await client.close();
});

/** Runs explore with the real cluster check and a stand-in server; returns what it printed, or the refusal. */
async function explore(index: string, field: string) {
  const started: unknown[] = [];
  const deps: ExploreDeps = {
    start: async (opts) => {
      started.push(opts);
      return { url: 'http://127.0.0.1:5997/', close: () => {} };
    },
    checkCluster,
    untilStopped: async () => {},
    open: () => {},
  };
  let out = '';
  let err = '';
  let refusal: CliError | null = null;
  try {
    await runExplore(['--boundaries', p(`${index}.json`), '--cells', p('cells.csv'), '--field', field], { out: (t) => (out += t), err: (t) => (err += t) }, deps, { OPENSEARCH_URL: client.config.url });
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    refusal = e;
  }
  return { out, err, refusal, started: started.length };
}

describe('geoshard explore against the real node', () => {
  it('refuses an index that does not exist, naming it and the cluster, and starts nothing', async () => {
    const r = await explore(MISSING, 'geo');
    expect(r.started).toBe(0);
    expect(r.refusal?.exitCode).toBe(1);
    expect(r.refusal?.message).toBe(`geoshard explore: index "${MISSING}" does not exist on ${client.config.url} (no index or alias of that name): check --index or the config's "index"`);
  });

  it('refuses a location field that is not in the mapping, or is not a geo_point, naming the field, the index and what it is', async () => {
    const absent = await explore(FLAT, 'pos');
    expect(absent.started).toBe(0);
    expect(absent.refusal?.message).toBe(`geoshard explore: field "pos" is not in the mapping of index "${FLAT}": name its geo_point field with --field or the config's "location"`);
    const text = await explore(FLAT, 'name');
    expect(text.started).toBe(0);
    expect(text.refusal?.message).toBe(`geoshard explore: field "name" of index "${FLAT}" is a text, not a geo_point: name a geo_point field with --field or the config's "location"`);
  });

  it('opens an index not written with the boundary file, saying its live searches will be refused and to run geoshard reindex', async () => {
    const r = await explore(FLAT, 'geo');
    expect(r.refusal).toBeNull();
    expect(r.started).toBe(1);
    expect(r.out).toContain(`live mode: index "${FLAT}" (field geo, 3 documents) on ${client.config.url}`);
    expect(r.err).toMatch(/warning: the explorer shows the files, but live searches will be refused: .*geoshard reindex/);
  });

  it('opens a geosharded index written with the boundary file without a warning', async () => {
    const r = await explore(GEO, 'geo');
    expect(r.refusal).toBeNull();
    expect(r.started).toBe(1);
    expect(r.out).toContain(`live mode: index "${GEO}" (field geo, 3 documents)`);
    expect(r.err).toBe('');
  });
});

/**
 * The places path of issue 22 as a real user runs it, for e2e/explore.spec.ts: the flat `places`
 * index (the gazetteer sample, `geoshard seed --sample places`: 135,233 documents, field `geo`,
 * hash-sharded, no geoshard _meta) -> `geoshard cells --from-index places --field geo` ->
 * `geoshard balance` -> a geosharded copy `exp-places` (every document written by the package's
 * writer, GeoIndexer, with the routing of its cell, `_meta` = the boundary file) ->
 * `geoshard explore` on those files and that index. Every step is the built CLI (dist/, what
 * `npx geoshard` runs), in child processes; the copy is this module's own.
 *
 * Node only, no Playwright.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@opensearch-project/opensearch';
import { parseBoundaryFile, type BoundaryFile } from '../src/core/index.ts';
import { GeoIndexer, type BulkDoc } from '../src/opensearch/index.ts';
import { OpenSearchClient } from '../src/cluster/client.ts';
import { indexMeta } from '../src/opensearch/indexSpec.ts';
import { ROOT } from './e2eIndex.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

/** The flat index the path starts from (EXP_PLACES_SOURCE overrides it, e.g. for a copy of your own). */
export const SOURCE_INDEX = process.env.EXP_PLACES_SOURCE || 'geoshard-e2e-places';
/** The geosharded copy this module writes (the explore helper's own name). */
export const GEO_INDEX = 'geoshard-e2e-places-geo';
/** The geo_point field of the places documents. */
export const FIELD = 'geo';
/** Where the path's files go (the test run's own folder). */
export const WORK = join(ROOT, 'test-results', 'explore');
/** The files: the cells of the source index, a boundary file for the copy and one for the source itself (never geosharded). */
export const CELLS = join(WORK, 'places.cells.csv');
export const BOUNDARIES = join(WORK, 'places.boundaries.json');
export const SOURCE_BOUNDARIES = join(WORK, 'places-source.boundaries.json');

const CLI = join(ROOT, 'dist', 'cli', 'bin.js');
const run = promisify(execFile);

/** geoshard runs the built CLI; rejects with its stderr. */
export async function geoshard(args: string[], timeoutMs = 300_000): Promise<string> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build:lib\` (scripts/test.sh does, before the browser tests)`);
  try {
    return (await run(process.execPath, [CLI, ...args], { cwd: ROOT, timeout: timeoutMs, maxBuffer: 1 << 24 })).stdout;
  } catch (e) {
    const x = e as { stderr?: string; message: string };
    throw new Error(`geoshard ${args.join(' ')} failed: ${x.stderr?.trim() || x.message}`);
  }
}

/** reachable says whether an OpenSearch node answers (the reason when none does). */
export async function reachable(client: OpenSearchClient): Promise<string | null> {
  try {
    await client.get('/', { timeoutMs: 5000 });
    return null;
  } catch (e) {
    return `no OpenSearch node answers at ${client.url} (${(e as Error).message}): the places path needs the real node (npm run cluster:start, or OPENSEARCH_URL)`;
  }
}

/** count is OpenSearch's own count of `index` (optionally of a query). */
export async function count(client: OpenSearchClient, index: string, query?: unknown): Promise<number> {
  return (await client.request<{ count: number }>('POST', `/${encodeURIComponent(index)}/_count`, { body: query ? { query } : {} })).body.count;
}

/** scrollPlaces yields every document of `index` ({ id, lat, lng, source }), 5,000 a page. */
async function* scrollPlaces(client: OpenSearchClient, index: string): AsyncGenerator<BulkDoc[]> {
  type Page = { _scroll_id: string; hits: { hits: { _id: string; _source: { geo: { lat: number; lon: number } } & Record<string, unknown> }[] } };
  let page = (await client.request<Page>('POST', `/${encodeURIComponent(index)}/_search`, { query: { scroll: '2m' }, body: { size: 5000, sort: ['_doc'] }, timeoutMs: 60_000 })).body;
  try {
    while (page.hits.hits.length > 0) {
      yield page.hits.hits.map((h) => ({ id: h._id, lat: h._source.geo.lat, lng: h._source.geo.lon, source: h._source }));
      page = (await client.request<Page>('POST', '/_search/scroll', { body: { scroll: '2m', scroll_id: page._scroll_id }, timeoutMs: 60_000 })).body;
    }
  } finally {
    await client.request('DELETE', '/_search/scroll', { body: { scroll_id: page._scroll_id }, okStatuses: [404] }).catch(() => undefined);
  }
}

/**
 * ensureGeoCopy makes `exp-places` the geosharded copy of the source for `file`: created with
 * the file's shards and `_meta`, routing required, every source document written by GeoIndexer
 * (routing = the name of its cell's shard). Reused when it already is exactly that (same hash,
 * same count). Returns its document count.
 */
export async function ensureGeoCopy(client: OpenSearchClient, file: BoundaryFile): Promise<number> {
  const want = await count(client, SOURCE_INDEX);
  const meta = await fetchIndexMeta(client, GEO_INDEX);
  if (meta && meta.hash === file.hash && (await count(client, GEO_INDEX)) === want) return want;
  await client.admin('DELETE', `/${GEO_INDEX}`, { okStatuses: [404] });
  const mapping = (await client.get<Record<string, { mappings: { properties: Record<string, unknown> } }>>(`/${encodeURIComponent(SOURCE_INDEX)}/_mapping`));
  const properties = Object.values(mapping)[0].mappings.properties;
  await client.admin('PUT', `/${GEO_INDEX}`, {
    body: {
      settings: { index: { number_of_shards: file.numberOfShards, number_of_replicas: 0, refresh_interval: '-1' } },
      mappings: { dynamic: 'strict', _routing: { required: true }, _meta: indexMeta(file), properties },
    },
  });
  const os = new Client({ node: client.url });
  try {
    const indexer = new GeoIndexer(os, GEO_INDEX);
    let failed = 0;
    for await (const page of scrollPlaces(client, SOURCE_INDEX)) {
      const r = await indexer.bulk(page, { keep: 'failures', pipeline: '_none' });
      failed += r.failed;
      if (r.failed > 0) throw new Error(`writing ${GEO_INDEX}: ${r.failed} documents failed, the first: ${JSON.stringify(r.results[0])}`);
    }
    if (failed > 0) throw new Error(`${failed} documents not written`);
  } finally {
    await os.close();
  }
  await client.admin('PUT', `/${GEO_INDEX}/_settings`, { body: { index: { refresh_interval: null } } });
  await client.request('POST', `/${GEO_INDEX}/_refresh`, { timeoutMs: 120_000 });
  return count(client, GEO_INDEX);
}

/**
 * preparePlaces runs the path up to the files: the source seeded when missing (the documented
 * `geoshard seed --sample places`), its cells read from the index, both boundary files
 * balanced, the geosharded copy made. Returns the copy's boundary file and the source's.
 */
export async function preparePlaces(client: OpenSearchClient): Promise<{ file: BoundaryFile; sourceFile: BoundaryFile; docs: number }> {
  mkdirSync(WORK, { recursive: true });
  if ((await fetchIndexMeta(client, SOURCE_INDEX)) === undefined) {
    if (SOURCE_INDEX !== 'geoshard-e2e-places') throw new Error(`EXP_PLACES_SOURCE names index "${SOURCE_INDEX}", which does not exist`);
    await geoshard(['seed', '--sample', 'places', '--index', SOURCE_INDEX], 600_000);
  }
  await geoshard(['cells', '--from-index', SOURCE_INDEX, '--field', FIELD, '--out', CELLS]);
  const createdAt = '2026-12-01T00:00:00.000Z';
  await geoshard(['balance', '--cells', CELLS, '--index', GEO_INDEX, '--created-at', createdAt, '--out', BOUNDARIES]);
  await geoshard(['balance', '--cells', CELLS, '--index', SOURCE_INDEX, '--created-at', createdAt, '--out', SOURCE_BOUNDARIES]);
  const file = parseBoundaryFile(readFileSync(BOUNDARIES, 'utf8'));
  const sourceFile = parseBoundaryFile(readFileSync(SOURCE_BOUNDARIES, 'utf8'));
  const docs = await ensureGeoCopy(client, file);
  return { file, sourceFile, docs };
}

/** A running `geoshard explore`: its URL, what it printed, and how to stop it. */
export interface Explore {
  url: string;
  out: string;
  err: () => string;
  stop: () => Promise<void>;
}

/**
 * startExplore runs `geoshard explore ARGS --port PORT` against the node of `client` and
 * resolves once it prints its URL; rejects with its stderr when it exits first.
 */
export function startExplore(client: OpenSearchClient, args: string[], port: number, timeoutMs = 240_000): Promise<Explore> {
  const child: ChildProcess = spawn(process.execPath, [CLI, 'explore', ...args, '--port', String(port)], { cwd: ROOT, env: { ...process.env, OPENSEARCH_URL: client.url }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`geoshard explore printed no URL within ${timeoutMs / 1000} s; stderr: ${err}`));
    }, timeoutMs);
    child.stdout!.on('data', (d) => {
      out += d;
      const m = new RegExp(`^(http://127\\.0\\.0\\.1:${port}/)$`, 'm').exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], out, err: () => err, stop });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`geoshard explore exited (${code}) before printing its URL; stderr: ${err}`));
    });
  });
}

export { OpenSearchClient, configFromEnv };

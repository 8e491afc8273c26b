/**
 * The real index the live browser tests search (live.spec.ts, nodes.spec.ts):
 * the tests' own index (e2e/e2eIndex.ts: the bundled boundaries under the
 * name `geoshard-e2e-dishes`) on the node OPENSEARCH_URL (or the local one)
 * names, seeded with a small sample when missing and recreated whenever it is
 * not exactly that sample for that file (it is nobody else's). Expected values
 * in the tests come from the routing core and OpenSearch itself.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from '@playwright/test';
import { OpenSearchClient } from '../src/cluster/client.ts';

import { E2E_BOUNDARIES, ROOT, e2eFile } from './e2eIndex.ts';
import { fetchIndexMeta } from '../src/opensearch/indexMeta.ts';
import { DOC_SHAPE, docShapeOf } from '../src/opensearch/sampleIndex.ts';
import { configFromEnv } from '../src/cluster/clientConfig.ts';

export { ROOT };
/** The boundary file the explorer's server routes with in the tests (index `geoshard-e2e-dishes`). */
export const file = e2eFile();

/** The sample seeded when the index is missing: 9,000 documents, about 15 s on a busy 2-core machine, ~60 dishes within 15 mi of San Francisco. */
export const E2E_SAMPLE = { restaurants: 1500, dishesPerRestaurant: 5 };

/**
 * ensureLiveIndex checks that OpenSearch answers and that the explorer's API
 * (at `base`) finds the index written for data/boundaries.json, seeding it
 * when missing (or recreating it when this very sample drifted); returns the
 * client. Throws, saying what to run, when no node answers.
 */
export async function ensureLiveIndex(base: string): Promise<OpenSearchClient> {
  const client = new OpenSearchClient(configFromEnv());
  try {
    await client.get('/', { timeoutMs: 5000 });
  } catch (e) {
    throw new Error(`No OpenSearch node answers at ${client.url} (${(e as Error).message}). The live browser tests need the real node: run \`npm run cluster:start\` (or set OPENSEARCH_URL) and run the test again.`);
  }
  // What the explorer's server says about the index (the same API the panel reads).
  const status = async () => (await (await fetch(`${base}/api/status`, { headers: { accept: 'application/json' } })).json()) as { connection: { status: string }; drift: { status: string; message: string } | null };
  let s = await status();
  expect(s.connection.status, 'the explorer’s live API must reach the node').toBe('up');
  const seed = (recreate: boolean) => geoshard(['seed', '--boundaries', E2E_BOUNDARIES, '--restaurants', String(E2E_SAMPLE.restaurants), '--dishes-per-restaurant', String(E2E_SAMPLE.dishesPerRestaurant), ...(recreate ? ['--recreate'] : [])]);
  if (s.drift?.status === 'missing-index') {
    await seed(false);
  } else {
    // The index is the tests' own: anything but exactly this sample, settled, for this file, of the current
    // document shape (a run killed mid-migration, another sample, an old shape) is recreated.
    const meta = await fetchIndexMeta(client, file.index);
    const sample = meta?.sample;
    const exact = s.drift?.status === 'ok' && !meta?.migration && sample?.complete && sample.restaurants === E2E_SAMPLE.restaurants && sample.dishesPerRestaurant === E2E_SAMPLE.dishesPerRestaurant && docShapeOf(sample) === DOC_SHAPE;
    if (!exact) await seed(true);
  }
  s = await status();
  expect(s.drift?.status, `index "${file.index}" must be seeded for data/boundaries.json`).toBe('ok');
  // A run stopped inside the cluster-routed test leaves the search pipeline set: the other tests search as a client that routes.
  if (await searchPipelineOf(client)) await clusterRouting(false);
  return client;
}

/** geoshard runs the CLI (`npx geoshard …`) in the checkout, as a person types it; rejects with its output on a non-zero exit. */
export async function geoshard(args: readonly string[]): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)('npx', ['geoshard', ...args], { cwd: ROOT, timeout: 150_000 });
  return stdout + stderr;
}

/** searchPipelineOf returns the tests' index's default search pipeline (index.search.default_pipeline), or null. */
export async function searchPipelineOf(client: OpenSearchClient): Promise<string | null> {
  const { body } = await client.request<Record<string, { settings: { index?: { search?: { default_pipeline?: string } } } }>>('GET', `/${file.index}/_settings`);
  const p = Object.values(body)[0]?.settings.index?.search?.default_pipeline;
  return p && p !== '_none' ? p : null;
}

/**
 * clusterRouting turns the cluster's own routing of the tests' index on (the geoshard plugin's
 * search pipeline, `pipeline --install --search`) or off (`--uninstall`, then the ingest
 * pipeline alone again, as seed leaves it). Returns what the CLI printed.
 */
export async function clusterRouting(on: boolean): Promise<string> {
  if (on) return geoshard(['pipeline', '--install', '--search', '--index', file.index]);
  return (await geoshard(['pipeline', '--uninstall', '--index', file.index])) + (await geoshard(['pipeline', '--install', '--index', file.index]));
}

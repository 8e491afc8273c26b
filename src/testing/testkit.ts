/**
 * Helpers for the live tests (src/server/*.live.test.ts) and the live
 * benchmark: dedicated index names (so a user's seeded index is never
 * touched), boundary files derived from the bundled one, seeding that is
 * skipped when the index already holds the wanted sample, and the API on a
 * real HTTP server on a free local port.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseBoundaryFile, withHash, type BoundaryFile, Router } from '../core/index.ts';
import { OpenSearchClient } from '../cluster/client.ts';
import { LiveApi, type ApiOptions } from '../server/api.ts';
import { seedIndex } from '../ops/seed/seeder.ts';
import { fetchIndexMeta } from '../opensearch/indexMeta.ts';
import { DOC_SHAPE, docShapeOf } from '../opensearch/sampleIndex.ts';
import { configFromEnv } from '../cluster/clientConfig.ts';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The index the live tests seed and search (never the bundled file's index). */
export const TEST_INDEX = 'geoshard-live-test';
/** The sample the live tests seed: small, so tests stay quick on 2 cores. */
export const TEST_RESTAURANTS = 1500;
export const TEST_DISHES_PER_RESTAURANT = 10;

/** bundledFile returns data/boundaries.json, validated. */
export function bundledFile(): BoundaryFile {
  const path = resolve(ROOT, 'data', 'boundaries.json');
  return parseBoundaryFile(readFileSync(path, 'utf8'), path);
}

/**
 * derivedFile returns the bundled file for another index name (same
 * boundaries and shard names, so the same routing), optionally as a later
 * version: a different hash, as a real edit of the file would have.
 */
export function derivedFile(index: string, version = 1): BoundaryFile {
  const base = bundledFile();
  const { hash: _hash, ...rest } = base;
  return withHash({ ...rest, index, version, parent: version > 1 ? base.hash : base.parent });
}

/** liveClient returns a client for the cluster the live tests run against (OPENSEARCH_URL or the local node). */
export function liveClient(): OpenSearchClient {
  return new OpenSearchClient(configFromEnv());
}

/**
 * ensureSeeded seeds `file`'s index with the sample unless it already holds
 * exactly that sample, complete, for this file, with its routing fingerprint;
 * returns whether it seeded.
 */
export async function ensureSeeded(client: OpenSearchClient, file: BoundaryFile, restaurants = TEST_RESTAURANTS, dishesPerRestaurant = TEST_DISHES_PER_RESTAURANT): Promise<boolean> {
  const meta = await fetchIndexMeta(client, file.index);
  const s = meta?.sample;
  // An index seeded before seed recorded the routing fingerprint (_meta.routing), or with another document shape, is seeded again.
  if (meta?.hash === file.hash && meta.routing && s?.complete && docShapeOf(s) === DOC_SHAPE && s.restaurants === restaurants && s.dishesPerRestaurant === dishesPerRestaurant) return false;
  await seedIndex({ client, router: new Router(file), restaurants, dishesPerRestaurant, recreate: true });
  return true;
}

/** A running API server. */
export interface RunningApi {
  url: string;
  api: LiveApi;
  close: () => Promise<void>;
}

/** startApi serves a LiveApi on 127.0.0.1 on a free port (real HTTP, as the explorer's server does). */
export async function startApi(opts: ApiOptions): Promise<RunningApi> {
  const api = new LiveApi(opts);
  const server = createServer((req, res) => void api.handle(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, api, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** getJson fetches a URL and returns the HTTP status and parsed JSON body. */
export async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

/** closedPortUrl returns an http URL on 127.0.0.1 where nothing listens (a port bound, then released). */
export async function closedPortUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

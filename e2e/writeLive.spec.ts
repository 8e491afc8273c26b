/**
 * Write mode on the real path: the explorer's server (scripts/start.mjs's
 * startExplorer, in this worker) runs with GEOSHARD_WRITES=1 and a boundary
 * file for an index of its own (`gs-ui-write`: the bundled boundaries under
 * another index name, src/testing/testkit.ts derivedFile), against the real
 * node at OPENSEARCH_URL (default http://127.0.0.1:9200). The page opens
 * that same file (?boundaries=), so the globe, the browser's core and the API
 * route alike. A click on the globe writes a restaurant; the panel's core
 * shard must equal the acknowledged shard and the shard the core computes
 * here, in Node, for the point; OpenSearch itself must hold the document on
 * that shard (a search restricted to it, preference=_shards:N); then the
 * restaurant is deleted and OpenSearch no longer holds it.
 */
import { test, expect, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router, formatBoundaryFile } from '../src/core/index.ts';
import { derivedFile, ensureSeeded, liveClient } from '../src/testing/testkit.ts';
import type { OpenSearchClient } from '../src/cluster/client.ts';

/** This spec's own index: no user index and no other test shares it. */
const INDEX = 'gs-ui-write';
/** A small sample: the index must exist, with its _meta, for the API's drift guard. */
const SAMPLE = { restaurants: 60, dishesPerRestaurant: 2 };
const SERVED = '/e2e/gs-ui-write-boundaries.json';
const SF = { lat: 37.7749, lng: -122.4194 };

const file = derivedFile(INDEX);
const router = new Router(file);
let dir = '';
let client: OpenSearchClient;
let server: { url: string; close: () => Promise<void> | void } | null = null;
const savedEnv = { writes: process.env.GEOSHARD_WRITES, boundaries: process.env.GEOSHARD_BOUNDARIES };

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  client = liveClient();
  try {
    await client.get('/', { timeoutMs: 5000 });
  } catch (e) {
    throw new Error(`No OpenSearch node answers at ${client.url} (${(e as Error).message}). This test needs the real node: run \`npm run cluster:start\` (or set OPENSEARCH_URL) and run it again.`);
  }
  await ensureSeeded(client, file, SAMPLE.restaurants, SAMPLE.dishesPerRestaurant);
  dir = mkdtempSync(join(tmpdir(), 'gs-ui-write-'));
  const path = join(dir, 'boundaries.json');
  writeFileSync(path, formatBoundaryFile(file));
  // The API reads both when the preview server mounts it (vite.config.ts → src/server/middleware.ts).
  process.env.GEOSHARD_WRITES = '1';
  process.env.GEOSHARD_BOUNDARIES = path;
  const { startExplorer } = (await import(new URL('../scripts/start.mjs', import.meta.url).href)) as { startExplorer: (o: { port?: number; files?: Record<string, string>; log?: (l: string) => void }) => Promise<{ url: string; close: () => Promise<void> }> };
  server = await startExplorer({ port: Number(process.env.E2E_WRITE_PORT ?? 5198), files: { [SERVED]: path }, log: () => {} });
});

test.afterAll(async () => {
  await server?.close();
  for (const [k, v] of [['GEOSHARD_WRITES', savedEnv.writes], ['GEOSHARD_BOUNDARIES', savedEnv.boundaries]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  await client?.close();
});

/** heldOn returns the shards OpenSearch finds a restaurant on, asking each shard alone (preference=_shards:N). */
async function heldOn(id: string): Promise<number[]> {
  const found: number[] = [];
  for (let shard = 0; shard < file.numberOfShards; shard++) {
    const r = await client.get<{ hits: { hits: unknown[] } }>(`/${INDEX}/_search`, { query: { preference: `_shards:${shard}` }, body: { query: { ids: { values: [id] } }, size: 1 } });
    if (r.hits.hits.length > 0) found.push(shard);
  }
  return found;
}

async function open(page: Page): Promise<string[]> {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  await page.goto(`${server!.url}?boundaries=${SERVED}&lat=${SF.lat}&lng=${SF.lng}&zoom=40&tab=live&live=1`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return errors;
}

test('a click on the globe writes a restaurant to the shard the core names, as OpenSearch acknowledges and holds it; then it is deleted', async ({ page }) => {
  const errors = await open(page);
  // The API on this server takes writes and routes with this spec's file, the globe shows the same file.
  await expect(page.getByTestId('live-status')).toHaveAttribute('data-state', 'up');
  await expect(page.getByTestId('write-availability')).toHaveAttribute('data-state', 'enabled');
  await page.getByTestId('write-toggle').click();
  await expect(page.getByTestId('write-pin-draft')).toBeAttached();

  const canvas = page.locator('.globe-canvas canvas').first();
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const form = page.getByTestId('write-form');
  await expect(form).toBeVisible();
  const id = (await form.getAttribute('data-id'))!;
  const lat = Number(await form.getAttribute('data-lat'));
  const lng = Number(await form.getAttribute('data-lng'));
  expect(Math.abs(lat - SF.lat)).toBeLessThan(0.05);
  expect(Math.abs(lng - SF.lng)).toBeLessThan(0.05);
  // One optional field set, to write more than the defaults; then Enter in the name field.
  await form.locator('summary').click();
  await page.getByTestId('write-cuisine-italian').check();
  await page.getByTestId('write-name').focus();
  await page.keyboard.press('Enter');

  const report = page.getByTestId('write-report');
  await expect(report).toHaveAttribute('data-status', 'written', { timeout: 30_000 });
  // The core in Node, for the point the page placed.
  const expected = router.route(lat, lng);
  await expect(page.getByTestId('write-cell')).toHaveText(expected.token);
  const core = Number(await page.getByTestId('write-core').getAttribute('data-shard'));
  const ack = Number(await page.getByTestId('write-ack').getAttribute('data-shard'));
  expect(core, 'the panel’s core shard is the core’s, computed in Node').toBe(expected.shard);
  expect(ack, 'OpenSearch acknowledged the core’s shard').toBe(expected.shard);
  await expect(page.getByTestId('write-verdict')).toHaveAttribute('data-agree', 'true');
  // OpenSearch itself: the restaurant is on that shard and no other.
  await client.request('POST', `/${INDEX}/_refresh`);
  expect(await heldOn(id)).toEqual([expected.shard]);
  const shots = process.env.WRITE_SCREENSHOT_DIR;
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.setViewportSize({ width: 1280, height: 1000 });
    await report.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'write-mode.png') });
  }

  await page.getByTestId('write-delete').click();
  await expect(report).toHaveAttribute('data-status', 'deleted', { timeout: 30_000 });
  await expect(page.getByTestId('write-ack')).toHaveAttribute('data-shard', String(expected.shard));
  await client.request('POST', `/${INDEX}/_refresh`);
  expect(await heldOn(id)).toEqual([]);
  expect(errors).toEqual([]);
});

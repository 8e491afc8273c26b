/**
 * Write mode's panel in Debian's Chromium, with the project's own API stubbed
 * (page.route) in the wire's shapes: a click on the globe places a
 * restaurant, Enter writes it, and the panel sets the acknowledged shard
 * beside the core's. Each stubbed answer is computed here from the routing
 * core in Node (a correct server's answer for the body the page sent) and
 * then, for the failure cases, made wrong on purpose; refusals come from the
 * server's own body validator (wire.ts parseRestaurantBody). The real path
 * (the API on the real node) is writeLive.spec.ts.
 */
import { test, expect, type Page, type Route } from '@playwright/test';
import { readFileSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, cellAt, cellOrdinal, cellFromOrdinal, cellToken, type BoundaryFile } from '../src/core/index.ts';
import { withMigration } from '../src/core/plan.ts';
import { parseRestaurantBody, type MigrationStatus, type WriteAnswer } from '../src/server/wire.ts';
import { openExplorer } from './explorer.ts';

const file = JSON.parse(readFileSync(fileURLToPath(new URL('../data/boundaries.json', import.meta.url)), 'utf8')) as BoundaryFile;
const router = new Router(file);
const SF = { lat: 37.7749, lng: -122.4194 };
/** The view centred on San Francisco, close in, with Live on: a click at the canvas's centre lands within a cell or so of SF. */
const LINK = `?lat=${SF.lat}&lng=${SF.lng}&zoom=40&tab=live&live=1`;

/** A move of SF's neighbourhood (40 cells, inside SF's shard) to the next shard, copying: both owners are written. */
const sf = cellOrdinal(cellAt(SF.lat, SF.lng));
const owner = router.indexOfOrdinal(sf);
const [start, end] = [Math.max(router.starts[owner], sf - 20), Math.min(router.starts[owner + 1], sf + 20)];
const to = router.shards[(owner + 1) % router.numberOfShards];
const MOVE = { start: cellToken(cellFromOrdinal(start)), end: cellToken(cellFromOrdinal(end)), from: router.shards[owner].name, to: to.name };
const migrating = new Router(withMigration(file, { epoch: 5, target: 'c'.repeat(64), moves: [{ ...MOVE, phase: 'copying' }] }));
const MIGRATION: MigrationStatus = {
  epoch: 5,
  base: file.hash,
  target: 'c'.repeat(64),
  targetVersion: 2,
  startedAt: '2026-12-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:05.000Z',
  moves: [{ ...MOVE, fromShard: router.shards[owner].shard, toShard: to.shard, step: 'copying', copied: { restaurants: 3, dishes: 24 }, verified: null }],
};

function status(writes: { enabled: boolean }, migration: MigrationStatus | null = null) {
  return {
    connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'c', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1 } },
    boundary: { file: 'data/boundaries.json', index: file.index, hash: file.hash, version: file.version, numberOfShards: file.numberOfShards, shards: [] },
    nodes: null,
    index: { name: file.index, exists: true, docs: { restaurants: 10, dishes: 50, total: 60 }, shards: [], copies: [] },
    drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
    migration,
    writes,
    limits: {},
    vocabulary: {},
  };
}

/** A correct server's answer for a restaurant at (lat, lng), routed with `r`: every owner acknowledged on its own shard. */
function answerFor(r: Router, id: string, lat: number, lng: number, st: WriteAnswer['status'], epoch: number | null = null): WriteAnswer {
  const read = r.readShard(lat, lng);
  const owners = r.writeShards(lat, lng).map((s) => ({ name: s.name, shard: s.shard, role: s.name === read.name ? ('read' as const) : ('write' as const) }));
  return {
    status: st,
    kind: 'restaurant',
    id,
    restaurantId: id,
    location: { lat, lng },
    cell: r.route(lat, lng).token,
    core: { name: read.name, shard: read.shard },
    owners,
    acknowledged: owners.map((o) => ({ routing: o.name, shard: o.shard, node: 'geoshard-1', result: st === 'written' ? ('created' as const) : ('deleted' as const) })),
    dishes: 0,
    epoch,
  };
}

/** The requests the page made to the write API. */
interface Seen {
  method: string;
  id: string;
  body: { name: string; lat: number; lng: number } | null;
  origin: string | null;
}

/** stubWrites answers /api/status with `st` and /api/restaurants/* with `answer` (a correct answer, or a refusal from the server's validator when the body is invalid). */
async function stubWrites(page: Page, st: unknown, answer: (method: string, id: string, body: Seen['body']) => { status: number; json: unknown }): Promise<Seen[]> {
  const seen: Seen[] = [];
  await page.route('**/api/status', (r) => r.fulfill({ json: st }));
  await page.route('**/api/restaurants/*', async (r: Route) => {
    const req = r.request();
    const id = new URL(req.url()).pathname.split('/').pop()!;
    const body = req.postData() ? JSON.parse(req.postData()!) : null;
    seen.push({ method: req.method(), id, body, origin: (await req.allHeaders()).origin ?? null });
    if (req.method() === 'PUT') {
      try {
        parseRestaurantBody(body);
      } catch (e) {
        return r.fulfill({ status: 400, json: { status: 'invalid', error: { param: (e as { param: string }).param, message: (e as Error).message } } });
      }
    }
    const a = answer(req.method(), id, body);
    return r.fulfill({ status: a.status, json: a.json });
  });
  return seen;
}

/** clickCentre clicks the globe's canvas at its centre and waits for the form; returns the placed point and id. */
async function clickCentre(page: Page): Promise<{ id: string; lat: number; lng: number }> {
  const canvas = page.locator('.globe-canvas canvas').first();
  const box = (await canvas.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  const form = page.getByTestId('write-form');
  await expect(form).toBeVisible();
  const lat = Number(await form.getAttribute('data-lat'));
  const lng = Number(await form.getAttribute('data-lng'));
  expect(Math.abs(lat - SF.lat), 'the click lands on the view’s centre').toBeLessThan(0.05);
  expect(Math.abs(lng - SF.lng)).toBeLessThan(0.05);
  return { id: (await form.getAttribute('data-id'))!, lat, lng };
}

async function writeOn(page: Page): Promise<void> {
  const toggle = page.getByTestId('write-toggle');
  await expect(toggle).toBeEnabled();
  await toggle.click();
  await expect(page.getByTestId('write-mode')).toHaveAttribute('data-on', 'true');
  // The globe's Write layers load on demand: once their pins exist, a click places.
  await expect(page.getByTestId('write-pin-draft')).toBeAttached();
}

/** screenshot saves the page when WRITE_SCREENSHOT_DIR is set (the README's picture), else does nothing. */
async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.WRITE_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.getByTestId('write-report').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${dir}/${name}` });
}

test.describe('Write mode (API stubbed)', () => {
  test('is not offered while the server takes no writes, and says to start it with GEOSHARD_WRITES=1', async ({ page }) => {
    await stubWrites(page, status({ enabled: false }), () => ({ status: 500, json: {} }));
    const errors = await openExplorer(page, LINK);
    await expect(page.getByTestId('write-availability')).toHaveAttribute('data-state', 'disabled');
    await expect(page.getByTestId('write-availability')).toContainText('GEOSHARD_WRITES=1');
    await expect(page.getByTestId('write-toggle')).toBeDisabled();
    expect(errors).toEqual([]);
  });

  test('a click and Enter write a restaurant; the core’s shard and the acknowledged one agree; then it is deleted', async ({ page }) => {
    const seen = await stubWrites(page, status({ enabled: true }), (method, id, body) =>
      method === 'PUT' ? { status: 200, json: answerFor(router, id, body!.lat, body!.lng, 'written') } : { status: 200, json: answerFor(router, id, SF.lat, SF.lng, 'deleted') },
    );
    const errors = await openExplorer(page, LINK);
    await writeOn(page);
    const placed = await clickCentre(page);
    await expect(page.getByTestId('write-pin-draft')).toBeVisible();
    // What the core in Node says for the point the page placed.
    const expected = router.route(placed.lat, placed.lng);
    await expect(page.getByTestId('write-draft-cell')).toHaveText(expected.token);
    await expect(page.getByTestId('write-draft-core')).toHaveAttribute('data-shard', String(expected.shard));
    await page.keyboard.press('Enter');

    const report = page.getByTestId('write-report');
    await expect(report).toHaveAttribute('data-status', 'written');
    expect(seen[0]).toMatchObject({ method: 'PUT', id: placed.id, body: { name: 'New restaurant', lat: placed.lat, lng: placed.lng } });
    expect(seen[0].origin, 'the browser sends its Origin, which the API checks').toBe(new URL(page.url()).origin);
    await expect(page.getByTestId('write-cell')).toHaveText(expected.token);
    await expect(page.getByTestId('write-core')).toHaveAttribute('data-shard', String(expected.shard));
    await expect(page.getByTestId('write-ack')).toHaveAttribute('data-shard', String(expected.shard));
    const verdict = page.getByTestId('write-verdict');
    await expect(verdict).toHaveAttribute('data-agree', 'true');
    await expect(verdict).toContainText(`agree · core shard ${expected.shard} = acknowledged shard ${expected.shard}`);
    await expect(page.getByTestId('write-owner')).toHaveCount(0);
    await expect(page.getByTestId('write-pin-placed')).toBeVisible();

    await page.getByTestId('write-delete').click();
    await expect(report).toHaveAttribute('data-status', 'deleted');
    expect(seen[1]).toMatchObject({ method: 'DELETE', id: placed.id, body: null });
    await expect(page.getByTestId('write-delete')).toHaveCount(0);
    expect(errors).toEqual([]);
  });

  test('an acknowledged shard other than the core’s is shown as DISAGREE, in red, naming the difference', async ({ page }) => {
    await stubWrites(page, status({ enabled: true }), (_m, id, body) => {
      const a = answerFor(router, id, body!.lat, body!.lng, 'written');
      a.acknowledged[0].shard = (a.acknowledged[0].shard + 1) % file.numberOfShards;
      return { status: 200, json: a };
    });
    await openExplorer(page, LINK);
    await writeOn(page);
    const placed = await clickCentre(page);
    await page.keyboard.press('Enter');
    const shard = router.route(placed.lat, placed.lng).shard;
    const verdict = page.getByTestId('write-verdict');
    await expect(verdict).toHaveAttribute('data-agree', 'false');
    await expect(verdict).toContainText('DISAGREE');
    const bg = await verdict.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = bg.match(/\d+/g)!.map(Number);
    expect(r, `the verdict's background ${bg} is red`).toBeGreaterThan(150);
    expect(g).toBeLessThan(100);
    expect(b).toBeLessThan(100);
    await expect(page.locator('.write-problems')).toContainText(`the core names shard ${shard}`);
  });

  test('during a migration the restaurant is written to both owners, each shown with its role, and they agree', async ({ page }) => {
    await stubWrites(page, status({ enabled: true }, MIGRATION), (_m, id, body) => ({ status: 200, json: answerFor(migrating, id, body!.lat, body!.lng, 'written', 5) }));
    await openExplorer(page, LINK);
    await writeOn(page);
    const placed = await clickCentre(page);
    const owners = migrating.writeShards(placed.lat, placed.lng);
    expect(owners, 'the placed point is in the moving range').toHaveLength(2);
    await page.keyboard.press('Enter');
    const rows = page.getByTestId('write-owner');
    await expect(rows).toHaveCount(2);
    const read = migrating.readShard(placed.lat, placed.lng);
    for (let i = 0; i < 2; i++) {
      await expect(rows.nth(i)).toHaveAttribute('data-name', owners[i].name);
      await expect(rows.nth(i)).toHaveAttribute('data-shard', String(owners[i].shard));
      await expect(rows.nth(i)).toHaveAttribute('data-role', owners[i].name === read.name ? 'read' : 'write');
    }
    await expect(page.getByTestId('write-epoch')).toHaveText('5');
    await expect(page.getByTestId('write-core')).toHaveAttribute('data-shard', String(read.shard));
    await expect(page.getByTestId('write-verdict')).toHaveAttribute('data-agree', 'true');
    await screenshot(page, 'write-mode-migration.png');
  });

  test('a refused write shows the API’s message with the field named, and keeps the form', async ({ page }) => {
    const seen = await stubWrites(page, status({ enabled: true }), () => ({ status: 500, json: { status: 'error', error: { message: 'not reached' } } }));
    await openExplorer(page, LINK);
    await writeOn(page);
    await clickCentre(page);
    await page.getByTestId('write-name').fill('   ');
    await page.keyboard.press('Enter');
    const failure = page.getByTestId('write-failure');
    await expect(failure).toHaveAttribute('data-kind', 'invalid');
    await expect(failure).toHaveAttribute('data-param', 'name');
    await expect(page.getByTestId('write-failure-param')).toHaveText('name');
    await expect(page.getByTestId('write-failure-message')).toContainText('name "" is invalid');
    await expect(page.getByTestId('write-form')).toBeVisible();
    expect(seen).toHaveLength(1);
    // Writes turned off on the server between status and write: the 403's message is shown.
    await page.unroute('**/api/restaurants/*');
    await page.route('**/api/restaurants/*', (r) => r.fulfill({ status: 403, json: { status: 'forbidden', error: { message: 'writes are disabled on this server: start it with GEOSHARD_WRITES=1' } } }));
    await page.getByTestId('write-name').fill('Zuni Café');
    await page.keyboard.press('Enter');
    await expect(failure).toHaveAttribute('data-kind', 'forbidden');
    await expect(page.getByTestId('write-failure-message')).toContainText('GEOSHARD_WRITES=1');
  });
});

/**
 * The Migration view in Debian's Chromium: a move in progress (its step and
 * counts, the epoch), then settled. /api/status is answered by page.route in
 * the server's wire shape (MigrationStatus), one answer per step a real
 * `geoshard migrate` writes; the real path (the CLI on a real node, the API
 * reading its _meta) is covered by src/ops/migrate/migration.live.test.ts.
 */
import { test, expect, type Page } from '@playwright/test';
import { centreBlock } from './globePixels.ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MigrationStatus, StatusAnswer } from '../src/server/wire.ts';
import { cellCenter, cellFromOrdinal, cellOrdinal, parseToken } from '../src/core/index.ts';
import { openExplorer as open } from './explorer.ts';

const file = JSON.parse(readFileSync(fileURLToPath(new URL('../data/boundaries.json', import.meta.url)), 'utf8'));
const TARGET = 'b'.repeat(64);

function status(migration: MigrationStatus | null, indexHash = file.hash): Partial<StatusAnswer> {
  return {
    connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'geoshard', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1 } },
    nodes: null,
    index: null,
    drift: { status: 'ok', indexHash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
    migration,
  };
}

function migration(epoch: number, steps: MigrationStatus['moves'][number]['step'][], copied: number, verified: boolean): MigrationStatus {
  const counts = { restaurants: 6, dishes: 48 };
  return {
    epoch,
    base: file.hash,
    target: TARGET,
    targetVersion: 2,
    startedAt: '2026-12-01T00:00:00.000Z',
    updatedAt: '2026-12-01T00:00:05.000Z',
    moves: [
      { start: '8640c5', end: '8643e7', from: 'bravo', to: 'charlie', fromShard: 3, toShard: 4, step: steps[0], copied: { restaurants: copied, dishes: copied * 8 }, verified: verified ? { from: counts, to: counts } : null },
      { start: '89c289', end: '89c29f', from: 'november', to: 'mercury', fromShard: 12, toShard: 13, step: steps[1], copied: { restaurants: 0, dishes: 0 }, verified: null },
    ],
  };
}


test('the Migration view shows a move in progress with its step and counts, follows it, and then shows the index settled', async ({ page }) => {
  let answer = status(migration(2, ['copying', 'pending'], 3, false));
  let asked = 0;
  await page.route('**/api/status', (route) => {
    asked++;
    return route.fulfill({ json: answer });
  });
  const errors = await open(page);
  await page.getByTestId('tab-migration').click();

  const state = page.getByTestId('migration-state');
  await expect(state).toHaveAttribute('data-state', 'moving');
  await expect(page.getByTestId('migration-epoch')).toHaveText('2');
  const ranges = page.getByTestId('migration-range');
  await expect(ranges).toHaveCount(2);
  await expect(ranges.nth(0)).toHaveAttribute('data-step', 'copying');
  await expect(ranges.nth(0).getByTestId('migration-copied')).toHaveText('copied 27');
  await expect(ranges.nth(0).getByTestId('migration-verified')).toHaveText('not verified yet');
  await expect(ranges.nth(1)).toHaveAttribute('data-step', 'pending');

  // The CLI moves on: the view follows without a click.
  const before = asked;
  answer = status(migration(4, ['switched', 'pending'], 6, true));
  await expect(ranges.nth(0)).toHaveAttribute('data-step', 'switched');
  expect(asked).toBeGreaterThan(before);
  await expect(page.getByTestId('migration-epoch')).toHaveText('4');
  await expect(ranges.nth(0).getByTestId('migration-verified')).toHaveText('verified 6 restaurants + 48 dishes on both owners');

  // Finished: the index is settled on the target.
  answer = status(null, TARGET);
  await expect(state).toHaveAttribute('data-state', 'settled');
  await expect(state).toContainText(`settled on boundary file ${TARGET.slice(0, 12)}`);
  await expect(state).toContainText('not the explorer’s file');
  expect(errors).toEqual([]);
});

/** blockSpread reads a 40×40 block at the globe's centre after a few frames and returns the largest channel difference from its first pixel. */
async function blockSpread(page: Page): Promise<number> {
  const d = await centreBlock(page, 40);
  let spread = 0;
  for (let i = 0; i < d.length; i += 4) for (let k = 0; k < 3; k++) spread = Math.max(spread, Math.abs(d[i + k] - d[k]));
  return spread;
}

test('the globe and the ribbon hatch a range while it moves and show it plain once the index is settled', async ({ page }) => {
  // The view looks at the middle cell of the first stubbed move (computed with the core), close enough that the
  // 40-pixel block at the centre lies inside that one level-10 cell; only the shard layer is drawn.
  const [start, end] = ['8640c5', '8643e7'].map((t) => cellOrdinal(parseToken(t)));
  const mid = cellCenter(cellFromOrdinal(Math.floor((start + end) / 2)));
  let answer = status(migration(2, ['copying', 'pending'], 3, false));
  await page.route('**/api/status', (route) => route.fulfill({ json: answer }));
  await page.goto(`/?lat=${mid.lat.toFixed(4)}&lng=${mid.lng.toFixed(4)}&zoom=400&layers=shards`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  await page.getByTestId('tab-migration').click();
  await expect(page.getByTestId('migration-range').nth(0)).toHaveAttribute('data-step', 'copying');
  // Only the moving range is hatched (the second move is still pending).
  await expect(page.locator('body')).toHaveAttribute('data-moving-ranges', `${start}-${end}`);
  await expect.poll(() => blockSpread(page), { message: 'stripes inside the moving range' }).toBeGreaterThan(60);
  // The Hilbert ribbon marks the same range on the whole key space.
  await expect(page.getByTestId('ribbon-moving')).toHaveCount(1);
  await expect(page.getByTestId('ribbon-moving')).toHaveAttribute('data-range', `${start}-${end}`);
  answer = status(null, TARGET);
  await expect(page.getByTestId('migration-state')).toHaveAttribute('data-state', 'settled');
  await expect(page.locator('body')).toHaveAttribute('data-moving-ranges', '');
  await expect(page.getByTestId('ribbon-moving')).toHaveCount(0);
  await expect.poll(() => blockSpread(page), { message: 'one plain colour once settled' }).toBeLessThanOrEqual(4);
});

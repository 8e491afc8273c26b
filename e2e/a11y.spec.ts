/**
 * Accessibility: axe-core (through @axe-core/playwright) finds no violation on the explorer's
 * main links, at a desktop (1280×800) and a phone (390×844) size: the first screen, a radius
 * search link, the boundary review (a candidate made here: one boundary of data/boundaries.json
 * moved and the file re-hashed with the core) and the Live tab (its API answered by page.route in
 * the server's shapes); and the search box with its list open and a pasted cell, with the
 * globe's controls opened on the phone. Every rule axe runs by default (WCAG 2.0-2.2 A and AA, and its best
 * practices) is checked; a failure lists each violation with its nodes.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, withHash, formatBoundaryFile, cellToken, cellFromOrdinal, cellOrdinal, parseToken, type BoundaryFile } from '../src/core/index.ts';
import { openExplorer, liveOn } from './explorer.ts';

const file: BoundaryFile = JSON.parse(readFileSync(fileURLToPath(new URL('../data/boundaries.json', import.meta.url)), 'utf8'));
const router = new Router(file);
const N = router.numberOfShards;

/** The candidate the review opens: boundary 3 moved 2,000 cells later along the curve, re-hashed. */
function candidate(): BoundaryFile {
  const { hash: _h, ...rest } = file;
  const moved = cellToken(cellFromOrdinal(cellOrdinal(parseToken(file.boundaries[3])) + 2000));
  return withHash({ ...rest, version: file.version + 1, parent: file.hash, boundaries: file.boundaries.map((t, i) => (i === 3 ? moved : t)) });
}

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

/** Runs axe on the page and fails with every violation, its impact, help and the nodes it found. */
async function expectNoViolations(page: Page, what: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const report = violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ')}`).join('\n')}`).join('\n');
  expect(violations.length, `${what}: ${violations.length} axe violation(s)\n${report}`).toBe(0);
}

const sfRouting = router.cover(37.7749, -122.4194, 24.14).routing;
const statusBody = {
  connection: { status: 'up', url: 'http://127.0.0.1:9200', cluster: { name: 'c', version: '2.19.6', distribution: 'opensearch', health: 'green', nodes: 1 } },
  boundary: { file: 'data/boundaries.json', index: file.index, hash: file.hash, version: file.version, numberOfShards: N, shards: router.shards.map((s, index) => ({ index, name: s.name, shard: s.shard })) },
  index: { name: file.index, exists: true, docs: { restaurants: 10, dishes: 50, total: 60 }, shards: [] },
  drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash, indexVersion: 1, fileVersion: 1, message: '' },
  limits: {},
  vocabulary: {},
};
const sideOf = (scope: 'routed' | 'all-shards') => {
  const asked = scope === 'routed' ? router.shards.filter((s) => sfRouting.split(',').includes(s.name)) : router.shards;
  return {
  scope,
  routing: scope === 'routed' ? sfRouting : null,
  shardsAsked: asked.map((s) => ({ index: router.shards.indexOf(s), name: s.name, shard: s.shard, cells: 1, status: 'ok' })),
  took: 4,
  wallMs: 6.5,
  timedOut: false,
  total: 1,
  hits: [{ id: 'r1-d0', name: 'Fig salad', cuisine: 'thai', diets: ['vegan'], allergens: [], price_cents: 1299, calories: 400, distanceKm: 1.2, restaurant: { id: 'r1', name: 'Blue Fig', place: 'San Francisco', state: 'CA', location: { lat: 37.77, lng: -122.42 }, cuisines: ['thai'] } }],
  facets: { diets: [{ value: 'vegan', count: 1 }], allergens: [], cuisines: [{ value: 'thai', count: 1 }] },
  shards: { total: asked.length, successful: asked.length, skipped: 0, failed: 0 },
  };
};

for (const size of SIZES) {
  test.describe(`axe on the main links at ${size.viewport.width}×${size.viewport.height}`, () => {
    test.use({ viewport: size.viewport });

    test('the first screen', async ({ page }) => {
      await openExplorer(page);
      await expectNoViolations(page, 'the first screen');
    });

    test('a radius search link', async ({ page }) => {
      await openExplorer(page, '?lat=37.7749&lng=-122.4194&radius=15mi');
      await expect(page.getByTestId('routing')).toHaveText(sfRouting);
      await expectNoViolations(page, 'a radius search link');
    });

    test('the boundary review of a candidate', async ({ page }) => {
      const c = candidate();
      await page.route('**/a11y-candidate.json', (r) => r.fulfill({ body: formatBoundaryFile(c), contentType: 'application/json' }));
      await openExplorer(page, '?candidate=/a11y-candidate.json&layers=shards');
      await page.waitForFunction((h) => document.body.dataset.reviewDiff === h, c.hash);
      await page.getByTestId('tab-review').click();
      await expect(page.locator('#panel-review')).toBeVisible();
      await expectNoViolations(page, 'the review');
    });

    test('the search box with its list open and a pasted cell, and the globe controls opened', async ({ page }) => {
      await openExplorer(page);
      const box = page.getByTestId('city-search');
      await box.fill('8634');
      await box.press('Enter');
      await expect(page.getByTestId('paste-cell')).toBeVisible();
      await box.fill('phila');
      await expect(page.getByTestId('city-matches')).toBeVisible();
      if (size.name === 'phone') await page.getByTestId('globe-controls-toggle').click();
      await expect(page.getByTestId('level-input')).toBeVisible();
      await expectNoViolations(page, 'the search box and the globe controls');
    });

    test('the Live tab (API stubbed)', async ({ page }) => {
      await page.route('**/api/status', (r) => r.fulfill({ json: statusBody }));
      await page.route('**/api/search?*', (r) => r.fulfill({ json: { status: 'complete', query: {}, index: file.index, boundary: { hash: file.hash, version: file.version, numberOfShards: N }, drift: { status: 'ok', indexHash: file.hash, fileHash: file.hash }, ...sideOf('routed'), unrouted: sideOf('all-shards'), identical: true, differences: [], ratio: { shards: 0.2, took: 1, wall: 1 } } }));
      await openExplorer(page, '?lat=37.7749&lng=-122.4194&radius=15mi');
      await liveOn(page);
      await expect(page.getByTestId('live-badge')).toHaveAttribute('data-status', 'complete');
      await expectNoViolations(page, 'the Live tab');
    });
  });
}

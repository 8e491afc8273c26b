/**
 * The fan-out map in Debian's Chromium with software WebGL (issue 11's fan-out points, issue 12's
 * slider): at country zoom and on the flat map it refines to the view (not the 2° world grid), its
 * pixels agree with the routing core's counts, it follows the radius slider step by step without
 * moving the camera, and its legend uses its own colours, none a shard's. Expected counts come
 * from the core (src/core, read here, by the from-scratch block method, not the page's fields).
 *
 * The page reports what the map draws on document.body.dataset.fanoutDrawn (FanoutMap.tsx):
 * the radius, the view's grid (null = world grid only) and the pixels per bucket 1, 2, 3, 4+.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, KM_PER_MILE } from '../src/core/index.ts';
import { computeFanoutGrid } from '../src/core/fanoutGridJob.ts';
import type { FanoutGrid } from '../src/core/fanoutGrid.ts';
import { FANOUT_COLORS } from '../src/app/fanout/fanoutColors.ts';
import { openExplorer } from './explorer.ts';

const read = (rel: string) => readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8');
const router = new Router(JSON.parse(read('../data/boundaries.json')));

interface Drawn {
  radiusKm: number;
  view: FanoutGrid | null;
  viewPixels: [number, number, number, number] | null;
  worldPixels: [number, number, number, number] | null;
}

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };

const open = (page: Page, query: string): Promise<string[]> => openExplorer(page, query, { consoleErrors: true });

/** Waits until the map draws the view's grid at radiusKm (and the world grid beneath), and returns what it draws. */
async function drawnView(page: Page, radiusKm: number): Promise<Drawn> {
  const handle = await page.waitForFunction(
    (km) => {
      const d = document.body.dataset.fanoutDrawn;
      if (!d) return null;
      const x = JSON.parse(d) as Drawn;
      return x.view && x.worldPixels && Math.abs(x.radiusKm - km) < 1e-6 ? x : null;
    },
    radiusKm,
    { timeout: 60_000 },
  );
  return (await handle.jsonValue()) as Drawn;
}

/** Pixels per bucket (1, 2, 3, 4+) the core counts on a grid at a radius (blocks: computed from scratch at that radius). */
function coreBuckets(grid: FanoutGrid, radiusKm: number): number[] {
  const b = [0, 0, 0, 0];
  for (const v of computeFanoutGrid(router, grid, radiusKm, 'blocks')) b[Math.min(4, v) - 1]++;
  return b;
}

const urlParam = (page: Page, k: string) => new URL(page.url()).searchParams.get(k);

for (const size of [DESKTOP, PHONE]) {
  test.describe(`fan-out map at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    test('refines to the view at country zoom, finer than the 2° world grid, with the core’s count at every pixel', async ({ page }) => {
      const errors = await open(page, '?lat=39.1&lng=-94.58&radius=50mi&zoom=2.5&fanout=1');
      const d = await drawnView(page, 50 * KM_PER_MILE);
      const g = d.view!;
      // Pixels of about 4 screen pixels: at least three times finer than the world grid's 2° (about
      // 220 km) even on a phone, whose globe is about 300 px high under the bottom sheet.
      expect((g.north - g.south) / g.rows).toBeLessThan(2 / 3);
      expect(g.cols * g.rows).toBeGreaterThan(1000);
      // Kansas City is in the box.
      expect(g.south).toBeLessThan(39.1);
      expect(g.north).toBeGreaterThan(39.1);
      expect(d.viewPixels).toEqual(coreBuckets(g, 50 * KM_PER_MILE));
      // Somewhere in the US view a 50-mile search asks more than one shard.
      expect(d.viewPixels![1] + d.viewPixels![2] + d.viewPixels![3]).toBeGreaterThan(0);
      expect(errors).toEqual([]);
    });

    test('on the flat map, refines to the view instead of falling back to the world grid', async ({ page }) => {
      const errors = await open(page, '?lat=40.7143&lng=-74.006&radius=25mi&zoom=8&flatten=map&fanout=1');
      const d = await drawnView(page, 25 * KM_PER_MILE);
      const g = d.view!;
      expect(g.south).toBeLessThan(40.7143);
      expect(g.north).toBeGreaterThan(40.7143);
      // A quarter of the world grid's 2° at most (at 4 screen pixels per grid pixel, far finer on a desktop).
      expect((g.north - g.south) / g.rows).toBeLessThan(0.5);
      expect(d.viewPixels).toEqual(coreBuckets(g, 25 * KM_PER_MILE));
      expect(errors).toEqual([]);
    });
  });
}

for (const size of [DESKTOP, PHONE]) test.describe(`fan-out map and the radius at ${size.width}×${size.height}`, () => {
  test.use({ viewport: size });

  test('typing a radius beyond the slider computes the map at that radius, in its worker, with the core’s counts', async ({ page }) => {
    await open(page, '?lat=40.7143&lng=-74.006&radius=15mi&zoom=6&fanout=1');
    await drawnView(page, 15 * KM_PER_MILE);
    const field = page.getByTestId('radius-input');
    await field.fill('150');
    await field.press('Enter');
    const d = await drawnView(page, 150 * KM_PER_MILE);
    expect(d.viewPixels).toEqual(coreBuckets(d.view!, 150 * KM_PER_MILE));
    await expect(page).toHaveURL(/zoom=6/);
  });

  test('has a legend in its own colours, none of them a shard colour', async ({ page }) => {
    await open(page, '?lat=40.7143&lng=-74.006&radius=15mi&fanout=1');
    const legend = page.locator('.fanout-legend .swatch');
    await expect(legend).toHaveCount(4);
    const css = await legend.evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    expect(css.slice(1)).toEqual(FANOUT_COLORS.slice(1).map((c) => rgb(c.css)));
    const shardColours = await page.locator('[data-testid="shard-bar"] .swatch, .shard-list .swatch').evaluateAll((els) => els.map((e) => getComputedStyle(e).backgroundColor));
    for (const c of css.slice(1)) expect(shardColours).not.toContain(c);
  });
});

// The drag needs the slider and the map in view together: a desktop layout (on a phone the sheet covers the map while the slider is used).
test.describe('fan-out map and a radius drag (1400×900)', () => {
  test.use({ viewport: DESKTOP });

  test('follows the radius slider step by step during a drag, and the camera stays where it was', async ({ page }) => {
    await open(page, '?lat=40.7143&lng=-74.006&radius=1mi&zoom=12&fanout=1');
    await drawnView(page, 1 * KM_PER_MILE);
    // The map's share of one-shard searches is there too (from the restaurants' field).
    await expect(page.getByTestId('fanout-share')).toContainText(/% of restaurant-weighted 1 mi searches ask one shard/, { timeout: 60_000 });
    await expect(page).toHaveURL(/zoom=12/);
    const zoomBefore = urlParam(page, 'zoom');
    const slider = page.getByTestId('radius-slider');
    const box = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    const radii = new Set<number>();
    await page.mouse.move(box.x + 2, y);
    await page.mouse.down();
    const moves = 12;
    for (let k = 1; k <= moves; k++) {
      await page.mouse.move(box.x + 2 + ((box.width + 8) * k) / moves, y);
      await page.waitForTimeout(60);
      radii.add(await page.evaluate(() => (JSON.parse(document.body.dataset.fanoutDrawn ?? '{}') as { radiusKm?: number }).radiusKm ?? 0));
    }
    await page.mouse.up();
    const end = await drawnView(page, 100 * KM_PER_MILE);
    expect(end.view).not.toBeNull();
    // The map was redrawn at radii between the ends while the pointer was still down (no wait for the drag to pause).
    expect([...radii].filter((km) => km > 1.7 && km < 160).length).toBeGreaterThanOrEqual(3);
    // The radius changed, the view did not: same zoom, no view= (the camera still looks at the centre).
    await expect(page).toHaveURL(/radius=100mi/);
    expect(urlParam(page, 'zoom')).toBe(zoomBefore);
    expect(urlParam(page, 'view')).toBeNull();
  });
});

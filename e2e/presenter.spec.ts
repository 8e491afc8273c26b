/**
 * Issue 11, the presenter's points, each at a desktop (1400×900) and a phone (390×844) size:
 * the layout (bottom sheet, nothing overflows), the first screen (caption, "?", spin only when
 * bare), bad link parameters, collapsing strips, work that survives a reload, a candidate path
 * that answers with HTML, and the guided tour. Expected search figures come from
 * e2e/cities.golden.json (written by `npx geoshard golden` from the core), never from the page.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOUR_STEPS } from '../src/app/tour/steps.ts';
import { openExplorer } from './explorer.ts';
import type { GoldenEntry } from '../src/cli/commands/golden.ts';

const golden = JSON.parse(readFileSync(fileURLToPath(new URL('./cities.golden.json', import.meta.url)), 'utf8')) as { numberOfShards: number; cities: GoldenEntry[] };
const gold = (name: string, radius: string) => golden.cities.find((c) => c.name === name && c.radius === radius)!;

const SIZES = [
  { name: 'desktop', viewport: { width: 1400, height: 900 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
] as const;

const open = async (page: Page, query = ''): Promise<void> => void (await openExplorer(page, query));

/** Waits n animation frames in the page (time for the spin or a writer to act, counted in frames, not ms). */
const frames = (page: Page, n: number) => page.evaluate((k) => new Promise<void>((done) => { let i = 0; const f = () => (++i >= k ? done() : requestAnimationFrame(f)); requestAnimationFrame(f); }), n);

/** The query parameters of the address bar. */
const params = (page: Page) => new URL(page.url()).searchParams;

/** Asserts nothing is wider than the screen and the element's box lies inside the viewport horizontally. */
async function expectInside(page: Page, testId: string): Promise<void> {
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const box = (await page.getByTestId(testId).boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(width + 0.5);
}

for (const size of SIZES) {
  test.describe(`at ${size.viewport.width}×${size.viewport.height} (${size.name})`, () => {
    test.use({ viewport: size.viewport });

    test('a shared search link shows the circle at the centre with its cells, k / N and routing, every tab reachable, nothing overflowing', async ({ page }) => {
      const sf = gold('San Francisco', '15mi');
      await open(page, `?lat=${sf.lat}&lng=${sf.lng}&radius=${sf.radius}`);
      await expect(page.getByTestId('cell-count')).toHaveText(String(sf.cells));
      await expect(page.getByTestId('shard-count')).toHaveText(sf.shardCount);
      await expect(page.getByTestId('routing')).toHaveText(sf.routing);
      for (const id of ['cell-count', 'shard-count', 'routing']) await expect(page.getByTestId(id)).toBeInViewport();
      for (const tab of ['radius', 'live', 'review', 'shards', 'about']) await expect(page.getByTestId(`tab-${tab}`)).toBeVisible();
      await expectInside(page, 'side-panel');
      // The circle is centred: the camera looks at the search centre (no view= in the link) and the canvas lies on the screen.
      expect(params(page).has('view')).toBe(false);
      const canvas = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
      expect(canvas.x).toBeGreaterThanOrEqual(0);
      expect(canvas.x + canvas.width).toBeLessThanOrEqual(size.viewport.width);
      expect(canvas.height).toBeGreaterThan(200);
    });

    test('the first screen explains itself and spins; a link naming a place opens still and its address does not drift', async ({ page }) => {
      await open(page);
      await expect(page.getByTestId('caption')).toContainText('Each colour is one shard');
      await expect(page.getByTestId('help-button')).toBeInViewport();
      await page.getByTestId('help-button').click();
      await expect(page.getByTestId('tab-about')).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator('#panel-about')).toContainText('Hilbert curve');
      await expect(page.locator('#panel-about')).toBeInViewport();
      await expect(page.getByTestId('layer-spin')).toHaveAttribute('aria-pressed', 'true');
      // The address bar is written once the view has changed (the spin turns it every frame); a turning globe writes no centre.
      await expect.poll(() => params(page).get('layers')).toBe('shards,grid,land,labels,spin');
      expect(params(page).has('lng')).toBe(false);

      // Even a link that asks for spin opens still when it names a place.
      await open(page, '?lat=10&lng=20&zoom=2&level=4&layers=shards,grid,land,labels,spin');
      await expect(page.getByTestId('layer-spin')).toHaveAttribute('aria-pressed', 'false');
      await expect.poll(() => params(page).get('layers')).toBe('shards,grid,land,labels');
      // A spinning globe would have moved the centre within a few frames.
      await frames(page, 10);
      expect(params(page).get('lng')).toBe('20');
      expect(params(page).get('lat')).toBe('10');
    });

    test('bad link parameters are named in a notice with what is valid, and the address bar shows what the page shows', async ({ page }) => {
      await open(page, '?level=12&zoom=abc&lat=95&layers=foo');
      const notice = page.getByTestId('url-notice');
      await expect(notice).toBeVisible();
      await expect(page.getByTestId('url-problem')).toHaveCount(4);
      await expect(notice).toContainText('level=12 is ignored: expected an S2 level, an integer in [0, 10]');
      await expect(notice).toContainText('zoom=abc is ignored');
      await expect(notice).toContainText('lat=95 is ignored: expected a latitude in [-90, 90] degrees');
      await expect(notice).toContainText('"foo" ignored: layers are shards, hilbert, grid, land, labels, spin');
      await expect.poll(() => params(page).get('level')).toBe('4');
      expect(params(page).get('zoom')).not.toBe('abc');
      expect(params(page).get('lat')).not.toBe('95');
      expect(params(page).get('layers')).toBe('shards,grid,land,labels');
      await expectInside(page, 'url-notice');
      await page.getByTestId('url-notice-dismiss').click();
      await expect(notice).toHaveCount(0);
    });

    test('the strips collapse so the globe grows, and the readout shows only with something under the pointer', async ({ page }) => {
      await open(page, '?lat=40&lng=-100&zoom=1.5&layers=shards');
      await expect(page.locator('.index-bar')).toBeAttached();
      const globe = page.locator('.globe-view');
      const readout = page.locator('.hover-readout');
      await expect(readout).toBeHidden();
      const toggle = page.getByTestId('strip-toggle-index');
      // Phones start with the strips collapsed; desktops with them open.
      const startsOpen = size.name === 'desktop';
      await expect(toggle).toHaveAttribute('aria-expanded', String(startsOpen));
      if (!startsOpen) {
        await expect(page.locator('.index-bar')).toBeHidden();
        await toggle.click();
        await page.getByTestId('strip-toggle-ribbon').click();
        await expect(page.locator('.index-bar')).toBeVisible();
        await expect(page.getByTestId('ribbon')).toBeVisible();
      }
      const before = (await globe.boundingBox())!.height;
      await toggle.click();
      await expect(page.locator('.index-bar')).toBeHidden();
      await page.getByTestId('strip-toggle-ribbon').click();
      await expect(page.getByTestId('ribbon')).toBeHidden();
      await expect.poll(async () => (await globe.boundingBox())!.height).toBeGreaterThan(before + 20);
      if (size.name === 'desktop') {
        const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await expect(readout).toBeVisible();
        await expect(page.getByTestId('hover-shard')).not.toHaveText('—');
      }
    });

    test('the tab, the Live switch, the filters, a picked candidate and its unsaved edits survive a reload, with a warning before leaving', async ({ page }) => {
      await open(page, '?layers=shards');
      await page.getByTestId('tab-live').click();
      await page.getByTestId('live-toggle').click();
      await expect.poll(() => params(page).get('tab')).toBe('live');
      await expect.poll(() => params(page).get('live')).toBe('1');
      await open(page, '?tab=live&live=1&diet=vegan&layers=shards');
      await expect(page.getByTestId('tab-live')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('live-toggle')).toHaveAttribute('aria-checked', 'true');
      expect(params(page).get('diet')).toBe('vegan');

      // A candidate started from the current file (as the picker would give one), then one boundary nudged.
      await page.getByTestId('tab-review').click();
      await expect(page.getByTestId('review-edit-current')).toBeEnabled();
      await page.getByTestId('review-edit-current').click();
      await expect.poll(() => params(page).get('review')).toBe('local');
      await page.getByTestId('review-boundary-select').selectOption('8');
      const before = await page.getByTestId('review-boundary-select').locator('option:checked').textContent();
      await page.getByTestId('review-nudge-1').click();
      await expect(page.getByTestId('review-boundary-select').locator('option:checked')).not.toHaveText(before!);
      const nudged = await page.getByTestId('review-boundary-select').locator('option:checked').textContent();

      let asked = '';
      page.once('dialog', (d) => {
        asked = d.type();
        void d.accept();
      });
      await page.reload();
      await page.waitForFunction(() => document.body.dataset.ready === 'true');
      expect(asked).toBe('beforeunload');
      await expect(page.getByTestId('tab-review')).toHaveAttribute('aria-selected', 'true');
      await expect(page.getByTestId('review-notice')).toContainText('restored the unsaved edits');
      await page.getByTestId('review-boundary-select').selectOption('8');
      await expect(page.getByTestId('review-boundary-select').locator('option:checked')).toHaveText(nudged!);
    });

    test('a candidate path that answers with the app page says the server returned HTML, not a boundary file', async ({ page }) => {
      // What a server with an SPA fallback (npm run dev) answers for a file it does not have: its own page.
      const html = await (await page.request.get('/')).text();
      await page.route('**/tmp/x.json', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: html }));
      await open(page, '?candidate=/tmp/x.json');
      const errors = page.getByTestId('review-errors');
      await expect(errors).toContainText('the server returned HTML, not a boundary file');
      await expect(errors).toContainText('npx geoshard review --candidate FILE');
      await expect(errors).not.toContainText('Unexpected token');
      await expect(errors).toBeInViewport();
    });

    test('the tour walks its steps forward and back, and can be left at any step', async ({ page }) => {
      const ny = gold('New York', '50mi');
      await open(page);
      await page.getByTestId('tour-start').click();
      for (let n = 1; n <= TOUR_STEPS.length; n++) {
        const step = TOUR_STEPS[n - 1];
        await expect(page.getByTestId('tour-count')).toHaveText(`Tour · step ${n} of ${TOUR_STEPS.length}`);
        await expect(page.getByTestId('tour-title')).toHaveText(step.title);
        // The card sits at one place for every step (styles.css): checked once, not per step (each check costs frames).
        if (n === 1) await expect(page.getByTestId('tour-card')).toBeInViewport();
        await expect.poll(() => params(page).get('tour')).toBe(String(n));
        expect(params(page).has('spin')).toBe(false);
        if (step.id === 'k-of-n') {
          await expect(page.getByTestId('routing')).toHaveText(ny.routing);
          const [k, total] = ny.shardCount.split(' / ');
          await expect(page.getByTestId('tour-text')).toContainText(`asks ${k} of ${total} shards`);
        }
        if (step.live) await expect(page.locator('.tour-note')).not.toContainText('Asking');
        if (n < TOUR_STEPS.length) await page.getByTestId('tour-next').click();
      }
      await page.getByTestId('tour-back').click();
      await expect.poll(() => params(page).get('tour')).toBe(String(TOUR_STEPS.length - 1));
      await page.getByTestId('tour-skip').click();
      await expect(page.getByTestId('tour-card')).toHaveCount(0);
      expect(params(page).has('tour')).toBe(false);
    });

    test('a tour step opened by its link shows the same state as the walk', async ({ page }) => {
      const ny = gold('New York', '50mi');
      await open(page, `?tour=4&${TOUR_STEPS[3].query}`);
      await expect(page.getByTestId('tour-title')).toHaveText(TOUR_STEPS[3].title);
      await expect(page.getByTestId('tour-text')).toContainText(`routing=${ny.routing}`);
      await expect(page.getByTestId('layer-spin')).toHaveAttribute('aria-pressed', 'false');
    });
  });
}

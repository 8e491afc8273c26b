/**
 * Legibility (issue 11) at a desktop and a phone size: city labels, the basemap at city zoom, the
 * hover readout after the view moves, the routing string's line breaks, the circle at the pole
 * and shard names on hover. Expected values come from the routing core, view.ts's math and the
 * page's geometry (boxes measured here), never from the page's own verdicts.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, CELL_COUNT } from '../src/core/index.ts';
import { unprojectScreen, type ViewGeometry } from '../src/app/globe/view.ts';
import { openExplorer } from './explorer.ts';

const router = new Router(JSON.parse(readFileSync(fileURLToPath(new URL('../data/boundaries.json', import.meta.url)), 'utf8')));
const SF = { lat: 37.7749, lng: -122.4194 };

type Box = [number, number, number, number];
const overlaps = (a: Box, b: Box) => a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1];

const open = async (page: Page, query: string): Promise<void> => void (await openExplorer(page, query));

/** The labels the overlay shows once they have settled (the same placement twice in a row), with the panels' boxes, all in canvas CSS px. */
async function settledLabels(page: Page) {
  let last = '';
  await expect
    .poll(async () => {
      const now = await page.evaluate(() => (document.querySelector('.globe-labels') as HTMLElement).dataset.labels ?? '');
      const same = now !== '' && now !== '[]' && now === last;
      last = now;
      return same;
    })
    .toBe(true);
  return page.evaluate(() => {
    const canvas = document.querySelector('.globe-labels') as HTMLCanvasElement;
    const c = canvas.getBoundingClientRect();
    const panels = [...document.querySelectorAll('.globe-view .overlay > *')]
      .map((el) => el.getBoundingClientRect())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => [r.left - c.left, r.top - c.top, r.right - c.left, r.bottom - c.top]);
    return {
      labels: JSON.parse(canvas.dataset.labels!) as [string, number, number, number, number, number, number][],
      dots: JSON.parse(canvas.dataset.dots!) as [number, number][],
      panels: panels as [number, number, number, number][],
      size: [c.width, c.height],
    };
  });
}

for (const size of [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`at ${size.width}×${size.height}`, () => {
    test.use({ viewport: size });

    for (const [layout, query] of [
      ['the globe', '?lat=39&lng=-96&zoom=3&level=5&layers=shards,land,labels'],
      ['the map', '?lat=39&lng=-96&zoom=1&level=5&layers=shards,labels&flatten=map'],
      ['the cube net', '?lat=39&lng=-96&zoom=1&level=5&layers=shards,labels&flatten=net'],
    ]) {
      test(`places each city label beside its own dot, clear of other labels, other dots and the panels, on ${layout}`, async ({ page }) => {
        await open(page, query);
        const { labels, dots, panels, size: [w, h] } = await settledLabels(page);
        expect(labels.length).toBeGreaterThan(2);
        const faults: string[] = [];
        for (const [name, x, y, ...rest] of labels) {
          const box = rest as Box;
          if (box[0] < -0.5 || box[1] < -0.5 || box[2] > w + 0.5 || box[3] > h + 0.5) faults.push(`${name} leaves the canvas`);
          if (Math.hypot(Math.max(box[0] - x, 0, x - box[2]), Math.max(box[1] - y, 0, y - box[3])) > 8) faults.push(`${name} is away from its dot`);
          for (const p of panels) if (overlaps(box, p)) faults.push(`${name} runs under a panel at ${p.map(Math.round)}`);
          for (const [other, , , ...b] of labels) if (other !== name && overlaps(box, b as Box)) faults.push(`${name} overlaps ${other}`);
          for (const [dx, dy] of dots) {
            const own = Math.abs(dx - x) < 0.2 && Math.abs(dy - y) < 0.2;
            if (!own && dx > box[0] - 2 && dx < box[2] + 2 && dy > box[1] - 2 && dy < box[3] + 2) faults.push(`a dot at ${dx},${dy} sits on ${name}`);
          }
        }
        expect(faults).toEqual([]);
        // No two drawn dots are on top of each other (crowded places thin out instead of becoming a
        // blob): 5 px apart at least (7 for a new dot, 5 for one kept from the last frame).
        for (let i = 0; i < dots.length; i++) for (let j = i + 1; j < dots.length; j++) expect(Math.hypot(dots[i][0] - dots[j][0], dots[i][1] - dots[j][1])).toBeGreaterThanOrEqual(4.9);
      });
    }

    test('keeps the labels it shows while the globe spins', async ({ page }) => {
      // No lat/lng: a link that names a place opens still (issue 11); this view spins as the bare first screen does.
      await open(page, '?zoom=2&level=5&layers=shards,labels,spin');
      await expect.poll(() => page.evaluate(() => JSON.parse((document.querySelector('.globe-labels') as HTMLElement).dataset.labels ?? '[]').length)).toBeGreaterThan(2);
      const a = JSON.parse(await page.evaluate(() => (document.querySelector('.globe-labels') as HTMLElement).dataset.labels!)) as [string, number, number][];
      // Wait until the view has turned (the labels moved), then compare the sets.
      await expect.poll(() => page.evaluate((prev) => (document.querySelector('.globe-labels') as HTMLElement).dataset.labels !== prev, JSON.stringify(a))).toBe(true);
      const b = JSON.parse(await page.evaluate(() => (document.querySelector('.globe-labels') as HTMLElement).dataset.labels!)) as [string, number, number][];
      const shownB = new Set(b.map((l) => l[0]));
      // Cities away from the globe's edge in the first sample are still labelled in the second.
      const inner = a.filter(([, x, y]) => x > 60 && y > 60 && x < size.width - 60 && y < size.height - 260);
      const kept = inner.filter(([name]) => shownB.has(name));
      expect(kept.length, `kept ${kept.map((l) => l[0])} of ${inner.map((l) => l[0])}`).toBeGreaterThanOrEqual(Math.floor(0.8 * inner.length));
    });

    test('loads the 1:10m outlines only when zoomed in, and draws them around San Francisco', async ({ page }) => {
      const asked: string[] = [];
      page.on('request', (r) => asked.push(new URL(r.url()).pathname));
      await open(page, '?lat=37.7749&lng=-122.4194&zoom=1&level=5&layers=shards,land,labels');
      await page.waitForFunction(() => (document.body.dataset.loaded ?? '').includes('land'));
      expect(asked.filter((p) => /land-10m|states-10m|countries-50m/.test(p))).toEqual([]);
      await page.goto('/?lat=37.7749&lng=-122.4194&zoom=60&level=10&layers=shards,land,labels');
      await page.waitForFunction(() => (document.body.dataset.loaded ?? '').split(' ').includes('detail'));
      expect(asked.some((p) => /land-10m/.test(p))).toBe(true);
      expect(asked.some((p) => /states-10m/.test(p))).toBe(true);
    });

    test('recomputes the hover readout under a still pointer after a glide and after a wheel zoom', async ({ page }) => {
      await open(page, `?lat=${SF.lat}&lng=${SF.lng}&zoom=40&level=10&layers=shards`);
      const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
      // Whole CSS pixels: Chromium delivers mouse events at integer client coordinates.
      const [px, py] = [Math.round(box.x + box.width / 2 + Math.min(120, box.width / 4)) - box.x, Math.round(box.y + box.height / 2 - 60) - box.y];
      const v: ViewGeometry = { ...SF, zoom: 40, morph: 0, flat: 'map', mapLat: SF.lat, net: [0, 0], width: box.width, height: box.height };
      const target = unprojectScreen(v, px, py)!;
      await page.mouse.move(box.x + px, box.y + py);
      await expect(page.getByTestId('hover-token')).toHaveText(router.route(target.lat, target.lng).token);
      await page.mouse.dblclick(box.x + px, box.y + py);
      // After the glide the pointer's pixel shows the point that far from the new centre.
      const after = unprojectScreen({ ...v, lat: target.lat, lng: target.lng, mapLat: target.lat }, px, py)!;
      await expect(page.getByTestId('hover-token')).toHaveText(router.route(after.lat, after.lng).token);
      await expect.poll(() => Math.hypot(Number(new URL(page.url()).searchParams.get('lat')) - target.lat, Number(new URL(page.url()).searchParams.get('lng')) - target.lng)).toBeLessThan(0.001);
      // A wheel zoom is no animation, yet the readout follows it.
      const before = await page.getByTestId('hover-latlng').textContent();
      await page.mouse.wheel(0, -300);
      await expect(page.getByTestId('hover-latlng')).not.toHaveText(before!);
    });

    test('breaks the no-location routing string only at commas', async ({ page }) => {
      await open(page, `?lat=${SF.lat}&lng=${SF.lng}&radius=15mi&location=none`);
      const routing = page.getByTestId('routing');
      await expect(routing).toHaveText(router.shards.map((s) => s.name).join(','));
      await routing.scrollIntoViewIfNeeded();
      // Every name sits on one line: its characters' boxes share one top.
      const split = await routing.evaluate((el) => {
        const text = el.textContent!;
        const broken: string[] = [];
        let from = 0;
        for (const name of text.split(',')) {
          const tops = new Set<number>();
          for (let i = from; i < from + name.length; i++) {
            const range = document.createRange();
            let at = i;
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
              if (at < n.textContent!.length) {
                range.setStart(n, at);
                range.setEnd(n, at + 1);
                break;
              }
              at -= n.textContent!.length;
            }
            for (const r of range.getClientRects()) tops.add(Math.round(r.top));
          }
          if (tops.size !== 1) broken.push(`${name} on ${tops.size} lines`);
          from += name.length + 1;
        }
        return broken;
      });
      expect(split).toEqual([]);
    });

    test('draws the search circle at exactly the north pole as a circle', async ({ page }) => {
      await open(page, '?lat=90&lng=0&radius=200mi&layers=shards');
      await expect(page.locator('.search-result')).toHaveAttribute('data-state', 'ready');
      const pin = (await page.getByTestId('search-pin').boundingBox())!;
      const canvas = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
      const centre = [pin.x + pin.width / 2 - canvas.x, pin.y + pin.height / 2 - canvas.y];
      await expect
        .poll(async () => {
          // The circle's near-white pixels: their distance from the pin is one radius all round.
          const r = await page.evaluate(([cx, cy]) => {
            const c = document.querySelector('.globe-canvas canvas:not(.globe-labels)') as HTMLCanvasElement;
            const copy = document.createElement('canvas');
            [copy.width, copy.height] = [c.width, c.height];
            const ctx = copy.getContext('2d')!;
            ctx.drawImage(c, 0, 0);
            const d = ctx.getImageData(0, 0, c.width, c.height).data;
            const k = c.width / c.clientWidth;
            const dist: number[] = [];
            const quadrants = new Set<number>();
            for (let i = 0; i < d.length; i += 4) {
              if (d[i] < 235 || d[i + 1] < 235 || d[i + 2] < 235) continue;
              const x = ((i / 4) % c.width) / k - cx;
              const y = Math.floor(i / 4 / c.width) / k - cy;
              if (Math.hypot(x, y) < 12) continue; // the pin
              dist.push(Math.hypot(x, y));
              quadrants.add((x > 0 ? 1 : 0) + (y > 0 ? 2 : 0));
            }
            dist.sort((a, b) => a - b);
            return { n: dist.length, quadrants: quadrants.size, lo: dist[Math.floor(dist.length * 0.05)], hi: dist[Math.floor(dist.length * 0.95)] };
          }, centre);
          return r.n > 100 && r.quadrants === 4 && (r.hi - r.lo) / r.hi < 0.08;
        })
        .toBe(true);
    });

    test('names the shard wherever its colour shows: index bar, result bar and ribbon', async ({ page }) => {
      await open(page, `?lat=${SF.lat}&lng=${SF.lng}&zoom=1&layers=shards`);
      // Phones open with the strips collapsed (issue 11): open the two this test hovers.
      for (const id of ['index', 'ribbon']) {
        const toggle = page.getByTestId(`strip-toggle-${id}`);
        if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
      }
      const shard = router.shards[3];
      await page.getByTestId(`segment-${shard.name}`).hover();
      await expect(page.getByTestId('index-bar-tip')).toBeVisible();
      await expect(page.getByTestId('index-bar-tip')).toHaveText(shard.name);
      // The ribbon: hovering the middle of the widest shard's range names that shard in the ribbon's tip.
      const sizes = router.shards.map((_, i) => router.starts[i + 1] - router.starts[i]);
      const widest = sizes.indexOf(Math.max(...sizes));
      const strip = page.getByTestId('ribbon-canvas-all');
      await strip.scrollIntoViewIfNeeded();
      const b = (await strip.boundingBox())!;
      const mid = (router.starts[widest] + sizes[widest] / 2) / CELL_COUNT;
      await page.mouse.move(b.x + mid * b.width, b.y + b.height / 2);
      await expect(page.locator('.ribbon-tip').first()).toContainText(router.shards[widest].name);
    });
  });
}

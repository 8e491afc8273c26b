/**
 * The shard globe in Debian's Chromium with software WebGL. Expected values come from the
 * routing core and data/boundaries.json (read here), never from the page.
 */
import { test, expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Router, ordinalAt, CELL_COUNT } from '../src/core/index.ts';
import { shardColor, toBytes } from '../src/app/shell/palette.ts';
import { unprojectScreen, projectLatLng, clampFlatCentre, type ViewGeometry } from '../src/app/globe/view.ts';
import { openExplorer } from './explorer.ts';

const router = new Router(JSON.parse(readFileSync(fileURLToPath(new URL('../data/boundaries.json', import.meta.url)), 'utf8')));
const SF = { lat: 37.7749, lng: -122.4194 };
const SF_VIEW = `?lat=${SF.lat}&lng=${SF.lng}&zoom=40&level=10`;

const open = (page: Page, query: string): Promise<string[]> => openExplorer(page, query, { consoleErrors: true });

interface Pixels {
  width: number;
  height: number;
  data: Buffer;
  /** The canvas's CSS box when the pixels were read (same task as the read). */
  css: { width: number; height: number };
}

/**
 * Reads the pixels of a canvas (the WebGL one by default) as RGBA bytes, with the canvas's CSS
 * size measured in the same task. It first waits until the drawing buffer has kept one size, in
 * proportion to the CSS box, for several animation frames: right after a layout change the
 * element has its new CSS size while the buffer still holds a frame drawn at the old one (the
 * renderer resizes on the next frame), and comparing those two mismatched the view geometry
 * under load (issue 10: the Bay Area test read the top rows as cells far to the north).
 */
async function pixels(page: Page, selector = '.globe-canvas canvas:not(.globe-labels)'): Promise<Pixels> {
  const r = await page.evaluate(async (sel) => {
    const c = document.querySelector(sel) as HTMLCanvasElement;
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const size = () => {
      const b = c.getBoundingClientRect();
      return { w: c.width, h: c.height, cw: b.width, ch: b.height };
    };
    // In proportion: the buffer's aspect equals the box's within a pixel.
    const settled = (s: ReturnType<typeof size>) => s.cw > 0 && s.ch > 0 && Math.abs(s.w / s.cw - s.h / s.ch) * Math.max(s.cw, s.ch) < 1.5;
    let last = size();
    for (let stable = 0, tries = 0; stable < 4 && tries < 600; tries++) {
      await frame();
      const now = size();
      stable = settled(now) && now.w === last.w && now.h === last.h && now.cw === last.cw && now.ch === last.ch ? stable + 1 : 0;
      last = now;
    }
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(c, 0, 0);
    const box = c.getBoundingClientRect();
    const bytes = ctx.getImageData(0, 0, c.width, c.height).data;
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: c.width, height: c.height, b64: btoa(s), css: { width: box.width, height: box.height } };
  }, selector);
  return { width: r.width, height: r.height, data: Buffer.from(r.b64, 'base64'), css: r.css };
}

const at = (p: Pixels, x: number, y: number) => Array.from(p.data.subarray(4 * (y * p.width + x), 4 * (y * p.width + x) + 3));
const centre = (p: Pixels) => at(p, Math.floor(p.width / 2), Math.floor(p.height / 2));

/**
 * Keeps a copy of a canvas's pixels in the page, and measures later how many pixels differ from
 * it (by more than 8 in some channel), without moving the images out of the page.
 */
async function keep(page: Page, selector = '.globe-canvas canvas:not(.globe-labels)'): Promise<() => Promise<number>> {
  const read = (sel: string) => {
    const c = document.querySelector(sel) as HTMLCanvasElement;
    const copy = document.createElement('canvas');
    copy.width = c.width;
    copy.height = c.height;
    const ctx = copy.getContext('2d')!;
    ctx.drawImage(c, 0, 0);
    return ctx.getImageData(0, 0, c.width, c.height).data;
  };
  const key = `snap${Math.random().toString(36).slice(2)}`;
  await page.evaluate(([sel, k, fn]) => {
    (window as unknown as Record<string, unknown>)[k] = new Function(`return (${fn})`)()(sel);
  }, [selector, key, read.toString()] as const);
  return () =>
    page.evaluate(([sel, k, fn]) => {
      const a = (window as unknown as Record<string, Uint8ClampedArray>)[k];
      const b = new Function(`return (${fn})`)()(sel) as Uint8ClampedArray;
      let n = 0;
      for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) > 8 || Math.abs(a[i + 1] - b[i + 1]) > 8 || Math.abs(a[i + 2] - b[i + 2]) > 8) n++;
      return n / (a.length / 4);
    }, [selector, key, read.toString()] as const);
}

const sfShard = router.route(SF.lat, SF.lng);
const colorOf = (index: number) => toBytes(shardColor(index));
const nearestShard = (rgb: number[]) => {
  let best = -1;
  let bestD = Infinity;
  for (let i = 0; i < router.numberOfShards; i++) {
    const c = colorOf(i);
    const d = Math.hypot(c[0] - rgb[0], c[1] - rgb[1], c[2] - rgb[2]);
    if (d < bestD) [best, bestD] = [i, d];
  }
  return { index: best, distance: bestD };
};

test('loads the bundled boundary file and draws without console errors', async ({ page }) => {
  const errors = await open(page, '');
  await expect(page.getByTestId('file-info')).toContainText(`${router.numberOfShards} shards`);
  await expect(page.getByTestId('level-readout')).toHaveText('drawn at L4 · 1,536 cells');
  await expect(page.getByTestId('index-bar').getByRole('button')).toHaveCount(router.numberOfShards);
  await page.waitForTimeout(1500);
  expect(errors).toEqual([]);
});

test('colours the pixel at the centre of a view of San Francisco with the colour of the shard that owns its cell', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards`);
  const rgb = centre(await pixels(page));
  const expected = colorOf(sfShard.index);
  for (let k = 0; k < 3; k++) expect(Math.abs(rgb[k] - expected[k]), `channel ${k} of ${rgb} vs ${expected}`).toBeLessThanOrEqual(2);
  expect(nearestShard(rgb).index).toBe(sfShard.index);
});

test('shows token 808581, its shard and OpenSearch shard number with the mouse at the centre of the canvas', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards,grid`);
  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('hover-token')).toHaveText('808581');
  await expect(page.getByTestId('hover-shard')).toHaveText(sfShard.name);
  await expect(page.getByTestId('hover-shard-number')).toHaveText(`${sfShard.shard} of ${router.numberOfShards}`);
  await expect(page.getByTestId('hover-face')).toHaveText('4');
  // The ribbon marks the same point: its marker sits at the ordinal's share of the strip.
  const marker = page.getByTestId('ribbon-marker-all');
  await expect(marker).toBeVisible();
  const strip = (await page.getByTestId('ribbon-canvas-all').boundingBox())!;
  const m = (await marker.boundingBox())!;
  expect(Math.abs(m.x + m.width / 2 - (strip.x + (ordinalAt(SF.lat, SF.lng) / CELL_COUNT) * strip.width))).toBeLessThan(2);
});

test('updates the level readout and the link when the level changes', async ({ page }) => {
  await open(page, '?layers=shards,grid');
  await page.getByTestId('level-input').fill('6');
  await expect(page.getByTestId('level-readout')).toHaveText(`drawn at L6 · ${(6 * 4 ** 6).toLocaleString('en-US')} cells`);
  await page.getByRole('button', { name: 'Finer level' }).click();
  await expect(page.getByTestId('level-readout')).toHaveText('drawn at L7 · 98,304 cells');
  await expect(page).toHaveURL(/[?&]level=7(&|$)/);
});

test('changes the picture when each layer is toggled, and restores it when toggled back', async ({ page }) => {
  test.slow(); // several redraws, each hundreds of ms in software WebGL
  await open(page, '?lat=40&lng=-100&zoom=1.2&level=5&layers=shards,grid,land,labels');
  // Coastlines and cities arrive after the first frame.
  await page.waitForFunction(() => /cities.*land/.test(document.body.dataset.loaded ?? ''));
  for (const layer of ['shards', 'grid', 'land', 'hilbert']) {
    const diff = await keep(page);
    await page.getByTestId(`layer-${layer}`).click();
    await expect.poll(diff, { message: `toggling ${layer}` }).toBeGreaterThan(0.01);
    await page.getByTestId(`layer-${layer}`).click();
    await expect.poll(diff, { message: `toggling ${layer} back` }).toBeLessThan(0.001);
  }
  const labels = await keep(page, '.globe-labels');
  await page.getByTestId('layer-labels').click();
  await expect.poll(labels).toBeGreaterThan(0.001);
});

test('flattens into the map and the cube net and back, keeping the point at the centre', async ({ page }) => {
  test.slow(); // several redraws, each hundreds of ms in software WebGL
  await open(page, `${SF_VIEW}&layers=shards`);
  const globe = centre(await pixels(page));
  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  for (const mode of ['map', 'net'] as const) {
    await page.getByTestId(`flatten-${mode}`).click();
    await page.waitForFunction((m) => document.body.dataset.view === m, mode);
    await expect(page).toHaveURL(new RegExp(`flatten=${mode}`));
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await expect(page.getByTestId('hover-token')).toHaveText('808581');
    await page.mouse.move(box.x + 2, box.y + 2);
  }
  await page.getByTestId('flatten-globe').click();
  await page.waitForFunction(() => document.body.dataset.view === 'globe');
  expect(centre(await pixels(page))).toEqual(globe);
  await expect(page).not.toHaveURL(/flatten=/);
});

test('zooms with the buttons and the wheel and shows the zoom as a percentage', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards`);
  await expect(page.getByTestId('zoom-readout')).toHaveText('4,000%');
  await page.getByTestId('zoom-in').click();
  await expect(page.getByTestId('zoom-readout')).toHaveText('6,000%');
  await page.getByTestId('zoom-out').click();
  await page.getByTestId('zoom-out').click();
  await expect(page.getByTestId('zoom-readout')).toHaveText('2,667%');
  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(async () => Number((await page.getByTestId('zoom-readout').textContent())!.replace(/[,%]/g, ''))).toBeGreaterThan(2667);
  await expect.poll(() => Number(new URL(page.url()).searchParams.get('zoom'))).toBeGreaterThan(26.67);
});

test('glides to centre the point that is double-clicked', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards`);
  const box = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  const v: ViewGeometry = { ...SF, zoom: 40, morph: 0, flat: 'map', mapLat: SF.lat, net: [0, 0], width: box.width, height: box.height };
  // A whole CSS pixel: Chromium delivers mouse events at integer client coordinates, so a click at
  // half a pixel (an odd canvas height) would land half a pixel away from the point it aims at.
  const [x, y] = [Math.round(box.x + box.width / 2 + 150), Math.round(box.y + box.height / 2 - 80)];
  const target = unprojectScreen(v, x - box.x, y - box.y)!;
  await page.mouse.dblclick(x, y);
  await expect
    .poll(() => {
      const q = new URL(page.url()).searchParams;
      return Math.hypot(Number(q.get('lat')) - target.lat, Number(q.get('lng')) - target.lng);
    })
    .toBeLessThan(0.001);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page.getByTestId('hover-token')).toHaveText(router.route(target.lat, target.lng).token);
});

test('highlights a shard on the globe while its index-bar segment is hovered', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards`);
  const own = centre(await pixels(page));
  const other = router.shards.find((s) => s.index !== sfShard.index)!;
  await page.getByTestId(`segment-${other.name}`).hover();
  await expect.poll(async () => nearestShard(centre(await pixels(page))).distance).toBeGreaterThan(40);
  await page.getByTestId(`segment-${sfShard.name}`).hover();
  await expect.poll(async () => centre(await pixels(page))).toEqual(own);
});

test('brushing the ribbon highlights that stretch of the curve on the globe', async ({ page }) => {
  test.slow(); // several redraws, each hundreds of ms in software WebGL
  await open(page, '?lat=40&lng=-100&zoom=1&level=4&layers=shards');
  const before = await pixels(page);
  const diff = await keep(page);
  const strip = (await page.getByTestId('ribbon-canvas-all').boundingBox())!;
  const sfX = strip.x + (ordinalAt(SF.lat, SF.lng) / CELL_COUNT) * strip.width;
  await page.mouse.move(sfX - 15, strip.y + 30);
  await page.mouse.down();
  await page.mouse.move(sfX + 15, strip.y + 30, { steps: 5 });
  await page.mouse.up();
  await page.mouse.move(strip.x + strip.width / 2, strip.y - 200); // off the ribbon: no shard highlighted
  await expect(page.getByTestId('ribbon-clear')).toBeVisible();
  // Most of the globe lies outside the stretch and fades; San Francisco lies inside and keeps its colour.
  await expect.poll(diff).toBeGreaterThan(0.2);
  const css = (await page.locator('.globe-canvas canvas').first().boundingBox())!;
  const sfPx = projectLatLng({ lat: 40, lng: -100, zoom: 1, morph: 0, flat: 'map', mapLat: 40, net: [0, 0], width: css.width, height: css.height }, SF.lat, SF.lng);
  const [x, y] = [Math.floor(sfPx.x), Math.floor(sfPx.y)];
  const after = await pixels(page);
  for (let k = 0; k < 3; k++) expect(Math.abs(at(after, x, y)[k] - at(before, x, y)[k])).toBeLessThanOrEqual(2);
  await page.getByTestId('ribbon-clear').click();
  await expect.poll(diff).toBeLessThan(0.001);
});

/** Reads the shader's level-10 ordinals (debug=ordinal) and compares them with the core at every 5th pixel. */
async function checkOrdinals(page: Page, query: string | null, view: Omit<ViewGeometry, 'width' | 'height' | 'mapLat' | 'net'>) {
  if (query !== null) await open(page, `${query}&layers=shards&debug=ordinal`);
  const p = await pixels(page);
  const css = p.css;
  const v: ViewGeometry = { ...view, width: css.width, height: css.height, mapLat: view.lat, net: [0, 0] };
  if (v.morph === 1) v.mapLat = clampFlatCentre(v, view.lat, [0, 0]).mapLat;
  // Pixel (x, y) of the drawing buffer has its centre at CSS ((x + 0.5)·sx, (y + 0.5)·sy).
  const sx = css.width / p.width;
  const sy = css.height / p.height;
  const pointAt = (x: number, y: number) => unprojectScreen(v, x * sx, y * sy);
  const ordinalAtPoint = (x: number, y: number) => {
    const ll = pointAt(x, y);
    return ll ? ordinalAt(ll.lat, ll.lng) : null;
  };
  const ordinalAtPixel = (x: number, y: number) => ordinalAtPoint(x + 0.5, y + 0.5);
  let checked = 0;
  let edge = 0;
  const off: string[] = [];
  for (let y = 2; y < p.height - 2; y += 5) {
    for (let x = 2; x < p.width - 2; x += 5) {
      const expected = ordinalAtPixel(x, y);
      // Skip pixels off the surface or on its anti-aliased rim.
      if (expected === null || [[-2, 0], [2, 0], [0, -2], [0, 2]].some(([dx, dy]) => ordinalAtPixel(x + dx, y + dy) === null)) continue;
      const [r, g, b] = at(p, x, y);
      const got = (r << 16) | (g << 8) | b;
      checked++;
      if (got === expected) continue;
      // The GPU computes in float32 (and the map needs its sin and cos), so a pixel centre right
      // at a cell edge may land in the neighbouring cell. Accept that, and only that: some point
      // within 1/20 of a pixel of the centre must lie in the shader's cell.
      const near = [-0.05, -0.025, 0, 0.025, 0.05];
      if (near.some((dx) => near.some((dy) => ordinalAtPoint(x + 0.5 + dx, y + 0.5 + dy) === got))) edge++;
      else off.push(`(${x},${y}): shader ${got}, core ${expected}`);
    }
  }
  expect(checked).toBeGreaterThan(2000);
  expect(off.slice(0, 10)).toEqual([]);
  expect(edge / checked).toBeLessThan(0.02);
}

test('computes the same level-10 cell as the core at thousands of pixels of the whole globe', async ({ page }) => {
  await checkOrdinals(page, '?lat=30&lng=-60&zoom=1&level=4', { lat: 30, lng: -60, zoom: 1, morph: 0, flat: 'map' });
});

test('computes the same level-10 cell as the core at thousands of pixels zoomed in on the Bay Area', async ({ page }) => {
  await checkOrdinals(page, SF_VIEW, { ...SF, zoom: 40, morph: 0, flat: 'map' });
});

test('computes the same level-10 cell as the core at thousands of pixels right after the window is resized', async ({ page }) => {
  await open(page, `${SF_VIEW}&layers=shards&debug=ordinal`);
  // The element takes its new size at once; the drawing buffer only at the renderer's next frame.
  await page.setViewportSize({ width: 1100, height: 700 });
  await checkOrdinals(page, null, { ...SF, zoom: 40, morph: 0, flat: 'map' });
});

test('computes the same level-10 cell as the core at thousands of pixels of the flat map', async ({ page }) => {
  await checkOrdinals(page, '?lat=20&lng=10&zoom=1&level=4&flatten=map', { lat: 20, lng: 10, zoom: 1, morph: 1, flat: 'map' });
});

test('computes the same level-10 cell as the core at thousands of pixels of the map zoomed in on the Bay Area', async ({ page }) => {
  await checkOrdinals(page, `${SF_VIEW}&flatten=map`, { ...SF, zoom: 40, morph: 1, flat: 'map' });
});

import { describe, it, expect } from 'vitest';
import { visibleBbox, startFanout, detailStepDeg, WORLD_STEP_DEG } from './fanoutLayer';
import { createFanoutApi } from './fanoutWorker';
import { createCoveringApi } from '../globe/coveringWorker';
import { portWorker } from '../shell/worker.testing';
import { createAppStore } from '../shell/store';
import { Router, cellAt, cellOrdinal, KM_PER_MILE, parseCellsCsv } from '../../core/index';
import { gridWidthDeg } from '../../core/fanoutGrid';
import type { CellsData } from '../shell/dataSlice';
import { fileWithCuts, expectedGridCounts } from '../../core/testutil';
import type { ViewGeometry } from '../globe/view';

const view = (lat: number, lng: number, zoom: number): ViewGeometry => ({ lat, lng, zoom, morph: 0, flat: 'map', mapLat: lat, net: [0, 0], width: 900, height: 600 });

describe('fan-out layer: the visible box', () => {
  it('is null while the whole globe or the whole map is in view, where the world grid serves', () => {
    expect(visibleBbox(view(40, -74, 1))).toBeNull();
    expect(visibleBbox({ ...view(0, 0, 1), morph: 1, flat: 'map' })).toBeNull();
  });

  it('refines at country zoom even while the rim of the globe shows in the corners (2° world pixels are too coarse there)', () => {
    // Zoom 2 on 900 × 600: the globe's radius (528 px) is under the half-diagonal (541 px), so the corners are off the globe.
    const v = view(39, -98, 2);
    const b = visibleBbox(v)!;
    expect(b).not.toBeNull();
    // The contiguous US is in the box (which may cross the antimeridian: west > east), and the view asks for finer pixels than the world grid's.
    const inBox = (lat: number, lng: number) => lat >= b.south && lat <= b.north && (((lng - b.west) % 360) + 360) % 360 <= gridWidthDeg(b);
    for (const [lat, lng] of [[25, -125], [49, -125], [25, -67], [49, -67], [39, -98]]) expect(inBox(lat, lng), `${lat}, ${lng} in ${JSON.stringify(b)}`).toBe(true);
    expect(inBox(39, 60)).toBe(false);
    expect(detailStepDeg(v)).toBeLessThan(WORLD_STEP_DEG / 2);
  });

  it('refines the flat map when zoomed in, instead of falling back to the world grid', () => {
    const v: ViewGeometry = { ...view(40, -100, 4), morph: 1, flat: 'map', mapLat: 40 };
    const b = visibleBbox(v)!;
    expect(b).not.toBeNull();
    expect(b.west).toBeLessThan(-100);
    expect(b.east).toBeGreaterThan(-100);
    expect(b.south).toBeLessThan(40);
    expect(b.north).toBeGreaterThan(40);
    expect(gridWidthDeg(b)).toBeLessThan(120);
  });

  it('spans every longitude up to the pole when a pole is in view', () => {
    const b = visibleBbox(view(85, 10, 4))!;
    expect(b).toEqual({ west: -180, east: 180, south: expect.any(Number), north: 90 });
    expect(b.south).toBeGreaterThan(50);
  });

  it('contains the view when zoomed in, a little padded', () => {
    const b = visibleBbox(view(40.7143, -74.006, 200))!;
    expect(b.south).toBeLessThan(40.7143);
    expect(b.north).toBeGreaterThan(40.7143);
    expect(b.west).toBeLessThan(-74.006);
    expect(b.east).toBeGreaterThan(-74.006);
    expect(b.north - b.south).toBeLessThan(1);
  });

  it('crosses the antimeridian with west > east when the view does', () => {
    const b = visibleBbox(view(0, 179.99, 1000))!;
    expect(b.west).toBeGreaterThan(b.east);
    expect(b.west).toBeGreaterThan(179.5);
    expect(b.east).toBeLessThan(-179.5);
  });
});

/** Worker doubles: the real worker APIs served with comlink over MessageChannels. */
const fanoutWorker = () => portWorker(createFanoutApi());
const coveringWorker = () => portWorker(createCoveringApi());
/** The shared cells columns, as the geometry worker parses them (the core's parseCellsCsv). */
const cellsColumns = async (): Promise<CellsData> => {
  const cells = parseCellsCsv('token,restaurants,dishes\n89c259,120,9000\n89c25b,3,200\n', 'cells');
  const restaurants = Float64Array.from(cells, (c) => c.restaurants);
  const dishes = Float64Array.from(cells, (c) => c.dishes);
  return { tokens: cells.map((c) => c.token).join(','), ordinals: Int32Array.from(cells, (c) => c.ordinal), restaurants, dishes, weights: restaurants.map((r, k) => r + dishes[k]) };
};

const until = async (ok: () => boolean, ms = 20_000) => {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('fan-out layer: requests', () => {

  it('computes the world grid, the view grid and the share for the radius, and keeps the world grid when the view moves meanwhile', async () => {
    const ny = cellOrdinal(cellAt(40.7143, -74.006));
    const file = fileWithCuts([ny - 40, ny + 3]);
    const store = createAppStore();
    Object.assign(store.getState().frame.view, view(40.7143, -74.006, 300));
    store.getState().setBoundaries(file, new Router(file), 'test');
    store.getState().setSearchRadius(15, 'mi');
    const stop = startFanout(store, fanoutWorker, coveringWorker, cellsColumns);
    let changes = 0;
    const fanoutState = () => store.getState().fanoutLayer;
    const unsub = store.subscribe((s, p) => void (s.fanoutLayer !== p.fanoutLayer && changes++));
    store.getState().setFanout(true);
    // Move the view while the world grid is computing: the world grid must still arrive.
    await until(() => fanoutState().busy === 'world');
    store.getState().setCamera(40.72, -74.0);
    await until(() => !!fanoutState().world && !!fanoutState().detail && !!fanoutState().share && fanoutState().busy === '');
    const f = fanoutState();
    expect(f.radiusKm).toBeCloseTo(15 * KM_PER_MILE, 9);
    expect(f.world!.grid.cols * f.world!.grid.rows).toBe(f.world!.counts.length);
    expect(f.detail!.grid.south).toBeLessThan(40.7143);
    expect(f.share!.weightTotal).toBe(123);
    // The detail grid straddles the cuts around New York: some pixels ask more than one shard.
    expect(f.detail!.pixels[1] + f.detail!.pixels[2] + f.detail!.pixels[3]).toBeGreaterThan(0);
    expect(changes).toBeGreaterThan(3);
    store.getState().setFanout(false);
    expect(fanoutState().world).toBeNull();
    unsub();
    stop();
  });

  it('follows the radius from its fields without asking the worker, exactly, and asks the worker beyond them', async () => {
    const ny = cellOrdinal(cellAt(40.7143, -74.006));
    const file = fileWithCuts([ny - 40, ny + 3, ny + 900]);
    const router = new Router(file);
    const store = createAppStore();
    // A small canvas, so the view's grid is small enough to check against the covering at every pixel.
    Object.assign(store.getState().frame.view, { ...view(40.7143, -74.006, 30), width: 96, height: 64 });
    store.getState().setBoundaries(file, new Router(file), 'test');
    store.getState().setSearchRadius(15, 'mi');
    const calls: string[] = [];
    const api = createFanoutApi();
    const counted = () =>
      portWorker({
        ...api,
        field: (...a: Parameters<typeof api.field>) => (calls.push('field'), api.field(...a)),
        grid: (...a: Parameters<typeof api.grid>) => (calls.push('grid'), api.grid(...a)),
        share: (...a: Parameters<typeof api.share>) => (calls.push('share'), api.share(...a)),
        weightsField: (...a: Parameters<typeof api.weightsField>) => (calls.push('weightsField'), api.weightsField(...a)),
      });
    const stop = startFanout(store, counted, coveringWorker, cellsColumns);
    const f = () => store.getState().fanoutLayer;
    store.getState().setFanout(true);
    await until(() => !!f().world && !!f().detail && !!f().share && f().busy === '');
    expect(calls).toEqual(['field', 'field', 'weightsField']);
    const g = f().detail!.grid;
    expect(g.cols * g.rows).toBeLessThan(1000);
    for (const mi of [3, 40, 100]) {
      store.getState().setSearchRadius(mi, 'mi');
      await until(() => Math.abs(f().radiusKm - mi * KM_PER_MILE) < 1e-9);
      const want = expectedGridCounts(router, g, mi * KM_PER_MILE).map((v) => Math.min(v, 4));
      expect(Array.from(f().detail!.counts), `${mi} mi`).toEqual(want);
    }
    expect(calls).toHaveLength(3);
    // Beyond the slider's range the counts are computed at the radius, in the worker.
    store.getState().setSearchRadius(110, 'mi');
    await until(() => f().radiusKm === 110 * KM_PER_MILE && !!f().detail && f().busy === '');
    expect(calls.slice(3)).toEqual(['grid', 'grid', 'share']);
    expect(Array.from(f().detail!.counts)).toEqual(expectedGridCounts(router, f().detail!.grid, 110 * KM_PER_MILE));
    stop();
  });
});

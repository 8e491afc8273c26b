import { describe, it, expect } from 'vitest';
import { visibleBbox, startFanout } from './fanoutLayer';
import { createFanoutApi } from './fanout';
import { createCoveringApi } from '../search/covering';
import { portWorker } from '../shell/worker.testing';
import { createAppStore } from '../shell/store';
import { Router, cellAt, cellOrdinal, KM_PER_MILE, parseCellsCsv } from '../../core/index';
import type { CellsData } from '../shell/dataSlice';
import { fileWithCuts } from '../../core/testutil';
import type { ViewGeometry } from '../globe/view';

const view = (lat: number, lng: number, zoom: number): ViewGeometry => ({ lat, lng, zoom, morph: 0, flat: 'map', mapLat: lat, net: [0, 0], width: 900, height: 600 });

describe('fan-out layer: the visible box', () => {
  it('is null while the globe shows its rim, where the world grid serves', () => {
    expect(visibleBbox(view(40, -74, 1))).toBeNull();
    expect(visibleBbox(view(40, -74, 2))).toBeNull();
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
});

/**
 * The fan-out map layer's running part: while the layer is on, asks the
 * fan-out worker (fanout.ts) how many shards a search of the current radius
 * centred at each point would ask, first on a coarse world grid (every
 * WORLD_STEP_DEG degrees, cached per radius), then, once the view has been
 * still for SETTLE_MS and is zoomed in, on a grid over the visible area fine
 * enough for about DETAIL_PX screen pixels per grid pixel. A newer request
 * supersedes an unfinished one (the client cancels it in the worker). Also
 * asks for the share of restaurant-weighted searches that ask one shard.
 *
 * The state is the store's fanoutLayer (fanoutSlice.ts), read by the panel
 * (FanoutControl) and the scene (FanoutMap).
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { gridForBbox, type FanoutShare, type FanoutBbox } from '../../core/index';
import { createFanoutClient, type FanoutClient, type FanoutGridResult } from './fanout';
import type { WorkerEndpoint } from '../shell/worker';
import { loadFanoutWeights } from '../search/covering';
import { EMPTY_FANOUT, type FanoutState } from './fanoutSlice';
import { loadCells } from '../globe/geometryClient';
import type { CellsData } from '../shell/dataSlice';
import { DATA_URLS } from '../shell/loadData';
import { unprojectScreen, type ViewGeometry } from '../globe/view';

/** The world grid's pixel, degrees (180 × 90 pixels; ~0.4 s in the worker). */
export const WORLD_STEP_DEG = 2;
/** Screen pixels per grid pixel of the detail grid. */
export const DETAIL_PX = 4;
/** Most pixels of a detail grid (about 0.5 s in the worker). */
export const DETAIL_MAX_POINTS = 40_000;
/** How long the view must be still before the detail grid is asked for (ms). */
export const SETTLE_MS = 250;
/** Radius changes closer together than this (ms) ask for one grid (a slider drag asks once it pauses). */
export const RADIUS_SETTLE_MS = 150;

/** Test and benchmark hooks on document.body.dataset: the worker's time for the last world and view grids. */
function hook(key: 'fanoutWorldMs' | 'fanoutViewMs', ms: number): void {
  if (typeof document !== 'undefined') document.body.dataset[key] = ms.toFixed(0);
}

/**
 * visibleBbox returns the lat/lng box of what a view shows, or null when it
 * shows (nearly) a whole hemisphere or more, where the world grid is enough.
 * Samples a 9 × 9 lattice of screen points; longitudes are unwrapped around
 * the view's centre, so a box across the antimeridian has west > east.
 */
export function visibleBbox(v: ViewGeometry): FanoutBbox | null {
  let south = 90;
  let north = -90;
  let lo = 180;
  let hi = -180;
  for (let i = 0; i <= 8; i++) {
    for (let j = 0; j <= 8; j++) {
      const p = unprojectScreen(v, (v.width * i) / 8, (v.height * j) / 8);
      if (!p) return null; // off the globe: the view shows its rim
      south = Math.min(south, p.lat);
      north = Math.max(north, p.lat);
      const d = ((((p.lng - v.lng) % 360) + 540) % 360) - 180;
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
  }
  if (hi - lo > 120 || north - south > 60) return null;
  // Pad by a pixel's worth so the edges are covered while panning a little.
  const padLat = (north - south) * 0.08;
  const padLng = (hi - lo) * 0.08;
  const wrap = (x: number) => ((((x + 180) % 360) + 360) % 360) - 180;
  return { west: wrap(v.lng + lo - padLng), east: wrap(v.lng + hi + padLng), south: Math.max(-90, south - padLat), north: Math.min(90, north + padLat) };
}

/**
 * startFanout runs the layer for a store: nothing happens until the store's
 * `fanout` is on. Returns a stop function.
 */
export function startFanout(
  store: AppStore,
  makeFanoutWorker: () => WorkerEndpoint = () => new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }),
  makeCoveringWorker: () => WorkerEndpoint = () => new Worker(new URL('../search/covering.worker.ts', import.meta.url), { type: 'module' }),
  cells: () => Promise<CellsData> | null = () => (DATA_URLS.cells ? loadCells(DATA_URLS.cells) : null),
): () => void {
  let client: FanoutClient | null = null;
  let clientFile: unknown = null;
  let ready: Promise<void> | null = null;
  const worldCache = new Map<number, FanoutGridResult>();
  const shareCache = new Map<number, FanoutShare>();
  let radiusTimer: ReturnType<typeof setTimeout> | null = null;
  let viewTimer: ReturnType<typeof setTimeout> | null = null;
  let generation = 0;
  const update = (patch: Partial<FanoutState>) => {
    store.getState().patchFanoutLayer(patch);
    store.getState().frame.invalidate();
  };

  const ensureClient = (): Promise<void> | null => {
    const data = readyData(store.getState());
    if (!data) return null;
    if (client && clientFile === data.file) return ready;
    client?.dispose();
    worldCache.clear();
    shareCache.clear();
    client = createFanoutClient(makeFanoutWorker());
    clientFile = data.file;
    const c = client;
    update({ busy: 'starting' });
    // The share needs the restaurants per cell; without the cells file the map still draws.
    const columns = cells();
    const weights = columns ? columns.then((c) => loadFanoutWeights(makeCoveringWorker, c)).catch(() => undefined) : Promise.resolve(undefined);
    ready = weights.then((w) => c.init(data.file, w)).then(() => undefined);
    return ready;
  };

  /**
   * Asks for what the current radius and view still need: the world grid (unless cached),
   * the detail grid when zoomed in, the share (unless cached). A later call supersedes it.
   */
  const refresh = async () => {
    const s = store.getState();
    if (!s.fanout) return;
    const gen = ++generation;
    const radiusKm = s.searchRadius.km;
    const r = ensureClient();
    if (!r) return;
    try {
      await r;
      if (gen !== generation || !client) return;
      if (store.getState().fanoutLayer.radiusKm !== radiusKm) update({ radiusKm, world: worldCache.get(radiusKm) ?? null, detail: null, share: shareCache.get(radiusKm) ?? null, error: '' });
      if (!worldCache.has(radiusKm)) {
        update({ busy: 'world' });
        const world = await client.grid(radiusKm, gridForBbox({ west: -180, south: -90, east: 180, north: 90 }, WORLD_STEP_DEG));
        if (gen !== generation || !world) return;
        worldCache.set(radiusKm, world);
        if (worldCache.size > 12) worldCache.delete(worldCache.keys().next().value!);
        update({ world });
        hook('fanoutWorldMs', world.ms);
      }
      const bbox = visibleBbox(store.getState().frame.view);
      if (bbox) {
        const stepDeg = Math.max(1e-3, (DETAIL_PX * (bbox.north - bbox.south)) / Math.max(1, store.getState().frame.view.height * 1.16));
        update({ busy: 'detail' });
        const detail = await client.grid(radiusKm, gridForBbox(bbox, stepDeg, DETAIL_MAX_POINTS));
        if (gen !== generation || !detail) return;
        update({ detail });
        hook('fanoutViewMs', detail.ms);
      } else if (store.getState().fanoutLayer.detail) update({ detail: null });
      if (!shareCache.has(radiusKm)) {
        update({ busy: 'share' });
        const share = await client.share(radiusKm).catch(() => null);
        if (gen !== generation) return;
        if (share) {
          shareCache.set(radiusKm, share);
          update({ share });
        }
      }
      update({ busy: '' });
    } catch (e) {
      if (gen === generation) update({ busy: '', error: (e as Error).message });
    }
  };

  const watched = (s: AppState) => ({ fanout: s.fanout, data: s.data, searchRadius: s.searchRadius, camera: s.camera, zoom: s.zoom, flatten: s.flatten });
  const unsub = store.subscribe(
    watched,
    (s, p) => {
    if (!s.fanout) {
      if (p.fanout) {
        generation++;
        client?.cancel();
        if (radiusTimer) clearTimeout(radiusTimer);
        if (viewTimer) clearTimeout(viewTimer);
        update({ ...EMPTY_FANOUT });
      }
      return;
    }
    if (!p.fanout || s.data !== p.data) {
      void refresh();
      return;
    }
    if (s.searchRadius !== p.searchRadius) {
      if (radiusTimer) clearTimeout(radiusTimer);
      radiusTimer = setTimeout(() => void refresh(), RADIUS_SETTLE_MS);
      return;
    }
    if (s.camera !== p.camera || s.zoom !== p.zoom || s.flatten !== p.flatten) {
      if (viewTimer) clearTimeout(viewTimer);
      viewTimer = setTimeout(() => void refresh(), SETTLE_MS);
    }
    },
    { equalityFn: shallow },
  );
  if (store.getState().fanout) void refresh();

  return () => {
    unsub();
    generation++;
    client?.dispose();
    if (radiusTimer) clearTimeout(radiusTimer);
    if (viewTimer) clearTimeout(viewTimer);
  };
}

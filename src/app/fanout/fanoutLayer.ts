/**
 * The fan-out map layer's running part. While the layer is on it asks the
 * fan-out worker (fanout.ts) for fields (the core's FanoutFieldJob: per grid
 * point, the distances to the nearest other shards) up to FIELD_MAX_KM, the
 * slider's largest radius: a coarse world grid (every WORLD_STEP_DEG degrees,
 * once per boundary file), a grid over the visible area once the view has
 * been still for SETTLE_MS (about DETAIL_PX screen pixels per grid pixel, on
 * the globe at every zoom that shows less than the world grid resolves, and
 * on the flat map), and the weights' field for the one-shard share. A radius
 * up to FIELD_MAX_KM is then a threshold on those fields, applied on the main
 * thread once per animation frame (fanoutFieldCounts, well under a
 * millisecond per grid): dragging the radius slider redraws the map every
 * frame without asking the worker. A larger radius (typed) falls back to
 * computing the counts at that radius (FanoutGridJob, FanoutShareJob). A
 * newer request supersedes an unfinished one (the client cancels it in the
 * worker).
 *
 * The state is the store's fanoutLayer (fanoutSlice.ts), read by the panel
 * (FanoutControl) and the scene (FanoutMap).
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { KM_PER_MILE } from '../../core/index';
import { gridForBbox, type FanoutBbox, type FanoutGrid } from '../../core/fanoutGrid';
import { fanoutFieldCounts, fanoutFieldShare } from '../../core/fanoutField';
import type { FanoutShare } from '../../core/fanoutShare';
import type { FanoutBuckets } from '../../core/fanoutSandwich';
import type { FanoutWeights } from '../../core/fanoutWeights';
import { createFanoutClient, type FanoutClient, type FanoutGridResult, type FanoutFieldResult } from './fanoutWorker';
import type { WorkerEndpoint } from '../shell/worker';
import { loadFanoutWeights } from '../globe/coveringWorker';
import { EMPTY_FANOUT, type FanoutState } from './fanoutSlice';
import { loadCells } from '../globe/geometryWorker';
import type { CellsData } from '../shell/dataSlice';
import { DATA_URLS } from '../shell/loadData';
import { unprojectScreen, projectLatLng, pixelsPerUnit, type ViewGeometry } from '../globe/view';

/** The largest radius the fields answer (km): the slider's end, 100 miles (the km slider ends at 160 km). */
export const FIELD_MAX_KM = 100 * KM_PER_MILE;
/** The world grid's pixel, degrees (180 × 90 pixels). */
export const WORLD_STEP_DEG = 2;
/** Screen pixels per grid pixel of the detail grid. */
export const DETAIL_PX = 4;
/** Most pixels of a detail grid (a 1,600 × 1,000 canvas at DETAIL_PX). */
export const DETAIL_MAX_POINTS = 100_000;
/** How long the view must be still before the detail grid is asked for (ms). */
export const SETTLE_MS = 150;
/** Radius changes beyond FIELD_MAX_KM closer together than this (ms) ask for one grid (a slider drag asks once it pauses). */
export const RADIUS_SETTLE_MS = 150;

/** Test and benchmark hooks on document.body.dataset: the worker's time for the last world and view grids. */
function hook(key: 'fanoutWorldMs' | 'fanoutViewMs', ms: number): void {
  if (typeof document !== 'undefined') document.body.dataset[key] = ms.toFixed(0);
}

/**
 * visibleBbox returns the lat/lng box of what a view shows (globe or flat
 * map; the cube net and mid-morph give null), or null when the view shows
 * the whole globe's disc or the whole map (the world grid serves), when the
 * world grid already resolves the view as finely as a detail grid would
 * (DETAIL_PX screen pixels per grid pixel at least WORLD_STEP_DEG), or when
 * under a handful of screen points hit the earth. Samples a 17 × 17 lattice of screen
 * points, keeping those on the earth within 60° of the view's centre (a
 * view showing the globe's rim at country zoom still gets its box; nearer
 * the rim, foreshortened, and beyond it the world grid serves).
 * Longitudes are unwrapped around the view's centre, so a box across the
 * antimeridian has west > east; a visible pole extends the box to it, all
 * longitudes.
 */
export function visibleBbox(v: ViewGeometry): FanoutBbox | null {
  if (v.morph !== 0 && !(v.morph === 1 && v.flat === 'map')) return null;
  if (detailStepDeg(v) >= WORLD_STEP_DEG) return null;
  const k = pixelsPerUnit(v);
  if (v.morph === 0 ? 2 * k <= Math.min(v.width, v.height) : 2 * Math.PI * k <= v.width && Math.PI * k <= v.height) return null;
  let south = 90;
  let north = -90;
  let lo = 180;
  let hi = -180;
  let hits = 0;
  const N = 16;
  for (let i = 0; i <= N; i++) {
    for (let j = 0; j <= N; j++) {
      const x = (v.width * i) / N;
      const y = (v.height * j) / N;
      // Near the globe's rim the view is foreshortened (beyond 60° from its centre, more than 2×): the world grid serves there.
      if (v.morph === 0 && ((x - v.width / 2) ** 2 + (y - v.height / 2) ** 2) / (k * k) > RIM_R2) continue;
      const p = unprojectScreen(v, x, y);
      if (!p) continue; // off the globe or the map
      hits++;
      south = Math.min(south, p.lat);
      north = Math.max(north, p.lat);
      const d = ((((p.lng - v.lng) % 360) + 540) % 360) - 180;
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
  }
  if (hits < 4) return null;
  // Pad by a lattice step's worth so the edges are covered while panning a little.
  const padLat = Math.max((north - south) * 0.08, 0.01);
  const padLng = Math.max((hi - lo) * 0.08, 0.01);
  south = Math.max(-90, south - padLat);
  north = Math.min(90, north + padLat);
  const poleShown = (lat: number) => {
    const q = projectLatLng(v, lat, v.lng);
    return q.visible && q.x >= 0 && q.x <= v.width && q.y >= 0 && q.y <= v.height;
  };
  if (poleShown(90)) north = 90;
  if (poleShown(-90)) south = -90;
  if (north === 90 || south === -90 || hi - lo + 2 * padLng >= 359) return { west: -180, east: 180, south, north };
  const wrap = (x: number) => ((((x + 180) % 360) + 360) % 360) - 180;
  return { west: wrap(v.lng + lo - padLng), east: wrap(v.lng + hi + padLng), south, north };
}

/** The squared distance from the globe's centre on screen (globe radius 1) beyond which visibleBbox ignores the globe: sin² 60°. */
const RIM_R2 = 0.75;

/** detailStepDeg returns the detail grid's pixel for a view, degrees of latitude: DETAIL_PX screen pixels at the view's centre. */
export function detailStepDeg(v: ViewGeometry): number {
  // Screen pixels per radian at the centre: the globe's and the map's scale alike (the map is equirectangular).
  return Math.max(1e-4, (DETAIL_PX * 180) / Math.PI / pixelsPerUnit(v));
}

/** countsOf thresholds a grid's field at radiusKm into the grid result the map draws. */
function countsOf(f: FanoutFieldResult, radiusKm: number): FanoutGridResult {
  const counts = fanoutFieldCounts(f.field, radiusKm);
  const pixels: FanoutBuckets = [0, 0, 0, 0];
  for (let k = 0; k < counts.length; k++) pixels[counts[k] - 1]++;
  return { radiusKm, grid: f.grid!, method: 'blocks', counts, pixels, ms: f.ms };
}

// Animation frames where there are some (browsers), a timer where not (tests in Node).
const nextFrame = (f: () => void): number => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : (setTimeout(f, 16) as unknown as number));
const cancelFrame = (id: number) => (typeof cancelAnimationFrame === 'function' ? cancelAnimationFrame(id) : clearTimeout(id));

const sameGrid = (a: FanoutGrid, b: FanoutGrid) => a.west === b.west && a.east === b.east && a.south === b.south && a.north === b.north && a.cols === b.cols && a.rows === b.rows;

/**
 * startFanout runs the layer for a store: nothing happens until the store's
 * `fanout` is on. Returns a stop function.
 */
export function startFanout(
  store: AppStore,
  makeFanoutWorker: () => WorkerEndpoint = () => new Worker(new URL('./fanout.worker.ts', import.meta.url), { type: 'module' }),
  makeCoveringWorker: () => WorkerEndpoint = () => new Worker(new URL('../globe/covering.worker.ts', import.meta.url), { type: 'module' }),
  cells: () => Promise<CellsData> | null = () => (DATA_URLS.cells ? loadCells(DATA_URLS.cells) : null),
): () => void {
  let client: FanoutClient | null = null;
  let clientFile: unknown = null;
  let ready: Promise<void> | null = null;
  let weights: FanoutWeights | undefined;
  // Fields of the current boundary file: the world's, the last view's, the weights'.
  let worldField: FanoutFieldResult | null = null;
  let viewField: FanoutFieldResult | null = null;
  let weightsField: FanoutFieldResult | null = null;
  // The world field's request, shared by refreshes so a view change does not restart it.
  let worldPending: Promise<FanoutFieldResult | null> | null = null;
  // Beyond FIELD_MAX_KM: grids and shares computed at the radius, cached per radius.
  const worldCache = new Map<number, FanoutGridResult>();
  const shareCache = new Map<number, FanoutShare>();
  let radiusTimer: ReturnType<typeof setTimeout> | null = null;
  let viewTimer: ReturnType<typeof setTimeout> | null = null;
  let paintFrame = 0;
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
    worldField = viewField = weightsField = null;
    worldPending = null;
    client = createFanoutClient(makeFanoutWorker);
    clientFile = data.file;
    const c = client;
    update({ busy: 'starting' });
    // The share needs the restaurants per cell; without the cells file the map still draws.
    const columns = cells();
    const w = columns ? columns.then((c) => loadFanoutWeights(makeCoveringWorker, c)).catch(() => undefined) : Promise.resolve(undefined);
    ready = w.then((x) => ((weights = x), c.init(data.file, x))).then(() => undefined);
    return ready;
  };

  /** The view's detail grid, or null when the world grid serves. */
  const wantedDetail = (): FanoutGrid | null => {
    const v = store.getState().frame.view;
    const bbox = visibleBbox(v);
    return bbox ? gridForBbox(bbox, detailStepDeg(v), DETAIL_MAX_POINTS) : null;
  };

  /** Draws the current radius from the fields (a threshold per point); true when the radius is within them. */
  const paint = (): boolean => {
    const s = store.getState();
    const radiusKm = s.searchRadius.km;
    if (radiusKm > FIELD_MAX_KM || !s.fanout) return false;
    const share = weightsField && weights ? fanoutFieldShare(weightsField.field, weights, radiusKm) : null;
    update({ radiusKm, world: worldField ? countsOf(worldField, radiusKm) : null, detail: viewField ? countsOf(viewField, radiusKm) : null, share, error: '' });
    return true;
  };

  /**
   * Asks for what the current radius and view still need: the fields (world, view, weights) when
   * the radius is within them, else the grids and share at the radius. A later call supersedes it.
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
      if (radiusKm <= FIELD_MAX_KM) {
        paint();
        if (!worldField) {
          update({ busy: 'world' });
          const c = client;
          worldPending ??= c.field(gridForBbox({ west: -180, south: -90, east: 180, north: 90 }, WORLD_STEP_DEG), FIELD_MAX_KM).then((f) => {
            if (c === client) (worldPending = null), (worldField = f ?? worldField);
            if (f) hook('fanoutWorldMs', f.ms);
            return f;
          });
          const f = await worldPending;
          if (gen !== generation || !f) return;
          paint();
        }
        const g = wantedDetail();
        if (!g) {
          if (viewField) (viewField = null), paint();
        } else if (!viewField || !sameGrid(viewField.grid!, g)) {
          update({ busy: 'detail' });
          const f = await client.field(g, FIELD_MAX_KM);
          if (gen !== generation || !f) return;
          viewField = f;
          hook('fanoutViewMs', f.ms);
          paint();
        }
        if (!weightsField && weights) {
          update({ busy: 'share' });
          const f = await client.weightsField(FIELD_MAX_KM).catch(() => null);
          if (gen !== generation) return;
          if (f) (weightsField = f), paint();
        }
        update({ busy: '' });
        return;
      }
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
      const g = wantedDetail();
      if (g) {
        update({ busy: 'detail' });
        const detail = await client.grid(radiusKm, g);
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

  const clearTimers = () => {
    if (radiusTimer) clearTimeout(radiusTimer);
    if (viewTimer) clearTimeout(viewTimer);
    if (paintFrame) cancelFrame(paintFrame);
    radiusTimer = viewTimer = null;
    paintFrame = 0;
  };

  const watched = (s: AppState) => ({ fanout: s.fanout, data: s.data, searchRadius: s.searchRadius, camera: s.camera, zoom: s.zoom, flatten: s.flatten });
  const unsub = store.subscribe(
    watched,
    (s, p) => {
      if (!s.fanout) {
        if (p.fanout) {
          generation++;
          client?.cancel();
          clearTimers();
          update({ ...EMPTY_FANOUT });
        }
        return;
      }
      if (!p.fanout || s.data !== p.data) {
        void refresh();
        return;
      }
      if (s.searchRadius !== p.searchRadius) {
        const km = s.searchRadius.km;
        if (km <= FIELD_MAX_KM && (worldField || worldPending)) {
          // Within the fields: a threshold, drawn once per animation frame however fast the slider moves.
          if (!paintFrame) paintFrame = nextFrame(() => ((paintFrame = 0), paint()));
          // Coming back from a radius beyond the fields: the view's field may be missing.
          if (p.searchRadius.km > FIELD_MAX_KM) void refresh();
          return;
        }
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
    clearTimers();
  };
}

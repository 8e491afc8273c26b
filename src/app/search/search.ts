/**
 * The radius explorer's running parts on the main thread:
 *
 * - startSearch: keeps the covering of the current circle computed (in the
 *   covering worker, at most one request per animation frame; see
 *   globe/coveringWorker.ts) and written to the store. The search's parameters of the
 *   link are in searchUrl.ts; the shell applies them at boot and keeps them
 *   in the address bar (shell/address.ts, a history entry per search step).
 * - chooseCentre / refitRadius: the camera's answer to a new search (glide
 *   to the centre and zoom so the circle fills the view).
 *
 * Nothing here renders; the scene and the panels read the store.
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/store';
import type { AppStore } from '../shell/types';
import { readyData } from '../shell/dataSlice';
import { createCoveringClient, routeOfAnswer, type CircleWish, type CoveringClient } from '../globe/coveringWorker';
import { fitZoom } from './searchGeometry';
import type { BoundaryFile } from '../../core/index';

/** The circle the store asks for: null without a centre or in no-location mode. */
export function wantedCircle(s: AppState): CircleWish | null {
  if (!s.searchCentre || s.noLocation) return null;
  return { lat: s.searchCentre.lat, lng: s.searchCentre.lng, radiusKm: s.searchRadius.km };
}

/**
 * fitFor returns the zoom that fits a circle of radiusKm in the current view
 * (using the canvas size of the last frame), or null before the first frame.
 */
function fitFor(store: AppStore, radiusKm: number): number | null {
  const v = store.getState().frame.view;
  if (v.width <= 1 || v.height <= 1) return null;
  const kind = v.morph >= 0.5 ? v.flat : 'globe';
  return fitZoom(radiusKm, kind, v.width, v.height);
}

/** takePendingFit applies a pending fit once the canvas has a size; the scene calls it every frame (cheap). */
export function takePendingFit(store: AppStore): void {
  const s = store.getState();
  if (!s.pendingFit) return;
  const c = wantedCircle(s);
  if (!c) {
    s.setPendingFit(false);
    return;
  }
  const z = fitFor(store, c.radiusKm);
  if (z === null) return;
  s.setPendingFit(false);
  s.setZoom(z);
}

/**
 * zoomTo eases the zoom to a value over ms (in log space); a later zoomTo or the user's own zoom cancels it.
 * The glide is the store's zoomGlide (set once per glide, not per frame); the animation frames belong to it.
 */
function zoomTo(store: AppStore, target: number, ms = 800): void {
  const from = store.getState().zoom;
  if (Math.abs(Math.log(target / from)) < 0.01) {
    store.getState().setZoomGlide(null);
    return;
  }
  const glide = {};
  store.getState().setZoomGlide(glide);
  const t0 = performance.now();
  let last = from;
  const step = () => {
    const s = store.getState();
    if (s.zoomGlide !== glide) return; // a later glide took over
    if (s.zoom !== last) return s.setZoomGlide(null); // the user zoomed: stop
    const t = Math.min(1, (performance.now() - t0) / ms);
    const e = t * t * (3 - 2 * t);
    s.setZoom(from * Math.exp(Math.log(target / from) * e));
    last = store.getState().zoom;
    if (t < 1) requestAnimationFrame(step);
    else s.setZoomGlide(null);
  };
  requestAnimationFrame(step);
}

/**
 * chooseCentre makes (lat, lng), rounded to 4 decimals, the search centre (leaving no-location mode),
 * stops the spin, glides the camera there and zooms so the circle fills the view.
 */
export function chooseCentre(store: AppStore, lat: number, lng: number, label: string): void {
  const s = store.getState();
  // The link keeps 4 decimals (about 10 m): round here so a shared link covers the same cells.
  lat = Number(lat.toFixed(4));
  lng = Number(lng.toFixed(4));
  s.setSearchCentre(lat, lng, label);
  s.setLayer('spin', false);
  s.flyTo(lat, lng);
  const z = fitFor(store, s.searchRadius.km);
  if (z !== null) zoomTo(store, z);
}

/**
 * flyToFit glides the camera to (lat, lng) and zooms so a disc of radiusKm around it fills the
 * view (a pasted cell: search/paste.ts); the search centre is left as it is.
 */
export function flyToFit(store: AppStore, lat: number, lng: number, radiusKm: number): void {
  const s = store.getState();
  s.setLayer('spin', false);
  s.flyTo(lat, lng);
  const z = fitFor(store, radiusKm);
  if (z !== null) zoomTo(store, z);
}

/**
 * refitRadius zooms to fit the circle after the radius was set (slider
 * released, number typed, unit switched) when it no longer sits comfortably
 * in the view: larger than the view, or under a fifth of the fitted size.
 * With the fan-out map on the camera stays: the map is read against the view
 * it was opened on, and changing the radius must not take it away.
 */
export function refitRadius(store: AppStore): void {
  const s = store.getState();
  if (s.fanout) return;
  const c = wantedCircle(s);
  if (!c) return;
  const z = fitFor(store, c.radiusKm);
  if (z === null) return;
  const ratio = s.zoom / z;
  if (ratio > 1.35 || ratio < 0.2) zoomTo(store, z, 500);
}

/**
 * startSearch runs the radius explorer's covering for a store: call it once,
 * after boot() has applied the link (boot starts it from src/app/features.ts,
 * and the fan-out map's driver, fanout/fanoutLayer.ts, right after it).
 * Returns a stop function.
 */
export function startSearch(store: AppStore, makeWorker = () => new Worker(new URL('../globe/covering.worker.ts', import.meta.url), { type: 'module' })): () => void {
  // The covering: one request per animation frame at most, to a client per boundary file.
  let client: CoveringClient | null = null;
  let clientFile: BoundaryFile | null = null;
  let raf = 0;
  // Warm by the first frame: a link's search is answered as soon as the boundary file is in, so
  // the worker is created now, at boot, and loads its module while the page loads the file and
  // builds the scene; the first client takes it (later ones make their own).
  let spare: ReturnType<typeof makeWorker> | null = wantedCircle(store.getState()) ? makeWorker() : null;
  const worker = () => {
    const w = spare ?? makeWorker();
    spare = null;
    return w;
  };
  const request = () => {
    raf = 0;
    const s = store.getState();
    const data = readyData(s);
    const want = wantedCircle(s);
    if (!data) return;
    if (data.file !== clientFile) {
      client?.dispose();
      clientFile = data.file;
      client = createCoveringClient(
        worker,
        data.file,
        (a) => {
          const now = store.getState();
          if (!wantedCircle(now) || readyData(now)?.file.hash !== a.hash) return;
          now.setCovering({ lat: a.lat, lng: a.lng, radiusKm: a.radiusKm, hash: a.hash, route: routeOfAnswer(a), ordinals: a.ordinals, corners: a.corners, ms: a.ms });
          // Test and benchmark hooks: the circle last shown, and the worker's time for it.
          document.body.dataset.covering = `${a.lat},${a.lng},${a.radiusKm}`;
          document.body.dataset.coveringMs = a.ms.toFixed(1);
        },
        (message, circle) => console.warn(`geoshard: cannot cover ${circle.radiusKm} km around ${circle.lat}, ${circle.lng}: ${message}`),
      );
    }
    if (!want && store.getState().covering) store.getState().setCovering(null);
    client!.want(want);
  };
  const unsubCovering = store.subscribe(
    (s) => {
      const want = wantedCircle(s);
      return [want?.lat, want?.lng, want?.radiusKm, s.data];
    },
    () => {
      // The first covering of a file is asked at once (the link's answer, with the first frame);
      // later ones at most once per animation frame (a dragged radius).
      if (!client && readyData(store.getState())) {
        cancelAnimationFrame(raf);
        request();
      } else if (!raf) raf = requestAnimationFrame(request);
    },
    { equalityFn: shallow },
  );
  if (readyData(store.getState())) request();
  else if (wantedCircle(store.getState())) raf = requestAnimationFrame(request);

  return () => {
    unsubCovering();
    cancelAnimationFrame(raf);
    client?.dispose();
    spare?.terminate();
  };
}

/** clickPicks tells whether a click on the globe picks the search centre: while a radius panel is open. */
export function clickPicks(s: AppState): boolean {
  return s.clickPickers > 0;
}

/** enableClickPicking turns click-to-pick on while the caller (the radius panel) is mounted; returns the undo. */
export function enableClickPicking(store: AppStore): () => void {
  store.getState().addClickPicker(1);
  return () => store.getState().addClickPicker(-1);
}

/**
 * boot starts the explorer: applies the view from the URL, loads and
 * validates the boundary file, then loads the cell weights and cities in the
 * background, and keeps the URL in step with the view.
 */
import type { StoreApi } from 'zustand/vanilla';
import type { AppState } from '../store';
import { urlViewOf } from '../store/viewSlice';
import { parseUrlView, formatUrlView } from './urlState';
import { boundariesSource, loadBoundaries, fetchText, parseCities, DataLoadError, DATA_URLS } from './loadData';
import { loadCells } from './worker';
import { uniforms } from '../scene/uniforms';
import { markLoaded } from '../scene/frame';

export async function boot(store: StoreApi<AppState>): Promise<void> {
  const { view, problems } = parseUrlView(location.search);
  for (const p of problems) console.warn(`geoshard: ${p}`);
  store.getState().applyUrlView(view);
  const debug = new URLSearchParams(location.search).get('debug');
  uniforms.uDebug.value = debug === 'ordinal' ? 1 : 0;
  syncUrl(store);
  try {
    const { file, router, source } = await loadBoundaries(boundariesSource(location.search));
    store.getState().setBoundaries(file, router, source);
  } catch (e) {
    const err = e instanceof DataLoadError ? e : new DataLoadError('Cannot show the boundary file', [(e as Error).message]);
    store.getState().setDataError(err.title, err.problems);
    return;
  }
  if (DATA_URLS.cells) {
    loadCells(DATA_URLS.cells)
      .then((cells) => {
        store.getState().setCells(cells);
        markLoaded('cells');
      })
      .catch((e: Error) => console.warn(`geoshard: cell weights not shown: ${e.message}`));
  }
  if (DATA_URLS.cities) {
    fetchText(DATA_URLS.cities, 'the sample cities')
      .then((text) => {
        store.getState().setCities(parseCities(text, 'data/cities.json'));
        markLoaded('cities');
      })
      .catch((e: Error) => console.warn(`geoshard: cities not shown: ${e.message}`));
  }
}

/** syncUrl writes the view into the address bar, at most every 400 ms and once more after the last change. */
function syncUrl(store: StoreApi<AppState>): void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWrite = 0;
  const write = () => {
    timer = null;
    lastWrite = performance.now();
    const search = formatUrlView(urlViewOf(store.getState()), location.search);
    if (search !== location.search) history.replaceState(history.state, '', search + location.hash);
  };
  store.subscribe((s, p) => {
    if (s.camera === p.camera && s.zoom === p.zoom && s.level === p.level && s.layers === p.layers && s.flatten === p.flatten) return;
    if (timer) return;
    timer = setTimeout(write, Math.max(0, 400 - (performance.now() - lastWrite)));
  });
}

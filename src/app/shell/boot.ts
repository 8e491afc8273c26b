/**
 * boot starts the explorer: applies the view from the URL, loads and
 * validates the boundary file, then loads the cell weights and cities in the
 * background. It starts each feature's driver (src/app/features.ts: the
 * search keeps the URL in step with the view and the radius search, the
 * nodes and migration paint the globe); startShellState (shell/shellState.ts)
 * keeps the URL in step with the panels, and startKeeping (shell/keep.ts)
 * keeps the review's work in this browser.
 */
import type { AppState } from './store';
import type { AppStore } from './types';
import { candidateUrl } from './url';
import { parseUrl, applyLink } from './link';
import { startAddress } from './address';
import { startShellState } from './shellState';
import { startKeeping } from './keep';
import { FEATURES } from '../features';
import { boundariesSource, loadBoundaries, fetchText, parseCities, DataLoadError, DATA_URLS } from './loadData';
import { loadCells } from '../globe/geometryClient';
import { markLoaded } from '../globe/frame';

export async function boot(store: AppStore): Promise<void> {
  // The link, read once by the one codec (shell/link.ts, over each feature's parameters): its
  // view, then its search; the address bar follows the view and the search from here on.
  const url = parseUrl(location.search);
  for (const p of url.problems) console.warn(`geoshard: ${p}`);
  store.getState().applyUrlView(url.view);
  applyLink(store, location.search, true);
  startAddress(store);
  // Each feature's driver: the radius search from the link with its covering and the address
  // bar (search/search.ts), the globe's "colour regions by" paint, the moving ranges' marks.
  for (const feature of FEATURES) feature.start?.(store);
  // Work that survives (shell/keep.ts), then the panel state and the link's notice (shell/shellState.ts).
  let urlCandidate: string | null = null;
  try {
    urlCandidate = candidateUrl(location.search);
  } catch {
    // review/reviewDriver.ts reports a bad candidate= in the Review tab.
  }
  const kept = startKeeping(store, { reviewLocal: url.shell.reviewLocal, urlCandidate });
  if (kept.problem) url.problems.push(kept.problem);
  startShellState(store, url);
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
        markLoaded(store.getState().frame, 'cells');
      })
      .catch((e: Error) => console.warn(`geoshard: cell weights not shown: ${e.message}`));
  }
  if (DATA_URLS.cities) {
    fetchText(DATA_URLS.cities, 'the sample cities')
      .then((text) => {
        store.getState().setCities(parseCities(text, 'data/cities.json'));
        markLoaded(store.getState().frame, 'cities');
      })
      .catch((e: Error) => console.warn(`geoshard: cities not shown: ${e.message}`));
  }
}

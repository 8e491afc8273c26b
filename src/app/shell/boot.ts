/**
 * boot starts the explorer: applies the link (its view, then its search), loads and
 * validates the boundary file, then loads the cell weights and cities in the background. It is
 * the one place drivers start, each with the one store (shell/store.ts), each kept with its stop
 * function in `running`: startAddress (shell/address.ts) keeps the view and the search in the
 * address bar; every feature's drivers (src/app/features.ts, started by shell/drivers.ts by
 * their `when`); startKeeping (shell/keptWork.ts) keeps the review's work in this browser; and
 * startShellState (shell/shellState.ts) keeps the URL in step with the panels.
 */
import type { AppState } from './store';
import type { AppStore } from './types';
import { candidateUrl } from './url';
import { parseUrl, applyLink } from './linkCodec';
import { startAddress } from './address';
import { startShellState } from './shellState';
import { startKeeping } from './keptWork';
import { FEATURES } from '../features';
import { startDrivers, type Running } from './drivers';
import { boundariesSource, loadBoundaries, fetchText, parseCities, DataLoadError, DATA_URLS } from './loadData';
import { loadCells } from '../globe/geometryWorker';
import { markLoaded } from '../globe/frame';

/** The drivers boot started, each with its stop function (in the order started). */
export const running: Running[] = [];

export async function boot(store: AppStore): Promise<void> {
  // The link, read once by the one codec (shell/linkCodec.ts, over each feature's parameters): its
  // view, then its search; the address bar follows the view and the search from here on.
  const url = parseUrl(location.search);
  for (const p of url.problems) console.warn(`geoshard: ${p}`);
  store.getState().applyUrlView(url.view);
  applyLink(store, location.search, true);
  running.push({ name: 'startAddress', stop: startAddress(store) });
  // Every feature's drivers, the one place they start (shell/drivers.ts): the radius search's
  // covering, the fan-out map, the globe's paints at once; the review after the first frame;
  // Live's runner and the Nodes and Migration polls while their tab is open.
  running.push(...startDrivers(store, FEATURES));
  // Work that survives (shell/keptWork.ts), then the panel state and the link's notice (shell/shellState.ts).
  let urlCandidate: string | null = null;
  try {
    urlCandidate = candidateUrl(location.search);
  } catch {
    // review/reviewDriver.ts reports a bad candidate= in the Review tab.
  }
  const kept = startKeeping(store, { reviewLocal: url.shell.reviewLocal, urlCandidate });
  running.push({ name: 'startKeeping', stop: kept.stop });
  if (kept.problem) url.problems.push(kept.problem);
  running.push({ name: 'startShellState', stop: startShellState(store, url) });
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

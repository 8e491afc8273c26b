/**
 * The panel state in the address bar: applies the tab, the Live switch, the
 * facet filters and the tour step of the link the page opened with (and of
 * back/forward), keeps them written back (shell/url.ts formatUrlShell), shows
 * the link's ignored parameters and rewrites the address bar to what the
 * page shows. Also: no spin while a candidate is under review.
 *
 * The view and the search have their own writer (search/search.ts); both
 * writers change only their own parameters of the current query.
 */
import { shallow } from 'zustand/shallow';
import type { AppState } from './store';
import type { AppStore } from './types';
import { formatUrlShell, parseUrlShell, type ParsedUrl, type UrlShell } from './url';
import { formatUrlState } from '../search/search';
import { keptCandidateIsLocal } from './keep';

/** shellOf returns the panel state as the URL holds it. */
export function shellOf(s: AppState): UrlShell {
  return { tab: s.tab, live: s.liveOn, filters: s.liveFilters, reviewLocal: keptCandidateIsLocal(s), tour: s.tour };
}

/** applyShell puts a link's panel state into the store. */
export function applyShell(store: AppStore, shell: UrlShell): void {
  const s = store.getState();
  s.setTab(shell.tab);
  s.setLiveOn(shell.live);
  const f = s.liveFilters;
  if (!shallow(f.diet, shell.filters.diet) || !shallow(f.allergen, shell.filters.allergen) || !shallow(f.cuisine, shell.filters.cuisine)) store.setState({ liveFilters: shell.filters });
  s.setTour(shell.tour);
}

/**
 * startShellState applies the parsed link's panel state, reports its problems
 * in the page and rewrites the address bar to what is shown (call after
 * startSearch has applied the search); returns a stop function.
 */
export function startShellState(store: AppStore, url: ParsedUrl): () => void {
  applyShell(store, url.shell);
  store.getState().setUrlProblems(url.problems);
  const full = () => formatUrlShell(shellOf(store.getState()), formatUrlState(store.getState(), location.search));
  // What the page shows, not what the link said: the ignored parameters leave the address bar, and
  // so does a spin that a link naming a place asked for (such a link opens still).
  const linkSpins = /(^|,)spin(,|$)/.test(new URLSearchParams(location.search).get('layers') ?? '');
  if (url.problems.length || (linkSpins && !url.view.layers.includes('spin'))) history.replaceState(history.state, '', full() + location.hash);

  const write = () => {
    const q = formatUrlShell(shellOf(store.getState()), location.search);
    if (q !== location.search) history.replaceState(history.state, '', q + location.hash);
  };
  const unsubUrl = store.subscribe((s) => [s.tab, s.liveOn, s.liveFilters, s.tour, keptCandidateIsLocal(s)], write, { equalityFn: shallow });
  // Review shows a still globe: the spin would move the view under the person comparing.
  const unsubSpin = store.subscribe(
    (s) => s.candidate !== null,
    (has) => has && store.getState().setLayer('spin', false),
  );
  if (store.getState().candidate) store.getState().setLayer('spin', false);
  // Back/forward: the panel state (tab, Live switch, filters) is never a history step (it is written
  // with replaceState), so going back to an earlier search keeps the panel that is open and writes it
  // into the entry gone back to. Tour steps are steps (tour.ts pushes them): while a tour is on, or
  // when the entry is a tour step, the entry's whole panel state is applied.
  const onPop = () => {
    const shell = parseUrlShell(location.search).shell;
    if (shell.tour !== null || store.getState().tour !== null) applyShell(store, shell);
    else write();
  };
  addEventListener('popstate', onPop);
  return () => {
    unsubUrl();
    unsubSpin();
    removeEventListener('popstate', onPop);
  };
}

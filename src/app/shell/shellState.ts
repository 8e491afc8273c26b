/**
 * The panel state in the address bar: applies the tab, the Live switch, the
 * facet filters and the tour step of the link the page opened with (and of
 * back/forward), keeps them written back (shell/linkCodec.ts formatUrlShell, which
 * loops over each feature's panel parameters), shows
 * the link's ignored parameters and rewrites the address bar to what the
 * page shows. Also: no spin while a candidate is under review.
 *
 * The view and the search have their own writer (shell/address.ts); both
 * writers change only their own parameters of the current query.
 */
import { shallow } from 'zustand/shallow';
import type { AppStore } from './types';
import { applyShell, formatUrlShell, formatUrlState, isPanelStep, parseUrlShell, shellKey, shellOf, type ParsedUrl } from './linkCodec';

/**
 * startShellState applies the parsed link's panel state, reports its problems
 * in the page and rewrites the address bar to what is shown (call after
 * boot has applied the search); returns a stop function.
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
  const unsubUrl = store.subscribe(shellKey, write, { equalityFn: shallow });
  // Review shows a still globe: the spin would move the view under the person comparing.
  const unsubSpin = store.subscribe(
    (s) => s.candidate !== null,
    (has) => has && store.getState().setLayer('spin', false),
  );
  if (store.getState().candidate) store.getState().setLayer('spin', false);
  // Back/forward: the panel state (tab, Live switch, filters) is never a history step (it is written
  // with replaceState), so going back to an earlier search keeps the panel that is open and writes it
  // into the entry gone back to. A feature's entries may be steps (tour.ts pushes tour steps: its
  // isStep in tour/tourUrl.ts): then the entry's whole panel state is applied.
  const onPop = () => {
    const shell = parseUrlShell(location.search).shell;
    if (isPanelStep(shell, store.getState())) applyShell(store, shell);
    else write();
  };
  addEventListener('popstate', onPop);
  return () => {
    unsubUrl();
    unsubSpin();
    removeEventListener('popstate', onPop);
  };
}

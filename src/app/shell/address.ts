/**
 * The view and the search in the address bar: keeps them written back (shell/linkCodec.ts
 * formatUrlState), replacing the entry for view changes and pushing a new one for a search step
 * (each feature's `url.search.history`: a new centre, no-location or fan-out switch; a new
 * radius unless it changed less than HISTORY_GAP_MS before, so a slider drag is one entry), and
 * applies back/forward (applyLink). boot starts it right after it has applied the link.
 *
 * The panel state has its own writer (shell/shellState.ts); both writers change only their own
 * parameters of the current query.
 */
import { shallow } from 'zustand/shallow';
import type { AppStore } from './types';
import { applyLink, formatUrlState, historyKeys } from './linkCodec';

/** Search changes closer together than this (ms) share one history entry (a slider drag is one step back). */
const HISTORY_GAP_MS = 1000;
/** The address bar is written at most this often (ms), and once more after the last change. */
const URL_WRITE_MS = 400;

/** startAddress keeps the view and the search in the address bar and applies back/forward; returns a stop function. */
export function startAddress(store: AppStore): () => void {
  const keyOf = (s: Parameters<typeof historyKeys>[0]) => {
    const k = historyKeys(s);
    return k.step + k.drag;
  };
  let written = historyKeys(store.getState());
  let dragChangedAt = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastWrite = 0;
  const write = () => {
    timer = null;
    lastWrite = performance.now();
    const s = store.getState();
    const search = formatUrlState(s, location.search);
    const now = historyKeys(s);
    let push = false;
    if (now.step !== written.step) push = true;
    if (now.drag !== written.drag) {
      if (lastWrite - dragChangedAt > HISTORY_GAP_MS) push = true;
      dragChangedAt = lastWrite;
    }
    written = now;
    if (push && search !== location.search) history.pushState(null, '', search + location.hash);
    else if (search !== location.search) history.replaceState(history.state, '', search + location.hash);
  };
  const unsubUrl = store.subscribe(
    (s) => [s.camera, s.zoom, s.level, s.layers, s.flatten, keyOf(s)],
    () => {
      if (timer) return;
      timer = setTimeout(write, Math.max(0, URL_WRITE_MS - (performance.now() - lastWrite)));
    },
    { equalityFn: shallow },
  );
  const onPop = () => {
    applyLink(store, location.search, false);
    written = historyKeys(store.getState());
  };
  addEventListener('popstate', onPop);
  return () => {
    unsubUrl();
    removeEventListener('popstate', onPop);
    if (timer) clearTimeout(timer);
  };
}

/**
 * The one way drivers start: every feature's drivers (their entries in src/app/features.ts,
 * `drivers`) are started here, by boot, each with the one store (shell/store.ts) and each kept
 * with its stop function. A driver is plain code that watches the store and does the work
 * nothing renders (workers, polls, the address bar): no component starts one.
 *
 * When a driver runs (`when`):
 * - `boot` (the default): from boot, in the list's order, right after the link is applied;
 * - `firstFrame`: once the scene has drawn its first frame (globe/firstFrame.ts), for work the
 *   first screen does not need;
 * - a test of the state (such as `s.tab === 'nodes'`): started when it turns true and stopped
 *   when it turns false (a tab's poll runs while the tab is open).
 * A driver not on the first screen loads its module on demand (`start` returns a promise of
 * the stop function), so it stays out of the first screen's JavaScript (shell/firstScreen.test.ts).
 */
import type { AppState } from './store';
import type { AppStore } from './types';
import { afterFirstFrame } from '../globe/firstFrame';

/** A feature's driver, as its entry in src/app/features.ts names it. */
export interface Driver {
  /** Its name: the function that starts it (for messages and the house's tests). */
  name: string;
  /** When it runs (see above); `boot` when absent. */
  when?: 'boot' | 'firstFrame' | ((s: AppState) => boolean);
  /** Starts it for the store; returns (or resolves to) its stop function. */
  start: (store: AppStore) => (() => void) | Promise<() => void>;
}

/** A started driver: its name and how to stop it. */
export interface Running {
  name: string;
  stop: () => void;
}

/** launch starts one driver now, whether its start is synchronous or loads its module first. */
function launch(store: AppStore, d: Driver): () => void {
  const started = d.start(store);
  if (typeof started === 'function') return started;
  let stopped = false;
  let stop: (() => void) | null = null;
  started.then(
    (s) => (stopped ? s() : (stop = s)),
    (e: Error) => console.warn(`geoshard: ${d.name} did not start: ${e.message}`),
  );
  return () => {
    stopped = true;
    stop?.();
    stop = null;
  };
}

/** startDriver starts a driver by its `when` and returns its stop function (which also stops the watching). */
export function startDriver(store: AppStore, d: Driver): () => void {
  const when = d.when ?? 'boot';
  if (when === 'boot') return launch(store, d);
  let stop: (() => void) | null = null;
  let ended = false;
  if (when === 'firstFrame') {
    void afterFirstFrame().then(() => {
      if (!ended) stop = launch(store, d);
    });
    return () => {
      ended = true;
      stop?.();
    };
  }
  const sync = (on: boolean) => {
    if (on && !stop) stop = launch(store, d);
    else if (!on && stop) {
      stop();
      stop = null;
    }
  };
  sync(when(store.getState()));
  const unsub = store.subscribe(when, sync);
  return () => {
    unsub();
    sync(false);
  };
}

/** startDrivers starts every driver of the features, in order; returns each with its stop function. */
export function startDrivers(store: AppStore, features: readonly { drivers?: readonly Driver[] }[]): Running[] {
  return features.flatMap((f) => f.drivers ?? []).map((d) => ({ name: d.name, stop: startDriver(store, d) }));
}

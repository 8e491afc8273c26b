/**
 * The explorer's store: one zustand vanilla store built from slices.
 *
 * One way to reach it: it is handed in. The entry (main.tsx) makes the page's one store with
 * createAppStore and hands it to React (<StoreContext.Provider>) and to boot, which hands it to
 * every driver (shell/drivers.ts: workers, polls, the address bar). React code reaches it
 * through the context: useApp(selector) to read, and useAppStore() for the store itself, to act
 * (appStore.getState().action() in an event handler) and to watch per frame
 * (appStore.subscribe()). Code outside React takes it as an argument. No module holds a store
 * of its own, so a unit test hands a driver, or a component, its own createAppStore().
 * src/app/kit.test.ts checks the rules.
 *
 * Each slice lives in its own file (state and the actions that change it),
 * declares its fields on AppState itself (see types.ts) and is listed in
 * SLICES: the host's data and view slices, each feature's (src/app/features.ts lists them), and
 * the shell's. To add a feature's slice, add it to its entry in FEATURES.
 *
 * React components select narrowly with useApp(s => s.level). Values that
 * change every frame or every pointer move (camera, hover) are read with
 * store.getState() in the render loop or watched with
 * store.subscribe(selector, listener, { equalityFn: shallow }) (the
 * subscribeWithSelector middleware) and written straight to the DOM: they
 * never go through React state.
 */
import { createStore } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import { useStore } from 'zustand';
import { createContext, useContext, useMemo } from 'react';
import type { AppState, AppStore, SliceCreator } from './types';
import type { Watched } from '../globe/watched';
import { createDataSlice } from './dataSlice';
import { createViewSlice } from '../globe/viewSlice';
import { FEATURES } from '../features';
import { createShellSlice } from './shellSlice';

export type { AppState } from './types';

const SLICES: SliceCreator<object>[] = [createDataSlice, createViewSlice, ...FEATURES.flatMap((f) => (f.slice ? [f.slice] : [])), createShellSlice];

/** createAppStore returns a new store with every slice (tests make their own). */
export function createAppStore() {
  return createStore<AppState>()(subscribeWithSelector((...a) => Object.assign({}, ...SLICES.map((slice) => slice(...a))) as AppState));
}

/** The store React renders with: main.tsx provides the page's; a test provides its own. */
export const StoreContext = createContext<AppStore | null>(null);

/** useAppStore returns the store React renders with (to act on it, or to watch it per frame). */
export function useAppStore(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('geoshard: no store here: render the explorer inside <StoreContext.Provider value={createAppStore()}> (main.tsx does)');
  return store;
}

/** useApp selects from the store in a React component; select a primitive or a stable reference. */
export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(useAppStore(), selector);
}

/**
 * useWatched hands a slice of the store to the kit's layers (globe/watched.ts, globe/CellLayer.tsx),
 * which redraw on each new value without a React render. The selector and equality (Object.is
 * unless given) are taken when the component mounts: pass functions that do not change.
 */
export function useWatched<T>(selector: (s: AppState) => T, equalityFn: (a: T, b: T) => boolean = Object.is): Watched<T> {
  const store = useAppStore();
  return useMemo(() => ({ get: () => selector(store.getState()), subscribe: (listener: (value: T) => void) => store.subscribe(selector, listener, { equalityFn }) }), [store]);
}

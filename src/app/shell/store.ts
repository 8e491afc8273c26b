/**
 * The explorer's store: one zustand vanilla store built from slices.
 *
 * One way to reach it. The store is made once, here (`appStore`, the shell's; nothing else
 * outside tests calls createAppStore). React code (components, hooks, and the helpers their
 * event handlers call) reaches it through this module: useApp(selector) to read, and
 * appStore.getState().action() or appStore.subscribe() to act and to watch per frame. Code that
 * runs outside React (the drivers: workers, polls, the address bar) never imports it: each
 * takes the store as its argument, handed by boot (main.tsx passes `appStore` to boot, the one
 * place drivers start: shell/drivers.ts), so a unit test hands a driver its own
 * createAppStore(). No component starts a driver. src/app/kit.test.ts checks all three.
 *
 * Why not a React context: a provided store would have to reach the ~50 components that act on
 * the store in event handlers (appStore.getState().x()), each edited to take it from a hook;
 * with one store per page it would change no behaviour, so the module stays the way in and the
 * rule above keeps drivers free of it.
 *
 * Each slice lives in its own file (state and the actions that change it),
 * declares its fields on AppState itself (see types.ts) and is listed in
 * SLICES: the host's data and view slices, each feature's (src/app/features.ts lists them), and
 * the shell's. To add a feature's slice, add it to its entry in FEATURES.
 *
 * React components select narrowly with useApp(s => s.level). Values that
 * change every frame or every pointer move (camera, hover) are read with
 * appStore.getState() in the render loop or watched with
 * appStore.subscribe(selector, listener, { equalityFn: shallow }) (the
 * subscribeWithSelector middleware) and written straight to the DOM: they
 * never go through React state.
 */
import { createStore } from 'zustand/vanilla';
import { subscribeWithSelector } from 'zustand/middleware';
import { useStore } from 'zustand';
import type { AppState, SliceCreator } from './types';
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

/** The app's store. */
export const appStore = createAppStore();

/** useApp selects from the store in a React component; select a primitive or a stable reference. */
export function useApp<T>(selector: (s: AppState) => T): T {
  return useStore(appStore, selector);
}

/** resetAppStore puts the store back to its initial state (tests call it before each test). */
export function resetAppStore(): void {
  appStore.setState(appStore.getInitialState(), true);
}

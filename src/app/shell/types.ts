/**
 * The explorer's state type. Each slice file merges its own fields into
 * AppState (TypeScript declaration merging), so adding a slice never edits
 * this file: see index.ts.
 */
import type { StateCreator, StoreApi, Mutate } from 'zustand/vanilla';

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface AppState {}

/** A slice: a function of zustand's (set, get, api) returning the slice's fields and actions. */
export type SliceCreator<T> = StateCreator<AppState, [], [], T>;

/** The app's store: a vanilla store with the subscribeWithSelector middleware (subscribe(selector, listener, { equalityFn })). */
export type AppStore = Mutate<StoreApi<AppState>, [['zustand/subscribeWithSelector', never]]>;

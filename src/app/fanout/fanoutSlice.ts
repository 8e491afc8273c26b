/**
 * The fan-out map layer's state (fanoutLayer.ts writes it; FanoutControl and
 * FanoutMap read it): the grids and the share for the current radius, and
 * what the worker is doing. Whether the layer is on is the search's `fanout`
 * (it is part of the link).
 */
import type { SliceCreator } from '../shell/types';
import type { FanoutShare } from '../../core/fanoutShare.ts';
import type { FanoutGridResult } from './fanoutWorker';

export interface FanoutState {
  /** The radius the layer is for, km (0 when off). */
  radiusKm: number;
  /** The world grid of that radius, once computed. */
  world: FanoutGridResult | null;
  /** The detail grid of the current view, when zoomed in and computed. */
  detail: FanoutGridResult | null;
  /** The weighted share for the radius, once computed. */
  share: FanoutShare | null;
  /** What the worker is doing: '' when idle. */
  busy: '' | 'world' | 'detail' | 'share' | 'starting';
  /** The last problem, '' when none. */
  error: string;
}

/** The layer with nothing computed. */
export const EMPTY_FANOUT: Readonly<FanoutState> = Object.freeze({ radiusKm: 0, world: null, detail: null, share: null, busy: '' as const, error: '' });

export interface FanoutSlice {
  /** The layer's state (a new object after every change). */
  fanoutLayer: FanoutState;
  /** Merges a change into fanoutLayer; written by fanoutLayer.ts only. */
  patchFanoutLayer: (patch: Partial<FanoutState>) => void;
}

declare module '../shell/types' {
  interface AppState extends FanoutSlice {}
}

export const createFanoutSlice: SliceCreator<FanoutSlice> = (set, get) => ({
  fanoutLayer: { ...EMPTY_FANOUT },
  patchFanoutLayer: (patch) => set({ fanoutLayer: { ...get().fanoutLayer, ...patch } }),
});

/**
 * Slot: a place inside one feature's view where other features show their part (Write mode
 * under Live's switch, the lost-node note in Live's results, the fan-out control in the Radius
 * tab, the moving ranges on the Hilbert ribbon, the workload picker in the review). Each part
 * is registered in its own feature's entry of src/app/featureViews.ts (`slots`); shell/App.tsx
 * provides them (shell/panels.ts, SLOT_VIEWS) through SlotContext, so the feature that holds
 * the slot names only the slot, never the feature that fills it.
 */
import { createContext, createElement, Fragment, useContext, type ComponentType } from 'react';

/** The slots, by the view that holds them. */
export type SlotId = 'live-write' | 'live-placement' | 'radius-fanout' | 'ribbon-marks' | 'review-workload-picker' | 'review-workload-status';

/** Each slot's parts, in order (empty where nothing provides them, as in a unit test). */
export const SlotContext = createContext<Partial<Record<SlotId, ComponentType[]>>>({});

/** Slot renders the parts registered for `name`, in order. */
export function Slot({ name }: { name: SlotId }) {
  const parts = useContext(SlotContext)[name] ?? [];
  return createElement(Fragment, null, ...parts.map((Part, i) => createElement(Part, { key: i })));
}

/**
 * The shell's slots, each the features' entries for it (src/app/featureViews.ts) in order: the
 * side panel's tabs (the features' and then the shell's own "How to read"), the globe's scene
 * layers, overlays, controls and layer legends (shell/App.tsx hands them to GlobeView), and the
 * strips below the globe, and the parts features show inside each other's views (slots). To add a panel or a layer, add it to its feature's entry there.
 */
import type { ComponentType } from 'react';
import { FEATURE_VIEWS, type PanelDef, type StripDef } from '../featureViews';
import type { SlotId } from './Slot';
import { onDemand } from './lazy';
import type { Layer } from './url';

export type { PanelDef } from '../featureViews';

const byAt = <T extends { at: number }>(list: T[]): T[] => list.slice().sort((a, b) => a.at - b.at);

export const PANELS: PanelDef[] = [
  ...FEATURE_VIEWS.flatMap((f) => f.panels ?? []),
  { id: 'about', title: 'How to read', Component: onDemand(() => import('./AboutPanel').then((m) => m.AboutPanel)) },
];

/** The globe's scene layers, in drawing order (GlobeCanvas mounts them after its own). */
export const SCENE_LAYERS: ComponentType[] = byAt(FEATURE_VIEWS.flatMap((f) => f.scene ?? [])).map((l) => l.Component);

/** What the features lay over the globe, after its canvas. */
export const GLOBE_OVERLAYS: ComponentType[] = FEATURE_VIEWS.flatMap((f) => f.globeOverlays ?? []);

/** The features' controls in the globe's top-left corner, after the level and layer switches. */
export const GLOBE_CONTROLS: ComponentType[] = FEATURE_VIEWS.flatMap((f) => f.globeControls ?? []);

/** The legends shown under the layer switches while their layer is on. */
export const LAYER_LEGENDS: { layer: Layer; Component: ComponentType }[] = FEATURE_VIEWS.flatMap((f) => f.layerLegends ?? []);

/** The strips below the globe, in order. */
export const STRIP_VIEWS: StripDef[] = byAt(FEATURE_VIEWS.flatMap((f) => f.strips ?? []));

/** Each slot's parts (shell/Slot.tsx), in order of `at`: App provides them through SlotContext. */
export const SLOT_VIEWS: Partial<Record<SlotId, ComponentType[]>> = {};
for (const part of byAt(FEATURE_VIEWS.flatMap((f) => f.slots ?? []))) (SLOT_VIEWS[part.slot] ??= []).push(part.Component);

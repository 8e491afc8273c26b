/**
 * What each feature draws and shows, in one list (the same features as features.ts, which
 * holds their slices and drivers): its tabs in the side panel, its layers in the globe's scene,
 * its readouts and controls over the globe, its legend beside a layer switch, and its strips
 * below the globe. The shell loops over it (shell/panels.ts derives each slot's list and
 * shell/App.tsx hands the globe's to GlobeView), so the rendering kit (globe/) mounts what
 * it is given and imports no feature (src/app/kit.test.ts).
 *
 * Components not on the first screen load on demand (shell/lazy.ts). The tabs show in this
 * list's order, then the shell's own ("How to read"); scene layers and strips take their
 * place by `at` (the scene draws in that order after the shard surface, coastlines, Hilbert
 * curve and pointer controls; each layer's frame callback runs after FrameDriver's).
 */
import { createElement, type ComponentType } from 'react';
import type { AppState } from './shell/types';
import type { Layer } from './shell/url';
import type { StripId } from './shell/shellSlice';
import { onDemand, whileCandidate, whileWriteMode, afterFirstFrame } from './shell/lazy';
import type { SlotId } from './shell/Slot';
import { SearchVeil } from './search/SearchVeil';
import { SearchResult } from './search/SearchResult';
import { CoveringCells } from './search/CoveringCells';
import { SearchCircle } from './search/SearchCircle';
import { SearchPicker } from './search/SearchPicker';
import { PastedCell } from './search/PastedCell';
import { FanoutMap } from './fanout/FanoutMap';
import { IndexBar } from './shards/IndexBar';
import { Ribbon } from './shards/Ribbon';
import { RequestsLayer } from './requests/RequestsLayer';
import { MovingMarks } from './migration/MovingMarks';

export interface PanelDef {
  /** Stable id, also the tab's test id (`tab-<id>`). */
  id: string;
  title: string;
  Component: ComponentType;
}

/** A part of the globe's scene (a child of the WebGL canvas), drawn in the order of `at`. */
export interface SceneLayer {
  at: number;
  Component: ComponentType;
}

/** A strip below the globe (shell/Strip.tsx), in the order of `at`; `show` hides it (kept mounted) when false. */
export interface StripDef {
  at: number;
  id: StripId;
  title: string;
  Component: ComponentType;
  show?: (s: AppState) => boolean;
}

export interface FeatureViews {
  /** The feature's folder under src/app (as in features.ts). */
  id: string;
  /** Its side-panel tabs. */
  panels?: PanelDef[];
  /** Its parts of the globe's scene. */
  scene?: SceneLayer[];
  /** What it lays over the globe (HTML, after the canvas). */
  globeOverlays?: ComponentType[];
  /** Its controls in the globe's top-left corner, after the level and layer switches. */
  globeControls?: ComponentType[];
  /** Its legend, shown under the layer switches while `layer` is on. */
  layerLegends?: { layer: Layer; Component: ComponentType }[];
  /** Its strips below the globe. */
  strips?: StripDef[];
  /** Its parts inside another feature's view (shell/Slot.tsx), in the order of `at` within each slot. */
  slots?: SlotPart[];
}

/** A feature's part shown in a slot of another feature's view (shell/Slot.tsx). */
export interface SlotPart {
  slot: SlotId;
  at: number;
  Component: ComponentType;
}

/**
 * radiusPanel is the Radius tab: the result (SearchResult: cells, shards, routing), in the first
 * screen's JavaScript and mounted as the globe's first frame is drawn, so a search link's answer
 * shows with that frame; the controls above it and the tables below it load after that frame,
 * one chunk for both (search/RadiusPanel.tsx). Mounting the result before the first frame drew
 * it earlier but made the globe's first frame later (docs/performance-lab-notes.md).
 */
function radiusPanel(): ComponentType {
  const load = () => import('./search/RadiusPanel');
  const Top = afterFirstFrame(onDemand(() => load().then((m) => m.RadiusPanelTop), null));
  const Result = afterFirstFrame(SearchResult, { withFrame: true });
  const Rest = afterFirstFrame(onDemand(() => load().then((m) => m.RadiusPanelRest), null));
  return function RadiusTab() {
    return createElement('div', { className: 'radius-panel' }, createElement(Top), createElement(Result), createElement(Rest));
  };
}

export const FEATURE_VIEWS: readonly FeatureViews[] = [
  {
    id: 'search',
    // The search's answer (cells, shards, routing) is in the first screen's JavaScript, shown as
    // the globe's first frame is drawn; the rest of the tab loads after that frame (radiusPanel).
    panels: [{ id: 'radius', title: 'Radius search', Component: radiusPanel() }],
    // The veil that dims what the search does not ask, then (after the fan-out map) the
    // covering's cells, the circle with its centre pin, click-to-pick and a pasted cell.
    scene: [
      { at: 20, Component: SearchVeil },
      { at: 22, Component: CoveringCells },
      { at: 23, Component: SearchCircle },
      { at: 24, Component: SearchPicker },
      // The S2 cell pasted into the search box, outlined over everything of the search.
      { at: 25, Component: PastedCell },
    ],
  },
  // The fan-out map, drawn over the search's veil and under its covering.
  {
    id: 'fanout',
    scene: [{ at: 21, Component: FanoutMap }],
    // Its switch and legend in the Radius tab, under the result (loaded with the tab's content).
    slots: [{ slot: 'radius-fanout', at: 10, Component: onDemand(() => import('./fanout/FanoutControl').then((m) => m.FanoutControl), null) }],
  },
  { id: 'live', panels: [{ id: 'live', title: 'Live', Component: onDemand(() => import('./live/LivePanel').then((m) => m.LivePanel)) }] },
  {
    id: 'nodes',
    panels: [{ id: 'nodes', title: 'Nodes', Component: onDemand(() => import('./nodes/NodesPanel').then((m) => m.NodesPanel)) }],
    // The "color regions by" switch, loaded after the first frame.
    globeControls: [afterFirstFrame(onDemand(() => import('./nodes/ColorBy').then((m) => m.ColorBy), null))],
    // What a lost node cost a live search, in Live's results.
    slots: [{ slot: 'live-placement', at: 10, Component: onDemand(() => import('./nodes/PlacementNote').then((m) => m.PlacementNote), null) }],
  },
  { id: 'traffic', panels: [{ id: 'traffic', title: 'Traffic', Component: onDemand(() => import('./traffic/TrafficPanel').then((m) => m.TrafficPanel)) }] },
  {
    id: 'review',
    panels: [{ id: 'review', title: 'Review', Component: onDemand(() => import('./review/ReviewPanel').then((m) => m.ReviewPanel)) }],
    // The review's diff drawn on the globe, loaded while there is a candidate.
    scene: [{ at: 30, Component: whileCandidate(onDemand(() => import('./review/DiffOverlay').then((m) => m.DiffOverlay), null)) }],
    // The review's hover readout over the globe, loaded while there is a candidate.
    globeOverlays: [whileCandidate(onDemand(() => import('./review/ReviewHover').then((m) => m.ReviewHover), null))],
    // The review's ribbon, loaded after the first frame: it also opens `?candidate=` links and takes dropped files.
    strips: [{ at: 30, id: 'review', title: 'Boundary review', Component: afterFirstFrame(onDemand(() => import('./review/ReviewRibbon').then((m) => m.ReviewRibbon), null)), show: (s) => s.candidate !== null }],
  },
  {
    id: 'migration',
    panels: [{ id: 'migration', title: 'Migration', Component: onDemand(() => import('./migration/MigrationPanel').then((m) => m.MigrationPanel)) }],
    // The ranges a live migration is moving, marked on the Hilbert ribbon (a first-screen strip).
    slots: [{ slot: 'ribbon-marks', at: 10, Component: MovingMarks }],
  },
  {
    id: 'shards',
    panels: [{ id: 'shards', title: 'Shards', Component: onDemand(() => import('./shards/ShardsPanel').then((m) => m.ShardsPanel)) }],
    // The strips are on the first screen: they set the globe's height (a strip that came later
    // would resize the canvas after its first frame), and the ribbon's 2D canvas needs a command
    // buffer of the GPU process, which, asked for once the globe's frames fill that process
    // (software WebGL), held the main thread for 0.8-2.5 s.
    strips: [
      { at: 10, id: 'index', title: 'Index shards', Component: IndexBar },
      { at: 20, id: 'ribbon', title: 'Hilbert ribbon', Component: Ribbon },
    ],
  },
  {
    id: 'requests',
    scene: [{ at: 10, Component: RequestsLayer }],
    // The legend, loaded when the requests layer is first switched on.
    layerLegends: [{ layer: 'requests', Component: onDemand(() => import('./requests/RequestsLegend').then((m) => m.RequestsLegend), null) }],
    // The workload's picker and status in the review's load figures (loaded with them).
    slots: [
      { slot: 'review-workload-picker', at: 10, Component: onDemand(() => import('./requests/RequestsLegend').then((m) => () => createElement(m.WorkloadPicker, { testid: 'review-workload-input' })), null) },
      { slot: 'review-workload-status', at: 10, Component: onDemand(() => import('./requests/RequestsLegend').then((m) => m.WorkloadStatus), null) },
    ],
  },
  // Write mode's click-to-place and pins, loaded while the Write switch is on.
  {
    id: 'write',
    scene: [{ at: 40, Component: whileWriteMode(onDemand(() => import('./write/WriteLayers').then((m) => m.WriteLayers), null)) }],
    // The Write section under Live's switch (loaded with the Live tab).
    slots: [{ slot: 'live-write', at: 10, Component: onDemand(() => import('./write/WriteMode').then((m) => m.WriteMode), null) }],
  },
];

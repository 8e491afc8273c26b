/**
 * The tabs of the right-hand side panel, in order, and the explorer's lazy
 * boundaries. To add a panel (the radius explorer, live mode, boundary
 * review...), write <feature>/YourPanel.tsx exporting a component and add one
 * entry here.
 *
 * The first screen is the globe and the Radius tab; everything else loads on
 * demand, in its own chunk, so it is not in the first screen's JavaScript:
 * the other tabs when first opened; the review's ribbon (which also wires
 * `?candidate=` links and dropped files) once the first frame is drawn; the
 * review's overlay on the globe and its hover only while there is a
 * candidate. bench/globe.perf.ts measures what the first screen loads.
 */
import { createElement, lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { RadiusPanel } from '../search/RadiusPanel';
import { useApp } from './store';
import { afterFirstFrame as firstFrameDrawn } from '../globe/firstFrame';

export interface PanelDef {
  /** Stable id, also the tab's test id (`tab-<id>`). */
  id: string;
  title: string;
  Component: ComponentType;
}

/** onDemand returns a component that loads its chunk when first rendered, showing `fallback` meanwhile. */
function onDemand(load: () => Promise<ComponentType>, fallback: string | null = 'Loading…'): ComponentType {
  const Lazy = lazy(() => load().then((Component) => ({ default: Component })));
  return function OnDemand() {
    return createElement(Suspense, { fallback: fallback === null ? null : createElement('p', { className: 'dim' }, fallback) }, createElement(Lazy));
  };
}

/** whileCandidate renders a component (loading it then) only while a candidate is under review. */
function whileCandidate(Component: ComponentType): ComponentType {
  return function WhileCandidate() {
    return useApp((s) => s.candidate !== null) ? createElement(Component) : null;
  };
}

/** whileWriteMode renders a component (loading it then) only while the Live tab's Write switch is on. */
function whileWriteMode(Component: ComponentType): ComponentType {
  return function WhileWriteMode() {
    return useApp((s) => s.writeMode) ? createElement(Component) : null;
  };
}

/** afterFirstFrame renders a component once the scene has drawn its first frame (document.body.dataset.ready). */
function afterFirstFrame(Component: ComponentType): ComponentType {
  return function AfterFirstFrame() {
    const [ready, setReady] = useState(() => document.body.dataset.ready === 'true');
    useEffect(() => {
      if (ready) return;
      let live = true;
      void firstFrameDrawn().then(() => live && setReady(true));
      return () => void (live = false);
    }, [ready]);
    return ready ? createElement(Component) : null;
  };
}

export const PANELS: PanelDef[] = [
  { id: 'radius', title: 'Radius search', Component: RadiusPanel },
  { id: 'live', title: 'Live', Component: onDemand(() => import('../live/LivePanel').then((m) => m.LivePanel)) },
  { id: 'nodes', title: 'Nodes', Component: onDemand(() => import('../nodes/NodesPanel').then((m) => m.NodesPanel)) },
  { id: 'review', title: 'Review', Component: onDemand(() => import('../review/ReviewPanel').then((m) => m.ReviewPanel)) },
  { id: 'migration', title: 'Migration', Component: onDemand(() => import('../migration/MigrationPanel').then((m) => m.MigrationPanel)) },
  { id: 'shards', title: 'Shards', Component: onDemand(() => import('../shards/ShardsPanel').then((m) => m.ShardsPanel)) },
  { id: 'about', title: 'How to read', Component: onDemand(() => import('./AboutPanel').then((m) => m.AboutPanel)) },
];

/** The review's ribbon below the globe (App), loaded after the first frame: it also opens `?candidate=` links and takes dropped files. */
export const ReviewRibbon = afterFirstFrame(onDemand(() => import('../review/ReviewRibbon').then((m) => m.ReviewRibbon), null));

/** The review's diff drawn on the globe (GlobeCanvas), loaded while there is a candidate. */
export const DiffOverlay = whileCandidate(onDemand(() => import('../review/DiffOverlay').then((m) => m.DiffOverlay), null));

/** The review's hover readout over the globe (GlobeView), loaded while there is a candidate. */
export const ReviewHover = whileCandidate(onDemand(() => import('../review/ReviewHover').then((m) => m.ReviewHover), null));

/** Write mode's click-to-place and pins on the globe (GlobeCanvas), loaded while the Write switch is on. */
export const WriteLayers = whileWriteMode(onDemand(() => import('../write/WriteLayers').then((m) => m.WriteLayers), null));

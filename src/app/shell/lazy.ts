/**
 * The explorer's lazy boundaries: wrappers that load a component's chunk only when it is needed
 * (src/app/featureViews.ts uses them). The first screen is the globe and the Radius tab;
 * everything else loads on demand, in its own chunk, so it is not in the first screen's
 * JavaScript: the other tabs when first opened; the review's ribbon (which also wires
 * `?candidate=` links and dropped files) once the first frame is drawn; the review's overlay on
 * the globe and its hover only while there is a candidate; Write mode's layers only while its
 * switch is on. bench/globe.perf.ts measures what the first screen loads.
 */
import { createElement, lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { flushSync } from 'react-dom';
import { useApp } from './store';
import { afterFirstFrame as firstFrameDrawn } from '../globe/firstFrame';

/** onDemand returns a component that loads its chunk when first rendered, showing `fallback` meanwhile. */
export function onDemand(load: () => Promise<ComponentType>, fallback: string | null = 'Loading…'): ComponentType {
  const Lazy = lazy(() => load().then((Component) => ({ default: Component })));
  return function OnDemand() {
    return createElement(Suspense, { fallback: fallback === null ? null : createElement('p', { className: 'dim' }, fallback) }, createElement(Lazy));
  };
}

/** whileCandidate renders a component (loading it then) only while a candidate is under review. */
export function whileCandidate(Component: ComponentType): ComponentType {
  return function WhileCandidate() {
    return useApp((s) => s.candidate !== null) ? createElement(Component) : null;
  };
}

/** whileWriteMode renders a component (loading it then) only while the Live tab's Write switch is on. */
export function whileWriteMode(Component: ComponentType): ComponentType {
  return function WhileWriteMode() {
    return useApp((s) => s.writeMode) ? createElement(Component) : null;
  };
}

/**
 * afterFirstFrame renders a component once the scene has drawn its first frame
 * (document.body.dataset.ready). With `withFrame`, it renders and commits at that moment
 * (flushSync, in the microtask that sees the frame drawn), ahead of the work the first frame lets
 * start (chunks, workers, the materials' compile): for what a person opened the page to read.
 */
export function afterFirstFrame(Component: ComponentType, opts: { withFrame?: boolean } = {}): ComponentType {
  return function AfterFirstFrame() {
    const [ready, setReady] = useState(() => document.body.dataset.ready === 'true');
    useEffect(() => {
      if (ready) return;
      let live = true;
      void firstFrameDrawn().then(() => {
        if (!live) return;
        if (opts.withFrame) flushSync(() => setReady(true));
        else setReady(true);
      });
      return () => void (live = false);
    }, [ready]);
    return ready ? createElement(Component) : null;
  };
}

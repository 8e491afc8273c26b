/**
 * The explorer's layout: header (with the "?" and Tour buttons and the
 * colors' caption), the link's notice, the globe beside a tabbed side panel
 * (shell/panels.ts lists the tabs; below 900 px the panel is a bottom sheet
 * under the globe), and the collapsible strips: index bar, Hilbert ribbon,
 * review ribbon. The features' parts of the globe and the strips come from
 * src/app/featureViews.ts, through shell/panels.ts. The hover readout shows only while something is under the
 * pointer.
 */
import { useEffect, useRef } from 'react';
import { Header } from './Header';
import { GlobeView } from '../globe/GlobeView';
import { SidePanel } from './SidePanel';
import { DataError } from './DataError';
import { SCENE_LAYERS, GLOBE_OVERLAYS, GLOBE_CONTROLS, LAYER_LEGENDS, STRIP_VIEWS, SLOT_VIEWS } from './panels';
import { SlotContext } from './Slot';
import type { StripDef } from '../featureViews';
import { UrlNotice } from './UrlNotice';
import { Strip, loadStripPrefs } from './Strip';
import { afterFirstFrame, onDemand } from './lazy';
import { useAppStore, useApp } from './store';

export function App() {
  const appStore = useAppStore();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    loadStripPrefs(appStore);
    // The readout hides when empty (no React render per pointer move: an attribute written here).
    const mark = (has: boolean) => root.current?.toggleAttribute('data-hover', has);
    mark(appStore.getState().hover !== null);
    return appStore.subscribe((s) => s.hover !== null, mark);
  }, []);
  return (
    <SlotContext.Provider value={SLOT_VIEWS}>
      <div className="app" ref={root}>
        <Header />
        <DataError />
        <main className="stage">
          <GlobeView scene={SCENE_LAYERS} overlays={GLOBE_OVERLAYS} controls={GLOBE_CONTROLS} legends={LAYER_LEGENDS} />
          <UrlNotice />
          <SidePanel />
          <Tour />
        </main>
        <footer className="strips">
          {STRIP_VIEWS.map((strip) => (
            <StripSlot key={strip.id} strip={strip} />
          ))}
        </footer>
      </div>
    </SlotContext.Provider>
  );
}

// The guided demo's card (`?tour=N`), loaded after the globe's first frame.
const Tour = afterFirstFrame(onDemand(() => import('../tour/Tour').then((m) => m.Tour), null));

const always = () => true;

/** StripSlot: one feature's strip, shown while its `show` holds. */
function StripSlot({ strip }: { strip: StripDef }) {
  const show = useApp(strip.show ?? always);
  return (
    <Strip id={strip.id} title={strip.title} show={show}>
      <strip.Component />
    </Strip>
  );
}

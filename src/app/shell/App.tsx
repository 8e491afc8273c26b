/**
 * The explorer's layout: header (with the "?" and Tour buttons and the
 * colours' caption), the link's notice, the globe beside a tabbed side panel
 * (shell/panels.ts lists the tabs; below 900 px the panel is a bottom sheet
 * under the globe), and the collapsible strips: index bar, Hilbert ribbon,
 * review ribbon. The hover readout shows only while something is under the
 * pointer.
 */
import { useEffect, useRef } from 'react';
import { Header } from './Header';
import { GlobeView } from '../globe/GlobeView';
import { SidePanel } from './SidePanel';
import { IndexBar } from '../shards/IndexBar';
import { Ribbon } from '../shards/Ribbon';
import { DataError } from './DataError';
import { ReviewRibbon } from './panels';
import { UrlNotice } from './UrlNotice';
import { Strip, loadStripPrefs } from './Strip';
import { Tour } from '../tour/Tour';
import { appStore, useApp } from './store';

export function App() {
  const root = useRef<HTMLDivElement>(null);
  const reviewing = useApp((s) => s.candidate !== null);
  useEffect(() => {
    loadStripPrefs();
    // The readout hides when empty (no React render per pointer move: an attribute written here).
    const mark = (has: boolean) => root.current?.toggleAttribute('data-hover', has);
    mark(appStore.getState().hover !== null);
    return appStore.subscribe((s) => s.hover !== null, mark);
  }, []);
  return (
    <div className="app" ref={root}>
      <Header />
      <DataError />
      <main className="stage">
        <GlobeView />
        <UrlNotice />
        <SidePanel />
        <Tour />
      </main>
      <footer className="strips">
        <Strip id="index" title="Index shards">
          <IndexBar />
        </Strip>
        <Strip id="ribbon" title="Hilbert ribbon">
          <Ribbon />
        </Strip>
        <Strip id="review" title="Boundary review" show={reviewing}>
          <ReviewRibbon />
        </Strip>
      </footer>
    </div>
  );
}

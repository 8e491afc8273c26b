/**
 * The explorer's layout: header; the globe beside a tabbed side panel
 * (ui/panels.ts lists the tabs); the index bar and the Hilbert ribbon below.
 */
import { Header } from './ui/Header';
import { GlobeView } from './ui/GlobeView';
import { SidePanel } from './ui/SidePanel';
import { IndexBar } from './ui/IndexBar';
import { Ribbon } from './ui/Ribbon';
import { DataError } from './ui/DataError';
import { ReviewRibbon } from './ui/ReviewRibbon';

export function App() {
  return (
    <div className="app">
      <Header />
      <DataError />
      <main className="stage">
        <GlobeView />
        <SidePanel />
      </main>
      <footer className="strips">
        <IndexBar />
        <Ribbon />
        <ReviewRibbon />
      </footer>
    </div>
  );
}

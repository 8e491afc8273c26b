/**
 * The explorer's layout: header; the globe beside a tabbed side panel
 * (shell/panels.ts lists the tabs); the index bar and the Hilbert ribbon below.
 */
import { Header } from './Header';
import { GlobeView } from '../globe/GlobeView';
import { SidePanel } from './SidePanel';
import { IndexBar } from '../shards/IndexBar';
import { Ribbon } from '../shards/Ribbon';
import { DataError } from './DataError';
import { ReviewRibbon } from './panels';

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

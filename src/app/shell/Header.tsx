/**
 * Header: the explorer's name, the boundary file on display, the "?" (How to
 * read) and Tour buttons, and a one-line caption of what the colors mean.
 */
import { useAppStore, useApp } from './store';
import { readyData } from './dataSlice';
import { goToStep } from '../tour/tour';

/** What the colors mean, in one line. */
const CAPTION = 'Each colour is one shard, a stretch of the Hilbert curve: nearby places share a colour.';

export function Header() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const touring = useApp((s) => s.tour !== null);
  return (
    <header className="app-header">
      <div className="header-row">
        <h1>
          geoshard <span className="dim">explorer</span>
        </h1>
        {data && (
          <p className="file-info" data-testid="file-info">
            index <code>{data.file.index}</code> · <b>{data.file.numberOfShards}</b> shards · version {data.file.version} · <span className="mono dim">{data.file.hash.slice(0, 10)}</span> ·{' '}
            <span className="dim">{data.source}</span>
          </p>
        )}
        <div className="header-buttons">
          {!touring && (
            <button type="button" className="header-button" data-testid="tour-start" onClick={() => goToStep(1)} title="A guided walk through search locality, one step per link">
              Tour
            </button>
          )}
          <button type="button" className="header-button help" data-testid="help-button" aria-label="How to read" title="How to read" onClick={() => appStore.getState().setTab('about')}>
            ?
          </button>
        </div>
      </div>
      <p className="caption" data-testid="caption" title={CAPTION}>
        {CAPTION}
      </p>
    </header>
  );
}

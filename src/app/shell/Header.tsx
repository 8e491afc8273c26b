/** Header: the explorer's name and the boundary file on display. */
import { useApp } from './store';
import { readyData } from './dataSlice';

export function Header() {
  const data = useApp(readyData);
  return (
    <header className="app-header">
      <h1>
        geoshard <span className="dim">explorer</span>
      </h1>
      {data && (
        <p className="file-info" data-testid="file-info">
          index <code>{data.file.index}</code> · <b>{data.file.numberOfShards}</b> shards · version {data.file.version} · <span className="mono dim">{data.file.hash.slice(0, 10)}</span> ·{' '}
          <span className="dim">{data.source}</span>
        </p>
      )}
    </header>
  );
}

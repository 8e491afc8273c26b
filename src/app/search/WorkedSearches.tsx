/**
 * WorkedSearches: every sample city searched at every radius (5, 15, 25 and
 * 50 miles unless edited) → cells in the covering, shards asked and the
 * routing string, as `npx geoshard searches` prints it; exportable as CSV.
 * Computed by the core's workedSearches in a worker of its own (about 280
 * coverings take a few seconds), recomputed when the radii or the boundary
 * file change. Clicking a row searches it.
 */
import { Fragment, useEffect, useState } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { formatRadius } from '../../core/index';
import { parseRadii, formatShardCount, type WorkedSearch } from '../../core/searches';
import { runWorkedSearches } from '../globe/coveringWorker';
import { chooseCentre } from './search';
import { workedExport, download } from './export';
import { formatInt } from '../shell/format';

/** The article's radii, in miles. */
export const DEFAULT_WORKED_RADII = '5,15,25,50';

const makeWorker = () => new Worker(new URL('../globe/covering.worker.ts', import.meta.url), { type: 'module' });

export function WorkedSearches() {
  const appStore = useAppStore();
  const data = useApp(readyData);
  const cities = useApp((s) => s.cities);
  const [radiiText, setRadiiText] = useState(DEFAULT_WORKED_RADII);
  const [radiiError, setRadiiError] = useState('');
  const [result, setResult] = useState<{ rows: WorkedSearch[]; ms: number } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');

  useEffect(() => {
    if (!data || !cities.length) return;
    let radii;
    try {
      radii = parseRadii(radiiText, 'mi', 'radii');
      setRadiiError('');
    } catch (e) {
      setRadiiError((e as Error).message);
      return;
    }
    setBusy(true);
    setError('');
    const places = cities.map((c) => ({ name: c.name, state: c.state, lat: c.lat, lng: c.lng }));
    const job = runWorkedSearches(makeWorker, data.file, places, radii);
    let live = true;
    job.rows
      .then((r) => live && setResult(r))
      .catch((e: Error) => live && e.message !== 'cancelled' && setError(e.message))
      .finally(() => live && setBusy(false));
    return () => {
      live = false;
      job.cancel();
    };
  }, [data, cities, radiiText]);

  if (!data) return null;
  const N = data.router.numberOfShards;
  let previous = '';
  return (
    <div className="worked-searches">
      <div className="worked-controls">
        <label>
          radii{' '}
          <input
            type="text"
            defaultValue={DEFAULT_WORKED_RADII}
            aria-label="Radii, comma-separated (a bare number is miles)"
            aria-invalid={radiiError !== ''}
            data-testid="worked-radii"
            onKeyDown={(e) => e.key === 'Enter' && setRadiiText(e.currentTarget.value)}
            onBlur={(e) => setRadiiText(e.currentTarget.value)}
          />
        </label>
        <button type="button" className="chip" data-testid="export-worked" disabled={!result || busy} onClick={() => result && download(workedExport(result.rows))}>
          Export CSV
        </button>
      </div>
      {radiiError && (
        <p className="field-problem" role="alert">
          {radiiError}
        </p>
      )}
      {error && (
        <p className="field-problem" role="alert">
          {error}
        </p>
      )}
      {busy && <p className="dim small">Covering {formatInt(cities.length)} cities at each radius…</p>}
      {result && (
        <table className="shard-table worked-table" data-testid="worked-table" aria-busy={busy}>
          <thead>
            <tr>
              <th>city</th>
              <th className="num">radius</th>
              <th className="num">cells</th>
              <th className="num">shards</th>
              <th>routing</th>
            </tr>
          </thead>
          <tbody>
            {result.rows.map((r, i) => {
              const city = `${r.city}|${r.state}`;
              const first = city !== previous;
              previous = city;
              return (
                <Fragment key={i}>
                  <tr
                    className={first ? 'group-start' : undefined}
                    data-testid="worked-row"
                    onClick={() => {
                      const s = appStore.getState();
                      s.setSearchRadius(r.radius.value, r.radius.unit);
                      chooseCentre(appStore, r.lat, r.lng, r.state ? `${r.city}, ${r.state}` : r.city);
                    }}
                  >
                    <td>{first ? `${r.city}${r.state ? `, ${r.state}` : ''}` : ''}</td>
                    <td className="num">{formatRadius(r.radius)}</td>
                    <td className="num">{formatInt(r.cells)}</td>
                    <td className="num">{formatShardCount(r.shardsAsked, N)}</td>
                    <td className="mono routing-cell">{r.routing}</td>
                  </tr>
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
      {result && <p className="dim small">{formatInt(result.rows.length)} searches, computed in {formatInt(result.ms)} ms off the main thread</p>}
    </div>
  );
}

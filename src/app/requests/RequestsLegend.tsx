/**
 * RequestsLegend: the Requests layer's legend, under the layer toggles while
 * the layer is on: where the workload comes from (the bundled file or one the
 * user opens), the color of each rate bucket with its number of cells, and
 * the hot ranges (the core's findHotspots over the current file), each with
 * its suggested split; a click flies to the split.
 */
import { useMemo, useRef } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { toHex } from '../shell/palette';
import { formatInt } from '../shell/format';
import { cellCenter, cellFromOrdinal } from '../../core/index';
import type { Hotspot } from '../../core/requestLoad';
import { formatRate, hotCells, HOT_FACTOR, HOT_RGB } from './requests';
import { offerWorkloadFile, loadBundledWorkload, BUNDLED_WORKLOAD } from './requestsDriver';
import { requestRateOf } from './requestsSlice';
import './requests.css';
import type { AppStore } from '../shell/types';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

function flyToSplit(appStore: AppStore, h: Hotspot) {
  if (!h.split) return;
  const c = cellCenter(cellFromOrdinal(h.split.ordinal));
  appStore.getState().flyTo(c.lat, c.lng);
}

/** WorkloadPicker: open a workload file (parsed by the core in the review worker), or go back to the bundled one. */
export function WorkloadPicker({ testid }: { testid: string }) {
  const input = useRef<HTMLInputElement>(null);
  const status = useApp((s) => s.requestStatus);
  return (
    <span className="requests-picker">
      <button type="button" className="chip" onClick={() => input.current?.click()} title="A workload file: one search per line, lat,lng,radius[,timestamp][,weight] (as geoshard workload writes)">
        open workload…
      </button>
      <input
        ref={input}
        type="file"
        accept=".csv,.txt,text/csv,text/plain"
        hidden
        data-testid={testid}
        onChange={(e) => {
          const f = e.currentTarget.files?.[0];
          if (f) void offerWorkloadFile(f);
          e.currentTarget.value = '';
        }}
      />
      {status.source !== null && status.source !== BUNDLED_WORKLOAD.name && (
        <button type="button" className="chip" onClick={loadBundledWorkload}>
          bundled
        </button>
      )}
    </span>
  );
}

/** WorkloadStatus: what is loading, or the problems of a refused workload file. */
export function WorkloadStatus() {
  const status = useApp((s) => s.requestStatus);
  if (status.state === 'loading') return <p className="dim small">Covering the searches of {status.source}…</p>;
  if (status.state !== 'error') return null;
  return (
    <div className="requests-error" role="alert" data-testid="requests-error">
      {status.error}
    </div>
  );
}

export function RequestsLegend() {
  const appStore = useAppStore();
  const w = useApp((s) => s.requestWorkload);
  const hot = useApp((s) => s.requestHotspots);
  const rate = useApp(requestRateOf);
  const data = useApp(readyData);
  // Recorded traffic reads per second (its counts over the window's seconds); a workload file in searches.
  const per = rate ? 1 / rate.seconds : 1;
  const unit = rate ? (rate.basis === 'cells' ? 'searches/s' : 'shard queries/s') : 'searches';
  const hotList = hot && data && hot.hash === data.file.hash ? hot.hotspots : null;
  const outlined = useMemo(() => {
    if (!w || !data || !hotList) return null;
    return hotCells(w.ordinals, w.corners, (o) => data.router.indexOfOrdinal(o), new Set(hotList.map((h) => h.index))).ordinals.length;
  }, [w, data, hotList]);
  return (
    <div className="requests-legend" data-testid="requests-legend">
      <div className="requests-head">
        <b>Requests</b>{' '}
        <span className="dim">
          {rate
            ? rate.basis === 'cells'
              ? 'per level-10 cell: searches per second whose covering held it (the plugin’s counts)'
              : 'per level-10 cell: its range’s shard queries per second, spread by documents'
            : 'per level-10 cell: searches whose circle covers it'}
        </span>
      </div>
      <WorkloadStatus />
      {w ? (
        <>
          <div data-testid="requests-source">
            <span className="mono">{w.source}</span> · {formatInt(w.searches)} searches (weight {formatInt(w.weight)}) <WorkloadPicker testid="requests-file-input" />
          </div>
          <ul className="requests-buckets" data-testid="requests-buckets" data-unit={unit} aria-label={`request rate buckets, ${unit}`}>
            {w.scale.counts.map((n, b) => (
              <li key={b} data-testid={`requests-bucket-${b}`} data-lo={w.scale.edges[b] * per} data-hi={w.scale.edges[b + 1] * per} data-count={n} title={`${formatRate(w.scale.edges[b] * per)} to ${formatRate(w.scale.edges[b + 1] * per)} ${unit}: ${formatInt(n)} cells`}>
                <i style={{ background: toHex(w.scale.colors[b]) }} />
                <span>{formatRate(w.scale.edges[b] * per)}</span>
              </li>
            ))}
            <li className="requests-last" aria-hidden="true">
              <span>{formatRate(w.scale.edges[w.scale.edges.length - 1] * per)}</span>
            </li>
          </ul>
          <div className="dim">
            <span data-testid="requests-cells">{formatInt(w.ordinals.length)}</span> cells with requests · {rate ? `${unit} per cell, mean over ${formatInt(rate.seconds)} s` : 'searches per cell over the workload'}
          </div>
          <div className="requests-hot" data-testid="requests-hot">
            <div>
              <i className="swatch outline" style={{ borderColor: toHex(HOT_RGB) }} />
              <b>hot ranges</b>{' '}
              <span className="dim">
                load ≥ {HOT_FACTOR}× the mean shard's (load = requests × documents)
                {outlined !== null && hotList && hotList.length > 0 && (
                  <>
                    , <span data-testid="requests-hot-cells">{formatInt(outlined)}</span> cells outlined
                  </>
                )}
              </span>
            </div>
            {!hotList ? (
              <p className="dim">computing…</p>
            ) : hotList.length === 0 ? (
              <p className="dim" data-testid="requests-no-hot">
                none: no shard carries {HOT_FACTOR}× the mean load
              </p>
            ) : (
              <ul>
                {hotList.map((h) => (
                  <li key={h.index} data-testid="requests-hot-row" data-name={h.name} onClick={() => flyToSplit(appStore, h)} title={h.split ? 'click to go to the suggested split (the cut that evens its load best)' : undefined}>
                    <span className="mono">{h.name}</span> <b>{h.overMean.toFixed(2)}×</b> <span className="dim">{pct(h.share)}</span>
                    <span className="dim">{h.split ? <> · split at <span className="mono">{h.split.token}</span></> : ' · one cell: cannot split'}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </>
      ) : (
        <WorkloadPicker testid="requests-file-input" />
      )}
    </div>
  );
}

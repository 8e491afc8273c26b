/**
 * ReviewWorkload: the review's figures over a request workload (issue 15):
 * mean shards asked, the one-shard share and the heaviest shard's load of
 * each file, the hottest shards before and after, and each shard's share of
 * the load before/after. The workload is the Requests layer's (the bundled
 * data/workload.csv, or a file opened here or in the layer's legend); the
 * figures are the core's loadDiff, computed in the review worker. The workload's picker and
 * status are the Requests layer's (slots review-workload-picker and review-workload-status).
 */
import { useEffect } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { formatInt } from '../shell/format';
import { BUNDLED_WORKLOAD_NAME, BUNDLED_WORKLOAD_TEXT } from '../shell/workload';
import { Slot } from '../shell/Slot';
import type { HotShard } from '../../core/loadDiff.ts';

const pct = (x: number, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const hottest = (list: HotShard[]) => list.map((h) => `${h.name} ${h.overMean.toFixed(2)}×`).join(', ');

export function ReviewWorkload() {
  const appStore = useAppStore();
  useEffect(() => appStore.getState().wantRequestWorkload(), []);
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  const w = useApp((s) => s.requestWorkload);
  const load = useApp((s) => s.reviewLoad);
  const error = useApp((s) => s.reviewLoadError);
  if (!data || !c) return null;
  const fresh = !!load && !!w && load.current === data.file.hash && load.candidate === c.file.hash && load.source === w.source;
  const d = load?.diff;
  // Shares on one scale for both files: the largest share is the full bar.
  const top = d ? Math.max(1e-9, ...d.shards.flatMap((s) => [s.before?.share ?? 0, s.after?.share ?? 0])) : 1;
  return (
    <section className="review-section" aria-label="Load over a workload" data-testid="review-load">
      <h3>
        Load over a workload <span className="dim">· load = searches asking a shard × the documents they scan there</span>
      </h3>
      <div className="small">
        {w ? (
          <>
            <span className="mono" data-testid="review-load-source">
              {w.source}
            </span>{' '}
            · {formatInt(w.searches)} searches (weight {formatInt(w.weight)}){' '}
          </>
        ) : (
          <span className="dim">no workload yet · </span>
        )}
        <Slot name="review-workload-picker" />
      </div>
      <Slot name="review-workload-status" />
      {d && (
        <div className={fresh ? '' : 'stale'}>
          <table className="review-table review-metrics" data-testid="review-load-table">
            <thead>
              <tr>
                <th>file</th>
                <th className="num">mean shards</th>
                <th className="num">one shard</th>
                <th className="num" title="the heaviest shard's load / the mean shard load">heaviest / mean</th>
              </tr>
            </thead>
            <tbody>
              {(['current', 'candidate'] as const).map((side) => (
                <tr key={side}>
                  <td>{side}</td>
                  <td className="num" data-testid={`review-load-${side}-mean`}>
                    {d.fanout[side].meanShards.toFixed(3)}
                  </td>
                  <td className="num" data-testid={`review-load-${side}-one`}>
                    {pct(d.fanout[side].oneShardShare)}
                  </td>
                  <td className="num" data-testid={`review-load-${side}-heaviest`}>
                    {d.evenness[side === 'current' ? 'before' : 'after'].heaviestOverMean.toFixed(3)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="small">
            hottest · current <span data-testid="review-load-hottest-before">{hottest(d.hottest.before)}</span>
            <br />
            hottest · candidate <span data-testid="review-load-hottest-after">{hottest(d.hottest.after)}</span>
          </p>
          <div className="review-bars review-load-bars" data-testid="review-load-bars">
            {d.shards.map((s) => (
              <div key={s.name} className="review-bar-row" data-testid="review-load-row" data-name={s.name} title={`${s.name}: ${s.before ? pct(s.before.share) : 'not in current'} → ${s.after ? pct(s.after.share) : 'not in candidate'} of all load`}>
                <span className="mono review-bar-name">{s.name}</span>
                <span className="review-bar-track">
                  <span className="review-bar before" style={{ left: 0, width: `${(100 * (s.before?.share ?? 0)) / top}%` }} />
                  <span className="review-bar after" style={{ left: 0, width: `${(100 * (s.after?.share ?? 0)) / top}%` }} />
                </span>
                <span className="num review-bar-text">
                  {s.before ? pct(s.before.share) : '—'} → {s.after ? pct(s.after.share) : '—'}
                </span>
              </div>
            ))}
          </div>
          <p className="dim small">
            bars: each shard’s share of all load, upper current, lower candidate (full width = {pct(top)}); — where a file has no shard of that name.{' '}
            {w?.source === BUNDLED_WORKLOAD_NAME ? `Bundled workload: ${BUNDLED_WORKLOAD_TEXT}. ` : ''}
            <code>geoshard diff --workload {w?.source ?? 'FILE'}</code> gives the same figures. Computed in a Web Worker{fresh ? ` in ${Math.round(load!.ms)} ms` : ' · updating…'}.
          </p>
        </div>
      )}
      {!d && w && <p className="dim small">computing…</p>}
      {error && <p className="dim small">{error}</p>}
    </section>
  );
}

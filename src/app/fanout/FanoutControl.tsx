/**
 * FanoutControl: the fan-out map switch (off by default), its legend (how
 * many shards a search centred at a point asks: 1, 2, 3, 4+), the share of
 * restaurant-weighted searches at this radius that ask exactly one shard,
 * and how long the worker took.
 */
import { useAppStore, useApp } from '../shell/store';
import { FANOUT_COLORS } from './fanoutColors';
import { formatInt } from '../shell/format';
import { KM_PER_MILE } from '../../core/index';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function FanoutControl() {
  const appStore = useAppStore();
  const on = useApp((s) => s.fanout);
  const unit = useApp((s) => s.searchRadius.unit);
  const f = useApp((s) => s.fanoutLayer);
  const grid = f.detail ?? f.world;
  const r = unit === 'mi' ? f.radiusKm / KM_PER_MILE : f.radiusKm;
  return (
    <section className="fanout-control">
      <label className="switch">
        <input type="checkbox" checked={on} data-testid="fanout-toggle" onChange={(e) => appStore.getState().setFanout(e.currentTarget.checked)} /> Fan-out map
        <span className="dim"> · shards a search here would ask</span>
      </label>
      {on && (
        <>
          <div className="fanout-legend" aria-label="Fan-out legend">
            {['1', '2', '3', '4+'].map((label, i) => (
              <span key={label}>
                <i className="swatch" style={{ background: FANOUT_COLORS[i].css, borderColor: 'rgba(255, 255, 255, 0.55)' }} /> {label}
              </span>
            ))}
          </div>
          <p className="fanout-share" data-testid="fanout-share">
            {f.share ? (
              <>
                <b>{pct(f.share.oneShard)}</b> of restaurant-weighted {Number(r.toFixed(1))} {unit} searches ask one shard
                <span className="dim">
                  {' '}
                  · 2: {pct(f.share.byFanout[1])} · 3: {pct(f.share.byFanout[2])} · 4+: {pct(f.share.byFanout[3])}
                </span>
              </>
            ) : (
              <span className="dim">Weighing searches by restaurants…</span>
            )}
          </p>
          <p className="dim small" data-testid="fanout-status" data-busy={f.busy || undefined}>
            {f.error
              ? `Fan-out map failed: ${f.error}`
              : f.busy
                ? `Computing the ${f.busy === 'starting' ? 'worker' : f.busy === 'share' ? 'weighted share' : `${f.busy} grid`}…`
                : grid
                  ? `${f.detail ? 'View' : 'World'} grid ${formatInt(grid.grid.cols)} × ${formatInt(grid.grid.rows)} computed in ${formatInt(grid.ms)} ms in a worker`
                  : ''}
          </p>
        </>
      )}
    </section>
  );
}

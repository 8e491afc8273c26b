/**
 * The boundary review's figures: the moves table, evenness bars per shard
 * before/after against the mean, expected fan-out beside the hash baseline,
 * and the radius explorer's current search under both files. All read the
 * store's reviewDiff / reviewFanout, which the driver keeps current.
 */
import { useMemo } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { searchAsked } from '../shell/searchAsked';
import { toHex, type RGB } from '../shell/palette';
import { formatInt, formatCompact } from '../shell/format';
import { candidateColors, evennessRows, searchUnderBoth, lowerBound } from './review';
import { REVIEW_WORKLOAD_TEXT, REVIEW_QPS } from './reviewWorker';
import { cellCenter, cellFromOrdinal, type BoundaryMove } from '../../core/index';
import type { Fanout } from '../../core/expectedFanout';
import type { AppStore } from '../shell/types';

const pct = (x: number, digits = 2) => `${(100 * x).toFixed(digits)}%`;
const signedPct = (x: number) => (Math.abs(x) < 0.0005 ? '0.0%' : `${x > 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}%`);

/** useReviewColors returns the current colors by name and the candidate's (names kept keep their color). */
export function useReviewColors(): { current: Map<string, RGB>; candidate: Map<string, RGB> } {
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  return useMemo(() => {
    const current = new Map<string, RGB>();
    const candidate = new Map<string, RGB>();
    if (!data) return { current, candidate };
    const names = data.router.shards.map((s) => s.name);
    names.forEach((n, i) => current.set(n, data.colors[i]));
    if (c) {
      const cn = c.router.shards.map((s) => s.name);
      candidateColors(names, data.colors, cn).forEach((col, i) => candidate.set(cn[i], col));
    }
    return { current, candidate };
  }, [data, c?.router]);
}

function Swatch({ color }: { color: RGB | undefined }) {
  return <i className="swatch" style={{ background: color ? toHex(color) : 'transparent' }} />;
}

/** flyToMove glides to the heaviest non-empty cell of a move (or its middle). */
function flyToMove(appStore: AppStore, m: BoundaryMove) {
  const s = appStore.getState();
  let best = Math.floor((m.startOrdinal + m.endOrdinal) / 2);
  const cells = s.reviewCells;
  if (cells && s.reviewSums) {
    let w = -1;
    for (let k = lowerBound(s.reviewSums.ordinals, m.startOrdinal); k < cells.length && cells[k].ordinal < m.endOrdinal; k++) {
      const x = cells[k].restaurants + cells[k].dishes;
      if (x > w) [w, best] = [x, cells[k].ordinal];
    }
  }
  const c = cellCenter(cellFromOrdinal(best));
  s.flyTo(c.lat, c.lng);
}

/** Most rows the moves table lists (the totals cover all). */
const MAX_ROWS = 120;

export function ReviewMoves() {
  const appStore = useAppStore();
  const d = useApp((s) => s.reviewDiff);
  const colors = useReviewColors();
  // A token,docs cells file has no dishes: one documents column instead of restaurants and dishes.
  const generic = useApp((s) => s.cells?.unit === 'documents');
  if (!d) return null;
  return (
    <section className="review-section" aria-label="Moves">
      <h3>
        Key ranges that change owner <span className="dim">· start inclusive, end exclusive · click to go there</span>
      </h3>
      {d.moves.length === 0 ? (
        <p className="dim" data-testid="review-no-moves">
          No key range changes owner: the files route every document alike.
        </p>
      ) : (
        <div className="review-scroll">
          <table className="review-table" data-testid="review-moves">
            <thead>
              <tr>
                <th>range</th>
                <th>from → to</th>
                {generic ? (
                  <th className="num" title="documents">docs</th>
                ) : (
                  <>
                    <th className="num" title="restaurants">rest.</th>
                    <th className="num">dishes</th>
                  </>
                )}
                <th className="num" title={`${generic ? 'documents' : 'restaurants + dishes'}, share of the index`}>% index</th>
              </tr>
            </thead>
            <tbody>
              {d.moves.slice(0, MAX_ROWS).map((m) => (
                <tr key={`${m.startOrdinal}`} onClick={() => flyToMove(appStore, m)} title={m.sameShard ? 'same OpenSearch shard: a rename, nothing moves' : `${formatInt(m.cells)} non-empty cells`}>
                  <td className="mono">
                    {m.start}…
                    <br />
                    {m.end ?? 'end'}
                  </td>
                  <td className="mono">
                    <span className="nowrap">
                      <Swatch color={colors.current.get(m.from)} />
                      {m.from} →
                    </span>{' '}
                    <span className="nowrap">
                      <Swatch color={colors.candidate.get(m.to)} />
                      {m.to}
                    </span>
                  </td>
                  <td className="num" title={formatInt(m.restaurants)}>
                    {formatCompact(m.restaurants)}
                  </td>
                  {!generic && (
                    <td className="num" title={formatInt(m.dishes)}>
                      {formatCompact(m.dishes)}
                    </td>
                  )}
                  <td className="num">{pct(m.share)}</td>
                </tr>
              ))}
            </tbody>
            {d.moves.length > MAX_ROWS && (
              <tfoot>
                <tr>
                  <td colSpan={generic ? 4 : 5} className="dim">
                    … and {d.moves.length - MAX_ROWS} more ranges (in the totals above)
                  </td>
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
    </section>
  );
}

export function ReviewEvenness() {
  const d = useApp((s) => s.reviewDiff);
  const colors = useReviewColors();
  if (!d) return null;
  const { before, after } = d.evenness;
  const rows = evennessRows(d.shards, before.mean, after.mean);
  // Bars show each shard's distance from its file's mean (the centre line), on one scale for both files.
  const scale = Math.max(0.005, ...rows.flatMap((r) => [Math.abs((r.before ?? 1) - 1), Math.abs((r.after ?? 1) - 1)]));
  const bar = (x: number | null) => {
    if (x === null) return { width: 0, left: '50%' };
    const f = ((x - 1) / scale) * 50;
    return { width: `${Math.max(Math.abs(f), 0.6)}%`, left: `${f >= 0 ? 50 : 50 + f}%` };
  };
  const metric = (label: string, a: number, b: number, id: string) => (
    <tr>
      <td>{label}</td>
      <td className="num" data-testid={`review-evenness-before-${id}`}>
        {a.toFixed(4)}
      </td>
      <td className="num" data-testid={`review-evenness-after-${id}`}>
        {b.toFixed(4)}
      </td>
    </tr>
  );
  return (
    <section className="review-section" aria-label="Evenness">
      <h3>
        Evenness <span className="dim">· documents per shard vs each file's mean</span>
      </h3>
      <table className="review-table review-metrics">
        <thead>
          <tr>
            <th>
              <span className="visually-hidden">measure</span>
            </th>
            <th className="num">current</th>
            <th className="num">candidate</th>
          </tr>
        </thead>
        <tbody>
          {metric('heaviest / mean', before.heaviestOverMean, after.heaviestOverMean, 'hom')}
          {metric('coefficient of variation', before.cv, after.cv, 'cv')}
          {metric('Gini', before.gini, after.gini, 'gini')}
          <tr>
            <td>mean documents</td>
            <td className="num">{formatInt(before.mean)}</td>
            <td className="num">{formatInt(after.mean)}</td>
          </tr>
        </tbody>
      </table>
      <div className="review-bars" data-testid="review-evenness-bars">
        {rows.map((r) => (
          <div key={r.name} className="review-bar-row" title={`${r.name}: ${r.before === null ? 'not in current' : signedPct(r.before - 1)} → ${r.after === null ? 'not in candidate' : signedPct(r.after - 1)} vs the mean`}>
            <span className="mono review-bar-name">{r.name}</span>
            <span className="review-bar-track">
              <span className="review-bar before" style={{ ...bar(r.before), background: toHex(colors.current.get(r.name) ?? [0.5, 0.5, 0.5]) }} />
              <span className="review-bar after" style={{ ...bar(r.after), background: toHex(colors.candidate.get(r.name) ?? [0.5, 0.5, 0.5]) }} />
              <span className="review-bar-mean" />
            </span>
            <span className="num review-bar-text">
              {r.before === null ? '—' : signedPct(r.before - 1)} → {r.after === null ? '—' : signedPct(r.after - 1)}
            </span>
          </div>
        ))}
      </div>
      <p className="dim small">
        bars: distance from the mean (centre line), left lighter / right heavier, full width = ±{(100 * scale).toFixed(1)}%; upper bar current, lower bar candidate; — where a file has no shard of that name
      </p>
    </section>
  );
}

function fanoutRow(label: string, f: { meanShards: number; oneShardShare: number; shardQueriesPerSecond: number }, id: string, stale = false) {
  return (
    <tr className={stale ? 'stale' : ''}>
      <td>{label}</td>
      <td className="num" data-testid={`review-fanout-${id}-mean`}>
        {f.meanShards.toFixed(3)}
      </td>
      <td className="num" data-testid={`review-fanout-${id}-one`}>
        {pct(f.oneShardShare, 1)}
      </td>
      <td className="num">{formatInt(Math.round(f.shardQueriesPerSecond))}</td>
    </tr>
  );
}

export function ReviewFanoutTable() {
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  const fo = useApp((s) => s.reviewFanout);
  if (!data || !c) return null;
  const cur = fo.current && fo.current.hash === data.file.hash ? fo.current : null;
  const cand = fo.candidate;
  const stale = !cand || cand.hash !== c.file.hash;
  const n = data.file.numberOfShards;
  const m = c.file.numberOfShards;
  const hash = (k: number): Pick<Fanout, 'meanShards' | 'oneShardShare' | 'shardQueriesPerSecond'> => ({ meanShards: k, oneShardShare: k === 1 ? 1 : 0, shardQueriesPerSecond: REVIEW_QPS * k });
  return (
    <section className="review-section" aria-label="Expected fan-out">
      <h3>
        Expected fan-out <span className="dim">· shards a search asks</span>
      </h3>
      <table className="review-table" data-testid="review-fanout">
        <thead>
          <tr>
            <th title="file, number of shards; hash = a hash-sharded index, every search asks all N">file, shards</th>
            <th className="num">mean shards</th>
            <th className="num">one shard</th>
            <th className="num" title={`shard-queries per second at ${formatInt(REVIEW_QPS)} queries per second (queries/s × mean shards)`}>
              shard-q/s
            </th>
          </tr>
        </thead>
        <tbody>
          {cur ? fanoutRow(`current, ${n}`, cur.fanout, 'current') : <LoadingRow label={`current, ${n}`} />}
          {cand ? fanoutRow(`candidate, ${m}`, cand.fanout, 'candidate', stale) : <LoadingRow label={`candidate, ${m}`} />}
          {fanoutRow(`hash, ${n}`, hash(n), 'hash-current')}
          {m !== n && fanoutRow(`hash, ${m}`, hash(m), 'hash-candidate')}
        </tbody>
      </table>
      <p className="dim small">
        Shard-queries per second at {formatInt(REVIEW_QPS)} queries/s. Workload: {REVIEW_WORKLOAD_TEXT} (smaller than the CLI's default 2,000 so it recomputes while you edit; <code>geoshard diff --centres 500</code> gives the same figures). Computed in a Web Worker
        {cand && !stale ? ` in ${Math.round(cand.ms)} ms` : ''}
        {stale ? ' · updating…' : ''}.{fo.error ? ` ${fo.error}` : ''}
      </p>
    </section>
  );
}

function LoadingRow({ label }: { label: string }) {
  return (
    <tr>
      <td>{label}</td>
      <td colSpan={3} className="dim">
        computing…
      </td>
    </tr>
  );
}

export function ReviewSearch() {
  const data = useApp(readyData);
  const c = useApp((s) => s.candidate);
  const covering = useApp((s) => s.covering);
  const centre = useApp((s) => s.searchCentre);
  const radius = useApp((s) => s.searchRadius);
  const asked = useApp(searchAsked);
  const noLocation = useApp((s) => s.noLocation);
  const both = useMemo(() => {
    if (!data || !c) return null;
    if (noLocation) return searchUnderBoth(null, data.router, c.router);
    if (!centre || !covering || !asked) return null;
    return searchUnderBoth(covering.ordinals, data.router, c.router);
  }, [data, c?.router, covering, noLocation, centre, asked]);
  if (!data || !c) return null;
  return (
    <section className="review-section" aria-label="The current search under both files">
      <h3>
        The current search under both files <span className="dim">· from the radius explorer</span>
      </h3>
      {!both ? (
        <p className="dim">No search yet: pick a centre in the radius explorer (or turn on “no location”) to see how it routes under each file.</p>
      ) : (
        <div data-testid="review-search">
          <p className="small">
            {both.all ? (
              <>no location: every shard is asked</>
            ) : (
              <>
                {centre!.label} · {radius.value} {radius.unit} ({radius.km.toFixed(1)} km) · <b>{formatInt(both.cells)}</b> level-10 cells
              </>
            )}
          </p>
          <table className="review-table">
            <tbody>
              <tr>
                <td>shards asked</td>
                <td className="num" data-testid="review-search-shards">
                  {both.before.names.length} → {both.after.names.length}
                </td>
              </tr>
              <tr>
                <td>routing before</td>
                <td className="mono wrap" data-testid="review-search-before">
                  {both.before.routing}
                </td>
              </tr>
              <tr>
                <td>routing after</td>
                <td className="mono wrap" data-testid="review-search-after">
                  {both.after.routing}
                </td>
              </tr>
            </tbody>
          </table>
          {(both.added.length > 0 || both.dropped.length > 0) && (
            <p className="small">
              {both.dropped.length > 0 && <>no longer asked: {both.dropped.join(', ')}. </>}
              {both.added.length > 0 && <>newly asked: {both.added.join(', ')}.</>}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

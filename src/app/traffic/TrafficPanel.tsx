/**
 * TrafficPanel: the key visualizer (issue 39). What the cluster served, over time: time runs
 * across, the Hilbert key space down, each range a band as tall as its documents, coloured by
 * its rate in each time bucket (searches, writes or search time per second, from the engine's
 * per-shard counters the server records: src/ops/traffic). While the tab is open the view asks
 * GET /api/traffic every few seconds (traffic/trafficPoller.ts), so it follows live time.
 *
 * The picture holds still while the pointer is on it or it has the focus, and catches up after.
 * Drag across the picture (or Shift + arrow keys) to brush a stretch of time: the table then
 * gives each range's mean rate over it, "Show on the globe" makes that stretch's searches the
 * Requests layer's workload (the core's trafficWorkload: each range's searches spread over its
 * cells by documents), and a range that stayed hot offers its split in Review (at its weighted
 * median, the Review editor's split: with per-range counts, the window's traffic inside a range
 * is spread by documents, so its weighted median is the documents').
 *
 * Test hooks: traffic-panel (data-state loading | ready | empty | failed), traffic-recorder
 * (data-state running | off), traffic-metric-<metric> (aria-pressed), traffic-window,
 * traffic-heatmap (data-buckets, data-ranges, data-max: the highest rate shown),
 * traffic-hover (data-range, data-bucket, data-rate, data-start, data-end), traffic-brush (data-start, data-end,
 * data-buckets), traffic-row (data-name, data-shard, data-rate, data-hot), traffic-split
 * (data-name), traffic-to-globe.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useApp, useAppStore } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { toHex } from '../shell/palette';
import { formatInt } from '../shell/format';
import { cellsCount, formatDuration, TRAFFIC_METRICS, type TrafficRange, type TrafficWindow } from '../../core/traffic';
import { trafficWorkload } from '../../core/trafficWorkload';
import { formatWorkload } from '../../core/workload';
import { cellOrdinal, ordinalAt, parseToken, tokenOfOrdinal } from '../../core/cells';
import type { CellWeight } from '../../core/build';
import { bandAt, bandsOf, bucketAt, busiestCells, clockOf, formatRate, heatColor, heatT, METRIC_LABELS, rateGrid, windowRates, type Brush } from './keyViz';
import { TRAFFIC_WINDOWS, type TrafficBrush, type TrafficState } from './trafficSlice';
import './traffic.css';

const HEIGHT = 220;
const HOT = '#ff4512';

/** The brushed buckets of a window: those that lie inside the brush's times; null when none. */
function brushedBuckets(w: TrafficWindow, b: TrafficBrush | null): Brush | null {
  if (!b) return null;
  let from = -1;
  let to = -1;
  w.buckets.forEach((x, t) => {
    if (x.start >= b.start && x.end <= b.end) {
      if (from < 0) from = t;
      to = t;
    }
  });
  return from < 0 ? null : { from, to };
}

/** Whether a window's ranges are the file's: the same count, names and first cells, in key order. */
function sameRanges(ranges: readonly TrafficRange[], router: { shards: readonly { name: string }[]; starts: ArrayLike<number> }): boolean {
  return ranges.length === router.shards.length && ranges.every((r, i) => r.name === router.shards[i].name && r.start === tokenOfOrdinal(router.starts[i]));
}

export function TrafficPanel() {
  const appStore = useAppStore();
  const st = useApp((s) => s.trafficState);
  const metric = useApp((s) => s.trafficMetric);
  const windowS = useApp((s) => s.trafficWindowS);
  const brush = useApp((s) => s.trafficBrush);
  const data = useApp(readyData);
  const cells = useApp((s) => s.cells);
  const cities = useApp((s) => s.cities);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [hover, setHover] = useState<{ range: number; bucket: number } | null>(null);
  const drag = useRef<number | null>(null);

  // The picture holds still while it is pointed at or focused (new buckets would move every column under the pointer).
  const [held, setHeld] = useState<TrafficState['answer']>(null);
  const answer = held ?? st.answer;
  // The picture is drawn in the page's bands: the answer's ranges must be the page's file's (the
  // same names and starts; the files may differ in their index name, as the tests' does).
  const w = useMemo(() => (answer && data && sameRanges(answer.window.ranges, data.router) ? answer.window : null), [answer, data]);
  const grid = useMemo(() => (w ? rateGrid(w, metric) : null), [w, metric]);
  // Bands and places depend on the file alone (w's ranges are the file's), not on each new answer.
  const bands = useMemo(() => (data ? bandsOf(data.weights, data.router.shards.length) : null), [data]);
  const brushed = w ? brushedBuckets(w, brush) : null;
  const inWindow = useMemo(() => (w ? windowRates(w, brushed, metric) : null), [w, brushed?.from, brushed?.to, metric]);
  const hot = useMemo(() => new Map((answer?.hotspots ?? []).map((h) => [h.index, h])), [answer]);
  const placesOf = useMemo(() => {
    const out: string[][] = data ? data.router.shards.map(() => []) : [];
    if (!data) return out;
    for (const c of [...cities].sort((a, b) => b.population - a.population)) {
      const i = data.router.indexOfOrdinal(ordinalAt(c.lat, c.lng));
      if (out[i] && out[i].length < 3) out[i].push(c.name);
    }
    return out;
  }, [data, cities]);

  // Draw the picture: one rectangle per bucket and band, the brush, the hot runs outlined.
  useEffect(() => {
    const c = canvas.current;
    if (!c || !w || !grid || !bands) return;
    const dpr = window.devicePixelRatio || 1;
    const width = c.clientWidth || 320;
    c.width = Math.round(width * dpr);
    c.height = Math.round(HEIGHT * dpr);
    const g = c.getContext('2d');
    if (!g) return;
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    g.fillStyle = '#05080f';
    g.fillRect(0, 0, width, HEIGHT);
    const nB = w.buckets.length;
    const nR = w.ranges.length;
    const colW = nB > 0 ? width / nB : width;
    for (let t = 0; t < nB; t++) {
      for (let i = 0; i < nR; i++) {
        g.fillStyle = toHex(heatColor(heatT(grid.rates[t * nR + i], grid.max)));
        const y0 = bands.y0[i] * HEIGHT;
        g.fillRect(t * colW, y0, Math.ceil(colW), Math.max(1, bands.y1[i] * HEIGHT - y0));
      }
    }
    g.strokeStyle = HOT;
    g.lineWidth = 2;
    for (const h of answer?.hotspots ?? []) {
      const run = brushedBuckets(w, { start: h.from, end: h.to });
      if (!run) continue;
      const y0 = bands.y0[h.index] * HEIGHT;
      g.strokeRect(run.from * colW + 1, y0 + 1, (run.to - run.from + 1) * colW - 2, Math.max(2, bands.y1[h.index] * HEIGHT - y0 - 2));
    }
    if (brushed) {
      g.fillStyle = 'rgba(255, 255, 255, 0.14)';
      g.fillRect(brushed.from * colW, 0, (brushed.to - brushed.from + 1) * colW, HEIGHT);
      g.strokeStyle = '#ffffff';
      g.lineWidth = 1;
      g.strokeRect(brushed.from * colW + 0.5, 0.5, (brushed.to - brushed.from + 1) * colW - 1, HEIGHT - 1);
    }
  }, [w, grid, bands, brushed?.from, brushed?.to, answer]);

  const cellAt = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    if (!w || !bands) return null;
    const bucket = bucketAt((e.clientX - r.left) / r.width, w.buckets.length);
    const range = bandAt(bands, (e.clientY - r.top) / r.height);
    return bucket < 0 || range < 0 ? null : { bucket, range };
  };
  const setBrush = (a: number, b: number) => {
    if (!w) return;
    const [from, to] = a <= b ? [a, b] : [b, a];
    appStore.getState().setTrafficBrush({ start: w.buckets[from].start, end: w.buckets[to].end });
  };
  const onKey = (e: KeyboardEvent<HTMLCanvasElement>) => {
    if (!w || w.buckets.length === 0) return;
    const cur = hover ?? { bucket: w.buckets.length - 1, range: 0 };
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (e.key === 'Escape') appStore.getState().setTrafficBrush(null);
    else if (e.key === 'Enter' || e.key === ' ') setBrush(cur.bucket, cur.bucket);
    else if (step[e.key]) {
      const [db, dr] = step[e.key];
      const next = { bucket: Math.min(w.buckets.length - 1, Math.max(0, cur.bucket + db)), range: Math.min(w.ranges.length - 1, Math.max(0, cur.range + dr)) };
      setHover(next);
      if (e.shiftKey && db !== 0) setBrush(brushed ? (db < 0 ? brushed.to : brushed.from) : cur.bucket, next.bucket);
    } else return;
    e.preventDefault();
  };

  const showOnGlobe = () => {
    if (!w || !cells || w.buckets.length === 0) return;
    const b = brushed ?? { from: 0, to: w.buckets.length - 1 };
    const tokens = cells.tokens.split(',');
    const weights: CellWeight[] = tokens.map((token, k) => ({ token, ordinal: cells.ordinals[k], restaurants: cells.restaurants[k], dishes: cells.dishes[k], weight: cells.weights[k] }));
    const picked = w.buckets.slice(b.from, b.to + 1);
    const made = trafficWorkload({ ranges: w.ranges, buckets: picked }, weights);
    const seconds = picked.reduce((a, x) => a + x.seconds, 0);
    const s = appStore.getState();
    s.offerRequestWorkload(`cluster traffic ${clockOf(w.buckets[b.from].start)}–${clockOf(w.buckets[b.to].end)} UTC`, formatWorkload(made.searches), { seconds, basis: picked.every((x) => cellsCount(x, 'searches')) ? 'cells' : 'ranges' });
    s.setLayer('requests', true);
  };
  // Review's split needs the cell weights, which its driver loads once the tab is open.
  const split = (name: string) => {
    const s = appStore.getState();
    s.setTab('review');
    const go = () => void appStore.getState().splitReviewShard(name);
    if (s.reviewCells) return go();
    const stop = appStore.subscribe(
      (x) => x.reviewCells,
      (c) => {
        if (!c) return;
        stop();
        go();
      },
    );
  };

  let state: string;
  let line: string;
  if (st.phase === 'idle' || st.phase === 'loading') [state, line] = ['loading', 'Asking the live API for the recorded traffic…'];
  else if (st.phase === 'failed' && !answer) [state, line] = ['failed', st.failure?.message ?? 'The traffic could not be read.'];
  else if (!w) [state, line] = ['failed', answer ? `The traffic is counted in the ranges of boundary file ${answer.boundary.hash.slice(0, 12)}… (index ${answer.index}), not the ranges shown here.` : 'No traffic answer.'];
  else if (w.buckets.length === 0) [state, line] = ['empty', `Nothing recorded in the last ${formatDuration(windowS)}: the recorder needs two samples to give a rate${answer?.recorder ? ` (one every ${formatDuration(answer.recorder.intervalSeconds)})` : ''}.`];
  else [state, line] = ['ready', `${formatInt(w.buckets.length)} buckets from ${clockOf(w.buckets[0].start)} to ${clockOf(w.buckets[w.buckets.length - 1].end)} UTC · ${w.ranges.length} ranges of ${w.index}`];
  const rec = answer?.recorder ?? null;
  const h = hover && w && grid && hover.bucket < w.buckets.length ? hover : null;
  const unit = METRIC_LABELS[metric].unit;
  // The hovered bucket's busiest cells in the hovered range: once per cell pointed at, not on every render.
  const hb = h?.bucket ?? -1;
  const hr = h?.range ?? -1;
  const busy = useMemo(
    () => (hb >= 0 && w && data ? busiestCells(w.buckets[hb], (t) => data.router.indexOfOrdinal(cellOrdinal(parseToken(t, 'cell'))) === hr, metric, cities) : []),
    [hb, hr, w, data, metric, cities],
  );

  return (
    <div className="traffic-panel" data-testid="traffic-panel" data-state={state}>
      <p className="panel-intro">
        What the cluster served, over time: time runs across, the key space down (each shard&rsquo;s range a band, as tall as its documents), the colour its rate. Drag across the picture to pick a stretch of time.
      </p>
      <div className="traffic-controls">
        <span role="group" aria-label="Colour by" className="traffic-metrics">
          {TRAFFIC_METRICS.map((m) => (
            <button key={m} type="button" className="chip" aria-pressed={metric === m} data-testid={`traffic-metric-${m}`} title={METRIC_LABELS[m].about} onClick={() => appStore.getState().setTrafficMetric(m)}>
              {METRIC_LABELS[m].label}
            </button>
          ))}
        </span>
        <label>
          last{' '}
          <select data-testid="traffic-window" value={windowS} onChange={(e) => appStore.getState().setTrafficWindow(Number(e.currentTarget.value))}>
            {TRAFFIC_WINDOWS.map((s) => (
              <option key={s} value={s}>
                {formatDuration(s)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="dim small" data-testid="traffic-status" role="status">
        {line}
      </p>
      {st.phase === 'failed' && answer && <p className="traffic-error small">{st.failure?.message}</p>}
      <p className="dim small" data-testid="traffic-recorder" data-state={rec?.running ? 'running' : 'off'}>
        {rec ? (rec.running ? `This server records every ${formatDuration(rec.intervalSeconds)} into "${rec.historyIndex}" (kept ${rec.retentionDays} days)${rec.problem ? `; last sample: ${rec.problem}` : ''}.` : 'This server does not record now.') : 'This server does not record (GEOSHARD_TRAFFIC_INTERVAL_S=0); the picture shows what others recorded.'}
      </p>
      {w && grid && bands && w.buckets.length > 0 && (
        <>
          <canvas
            ref={canvas}
            className="traffic-heatmap"
            style={{ height: HEIGHT }}
            tabIndex={0}
            role="img"
            aria-label={`Key visualizer: ${METRIC_LABELS[metric].label} per second of ${w.ranges.length} ranges over ${w.buckets.length} time buckets; the table below lists the same rates. Arrow keys move, Shift with left or right brushes, Escape clears.`}
            data-testid="traffic-heatmap"
            data-buckets={w.buckets.length}
            data-ranges={w.ranges.length}
            data-max={grid.max}
            onPointerMove={(e) => {
              const c = cellAt(e);
              setHover(c);
              if (drag.current !== null && c) setBrush(drag.current, c.bucket);
            }}
            onPointerEnter={() => setHeld((h) => h ?? st.answer)}
            onPointerLeave={() => {
              setHover(null);
              if (drag.current === null && document.activeElement !== canvas.current) setHeld(null);
            }}
            onFocus={() => setHeld((h) => h ?? st.answer)}
            onBlur={() => setHeld(null)}
            onPointerDown={(e) => {
              const c = cellAt(e);
              if (!c) return;
              drag.current = c.bucket;
              e.currentTarget.setPointerCapture(e.pointerId);
              setBrush(c.bucket, c.bucket);
            }}
            onPointerUp={(e) => {
              drag.current = null;
              const r = e.currentTarget.getBoundingClientRect();
              if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) setHeld(null);
            }}
            onKeyDown={onKey}
          />
          <div className="traffic-legend" data-testid="traffic-legend" data-max={grid.max}>
            <span>0</span>
            <i style={{ background: `linear-gradient(to right, ${[0, 0.25, 0.5, 0.75, 1].map((t) => toHex(heatColor(t))).join(', ')})` }} />
            <span>
              {formatRate(grid.max)} {unit}
            </span>
            <span className="traffic-hot-key">
              <i style={{ borderColor: HOT }} /> stayed hot
            </span>
          </div>
          <div className="traffic-hover small" data-testid="traffic-hover" data-range={h ? w.ranges[h.range].name : ''} data-bucket={h ? h.bucket : ''} data-rate={h ? grid.rates[h.bucket * w.ranges.length + h.range] : ''} data-start={h ? w.buckets[h.bucket].start : ''} data-end={h ? w.buckets[h.bucket].end : ''} aria-live="polite">
            {h ? (
              <>
                <b className="mono">{w.ranges[h.range].name}</b> (shard {w.ranges[h.range].shard}){placesOf[h.range]?.length ? ` · ${placesOf[h.range].join(', ')}` : ''} · {clockOf(w.buckets[h.bucket].start)}–{clockOf(w.buckets[h.bucket].end)}: <b>{formatRate(grid.rates[h.bucket * w.ranges.length + h.range])}</b> {unit}
                {busy.length > 0 && (
                  <span data-testid="traffic-hover-cells" data-cells={busy.map((c) => `${c.cell}:${c.perSecond}`).join(',')}>
                    {' '}
                    · busiest cells:{' '}
                    {busy.map((c, k) => (
                      <span key={c.cell}>
                        {k > 0 ? ', ' : ''}
                        <span className="mono">{c.cell}</span>
                        {c.place ? ` (${c.place})` : ''} {formatRate(c.perSecond)}/s
                      </span>
                    ))}
                  </span>
                )}
              </>
            ) : (
              <span className="dim">Point at the picture for a range&rsquo;s rate.</span>
            )}
          </div>
        </>
      )}
      {w && inWindow && (
        <>
          <div className="traffic-brush small" data-testid="traffic-brush" data-start={brush && brushed ? w.buckets[brushed.from].start : ''} data-end={brush && brushed ? w.buckets[brushed.to].end : ''} data-buckets={brushed ? brushed.to - brushed.from + 1 : w.buckets.length}>
            {brushed ? `Picked ${clockOf(inWindow.start)}–${clockOf(inWindow.end)} UTC (${formatDuration(inWindow.seconds)})` : `The whole window (${formatDuration(inWindow.seconds)} recorded)`}
            {brushed && (
              <button type="button" className="chip" onClick={() => appStore.getState().setTrafficBrush(null)}>
                clear
              </button>
            )}
            <button type="button" className="chip" data-testid="traffic-to-globe" disabled={!cells} onClick={showOnGlobe} title="Make these searches the Requests layer's workload: each range's searches spread over its cells by documents">
              show on the globe
            </button>
          </div>
          <table className="traffic-table">
            <caption className="visually-hidden">Mean {unit} per range over the picked time</caption>
            <thead>
              <tr>
                <th>range</th>
                <th className="num">{unit}</th>
                <th>places</th>
                <th>
                  <span className="visually-hidden">action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {w.ranges.map((r, i) => {
                const hs = hot.get(i);
                return (
                  <tr key={r.name} data-testid="traffic-row" data-name={r.name} data-shard={r.shard} data-rate={inWindow.rates[i]} data-hot={hs ? 'true' : undefined} className={hs ? 'hot' : undefined}>
                    <td className="mono">
                      <i className="swatch" style={{ background: toHex(data!.colors[i]) }} /> {r.name}
                    </td>
                    <td className="num">{formatRate(inWindow.rates[i])}</td>
                    <td className="dim">{placesOf[i]?.join(', ')}</td>
                    <td>
                      {hs && (
                        <button type="button" className="chip" data-testid="traffic-split" data-name={r.name} title={`Hot for ${formatDuration(hs.seconds)} at ${hs.overMean.toFixed(2)}× the mean range: open its split in Review`} onClick={() => split(r.name)}>
                          split in Review
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

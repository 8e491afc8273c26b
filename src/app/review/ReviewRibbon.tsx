/**
 * ReviewRibbon: the Hilbert ribbon of a boundary review, below the main
 * ribbon while a candidate is loaded. Both boundary sets one above the other
 * (current, then candidate) over the same stretch of the key space, the
 * moving stretches marked between them (hatched), the cell weights above.
 *
 * The candidate's ticks can be dragged: the boundary snaps to the start of
 * the nearest non-empty cell that leaves both neighbours a non-empty cell
 * (review/review.ts snapBoundary), and the store is updated at most once per
 * animation frame (the latest pointer position wins), so the diff and every
 * figure follow the drag without a React render per pointer move. Click a
 * tick to select it, then ← / → move it cell by cell (Shift: 10 cells).
 * Wheel zooms around the pointer, dragging elsewhere pans.
 *
 * This component also starts the review's wiring (review/reviewDriver.ts): it
 * is always mounted, and draws nothing until there is a candidate.
 *
 * Test hooks on the canvas: data-from / data-to = the ordinals [from, to)
 * the strip spans, so a tick at ordinal o is at x = (o − from) / (to − from)
 * of the canvas width.
 */
import { shallow } from 'zustand/shallow';
import { useEffect, useRef } from 'react';
import { useAppStore, useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { candidateColors, moveAt, snapBoundary, lowerBound } from './review';
import { ribbonBins } from '../globe/typedArrays';
import { toHex, type RGB } from '../shell/palette';
import { context2d, drawFaceBand } from '../shell/canvas2d';
import { formatInt } from '../shell/format';
import { nudgeKeys } from './ReviewEditor';
import { cellToken, cellFromOrdinal, CELL_COUNT } from '../../core/index';
import { CELLS_PER_FACE } from '../../core/cells';
import type { AppState } from '../shell/store';
import '../ui/review.css';
import { listen } from '../shell/listen';

const ROWS = { face: 12, density: 22, current: 18, moves: 14, candidate: 18, handle: 10 };
const Y = {
  face: 0,
  density: ROWS.face,
  current: ROWS.face + ROWS.density,
  moves: ROWS.face + ROWS.density + ROWS.current,
  candidate: ROWS.face + ROWS.density + ROWS.current + ROWS.moves,
  handle: ROWS.face + ROWS.density + ROWS.current + ROWS.moves + ROWS.candidate,
};
const HEIGHT = Y.handle + ROWS.handle;
/** The narrowest stretch the strip zooms to, in level-10 cells. */
const MIN_SPAN = 64;
/** How close (CSS px) the pointer must be to a tick to grab it. */
const GRAB_PX = 6;

const weightCache = new WeakMap<object, Float64Array>();
/** restaurants + dishes per review cell, for the density row (computed once per cells list). */
function weightsOf(cells: AppState['reviewCells'] & object): Float64Array {
  let w = weightCache.get(cells);
  if (!w) weightCache.set(cells, (w = Float64Array.from(cells, (x) => x.restaurants + x.dishes)));
  return w;
}

let hatch: CanvasPattern | null = null;
function hatchPattern(ctx: CanvasRenderingContext2D): CanvasPattern | null {
  if (hatch) return hatch;
  const c = document.createElement('canvas');
  c.width = 6;
  c.height = 6;
  const g = c.getContext('2d')!;
  g.fillStyle = '#141a26';
  g.fillRect(0, 0, 6, 6);
  g.strokeStyle = '#ffffff';
  g.lineWidth = 2;
  g.beginPath();
  g.moveTo(-1, 7);
  g.lineTo(7, -1);
  g.moveTo(-1, 1);
  g.lineTo(1, -1);
  g.moveTo(5, 7);
  g.lineTo(7, 5);
  g.stroke();
  hatch = ctx.createPattern(c, 'repeat');
  return hatch;
}

/** Share of documents left out at each end when fitting the strip to where the documents are. */
const FIT_TAIL = 0.002;

/**
 * The stretch [from, to) holding all but FIT_TAIL of the documents at each
 * end, padded a little: where boundaries can usefully move (a few cells
 * abroad would otherwise squeeze the populated faces into a few pixels).
 * The whole curve until the cells are loaded.
 */
function dataExtent(s: AppState): [number, number] {
  const cells = s.reviewCells;
  if (!cells || cells.length === 0) return [0, CELL_COUNT];
  const w = weightsOf(cells);
  let total = 0;
  for (const x of w) total += x;
  let lo = cells[0].ordinal;
  let hi = cells[cells.length - 1].ordinal + 1;
  let acc = 0;
  for (let k = 0; k < cells.length; k++) {
    acc += w[k];
    if (acc > FIT_TAIL * total) {
      lo = cells[k].ordinal;
      break;
    }
  }
  acc = 0;
  for (let k = cells.length - 1; k >= 0; k--) {
    acc += w[k];
    if (acc > FIT_TAIL * total) {
      hi = cells[k].ordinal + 1;
      break;
    }
  }
  const pad = Math.max(MIN_SPAN, (hi - lo) * 0.03);
  return [Math.max(0, Math.floor(lo - pad)), Math.min(CELL_COUNT, Math.ceil(hi + pad))];
}

function draw(canvas: HTMLCanvasElement, s: AppState, from: number, to: number) {
  const data = readyData(s);
  const c = s.candidate;
  const w = canvas.clientWidth;
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
  if (canvas.height !== Math.round(HEIGHT * dpr)) canvas.height = Math.round(HEIGHT * dpr);
  // No context until there is something to draw: the strip is mounted (hidden) from the first
  // frame on, and making a canvas's context then waits behind the globe's frames (canvas2d.ts).
  if (w === 0 || !data || !c) return;
  const ctx = context2d(canvas);
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, HEIGHT);
  const span = to - from;
  const xOf = (o: number) => ((o - from) / span) * w;
  canvas.dataset.from = String(from);
  canvas.dataset.to = String(to);

  // Faces, labelled.
  drawFaceBand(ctx, xOf, w, ROWS.face);

  // Cell weights (log), in grey: shared by both files.
  ctx.fillStyle = 'rgba(255,255,255,0.04)';
  ctx.fillRect(0, Y.density, w, ROWS.density);
  if (s.reviewCells && s.reviewSums) {
    const weights = weightsOf(s.reviewCells);
    const bins = ribbonBins(s.reviewSums.ordinals, weights, Math.max(1, Math.floor(w)), from, to);
    let max = 0;
    for (const v of bins) max = Math.max(max, v);
    const lmax = Math.log1p(max);
    ctx.fillStyle = '#8d9ab1';
    bins.forEach((v, x) => {
      if (v <= 0) return;
      const h = Math.max(1.5, (Math.log1p(v) / lmax) * (ROWS.density - 2));
      ctx.fillRect(x, Y.density + ROWS.density - h, 1, h);
    });
  }

  // The two boundary sets.
  const band = (starts: Int32Array, colors: RGB[], names: string[], y: number) => {
    for (let i = 0; i + 1 < starts.length; i++) {
      const a = Math.max(0, xOf(starts[i]));
      const b = Math.min(w, xOf(starts[i + 1]));
      if (b <= 0 || a >= w) continue;
      ctx.fillStyle = toHex(colors[i]);
      ctx.fillRect(a, y, Math.max(b - a, 0.75), ROWS.current);
      ctx.fillStyle = 'rgba(10,14,24,0.92)';
      if (b - a > ctx.measureText(names[i]).width + 8) ctx.fillText(names[i], Math.max(a, 0) + 4, y + ROWS.current / 2);
    }
  };
  const curNames = data.router.shards.map((x) => x.name);
  const candNames = c.router.shards.map((x) => x.name);
  band(data.router.starts, data.colors, curNames, Y.current);
  band(c.router.starts, candidateColors(curNames, data.colors, candNames), candNames, Y.candidate);

  // Moving stretches, hatched, at least a pixel wide so a one-cell move shows at any zoom.
  ctx.fillStyle = 'rgba(255,255,255,0.03)';
  ctx.fillRect(0, Y.moves, w, ROWS.moves);
  const pattern = hatchPattern(ctx);
  for (const m of s.reviewDiff?.moves ?? []) {
    const a = xOf(m.startOrdinal);
    const b = xOf(m.endOrdinal);
    if (b < 0 || a > w) continue;
    ctx.fillStyle = pattern ?? '#ffffff';
    ctx.fillRect(Math.floor(a), Y.moves + 1, Math.max(1, Math.ceil(b - a)), ROWS.moves - 2);
    // A thin veil over both bands where the owner changes.
    ctx.fillStyle = 'rgba(255,255,255,0.2)';
    ctx.fillRect(Math.floor(a), Y.current, Math.max(1, Math.ceil(b - a)), ROWS.current + ROWS.moves + ROWS.candidate);
  }

  // Ticks: current (thin, across its band), candidate (across its band, with a handle to grab).
  ctx.fillStyle = 'rgba(255,255,255,0.9)';
  const st = data.router.starts;
  for (let i = 1; i < st.length - 1; i++) {
    const x = xOf(st[i]);
    if (x >= 0 && x <= w) ctx.fillRect(Math.round(x) - 0.5, Y.current, 1, ROWS.current);
  }
  const cs = c.router.starts;
  const editable = !c.file.migration;
  for (let i = 1; i < cs.length - 1; i++) {
    const x = xOf(cs[i]);
    if (x < -GRAB_PX || x > w + GRAB_PX) continue;
    const sel = i === s.selectedBoundary;
    ctx.fillStyle = sel ? '#5cc8ff' : 'rgba(255,255,255,0.95)';
    ctx.fillRect(Math.round(x) - (sel ? 1 : 0.5), Y.candidate, sel ? 2 : 1, ROWS.candidate);
    if (editable) {
      ctx.beginPath();
      ctx.moveTo(x, Y.handle);
      ctx.lineTo(x - 5, Y.handle + ROWS.handle - 1);
      ctx.lineTo(x + 5, Y.handle + ROWS.handle - 1);
      ctx.closePath();
      ctx.fill();
    }
  }

  // The point under the globe's pointer.
  const h = s.hover;
  if (h && h.ordinal >= from && h.ordinal < to) {
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(Math.round(xOf(h.ordinal + 0.5)) - 0.5, Y.density, 1, HEIGHT - Y.density);
  }
}

function Strip() {
  const appStore = useAppStore();
  const canvas = useRef<HTMLCanvasElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const view = useRef<{ from: number; to: number; fitted: boolean }>({ from: 0, to: CELL_COUNT, fitted: false });

  useEffect(() => {
    const el = canvas.current!;
    let frameReq = 0;
    const redraw = () => {
      frameReq = 0;
      const s = appStore.getState();
      if (!view.current.fitted && s.reviewSums) {
        const [a, b] = dataExtent(s);
        view.current = { from: a, to: b, fitted: true };
      }
      draw(el, s, view.current.from, view.current.to);
    };
    const schedule = () => {
      if (!frameReq) frameReq = requestAnimationFrame(redraw);
    };
    const setView = (from: number, to: number) => {
      let span = Math.max(MIN_SPAN, Math.min(CELL_COUNT, to - from));
      let a = Math.round(from);
      if (a < 0) a = 0;
      if (a + span > CELL_COUNT) a = CELL_COUNT - span;
      span = Math.round(span);
      view.current = { from: a, to: a + span, fitted: true };
      schedule();
    };
    const ordinalAtX = (clientX: number) => {
      const r = el.getBoundingClientRect();
      const f = (clientX - r.left) / r.width;
      return view.current.from + f * (view.current.to - view.current.from);
    };
    const tickAt = (clientX: number, clientY: number): number => {
      const s = appStore.getState();
      const c = s.candidate;
      if (!c || c.file.migration) return -1;
      const r = el.getBoundingClientRect();
      const y = clientY - r.top;
      if (y < Y.candidate - 2) return -1;
      const x = clientX - r.left;
      const { from, to } = view.current;
      let best = -1;
      let bestD = GRAB_PX + 1;
      const cs = c.router.starts;
      for (let i = 1; i < cs.length - 1; i++) {
        const d = Math.abs(((cs[i] - from) / (to - from)) * r.width - x) - (i === s.selectedBoundary ? 1 : 0);
        if (d < bestD) [best, bestD] = [i, d];
      }
      return best;
    };

    // Dragging a tick: the latest wanted ordinal, applied once per animation frame.
    let drag: { i: number; wanted: number; raf: number } | null = null;
    let pan: { x: number; from: number; to: number } | null = null;
    // A drag or a fit asked for before the review's cell sums arrive (a busy machine, a large
    // file) is kept and applied when they do, instead of being dropped without a sign.
    let waiting: { drag: { i: number; wanted: number } | null; fit: string | null } = { drag: null, fit: null };
    const applyMove = (i: number, wanted: number) => {
      const s = appStore.getState();
      const c = s.candidate;
      if (!c) return;
      if (!s.reviewSums) {
        waiting.drag = { i, wanted };
        return;
      }
      s.moveBoundary(i, snapBoundary(s.reviewSums.ordinals, c.router.starts, i, wanted));
    };
    const applyDrag = () => {
      if (!drag) return;
      drag.raf = 0;
      applyMove(drag.i, drag.wanted);
    };
    const down = (e: PointerEvent) => {
      if (e.button !== 0) return;
      el.focus();
      const i = tickAt(e.clientX, e.clientY);
      el.setPointerCapture(e.pointerId);
      if (i > 0) {
        appStore.getState().selectBoundary(i);
        drag = { i, wanted: ordinalAtX(e.clientX), raf: 0 };
        el.style.cursor = 'grabbing';
      } else pan = { x: e.clientX, from: view.current.from, to: view.current.to };
    };
    const move = (e: PointerEvent) => {
      if (drag) {
        drag.wanted = ordinalAtX(e.clientX);
        if (!drag.raf) drag.raf = requestAnimationFrame(applyDrag);
      } else if (pan) {
        const r = el.getBoundingClientRect();
        const d = ((e.clientX - pan.x) / r.width) * (pan.to - pan.from);
        setView(pan.from - d, pan.to - d);
      } else el.style.cursor = tickAt(e.clientX, e.clientY) > 0 ? 'ew-resize' : 'grab';
      showTip(e);
    };
    const up = () => {
      if (drag) {
        if (drag.raf) cancelAnimationFrame(drag.raf);
        applyDrag();
        drag = null;
        el.style.cursor = '';
      }
      pan = null;
    };
    const wheel = (e: WheelEvent) => {
      e.preventDefault();
      const o = ordinalAtX(e.clientX);
      const k = Math.exp(Math.sign(e.deltaY) * Math.min(1, Math.abs(e.deltaY) / 100) * 0.35);
      const { from, to } = view.current;
      setView(o - (o - from) * k, o + (to - o) * k);
    };
    const showTip = (e: PointerEvent) => {
      const s = appStore.getState();
      const data = readyData(s);
      const c = s.candidate;
      if (!tip.current || !data || !c) return;
      const o = Math.min(CELL_COUNT - 1, Math.max(0, Math.floor(ordinalAtX(e.clientX))));
      const m = s.reviewDiff ? moveAt(s.reviewDiff.moves, o) : null;
      const a = data.router.shards[data.router.readIndexOfOrdinal(o)].name;
      const b = c.router.shards[c.router.readIndexOfOrdinal(o)].name;
      tip.current.style.display = 'block';
      tip.current.textContent = `${cellToken(cellFromOrdinal(o))} · ${a} → ${b}${m ? ` · moves: ${formatInt(m.restaurants + m.dishes)} documents in this range` : ''}`;
      const r = el.getBoundingClientRect();
      const x = Math.min(r.width - tip.current.offsetWidth, Math.max(0, e.clientX - r.left - tip.current.offsetWidth / 2));
      tip.current.style.transform = `translateX(${x}px)`;
    };
    const leave = () => {
      if (tip.current) tip.current.style.display = 'none';
    };
    const key = (e: KeyboardEvent) => nudgeKeys(appStore, e);
    const unlisten = listen(el, { pointerdown: down, pointermove: move, pointerup: up, pointercancel: up, pointerleave: leave, wheel, keydown: key }, { wheel: { passive: false } });
    const fit = (e: Event) => {
      const kind = (e as CustomEvent<string>).detail;
      const s = appStore.getState();
      if (kind === 'selected' && !s.reviewSums) {
        waiting.fit = kind;
        return;
      }
      if (kind === 'moves' && s.reviewDiff && s.reviewDiff.moves.length > 0) {
        const ms = s.reviewDiff.moves;
        const a = ms[0].startOrdinal;
        const b = ms[ms.length - 1].endOrdinal;
        const pad = Math.max(MIN_SPAN, (b - a) * 0.3);
        setView(a - pad, b + pad);
      } else if (kind === 'selected' && s.candidate && s.selectedBoundary > 0 && s.reviewSums) {
        // Around the selected tick: its neighbours' nearest non-empty cells, or ±40 cells.
        const st = s.candidate.router.starts;
        const i = s.selectedBoundary;
        const ords = s.reviewSums.ordinals;
        const k = lowerBound(ords, st[i]);
        const a = ords[Math.max(0, k - 40)] ?? st[i - 1];
        const b = ords[Math.min(ords.length - 1, k + 40)] ?? st[i + 1];
        setView(Math.max(st[i - 1], a), Math.min(st[i + 1], b + 1));
      } else if (kind === 'all') setView(0, CELL_COUNT);
      else {
        const [a, b] = dataExtent(s);
        setView(a, b);
      }
    };
    el.addEventListener('review-fit', fit);

    const ro = new ResizeObserver(schedule);
    ro.observe(el);
    const unsubSums = appStore.subscribe(
      (s) => s.reviewSums,
      (sums, prev) => {
        if (!sums || prev || !(waiting.drag || waiting.fit)) return;
        const w = waiting;
        waiting = { drag: null, fit: null };
        if (w.fit) el.dispatchEvent(new CustomEvent('review-fit', { detail: w.fit }));
        if (w.drag) applyMove(w.drag.i, w.drag.wanted);
      },
    );
    const unsubDraw = appStore.subscribe((s) => [s.candidate, s.reviewDiff, s.data, s.reviewCells, s.selectedBoundary, s.hover], schedule, { equalityFn: shallow });
    const unsubscribe = () => (unsubSums(), unsubDraw());
    redraw();
    return () => {
      ro.disconnect();
      unsubscribe();
      if (frameReq) cancelAnimationFrame(frameReq);
      if (drag?.raf) cancelAnimationFrame(drag.raf);
      unlisten();
      el.removeEventListener('review-fit', fit);
    };
  }, []);

  const fit = (kind: string) => canvas.current?.dispatchEvent(new CustomEvent('review-fit', { detail: kind }));
  return (
    <div className="review-strip">
      <div className="review-strip-head">
        <span className="review-zoom">
          <button type="button" className="chip" onClick={() => fit('data')} data-testid="review-fit-data" title="The stretch holding 99.6% of the documents">
            fit documents
          </button>
          <button type="button" className="chip" onClick={() => fit('all')} data-testid="review-fit-all">
            whole curve
          </button>
          <button type="button" className="chip" onClick={() => fit('moves')} data-testid="review-fit-moves">
            fit moves
          </button>
          <button type="button" className="chip" onClick={() => fit('selected')} data-testid="review-fit-selected">
            zoom to selected tick
          </button>
        </span>
      </div>
      <div className="review-strip-body">
        <div className="review-strip-labels" style={{ height: HEIGHT }}>
          <span style={{ top: Y.density, height: ROWS.density }}>weight</span>
          <span style={{ top: Y.current, height: ROWS.current }}>current</span>
          <span style={{ top: Y.moves, height: ROWS.moves }}>moves</span>
          <span style={{ top: Y.candidate, height: ROWS.candidate + ROWS.handle }}>candidate</span>
        </div>
        <div className="review-strip-canvas" style={{ height: HEIGHT }}>
          <canvas ref={canvas} tabIndex={0} data-testid="review-ribbon-canvas" aria-label="Review ribbon: current and candidate boundaries; drag a candidate tick, or select one and use the arrow keys" />
          <div className="ribbon-tip review-tip" ref={tip} data-testid="review-ribbon-tip" />
        </div>
      </div>
    </div>
  );
}

export function ReviewRibbon() {
  const has = useApp((s) => s.candidate !== null && readyData(s) !== null);
  if (!has) return null;
  return (
    <section className="review-ribbon" aria-label="Review ribbon" data-testid="review-ribbon">
      <h3>
        Boundary review <span className="dim">· current above, candidate below, moving stretches hatched · drag a candidate tick (snaps to non-empty cells), wheel to zoom, drag to pan</span>
      </h3>
      <Strip />
    </section>
  );
}

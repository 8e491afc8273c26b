/**
 * RibbonStrip: one strip of the Hilbert ribbon over a range of the key space
 * (everything, or the brushed stretch, followed without React renders). The
 * canvas is redrawn on resize, data and range changes only; the globe's hover
 * marker, the brush and the tooltip are positioned DOM elements.
 */
import { shallow } from 'zustand/shallow';
import { useEffect, useRef, type ReactNode } from 'react';
import { useAppStore } from '../shell/store';
import { readyData, type ReadyData, type CellsData } from '../shell/dataSlice';
import { ribbonBins } from '../globe/typedArrays';
import { toHex, shade } from '../shell/palette';
import { formatInt } from '../shell/format';
import { context2d, drawFaceBand } from '../shell/canvas2d';
import { cellToken, cellFromOrdinal, cellCenter, CELL_COUNT } from '../../core/index';
import { CELLS_PER_FACE } from '../../core/cells';
import { listen } from '../shell/listen';

export interface RibbonStripProps {
  /**
   * "all": the fixed range `full`; "detail": the brushed stretch, or before any brush the
   * stretch that holds data (first to last non-empty cell of data/cells.csv, padded).
   */
  range: 'all' | 'detail';
  full: [number, number];
  /** Drawn over the strip (absolutely placed within it), e.g. the ranges a live migration is moving. */
  children?: ReactNode;
}

/** dataExtent returns the stretch from the first to the last non-empty cell, padded by 3% each side. */
function dataExtent(cells: CellsData | null, full: [number, number]): [number, number] {
  if (!cells || cells.ordinals.length === 0) return full;
  const lo = cells.ordinals[0];
  const hi = cells.ordinals[cells.ordinals.length - 1] + 1;
  const pad = Math.ceil((hi - lo) * 0.03);
  return [Math.max(full[0], lo - pad), Math.min(full[1], hi + pad)];
}

const FACE_H = 14;
const BAND_H = 20;
const DENSITY_H = 38;
const HEIGHT = FACE_H + BAND_H + DENSITY_H;

function draw(canvas: HTMLCanvasElement, from: number, to: number, data: ReadyData, cells: CellsData | null) {
  const w = canvas.clientWidth;
  const dpr = window.devicePixelRatio || 1;
  if (canvas.width !== Math.round(w * dpr)) canvas.width = Math.round(w * dpr);
  if (canvas.height !== Math.round(HEIGHT * dpr)) canvas.height = Math.round(HEIGHT * dpr);
  const ctx = context2d(canvas);
  if (!ctx || w === 0) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, HEIGHT);
  const span = to - from;
  const xOf = (o: number) => ((o - from) / span) * w;
  const { starts } = data.router;
  const n = data.file.numberOfShards;

  // Faces.
  drawFaceBand(ctx, xOf, w, FACE_H);

  // Shards as colored ranges, with names where they fit.
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, xOf(starts[i]));
    const b = Math.min(w, xOf(starts[i + 1]));
    if (b <= 0 || a >= w) continue;
    ctx.fillStyle = toHex(data.colors[i]);
    ctx.fillRect(a, FACE_H, Math.max(b - a, 0.75), BAND_H);
    ctx.fillStyle = 'rgba(10,14,24,0.92)';
    const name = data.router.shards[i].name;
    if (b - a > ctx.measureText(name).width + 8) ctx.fillText(name, a + 4, FACE_H + BAND_H / 2);
  }

  // Weight per cell: one bar per pixel column, log scale, in the shard's color.
  ctx.fillStyle = 'rgba(255,255,255,0.04)';
  ctx.fillRect(0, FACE_H + BAND_H, w, DENSITY_H);
  if (cells) {
    const bins = ribbonBins(cells.ordinals, cells.weights, Math.max(1, Math.floor(w)), from, to);
    let max = 0;
    for (const v of bins) max = Math.max(max, v);
    const top = FACE_H + BAND_H;
    const lmax = Math.log1p(max);
    bins.forEach((v, x) => {
      if (v <= 0) return;
      const h = Math.max(1.5, (Math.log1p(v) / lmax) * (DENSITY_H - 2));
      const o = from + ((x + 0.5) / bins.length) * span;
      ctx.fillStyle = toHex(shade(data.colors[data.router.indexOfOrdinal(Math.min(CELL_COUNT - 1, Math.floor(o)))], 0.05));
      ctx.fillRect(x, top + DENSITY_H - h, 1, h);
    });
  }

  // Boundaries as ticks across band and density.
  ctx.fillStyle = 'rgba(255,255,255,0.95)';
  for (let i = 1; i < n; i++) {
    const x = xOf(starts[i]);
    if (x >= 0 && x <= w) ctx.fillRect(Math.round(x) - 0.5, FACE_H - 2, 1, BAND_H + DENSITY_H + 2);
  }
}

export function RibbonStrip({ range, full, children }: RibbonStripProps) {
  const appStore = useAppStore();
  const canvas = useRef<HTMLCanvasElement>(null);
  const marker = useRef<HTMLDivElement>(null);
  const brushBox = useRef<HTMLDivElement>(null);
  const tip = useRef<HTMLDivElement>(null);
  const caption = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = canvas.current!;
    const current = (): [number, number] => {
      const s = appStore.getState();
      if (range === 'all') return full;
      return s.brush ? [s.brush[0], s.brush[1] + 1] : dataExtent(s.cells, full);
    };
    const redraw = () => {
      const s = appStore.getState();
      const data = readyData(s);
      if (!data) return;
      const [from, to] = current();
      draw(el, from, to, data, s.cells);
      placeBrush();
      placeMarker();
      if (caption.current && range === 'detail') {
        const what = s.brush ? 'brushed' : 'all cells with data';
        caption.current.textContent = `${what}: ${cellToken(cellFromOrdinal(from))} … ${cellToken(cellFromOrdinal(to - 1))} · ${formatInt(to - from)} cells`;
      }
    };
    const placeMarker = () => {
      const h = appStore.getState().hover;
      const [from, to] = current();
      if (!marker.current) return;
      if (!h || h.ordinal < from || h.ordinal >= to) {
        marker.current.style.display = 'none';
        return;
      }
      marker.current.style.display = 'block';
      marker.current.style.transform = `translateX(${((h.ordinal - from + 0.5) / (to - from)) * el.clientWidth}px)`;
    };
    const placeBrush = () => {
      const b = appStore.getState().brush;
      if (!brushBox.current) return;
      if (range !== 'all' || !b) {
        brushBox.current.style.display = 'none';
        return;
      }
      const [from, to] = full;
      const w = el.clientWidth;
      const a = ((b[0] - from) / (to - from)) * w;
      const z = ((b[1] + 1 - from) / (to - from)) * w;
      brushBox.current.style.display = 'block';
      brushBox.current.style.transform = `translateX(${a}px)`;
      brushBox.current.style.width = `${Math.max(2, z - a)}px`;
    };

    const ordinalAtX = (clientX: number) => {
      const r = el.getBoundingClientRect();
      const [from, to] = current();
      const f = Math.min(1, Math.max(0, (clientX - r.left) / r.width));
      return Math.min(to - 1, Math.floor(from + f * (to - from)));
    };
    let dragFrom: number | null = null;
    let dragged = false;
    const down = (e: PointerEvent) => {
      if (e.button !== 0) return;
      el.setPointerCapture(e.pointerId);
      dragFrom = ordinalAtX(e.clientX);
      dragged = false;
    };
    const move = (e: PointerEvent) => {
      const o = ordinalAtX(e.clientX);
      const s = appStore.getState();
      const data = readyData(s);
      if (!data) return;
      const i = data.router.indexOfOrdinal(o);
      s.setHighlight(i);
      if (tip.current) {
        const r = el.getBoundingClientRect();
        tip.current.style.display = 'block';
        tip.current.textContent = `face ${Math.floor(o / CELLS_PER_FACE)} · ${cellToken(cellFromOrdinal(o))} · ${data.router.shards[i].name} (OpenSearch shard ${data.router.shards[i].shard})`;
        const x = Math.min(r.width - tip.current.offsetWidth, Math.max(0, e.clientX - r.left - tip.current.offsetWidth / 2));
        tip.current.style.transform = `translateX(${x}px)`;
      }
      if (dragFrom !== null && Math.abs(o - dragFrom) > 0) {
        dragged = true;
        s.setBrush([Math.min(dragFrom, o), Math.max(dragFrom, o)]);
      }
    };
    const up = () => {
      if (dragFrom !== null && !dragged && range === 'all') appStore.getState().setBrush(null);
      dragFrom = null;
    };
    const leave = () => {
      appStore.getState().setHighlight(-1);
      if (tip.current) tip.current.style.display = 'none';
    };
    const dbl = (e: MouseEvent) => {
      const c = cellCenter(cellFromOrdinal(ordinalAtX(e.clientX)));
      appStore.getState().flyTo(c.lat, c.lng);
    };
    const unlisten = listen(el, { pointerdown: down, pointermove: move, pointerup: up, pointerleave: leave, dblclick: dbl });

    const ro = new ResizeObserver(redraw);
    ro.observe(el);
    const unsubHover = appStore.subscribe((s) => s.hover, placeMarker);
    const unsubDraw = appStore.subscribe(
      (s) => [s.cells, s.data, s.brush] as const,
      ([cells, data, brush], [pCells, pData, pBrush]) => {
        if (cells !== pCells || data !== pData || (brush !== pBrush && range === 'detail')) redraw();
        else if (brush !== pBrush) placeBrush();
      },
      { equalityFn: shallow },
    );
    const unsubscribe = () => (unsubHover(), unsubDraw());
    redraw();
    return () => {
      ro.disconnect();
      unsubscribe();
      unlisten();
    };
  }, [range, full]);

  return (
    <div className={`ribbon-strip ribbon-strip-${range}`}>
      {range === 'detail' && <div className="ribbon-caption mono" ref={caption} />}
      <div className="ribbon-canvas-wrap" style={{ height: HEIGHT }}>
        <canvas ref={canvas} className="ribbon-canvas" data-testid={`ribbon-canvas-${range}`} />
        <div className="ribbon-brush" ref={brushBox} />
        <div className="ribbon-marker" ref={marker} data-testid={`ribbon-marker-${range}`} />
        {children}
      </div>
      <div className="ribbon-tip" ref={tip} />
    </div>
  );
}

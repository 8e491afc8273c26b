/**
 * The sample cities over the globe: the main thread projects them (the same view math as
 * the shaders, once per frame in which the view moved) and measures the panels laid over
 * the globe (`.overlay > *` in the globe view: labels keep clear of them); a worker places
 * and draws them on the overlay canvas it owns (labelsWorker.ts, labelsDraw.ts), so label
 * frames never cost the main thread a repaint. Without OffscreenCanvas the same drawing
 * runs here.
 *
 * Test hook: after each drawing the overlay canvas carries data-labels, a JSON list of
 * [name, dotX, dotY, x0, y0, x1, y1] per label shown (CSS px from the canvas's top-left:
 * its dot and its text box), and data-dots, a JSON list of [x, y] per dot drawn.
 */
import type { ShardTable } from '../../core/index';
import { faceSTAt } from './faces';
import type { City } from '../shell/loadData';
import { projectLatLng, type ViewGeometry } from './view';
import { toHex, type RGB } from '../shell/palette';
import { createLabelsClient, type LabelsClient } from './labelsWorker';
import { drawPoints, newLabelState, type Box, type LabelState, type Placement } from './labelsDraw';

interface Placed {
  city: City;
  faceST: { face: number; s: number; t: number };
}

interface Target {
  canvas: HTMLCanvasElement;
  worker: LabelsClient | null;
  /** The inputs last sent (cities, router, colors) and the last view key drawn. */
  sent: [City[], ShardTable, RGB[]] | null;
  placed: Placed[];
  names: string[];
  colors: string[];
  key: string;
  /** The main-thread drawing's state (when there is no worker). */
  state: LabelState;
  /** Drawings asked so far: only the latest one's answer is shown in data-labels. */
  seq: number;
}

let target: Target | null = null;

function attach(canvas: HTMLCanvasElement): Target {
  const worker =
    typeof canvas.transferControlToOffscreen === 'function' ? createLabelsClient(() => new Worker(new URL('./labels.worker.ts', import.meta.url), { type: 'module' }), canvas.transferControlToOffscreen()) : null;
  return { canvas, worker, sent: null, placed: [], names: [], colors: [], key: '', state: newLabelState(), seq: 0 };
}

/**
 * drawLabels updates the overlay when the view or the cities changed since the last call;
 * an empty city list clears it.
 */
export function drawLabels(canvas: HTMLCanvasElement | null, v: ViewGeometry, cities: City[], router: ShardTable, colors: RGB[]): void {
  if (!canvas) return;
  if (!target || target.canvas !== canvas) {
    target?.worker?.dispose();
    target = attach(canvas);
  }
  const t = target;
  const inputs: [City[], ShardTable, RGB[]] = [cities, router, colors];
  const changedInputs = !t.sent || t.sent.some((x, i) => x !== inputs[i]);
  if (changedInputs) {
    t.sent = inputs;
    t.placed = [...cities].sort((a, b) => b.population - a.population).map((city) => ({ city, faceST: faceSTAt(city.lat, city.lng) }));
    t.names = t.placed.map((p) => p.city.name);
    t.colors = t.placed.map((p) => toHex(colors[router.route(p.city.lat, p.city.lng).index]));
    t.worker?.cities(t.names, t.colors);
  }
  const dpr = window.devicePixelRatio || 1;
  const blocked = cities.length === 0 ? [] : panelBoxes(canvas);
  const key = cities.length === 0 ? 'empty' : [v.lat, v.lng, v.zoom, v.morph, v.flat, v.mapLat, v.net[0], v.net[1], v.width, v.height, dpr, blocked.flat().join(',')].join(' ');
  if (key === t.key && !changedInputs) return;
  t.key = key;
  const points = new Float32Array(3 * t.placed.length);
  t.placed.forEach((p, i) => {
    const { x, y, visible } = projectLatLng(v, p.city.lat, p.city.lng, p.faceST);
    points.set([x, y, visible ? 1 : 0], 3 * i);
  });
  const xy = Array.from(points);
  const names = t.names;
  const seq = ++t.seq;
  const show = (placed: Placement) => {
    if (target !== t || seq !== t.seq) return;
    canvas.dataset.labels = JSON.stringify(placed.labels.map((l) => [names[l.index], round(xy[3 * l.index]), round(xy[3 * l.index + 1]), ...l.box.map(round)]));
    canvas.dataset.dots = JSON.stringify(placed.dots.map((i) => [round(xy[3 * i]), round(xy[3 * i + 1])]));
  };
  if (t.worker) void t.worker.draw(v.width, v.height, dpr, points, blocked).then(show);
  else show(drawPoints(canvas, t.state, v.width, v.height, dpr, points, t.names, t.colors, blocked));
}

const round = (x: number) => Math.round(x * 10) / 10;

/**
 * panelBoxes returns the boxes (CSS px from the canvas's top-left, 3 px of margin) of the panels
 * laid over the canvas: the children of the globe view's `.overlay` containers that show.
 */
function panelBoxes(canvas: HTMLCanvasElement): Box[] {
  const view = canvas.closest('.globe-view');
  if (!view) return [];
  const c = canvas.getBoundingClientRect();
  const boxes: Box[] = [];
  for (const el of view.querySelectorAll<HTMLElement>('.overlay > *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    boxes.push([Math.round(r.left - c.left - 3), Math.round(r.top - c.top - 3), Math.round(r.right - c.left + 3), Math.round(r.bottom - c.top + 3)]);
  }
  return boxes;
}

/**
 * The sample cities over the globe: the main thread projects them (the same view math as
 * the shaders, once per frame in which the view moved) and a worker draws them on the
 * overlay canvas it owns (labels.worker.ts), so label frames never cost the main thread a
 * repaint. Without OffscreenCanvas the same drawing runs here.
 */
import type { Router } from '../../core/index';
import { faceSTAt } from './faces';
import type { City } from '../shell/loadData';
import { projectLatLng, type ViewGeometry } from './view';
import { toHex, type RGB } from '../shell/palette';
import { wrap, transfer, type Remote } from 'comlink';
import type { LabelsApi } from './labels.worker';
import { drawPoints } from './labelsDraw';

interface Placed {
  city: City;
  faceST: { face: number; s: number; t: number };
}

interface Target {
  canvas: HTMLCanvasElement;
  worker: { api: Remote<LabelsApi>; terminate(): void } | null;
  /** The inputs last sent (cities, router, colours) and the last view key drawn. */
  sent: [City[], Router, RGB[]] | null;
  placed: Placed[];
  names: string[];
  colors: string[];
  key: string;
}

let target: Target | null = null;

function attach(canvas: HTMLCanvasElement): Target {
  let worker: Target['worker'] = null;
  if (typeof canvas.transferControlToOffscreen === 'function') {
    const w = new Worker(new URL('./labels.worker.ts', import.meta.url), { type: 'module' });
    const api = wrap<LabelsApi>(w);
    const offscreen = canvas.transferControlToOffscreen();
    void api.init(transfer(offscreen, [offscreen]));
    worker = { api, terminate: () => w.terminate() };
  }
  return { canvas, worker, sent: null, placed: [], names: [], colors: [], key: '' };
}

/**
 * drawLabels updates the overlay when the view or the cities changed since the last call;
 * an empty city list clears it.
 */
export function drawLabels(canvas: HTMLCanvasElement | null, v: ViewGeometry, cities: City[], router: Router, colors: RGB[]): void {
  if (!canvas) return;
  if (!target || target.canvas !== canvas) {
    target?.worker?.terminate();
    target = attach(canvas);
  }
  const t = target;
  const inputs: [City[], Router, RGB[]] = [cities, router, colors];
  const changedInputs = !t.sent || t.sent.some((x, i) => x !== inputs[i]);
  if (changedInputs) {
    t.sent = inputs;
    t.placed = [...cities].sort((a, b) => b.population - a.population).map((city) => ({ city, faceST: faceSTAt(city.lat, city.lng) }));
    t.names = t.placed.map((p) => p.city.name);
    t.colors = t.placed.map((p) => toHex(colors[router.route(p.city.lat, p.city.lng).index]));
    void t.worker?.api.cities(t.names, t.colors);
  }
  const dpr = window.devicePixelRatio || 1;
  const key = cities.length === 0 ? 'empty' : [v.lat, v.lng, v.zoom, v.morph, v.flat, v.mapLat, v.net[0], v.net[1], v.width, v.height, dpr].join(' ');
  if (key === t.key && !changedInputs) return;
  t.key = key;
  const points = new Float32Array(3 * t.placed.length);
  t.placed.forEach((p, i) => {
    const { x, y, visible } = projectLatLng(v, p.city.lat, p.city.lng, p.faceST);
    points.set([x, y, visible ? 1 : 0], 3 * i);
  });
  if (t.worker) void t.worker.api.draw(v.width, v.height, dpr, transfer(points, [points.buffer]));
  else drawPoints(canvas, v.width, v.height, dpr, points, t.names, t.colors);
}

/**
 * The sample cities drawn on a 2D canvas over the globe: a dot in the colour
 * of the city's shard and its name, larger cities first, skipping labels that
 * would overlap ones already placed. Drawn by FrameDriver in the same frame as
 * the globe, so labels never lag behind it.
 */
import type { Router } from '../../core/index';
import { faceSTAt } from '../../core/index';
import type { City } from './loadData';
import { projectLatLng, type ViewGeometry } from './view';
import { toHex, type RGB } from './palette';

interface Placed {
  city: City;
  shard: number;
  faceST: { face: number; s: number; t: number };
}

let cache: { cities: City[]; router: Router; placed: Placed[] } | null = null;

function prepare(cities: City[], router: Router): Placed[] {
  if (cache && cache.cities === cities && cache.router === router) return cache.placed;
  const placed = [...cities]
    .sort((a, b) => b.population - a.population)
    .map((city) => ({ city, shard: router.route(city.lat, city.lng).index, faceST: faceSTAt(city.lat, city.lng) }));
  cache = { cities, router, placed };
  return placed;
}

/** drawLabels redraws the overlay; an empty city list clears it. */
export function drawLabels(canvas: HTMLCanvasElement | null, v: ViewGeometry, cities: City[], router: Router, colors: RGB[]): void {
  if (!canvas) return;
  const dpr = window.devicePixelRatio || 1;
  const w = Math.round(v.width * dpr);
  const h = Math.round(v.height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, v.width, v.height);
  if (cities.length === 0) return;
  ctx.font = '600 11px system-ui, -apple-system, "Segoe UI", sans-serif';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const boxes: [number, number, number, number][] = [];
  for (const p of prepare(cities, router)) {
    const { x, y, visible } = projectLatLng(v, p.city.lat, p.city.lng, p.faceST);
    if (!visible || x < -50 || y < -20 || x > v.width + 50 || y > v.height + 20) continue;
    ctx.beginPath();
    ctx.arc(x, y, 3.2, 0, 2 * Math.PI);
    ctx.fillStyle = toHex(colors[p.shard]);
    ctx.strokeStyle = '#0b101b';
    ctx.lineWidth = 1.5;
    ctx.fill();
    ctx.stroke();
    const tw = ctx.measureText(p.city.name).width;
    const box: [number, number, number, number] = [x + 6, y - 7, x + 8 + tw, y + 7];
    if (boxes.some((b) => box[0] < b[2] && box[2] > b[0] && box[1] < b[3] && box[3] > b[1])) continue;
    boxes.push(box);
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(8, 12, 22, 0.85)';
    ctx.strokeText(p.city.name, x + 7, y);
    ctx.fillStyle = '#eef2fa';
    ctx.fillText(p.city.name, x + 7, y);
  }
}

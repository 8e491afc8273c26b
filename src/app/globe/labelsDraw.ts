/**
 * Placing and drawing the city labels onto a 2D canvas: used by the labels worker (labelsWorker.ts) and by the
 * main-thread fallback in labels.ts. Coordinates are CSS pixels from the canvas's top-left.
 *
 * Placement (placeLabels) is greedy and collision-free: a city's label sits beside its own dot,
 * never over another label, another drawn dot, a panel laid over the globe, or the canvas edge.
 * It is stable while the view moves: a label shown in the last frame keeps its side and goes
 * first while it still fits (hysteresis), then the other cities by population.
 */
import { context2d } from '../shell/canvas2d';

/** A box [x0, y0, x1, y1] (x0 < x1, y0 < y1), CSS pixels. */
export type Box = [number, number, number, number];

/** A label placed: the city (its index in priority order), the side it sits on and its text box. */
export interface LabelPlacement {
  index: number;
  anchor: number;
  box: Box;
}

/** What placeLabels decided: the dots drawn (indices, priority order) and the labels placed. */
export interface Placement {
  dots: number[];
  labels: LabelPlacement[];
}

/** The label text: font (CSS), box height and the gap between the dot and the text, CSS px. */
export const LABEL_FONT = '600 11px system-ui, -apple-system, "Segoe UI", sans-serif';
const TEXT_H = 14;
const DOT_R = 3.2;
/** A dot keeps at least this distance (CSS px) from a larger city's dot, or is not drawn: crowded places do not become a blob. */
export const DOT_SPACING = 7;
/** The spacing down to which a dot drawn in the last frame stays drawn (hysteresis). */
export const KEEP_SPACING = 5;
/** Half the side of the square around a dot that no other city's label may cover. */
const DOT_CLEAR = 4.5;

/**
 * The sides a label may take around its dot, in order of preference: right, left, then the four
 * diagonals, then centred above and below. Each returns the text box for a text width tw.
 */
const ANCHORS: ((x: number, y: number, tw: number) => Box)[] = [
  (x, y, tw) => [x + 6, y - TEXT_H / 2, x + 8 + tw, y + TEXT_H / 2],
  (x, y, tw) => [x - 8 - tw, y - TEXT_H / 2, x - 6, y + TEXT_H / 2],
  (x, y, tw) => [x + 3, y - 4 - TEXT_H, x + 5 + tw, y - 4],
  (x, y, tw) => [x + 3, y + 4, x + 5 + tw, y + 4 + TEXT_H],
  (x, y, tw) => [x - 5 - tw, y - 4 - TEXT_H, x - 3, y - 4],
  (x, y, tw) => [x - 5 - tw, y + 4, x - 3, y + 4 + TEXT_H],
  (x, y, tw) => [x - tw / 2 - 1, y - 6 - TEXT_H, x + tw / 2 + 1, y - 6],
  (x, y, tw) => [x - tw / 2 - 1, y + 6, x + tw / 2 + 1, y + 6 + TEXT_H],
];

const overlaps = (a: Box, b: Box) => a[0] < b[2] && a[2] > b[0] && a[1] < b[3] && a[3] > b[1];
const inside = (x: number, y: number, b: Box) => x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];

/**
 * placeLabels chooses the dots and labels to draw. points holds [x, y, visible] per city in
 * priority order (largest first); widths the text width of each name (CSS px); blocked the boxes
 * of the panels over the canvas; previous the labels of the last frame (city index → anchor).
 * A dot is drawn when it is visible, on the canvas, not under a panel and at least DOT_SPACING
 * from every larger city's drawn dot (KEEP_SPACING if it was drawn last frame: previousDots).
 */
export function placeLabels(points: Float32Array, widths: readonly number[], blocked: readonly Box[], width: number, height: number, previous: ReadonlyMap<number, number>, previousDots: ReadonlySet<number> = new Set()): Placement {
  const n = Math.min(widths.length, Math.floor(points.length / 3));
  const dots: number[] = [];
  // Dots drawn last frame go first and keep their place down to KEEP_SPACING, so a pair of
  // cities near the spacing does not flicker while the view moves.
  const all = Array.from({ length: n }, (_, i) => i);
  for (const i of [...all.filter((i) => previousDots.has(i)), ...all.filter((i) => !previousDots.has(i))]) {
    const [x, y, visible] = [points[3 * i], points[3 * i + 1], points[3 * i + 2]];
    if (!visible || x < DOT_R || y < DOT_R || x > width - DOT_R || y > height - DOT_R) continue;
    if (blocked.some((b) => inside(x, y, [b[0] - DOT_R, b[1] - DOT_R, b[2] + DOT_R, b[3] + DOT_R]))) continue;
    const spacing = previousDots.has(i) ? KEEP_SPACING : DOT_SPACING;
    if (dots.some((j) => Math.hypot(points[3 * j] - x, points[3 * j + 1] - y) < spacing)) continue;
    dots.push(i);
  }
  dots.sort((a, b) => a - b);
  // Labels shown last frame go first (in priority order), then the others.
  const order = [...dots.filter((i) => previous.has(i)), ...dots.filter((i) => !previous.has(i))];
  const labels: LabelPlacement[] = [];
  const frame: Box = [0, 0, width, height];
  for (const i of order) {
    const [x, y] = [points[3 * i], points[3 * i + 1]];
    const prev = previous.get(i);
    const tries = prev === undefined ? ANCHORS.map((_, k) => k) : [prev, ...ANCHORS.map((_, k) => k).filter((k) => k !== prev)];
    for (const anchor of tries) {
      const box = ANCHORS[anchor](x, y, widths[i]);
      if (box[0] < frame[0] || box[1] < frame[1] || box[2] > frame[2] || box[3] > frame[3]) continue;
      if (blocked.some((b) => overlaps(box, b))) continue;
      if (labels.some((l) => overlaps(box, l.box))) continue;
      if (dots.some((j) => j !== i && overlaps(box, [points[3 * j] - DOT_CLEAR, points[3 * j + 1] - DOT_CLEAR, points[3 * j] + DOT_CLEAR, points[3 * j + 1] + DOT_CLEAR]))) continue;
      labels.push({ index: i, anchor, box });
      break;
    }
  }
  return { dots, labels };
}

/** The state one overlay keeps between frames: the text widths (per name list) and the last frame's labels. */
export interface LabelState {
  names: string[];
  widths: number[];
  previous: Map<number, number>;
  previousDots: Set<number>;
}

/** newLabelState returns the state of an overlay that has drawn nothing yet. */
export function newLabelState(): LabelState {
  return { names: [], widths: [], previous: new Map(), previousDots: new Set() };
}

/**
 * drawPoints places (placeLabels) and draws the dots in the shard's color and the names of the
 * cities, on a canvas of width × height CSS px at device pixel ratio dpr. Returns the placement.
 */
export function drawPoints(canvas: OffscreenCanvas | HTMLCanvasElement, state: LabelState, width: number, height: number, dpr: number, points: Float32Array, names: string[], colors: string[], blocked: readonly Box[]): Placement {
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null = context2d(canvas);
  if (!ctx) return { dots: [], labels: [] };
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = LABEL_FONT;
  if (state.names !== names) {
    // A new list of cities: measure each name once, forget the last frame's labels.
    state.names = names;
    state.widths = names.map((s) => ctx.measureText(s).width);
    state.previous = new Map();
    state.previousDots = new Set();
  }
  const placed = placeLabels(points, state.widths, blocked, width, height, state.previous, state.previousDots);
  state.previous = new Map(placed.labels.map((l) => [l.index, l.anchor]));
  state.previousDots = new Set(placed.dots);
  ctx.strokeStyle = '#0b101b';
  ctx.lineWidth = 1.5;
  for (const i of placed.dots) {
    ctx.beginPath();
    ctx.arc(points[3 * i], points[3 * i + 1], DOT_R, 0, 2 * Math.PI);
    ctx.fillStyle = colors[i];
    ctx.fill();
    ctx.stroke();
  }
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  ctx.lineWidth = 3;
  ctx.strokeStyle = 'rgba(8, 12, 22, 0.85)';
  ctx.fillStyle = '#eef2fa';
  for (const { index, box } of placed.labels) {
    const tx = box[0] + 1;
    const ty = (box[1] + box[3]) / 2;
    ctx.strokeText(names[index], tx, ty);
    ctx.fillText(names[index], tx, ty);
  }
  return placed;
}

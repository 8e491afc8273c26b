/// <reference lib="webworker" />
/**
 * Draws the city labels on the overlay canvas, which the main thread has handed over
 * (transferControlToOffscreen): the frames go straight to the compositor, so a moving
 * view never makes the main thread repaint a 2D canvas (50 ms a frame without a GPU).
 * Messages: { kind: 'cities', names, colors } once per data set, then
 * { kind: 'draw', width, height, dpr, points } with [x, y, visible] per city in CSS pixels,
 * cities in drawing priority order (largest first).
 */
import { drawPoints } from './labelsDraw';

export type LabelsMessage =
  | { kind: 'init'; canvas: OffscreenCanvas }
  | { kind: 'cities'; names: string[]; colors: string[] }
  | { kind: 'draw'; width: number; height: number; dpr: number; points: Float32Array };

let canvas: OffscreenCanvas | null = null;
let names: string[] = [];
let colors: string[] = [];

self.onmessage = (e: MessageEvent<LabelsMessage>) => {
  const m = e.data;
  if (m.kind === 'init') canvas = m.canvas;
  else if (m.kind === 'cities') [names, colors] = [m.names, m.colors];
  else if (canvas) drawPoints(canvas, m.width, m.height, m.dpr, m.points, names, colors);
};

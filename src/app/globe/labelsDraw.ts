/** Drawing the city labels onto a 2D canvas: used by labels.worker.ts and by the main-thread fallback in labels.ts. */

/**
 * drawPoints draws a dot in the shard's colour and the name of each visible city, larger
 * cities first, skipping names that would overlap ones already placed. Shared by the worker
 * and the main-thread fallback.
 */
export function drawPoints(canvas: OffscreenCanvas | HTMLCanvasElement, width: number, height: number, dpr: number, points: Float32Array, names: string[], colors: string[]): void {
  const w = Math.round(width * dpr);
  const h = Math.round(height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null;
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.font = '600 11px system-ui, -apple-system, "Segoe UI", sans-serif';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const boxes: [number, number, number, number][] = [];
  for (let i = 0; i < names.length && 3 * i + 2 < points.length; i++) {
    const [x, y, visible] = [points[3 * i], points[3 * i + 1], points[3 * i + 2]];
    if (!visible || x < -50 || y < -20 || x > width + 50 || y > height + 20) continue;
    ctx.beginPath();
    ctx.arc(x, y, 3.2, 0, 2 * Math.PI);
    ctx.fillStyle = colors[i];
    ctx.strokeStyle = '#0b101b';
    ctx.lineWidth = 1.5;
    ctx.fill();
    ctx.stroke();
    const tw = ctx.measureText(names[i]).width;
    const box: [number, number, number, number] = [x + 6, y - 7, x + 8 + tw, y + 7];
    if (boxes.some((b) => box[0] < b[2] && box[2] > b[0] && box[1] < b[3] && box[3] > b[1])) continue;
    boxes.push(box);
    ctx.lineWidth = 3;
    ctx.strokeStyle = 'rgba(8, 12, 22, 0.85)';
    ctx.strokeText(names[i], x + 7, y);
    ctx.fillStyle = '#eef2fa';
    ctx.fillText(names[i], x + 7, y);
  }
}

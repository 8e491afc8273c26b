import { CELLS_PER_FACE } from '../../core/cells';
/**
 * context2d returns a canvas's 2D context drawn by the CPU (`willReadFrequently`), the one
 * way the explorer opens a 2D canvas (the Hilbert ribbon, the review's ribbon, the city labels,
 * in the page or in their worker). Null if the canvas has no 2D context.
 *
 * Why not the default (GPU) canvas: a GPU-backed 2D canvas makes the GPU process set up a
 * context for it, synchronously for the thread that asks: with software WebGL (SwiftShader, the
 * benches and browser tests) the ribbon's took 0.2–0.4 s of the main thread before the globe's
 * first frame, and queued the globe's own context behind it; a CPU canvas's getContext takes a
 * few ms. These canvases draw a few rectangles and names per change; the globe stays on the GPU.
 * A CPU canvas still asks the GPU process for a (small) command buffer to show its pixels, and
 * that waits behind whatever the GPU process is drawing: make such a canvas before the globe's
 * frames start (the ribbon is on the first screen for this reason). The options only count at a
 * canvas's first getContext call: always open it through here.
 */
export function context2d<C extends HTMLCanvasElement | OffscreenCanvas>(canvas: C): (C extends OffscreenCanvas ? OffscreenCanvasRenderingContext2D : CanvasRenderingContext2D) | null {
  return canvas.getContext('2d', { willReadFrequently: true }) as never;
}

/**
 * drawFaceBand draws the six cube faces along a Hilbert ribbon (the shards strip, the review's
 * ribbon): a band `height` CSS px high at the top, alternating shades, each face named where it
 * is wider than 36 px. `xOf` maps a level-10 ordinal to x in CSS px; `width` is the canvas's CSS
 * width. Leaves the context's font at 10 px system-ui, baseline middle.
 */
export function drawFaceBand(ctx: CanvasRenderingContext2D, xOf: (ordinal: number) => number, width: number, height: number): void {
  ctx.font = '10px system-ui, sans-serif';
  ctx.textBaseline = 'middle';
  for (let f = 0; f < 6; f++) {
    const a = Math.max(0, xOf(f * CELLS_PER_FACE));
    const b = Math.min(width, xOf((f + 1) * CELLS_PER_FACE));
    if (b <= 0 || a >= width) continue;
    ctx.fillStyle = f % 2 ? 'rgba(255,255,255,0.07)' : 'rgba(255,255,255,0.13)';
    ctx.fillRect(a, 0, b - a, height - 2);
    ctx.fillStyle = '#c6cfdf';
    if (b - a > 36) ctx.fillText(`face ${f}`, a + 4, height / 2 - 1);
  }
}

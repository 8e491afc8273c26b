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

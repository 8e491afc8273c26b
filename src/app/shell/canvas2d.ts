/**
 * context2d returns a canvas's 2D context drawn by the CPU (`willReadFrequently`), the one
 * way the explorer opens a 2D canvas (the Hilbert ribbon, the review's ribbon, the city labels,
 * in the page or in their worker). Null if the canvas has no 2D context.
 *
 * Why not the default (GPU) canvas: each GPU-backed 2D canvas gets a command buffer of its own in
 * the GPU process, and creating one is synchronous for the thread that asks: with software
 * WebGL (SwiftShader, the benches and browser tests) the ribbon's took 0.2–0.4 s of the main
 * thread before the globe's first frame, and its creation queued the globe's own context
 * behind it. These canvases draw a few rectangles and names per change, which the CPU does in
 * well under a millisecond; the globe stays on the GPU. The options only count at a canvas's
 * first getContext call: always open it through here.
 */
export function context2d<C extends HTMLCanvasElement | OffscreenCanvas>(canvas: C): (C extends OffscreenCanvas ? OffscreenCanvasRenderingContext2D : CanvasRenderingContext2D) | null {
  return canvas.getContext('2d', { willReadFrequently: true }) as never;
}

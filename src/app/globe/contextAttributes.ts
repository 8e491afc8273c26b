/**
 * The WebGL context attributes of the renderer R3F makes for a scene, known before the renderer
 * exists: SceneCanvas creates the context in a task of its own with them, and three's renderer,
 * asking the canvas for a context with the same attributes, gets that one.
 */

/**
 * contextAttributes returns the WebGL2 context attributes the renderer R3F makes from the `gl`
 * prop will ask for: R3F's defaults (antialias and alpha on, high-performance) under the prop,
 * then three's WebGLRenderer's (r187: alpha always on, depth on, stencil off, premultiplied
 * alpha). Null when the prop is a renderer, a factory or brings its own context: that renderer
 * makes its context itself.
 */
export function contextAttributes(gl: unknown): WebGLContextAttributes | null {
  if (gl !== undefined && (typeof gl !== 'object' || gl === null || 'render' in gl || 'context' in gl)) return null;
  const o: { depth?: boolean; stencil?: boolean; antialias?: boolean; premultipliedAlpha?: boolean; preserveDrawingBuffer?: boolean; powerPreference?: WebGLPowerPreference; failIfMajorPerformanceCaveat?: boolean } = { antialias: true, powerPreference: 'high-performance', ...(gl as object | undefined) };
  return {
    alpha: true,
    depth: o.depth ?? true,
    stencil: o.stencil ?? false,
    antialias: o.antialias ?? false,
    premultipliedAlpha: o.premultipliedAlpha ?? true,
    preserveDrawingBuffer: o.preserveDrawingBuffer ?? false,
    powerPreference: o.powerPreference ?? 'default',
    failIfMajorPerformanceCaveat: o.failIfMajorPerformanceCaveat ?? false,
  };
}

/**
 * GlobeCanvas: the WebGL canvas (orthographic camera, frames on demand) with
 * the shard surface, coastlines and Hilbert curve, plus the 2D canvas the city
 * labels are drawn on. Renders the scene once the boundary file is loaded, with the layers it is
 * given (the features', shell/panels.ts SCENE_LAYERS) after its own, in order.
 */
import { debugOrdinal } from '../shell/url';
import { useMemo, useRef, type ComponentType } from 'react';
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { SceneCanvas } from './SceneCanvas';
import { FrameDriver } from './FrameDriver';
import { ShardSurface } from './ShardSurface';
import { Coastlines } from './Coastlines';
import { HilbertCurve } from './HilbertCurve';
import { PointerControls } from './PointerControls';
import { createUniforms, UniformsContext } from './uniforms';

/**
 * With ?debug=ordinal the surface writes each pixel's level-10 ordinal as its color (tests read
 * it back); multisampling would blend the ordinals of neighbouring cells at triangle edges, so
 * that mode draws without it.
 */
const DEBUG_ORDINAL = debugOrdinal(location.search);

/** The scene's WebGL context attributes. */
const GL = { antialias: !DEBUG_ORDINAL, preserveDrawingBuffer: true, alpha: true, powerPreference: 'high-performance' } as const;

export function GlobeCanvas({ layers }: { layers: readonly ComponentType[] }) {
  const labels = useRef<HTMLCanvasElement>(null);
  const data = useApp(readyData);
  // This canvas's uniforms, shared by every material of its scene (globe/uniforms.ts).
  const uniforms = useMemo(() => createUniforms({ debug: DEBUG_ORDINAL }), []);
  // The canvas is created once the data is in: the strips below the globe take their height
  // with the data, and a canvas created before would be resized then, and resizing the drawing
  // buffer after the first frames blocked the main thread for about a second (software WebGL).
  return (
    <div className="globe-canvas">
      {data && (
      <SceneCanvas
        orthographic
        flat
        linear
        frameloop="demand"
        dpr={[1, 2]}
        camera={{ position: [0, 0, 10], zoom: 300, near: 0.1, far: 100 }}
        onCreated={(st) => {
          // Reading shader logs blocks the main thread until the GPU has compiled; the shaders
          // are fixed and tested, so production builds skip it.
          st.gl.debug.checkShaderErrors = import.meta.env.DEV;
        }}
        gl={GL}
      >
        <UniformsContext.Provider value={uniforms}>
        <FrameDriver labels={labels} />
        <ShardSurface starts={data.router.starts} colors={data.colors} />
        <Coastlines />
        <HilbertCurve />
        <PointerControls />
        {layers.map((Layer, i) => (
          <Layer key={i} />
        ))}
        </UniformsContext.Provider>
      </SceneCanvas>
      )}
      <canvas ref={labels} className="globe-labels" aria-hidden="true" />
    </div>
  );
}

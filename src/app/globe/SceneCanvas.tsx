/**
 * SceneCanvas: a WebGL canvas that renders react-three-fiber children, in place of R3F's
 * `<Canvas>`. `<Canvas>` registers the whole `three` namespace (`extend(THREE)`), which keeps
 * all of three.js in the first screen's JavaScript; this registers only the classes the scene
 * declares as JSX (`<mesh>`, `<lineSegments>`, `<group>`), so the bundler drops the rest.
 * A layer that declares another three.js class as JSX must add it to SCENE_CLASSES.
 *
 * The DOM is `<Canvas>`'s (a div, a div, a block canvas), so styles and tests that find the
 * canvas see the same tree. There are no R3F pointer events: the scene's controls listen on
 * the canvas element themselves. The canvas is sized to its container (a ResizeObserver), from
 * the first layout on, so the first frame does not wait for a measuring render.
 */
import { createElement, useInsertionEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { StoreContext, useAppStore } from '../shell/store';
import { createRoot, extend, type ReconcilerRoot, type RenderProps, type RootState } from '@react-three/fiber';
import { Group, LineSegments, Mesh, type Material } from 'three';
import { contextAttributes } from './contextAttributes';

/** The three.js classes the scene writes as JSX elements (R3F's catalogue). */
const SCENE_CLASSES = { Group, LineSegments, Mesh };
extend(SCENE_CLASSES);

/** nextTask resolves in a later task (after other queued work, rendering included). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * warmUp compiles every material in the scene, shown or not (three's compile), then reads each
 * program's uniforms and attributes, one program per task, before the first frame is drawn.
 *
 * Why: three reads a program's uniforms on its first draw, and that read waits for everything
 * the GPU was given before it: with software WebGL, a frame of the shard surface (0.5–1 s) as
 * well as the link. A layer first drawn when its data arrives (the coastlines, the curve) then
 * stalled the main thread for most of a second. Before the first frame the GPU has nothing
 * else to do, so each read waits only for its own link. KHR_parallel_shader_compile, which
 * would let three's compileAsync poll instead, is missing from Chromium's SwiftShader.
 */
async function warmUp(state: RootState, still: () => boolean): Promise<void> {
  const materials: Set<Material> = state.gl.compile(state.scene, state.camera);
  for (const m of materials) {
    await nextTask();
    if (!still()) return;
    const program = (state.gl.properties.get(m) as { currentProgram?: { getUniforms(): unknown; getAttributes(): unknown } }).currentProgram;
    program?.getUniforms();
    program?.getAttributes();
  }
}


export interface SceneCanvasProps extends Omit<RenderProps<HTMLCanvasElement>, 'size' | 'events'> {
  children: ReactNode;
}

export function SceneCanvas({ children: scene, ...config }: SceneCanvasProps) {
  // The scene is a React root of its own (react-three-fiber's), which React's context does not
  // reach: the store the page renders with is handed on to it here.
  const store = useAppStore();
  const children = createElement(StoreContext.Provider, { value: store }, scene);
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const root = useRef<ReconcilerRoot<HTMLCanvasElement> | null>(null);
  // A renderer that cannot start (no WebGL) is thrown from here, like <Canvas> does.
  const [error, setError] = useState<unknown>(null);
  if (error) throw error;
  // The latest props, for the resize observer.
  const latest = useRef({ config, children });
  latest.current = { config, children };

  // Configure (size, renderer options) and render the children; with a plain (not asynchronous)
  // renderer both happen before this returns, so the scene exists when it returns.
  const apply = () => {
    const div = container.current;
    const el = canvas.current;
    if (!div || !el || starting.current) return;
    const rect = div.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return;
    const size = { width: rect.width, height: rect.height, top: rect.top, left: rect.left };
    if (!root.current) return start(el);
    const { config: props, children: kids } = latest.current;
    root.current.configure({ ...props, size }).catch(setError);
    if (root.current.ready.status !== 'rejected') root.current.render(kids);
  };
  // The first time, in tasks of their own, so that no one task holds the main thread for long:
  // the page's own commit (this effect); creating the WebGL context (synchronous: the GPU
  // process sets up its command buffer, 0.05-0.5 s with software WebGL on a loaded machine);
  // three's renderer on that context (it queries the context, a round trip to the same GPU
  // process each); building the scene; then warmUp, before any frame. The renderer asks the
  // canvas for a context with the same attributes and gets this one (contextAttributes).
  // The context is asked for in the next task, not after the page's next paint: on a loaded
  // machine a paint with software raster took 0.05-1 s, all of it before the first frame.
  const starting = useRef(false);
  const start = (el: HTMLCanvasElement) => {
    starting.current = true;
    const still = () => starting.current; // false once unmounted
    const configure = (r: ReconcilerRoot<HTMLCanvasElement>) => {
      const div = container.current!.getBoundingClientRect();
      return r.configure({ ...latest.current.config, frameloop: 'never', size: { width: div.width, height: div.height, top: div.top, left: div.left } }).catch(setError);
    };
    void nextTask()
      .then(() => {
        if (!still()) return;
        const attributes = contextAttributes(latest.current.config.gl);
        if (attributes) el.getContext('webgl2', attributes);
        return nextTask();
      })
      .then(() => {
        if (!still()) return;
        root.current = createRoot(el);
        void configure(root.current);
        return nextTask();
      })
      .then(() => {
        if (!still() || root.current!.ready.status === 'rejected') return;
        void configure(root.current!);
        return warmUp(root.current!.render(latest.current.children).getState(), still);
      })
      .then(() => {
        if (!still()) return;
        starting.current = false;
        apply();
        root.current?.render(latest.current.children).getState().invalidate();
      });
  };

  useLayoutEffect(apply);
  useLayoutEffect(() => {
    const watch = new ResizeObserver(() => apply());
    watch.observe(container.current!);
    return () => watch.disconnect();
  }, []);
  // The root (and its context) is released only when the canvas goes for good: insertion
  // effects are not replayed by StrictMode, as in <Canvas>.
  useInsertionEffect(
    () => () => {
      starting.current = false;
      root.current?.unmount();
      root.current = null;
    },
    [],
  );

  return (
    <div style={{ position: 'relative', width: '100%', height: '100%', overflow: 'hidden', pointerEvents: 'auto' }}>
      <div ref={container} style={{ width: '100%', height: '100%' }}>
        <canvas ref={canvas} style={{ display: 'block' }} />
      </div>
    </div>
  );
}

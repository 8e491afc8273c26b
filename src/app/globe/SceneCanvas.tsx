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
import { useInsertionEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { createRoot, extend, type ReconcilerRoot, type RenderProps } from '@react-three/fiber';
import { Group, LineSegments, Mesh } from 'three';

/** The three.js classes the scene writes as JSX elements (R3F's catalogue). */
const SCENE_CLASSES = { Group, LineSegments, Mesh };
extend(SCENE_CLASSES);

export interface SceneCanvasProps extends Omit<RenderProps<HTMLCanvasElement>, 'size' | 'events'> {
  children: ReactNode;
}

export function SceneCanvas({ children, ...config }: SceneCanvasProps) {
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
  // renderer both happen before this returns, so the scene exists in this layout effect.
  const apply = () => {
    const div = container.current;
    const el = canvas.current;
    if (!div || !el) return;
    const rect = div.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return;
    root.current ??= createRoot(el);
    const r = root.current;
    const { config: props, children: kids } = latest.current;
    r.configure({ ...props, size: { width: rect.width, height: rect.height, top: rect.top, left: rect.left } }).catch(setError);
    if (r.ready.status !== 'rejected') r.render(kids);
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

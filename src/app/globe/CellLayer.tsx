/**
 * CellLayer: the kit's one layer of cells, as deck.gl's S2Layer is: it takes data and accessors
 * (getCells, each part's color) and knows no feature and no store slice. The search's covering
 * (search/CoveringCells.tsx), the requests layer (requests/RequestsLayer.tsx) and the fan-out map
 * (fanout/FanoutMap.tsx) are three of its uses: they hand it data and own no buffers. The drawing
 * itself, its buckets and buffers, is cellLayer.ts.
 *
 * `data` is watched (globe/watched.ts): a new value is drawn at once, into the layer's buffers,
 * with no React render (a covering arrives once per animation frame while the radius is
 * dragged), and the layer asks for a frame (frame.invalidate()). The accessors and parts are read
 * at each draw; changing them draws nothing until the data changes.
 */
import { useEffect, useRef } from 'react';
import type * as THREE from 'three';
import { useAppStore } from '../shell/store';
import { useUniforms } from './uniforms';
import type { Watched } from './watched';
import { createCellLayer, type CellLayerStyle, type CellsDrawn } from './cellLayer';

export type { CellColor, CellColumns, CellPart, CellLayerStyle, CellsDrawn } from './cellLayer';

export interface CellLayerProps<D> extends CellLayerStyle<D> {
  /** The datum to draw (null: nothing), watched. */
  data: Watched<D | null>;
  /** Whether the layer shows, watched (absent: always; present: hidden until it says). */
  visible?: Watched<boolean>;
  /** Called after each draw, the first on mount, with the datum and what was drawn (test hooks). */
  onDrawn?: (d: D | null, drawn: CellsDrawn) => void;
}

export function CellLayer<D>(props: CellLayerProps<D>) {
  const appStore = useAppStore();
  const frame = appStore.getState().frame;
  const uniforms = useUniforms();
  const group = useRef<THREE.Group>(null);
  // The accessors of the last render, read at each draw.
  const latest = useRef(props);
  latest.current = props;
  const { data, visible } = props;

  useEffect(() => {
    const drawing = createCellLayer<D>(uniforms, group.current!);
    const draw = (d: D | null) => {
      const drawn = drawing.draw(d, latest.current);
      frame.invalidate();
      latest.current.onDrawn?.(d, drawn);
    };
    draw(data.get());
    const unsubscribe = data.subscribe(draw);
    return () => {
      unsubscribe();
      drawing.dispose();
    };
  }, [data, uniforms]);

  useEffect(() => {
    if (!visible) return;
    const show = (on: boolean) => {
      group.current!.visible = on;
      frame.invalidate();
    };
    show(visible.get());
    return visible.subscribe(show);
  }, [visible]);

  return <group ref={group} visible={!visible} />;
}

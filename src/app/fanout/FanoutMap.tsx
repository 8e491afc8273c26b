/**
 * FanoutMap: the fan-out map layer: where a search of the current radius
 * would ask 2, 3 or 4+ shards, over the world grid and, when zoomed in, the
 * finer grid of the view (fanout/fanoutLayer.ts computes both in a worker).
 *
 * Drawn as geometry rather than as a texture sampled in a shader: each
 * pixel (runs of equal pixels merged) is a quad given by its corners
 * (fanoutGeometry.ts), drawn by the kit's cell layer (globe/CellLayer.tsx)
 * as it draws S2 cells, so the layer follows the globe, the map, the net and
 * the morph between them exactly as the covering does, with no per-pixel
 * inverse projection (and the GPU's imprecise trig) to duplicate for each
 * layout. Two uses of the layer: the world grid, then the view's grid on top
 * (the world grid leaves out the pixels the view's grid covers). Pixels
 * asking one shard are not drawn. The map is redrawn when a grid changes
 * (once per animation frame at most while the radius is dragged), without a
 * React render.
 */
import { useMemo } from 'react';
import { useWatched } from '../shell/store';
import { CellLayer, type CellColor, type CellLayerStyle } from '../globe/CellLayer';
import { derived } from '../globe/watched';
import { FANOUT_COLORS } from './fanoutColors';
import type { FanoutState } from './fanoutSlice';
import type { FanoutGridResult } from './fanoutWorker';
import { fanoutQuads, type GridQuads } from './fanoutGeometry';

/** The color of buckets 2, 3, 4+ with its overlay opacity, one object each. */
const PAINT: readonly CellColor[] = FANOUT_COLORS.slice(1).map((c) => [...c.rgb, c.alpha] as const);

/** What the map draws of the layer's state: the quads of the world grid and of the view's grid. */
interface Drawn {
  state: FanoutState;
  /** The view's grid, when it is for the current radius. */
  detail: FanoutGridResult | null;
  world: GridQuads | null;
  view: GridQuads | null;
}

function drawnOf(f: FanoutState): Drawn {
  const d = f.detail && f.detail.radiusKm === f.radiusKm ? f.detail : null;
  return {
    state: f,
    detail: d,
    world: f.world ? fanoutQuads(f.world.grid, f.world.counts, d?.grid ?? null) : null,
    view: d ? fanoutQuads(d.grid, d.counts) : null,
  };
}

const NONE: GridQuads = { corners: new Float32Array(0), buckets: new Uint8Array(0) };
const WORLD: CellLayerStyle<Drawn> = {
  getCells: (x) => x.world ?? NONE,
  fill: { color: (i, x) => PAINT[x.world!.buckets[i]], lift: 0.0002, renderOrder: 0.55 },
};
const VIEW: CellLayerStyle<Drawn> = {
  getCells: (x) => x.view ?? NONE,
  fill: { color: (i, x) => PAINT[x.view!.buckets[i]], lift: 0.0002, renderOrder: 0.56 },
};

/** A new state redraws the map only when one of its grids is new (not for the worker's progress). */
const sameGrids = (a: FanoutState, b: FanoutState) => a.world === b.world && a.detail === b.detail;

/**
 * Test and benchmark hook, written once both grids are drawn: what the map now draws (radius, the
 * view's grid or null, pixels per bucket) and how many times it was drawn.
 */
function hook(x: Drawn | null): void {
  if (!x) return;
  const b = document.body.dataset;
  const d = x.detail;
  b.fanoutDrawn = JSON.stringify({ radiusKm: x.state.radiusKm, view: d ? d.grid : null, viewPixels: d ? d.pixels : null, worldPixels: x.state.world ? x.state.world.pixels : null });
  b.fanoutDraws = String(Number(b.fanoutDraws ?? 0) + 1);
}

export function FanoutMap() {
  const state = useWatched((s) => s.fanoutLayer, sameGrids);
  const drawn = useMemo(() => derived(state, drawnOf), [state]);
  return (
    <>
      <CellLayer data={drawn} {...WORLD} />
      <CellLayer data={drawn} onDrawn={hook} {...VIEW} />
    </>
  );
}

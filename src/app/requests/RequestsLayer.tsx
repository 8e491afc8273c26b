/**
 * RequestsLayer: the Requests layer in the scene (issue 15): every level-10
 * cell a workload's searches cover, filled with its rate bucket's color
 * (requests.ts; a grey-violet lightness scale apart from the shard palette),
 * and the cells of the hot ranges outlined. Two uses of the kit's cell layer
 * (globe/CellLayer.tsx), which owns the buffers: the fills, redrawn only when
 * the workload changes, and the hot outlines, redrawn when the workload, the
 * hot ranges or the file change. The layer toggle shows and hides both.
 * Nothing here re-renders React.
 *
 * Test hook on <body>: data-requests-drawn = "<buckets> <hot cells>" once the
 * layer's geometry for the shown workload and hot ranges is in place ("-" for
 * the hot cells while the current file's hot ranges are not known).
 */
import { useEffect, useMemo } from 'react';
import { shallow } from 'zustand/shallow';
import type { AppState } from '../shell/types';
import { useWatched } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { CellLayer, type CellLayerStyle } from '../globe/CellLayer';
import { derived } from '../globe/watched';
import { rateColor, hotCells, HOT_RGB, type RequestCells } from './requests';
import type { RequestWorkload } from './requestsSlice';

/** Heights above the surface (unit-sphere radii): over the shards and the fan-out map, under the covering (0.0004). */
const FILL_LIFT = 0.0003;
const OUTLINE_LIFT = 0.00035;

/** Each covered cell in its rate bucket's color. */
const FILLS: CellLayerStyle<RequestWorkload> = {
  getCells: (w) => w,
  fill: { color: (i, w) => rateColor(w.scale, w.rates[i]), lift: FILL_LIFT, renderOrder: 0.57 },
};

/** The hot ranges' cells as drawn: none until the current file's hot ranges are known ("-"). */
interface Hot {
  workload: RequestWorkload;
  cells: RequestCells;
  count: number | '-';
}

const NO_CELLS: RequestCells = { ordinals: new Int32Array(0), corners: new Float32Array(0) };

const HOT: CellLayerStyle<Hot> = {
  getCells: (h) => h.cells,
  outline: { color: HOT_RGB, lift: OUTLINE_LIFT, renderOrder: 0.58 },
};

type Inputs = Pick<AppState, 'requestWorkload' | 'requestHotspots' | 'data'>;
const inputsOf = (s: AppState): Inputs => ({ requestWorkload: s.requestWorkload, requestHotspots: s.requestHotspots, data: s.data });

/** hotOf returns the cells of the hot ranges of the shown workload over the current file, or null without a workload. */
function hotOf(i: Inputs): Hot | null {
  const w = i.requestWorkload;
  if (!w) return null;
  const data = readyData(i);
  const h = i.requestHotspots;
  if (!data || !h || h.hash !== data.file.hash) return { workload: w, cells: NO_CELLS, count: '-' };
  const cells = h.hotspots.length > 0 ? hotCells(w.ordinals, w.corners, (o) => data.router.indexOfOrdinal(o), new Set(h.hotspots.map((x) => x.index))) : NO_CELLS;
  return { workload: w, cells, count: cells.ordinals.length };
}

/** The hook, written when the hot outlines are drawn: they are redrawn whenever the workload changes too (after its fills). */
function hook(h: Hot | null): void {
  if (!h) delete document.body.dataset.requestsDrawn;
  else document.body.dataset.requestsDrawn = `${h.workload.scale.counts.filter((n) => n > 0).length} ${h.count}`;
}

export function RequestsLayer() {
  const workload = useWatched((s) => s.requestWorkload);
  const inputs = useWatched(inputsOf, shallow);
  const hot = useMemo(() => derived(inputs, hotOf), [inputs]);
  const on = useWatched((s) => s.layers.requests);
  useEffect(() => () => void delete document.body.dataset.requestsDrawn, []);
  return (
    <>
      <CellLayer data={workload} visible={on} {...FILLS} />
      <CellLayer data={hot} visible={on} onDrawn={hook} {...HOT} />
    </>
  );
}

/**
 * The region paint driver: keeps the globe's region paint
 * (globe/regionPaint.ts) in step with the store: the "color regions by"
 * choice, the cluster's layout, the recent shard latency and the shards the
 * current live answer is missing. Started once at boot.
 */
import { shallow } from 'zustand/shallow';
import type { AppStore } from '../shell/types';
import type { AppState } from '../shell/store';
import { shardLatencies } from '../shell/latencyStats';
import { paintRegions, type PaintInput } from './regionColors';
import { clusterLayout, missingShards } from './nodesSlice';

/** paintInputOf gathers a paint's input from the state; null before the boundary file is loaded. */
export function paintInputOf(s: AppState): PaintInput | null {
  if (s.data.status !== 'ready') return null;
  const shards = s.data.router.shards.map((x) => ({ name: x.name, shard: x.shard }));
  const layout = clusterLayout(s);
  return {
    by: s.colorBy,
    shards,
    palette: s.data.colors,
    nodes: layout.nodes,
    copies: layout.copies,
    latency: shardLatencies(s.liveLatency, shards.map((x) => x.name)),
    missing: missingShards(s),
  };
}

/** startRegionPaint watches the store and puts the paint in it (setRegionPaint; FrameDriver uploads it) whenever its inputs change; returns a function that stops it. */
export function startRegionPaint(store: AppStore): () => void {
  let last = '';
  const update = () => {
    const input = paintInputOf(store.getState());
    const paint = input ? paintRegions(input) : null;
    const key = JSON.stringify(paint);
    if (key === last) return;
    last = key;
    store.getState().setRegionPaint(paint);
  };
  update();
  return store.subscribe((s) => [s.data, s.colorBy, s.nodesStatus, s.liveStatus, s.liveLatency, s.liveSearch], update, { equalityFn: shallow });
}

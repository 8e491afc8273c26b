/** What is under the pointer, from the routing core. */
import { cellAt, cellOrdinal, cellToken, type ShardTable } from '../../core/index';
import { cellFace } from '../../core/cells';
import type { Hover } from './viewSlice';
import type { ViewGeometry } from './view';

/** hoverAt returns the cell, token and shard at a point (degrees), or null for no point. */
export function hoverAt(router: ShardTable, p: { lat: number; lng: number } | null): Hover | null {
  if (!p) return null;
  const id = cellAt(p.lat, p.lng);
  const ordinal = cellOrdinal(id);
  const shard = router.shards[router.indexOfOrdinal(ordinal)];
  return { lat: p.lat, lng: p.lng, face: cellFace(id), token: cellToken(id), ordinal, shardIndex: shard.index, shardName: shard.name, shardNumber: shard.shard };
}

/**
 * viewKey returns a string that changes exactly when what a screen pixel shows changes (centre,
 * zoom, morph, layout, canvas size): the hover readout is recomputed under a still pointer then.
 */
export function viewKey(v: ViewGeometry): string {
  return [v.lat, v.lng, v.zoom, v.morph, v.flat, v.mapLat, v.net[0], v.net[1], v.width, v.height].join(' ');
}

/** What is under the pointer, from the routing core. */
import { cellAt, cellOrdinal, cellToken, cellFace, type Router } from '../../core/index';
import type { Hover } from './viewSlice';

/** hoverAt returns the cell, token and shard at a point (degrees), or null for no point. */
export function hoverAt(router: Router, p: { lat: number; lng: number } | null): Hover | null {
  if (!p) return null;
  const id = cellAt(p.lat, p.lng);
  const ordinal = cellOrdinal(id);
  const shard = router.shards[router.indexOfOrdinal(ordinal)];
  return { lat: p.lat, lng: p.lng, face: cellFace(id), token: cellToken(id), ordinal, shardIndex: shard.index, shardName: shard.name, shardNumber: shard.shard };
}

/**
 * A geo query's shape resolved to shards: the padded covering of coverShapes.ts (circle, box or
 * polygon, as OpenSearch's geo_distance, geo_bounding_box and geo_polygon match) with each cell
 * resolved to the shard searches read it from, exactly as Router.cover resolves a circle's cells
 * (read owners during a move). What the plugin's geo_routing_search computes inside the engine,
 * and what a client routes a box or polygon search with.
 *
 * Pure TypeScript: no DOM or Node imports.
 */
import { shapeOrdinals, type GeoShape } from './coverShapes.ts';
import type { CircleRoute, Router, ShardCells } from './router.ts';

/** A shape's route: the same fields as Router.cover's CircleRoute. */
export type ShapeRoute = CircleRoute;

/**
 * routeOrdinals resolves ascending, distinct level-10 ordinals to the shards searches read them
 * from (Router.readIndexOfOrdinal): the cells' shards in key order with their cell counts, and the
 * routing string (names in key order, joined by commas). Precondition: ordinals ascending, each in
 * [0, CELL_COUNT).
 */
export function routeOrdinals(router: Router, ordinals: Int32Array): ShapeRoute {
  const cellShards = new Int32Array(ordinals.length);
  const counts = new Int32Array(router.numberOfShards);
  for (let k = 0; k < ordinals.length; k++) {
    const i = router.readIndexOfOrdinal(ordinals[k]);
    cellShards[k] = i;
    counts[i]++;
  }
  const shards: ShardCells[] = [];
  for (let i = 0; i < router.numberOfShards; i++) if (counts[i] > 0) shards.push({ ...router.shards[i], cells: counts[i] });
  return { ordinals, cellShards, shards, routing: shards.map((s) => s.name).join(',') };
}

/**
 * routeShape returns a shape's padded covering resolved to shards (routeOrdinals). Throws
 * RangeError naming the field for an invalid shape (coverShapes.ts).
 */
export function routeShape(router: Router, shape: GeoShape): ShapeRoute {
  return routeOrdinals(router, shapeOrdinals(shape));
}

/** intersectOrdinals returns the ordinals in both ascending arrays (several location clauses that must all match). */
export function intersectOrdinals(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length; ) {
    if (a[i] < b[j]) i++;
    else if (a[i] > b[j]) j++;
    else out.push(a[i]), i++, j++;
  }
  return Int32Array.from(out);
}

/** unionOrdinals returns the ordinals in either ascending array (should-clauses of which one must match). */
export function unionOrdinals(a: Int32Array, b: Int32Array): Int32Array {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) out.push(a[i++]);
    else if (i >= a.length || b[j] < a[i]) out.push(b[j++]);
    else out.push(a[i]), i++, j++;
  }
  return Int32Array.from(out);
}

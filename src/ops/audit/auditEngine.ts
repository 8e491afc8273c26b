/**
 * The audit's filter evaluated by the cluster (`geoshard audit --engine
 * cluster`): Painless script queries that each shard runs over its own
 * documents' doc values, true for a document that may have a problem, so
 * that only those come back to the client, which then checks them with the
 * very checks of the client path (core/audit.ts). A document the script
 * passes is one the client path finds right; a document it keeps may still
 * be right (the client decides), so both paths report the same problems.
 *
 * The script is given the routing table as params: `starts` (the level-10
 * ordinal where each range starts, ascending) and `owners` (each range's write
 * owners as OpenSearch shard numbers: one, or two while the range is moved),
 * the shard it runs on (`shard`, from preference=_shards:N) and that shard's
 * name (`name`). It locates the document with painless.ts PAINLESS_S2
 * (s2QuantizedOrdinal: a doc value whose centimetre box straddles a cell edge
 * is kept, and the client reads its exact point from `_source`, as the client
 * path does) and finds the range with s2Segment (a binary search).
 *
 * What each script keeps (the rest of the audit's checks are queries, not
 * scripts: `_routing` other than the shard's name is a term query, a dish
 * with no restaurant on its shard a has_parent query; see audit.ts):
 *   restaurant  no location, a straddling one, this shard not an owner of its
 *               cell, `cell` not the cell's token, `shard` not this shard's name;
 *   dish        no restaurant_location, a straddling one, this shard not an
 *               owner, no or empty restaurant_id, a join parent other than it;
 *   document    (a flat index) no location, a straddling one, not an owner.
 */
import { routingTable } from '../../opensearch/routingPipeline.ts';
import { PAINLESS_S2 } from '../../opensearch/painless.ts';
import type { Router } from '../../core/index.ts';

/** The shared head: `owned(f)` is false when the doc value of geo_point `f` is missing, straddles a cell edge, or is in a cell this shard does not own; `ordinalOf` leaves the cell in `cell[0]`. */
const HEAD = `${PAINLESS_S2}
boolean owned(def values, List starts, List owners, int shard, int[] cell) {
  if (values.size() == 0) return false;
  int o = s2QuantizedOrdinal(values.getLat(), values.getLon());
  if (o < 0) return false;
  cell[0] = o;
  return ((List) owners.get(s2Segment(starts, o))).contains(shard);
}
`;

/** Keeps a restaurant that may be wrong (see the top of this file). params: starts, owners, shard, name. */
export const RESTAURANT_SUSPECT_SCRIPT = `${HEAD}
int[] cell = new int[1];
if (!owned(doc['location'], params.starts, params.owners, params.shard, cell)) return true;
if (doc['cell'].size() == 0 || !s2Token(cell[0]).equals(doc['cell'].value)) return true;
return doc['shard'].size() == 0 || !params.name.equals(doc['shard'].value);`;

/** Keeps a dish that may be wrong. params: starts, owners, shard, parentField (the join's parent id field, e.g. join#restaurant). */
export const DISH_SUSPECT_SCRIPT = `${HEAD}
int[] cell = new int[1];
if (!owned(doc['restaurant_location'], params.starts, params.owners, params.shard, cell)) return true;
if (doc['restaurant_id'].size() == 0) return true;
String rid = doc['restaurant_id'].value;
if (rid.isEmpty()) return true;
def parent = doc[params.parentField];
return parent.size() == 0 || !rid.equals(parent.value);`;

/** Keeps a document of a flat index that may be wrong. params: starts, owners, shard, location. */
export const DOCUMENT_SUSPECT_SCRIPT = `${HEAD}
int[] cell = new int[1];
String f = params.location;
return !doc.containsKey(f) || !owned(doc[f], params.starts, params.owners, params.shard, cell);`;

/** The routing table as the scripts take it: range starts and each range's write owners as shard numbers. */
export interface OwnerTable {
  starts: number[];
  owners: number[][];
}

/** ownerTable returns the router's table (pipeline.ts routingTable: the same ranges the pipeline routes by) with owners as shard numbers. */
export function ownerTable(router: Router): OwnerTable {
  const shardOf = new Map(router.shards.map((s) => [s.name, s.shard]));
  const t = routingTable(router);
  return { starts: t.starts, owners: t.write.map((names) => [...new Set(names.map((n) => shardOf.get(n)!))].sort((a, b) => a - b)) };
}

/** suspectQuery returns the script query keeping the documents of `kind` on `shard` (named `name`) that may be wrong. */
export function suspectQuery(kind: 'restaurant' | 'dish' | 'document', table: OwnerTable, shard: number, name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const source = kind === 'restaurant' ? RESTAURANT_SUSPECT_SCRIPT : kind === 'dish' ? DISH_SUSPECT_SCRIPT : DOCUMENT_SUSPECT_SCRIPT;
  return { script: { script: { lang: 'painless', source, params: { starts: table.starts, owners: table.owners, shard, name, ...extra } } } };
}

/**
 * The audit's checks: given the router of an index's routing state and one
 * document as it was found on one shard, what is wrong with it. Pure: the
 * reader (src/ops/audit/audit.ts) fetches the documents, shard by shard, and
 * asks these functions; they never talk to a cluster.
 *
 * A document is on the right shard when that shard is one of the write
 * owners of its cell (Router.writeIndicesOfOrdinal: exactly one owner when
 * the index is settled, two while its range is between dual-write and
 * switched). The cell is the level-10 cell of the restaurant's `location`,
 * or of the dish's `restaurant_location`. A restaurant's `cell` must be that
 * cell's token and its `shard` the routing value of the owner it sits on
 * (the name the document was written with). A dish must sit on the shard of
 * its restaurant (`restaurant_id`, which is also its join parent): the join
 * finds a parent only on its own shard.
 */
import { cellAt, cellOrdinal, cellToken, type CellId } from './cells.ts';
import type { Router, ShardRef } from './router.ts';

/** What is wrong with a document. */
export type AuditProblemKind =
  /** The shard it sits on is not a write owner of its cell (or its location is missing or invalid). */
  | 'wrong-shard'
  /** A dish whose restaurant is not on its shard (on another shard, or nowhere), or whose join parent is not its `restaurant_id`. */
  | 'dish-apart'
  /** A restaurant whose `cell` is not the level-10 token of its location. */
  | 'wrong-cell'
  /** A restaurant whose `shard` is not the routing value of the owner it sits on. */
  | 'wrong-shard-field'
  /** A document whose `_routing` is not the name of the shard it sits on (routed searches and migrations filter on `_routing`). */
  | 'wrong-routing';

/** The kinds, in the order a report lists them. */
export const AUDIT_PROBLEM_KINDS: readonly AuditProblemKind[] = ['wrong-shard', 'dish-apart', 'wrong-cell', 'wrong-shard-field', 'wrong-routing'];

/** What kind of document a problem is about. */
export type AuditDocType = 'restaurant' | 'dish' | 'document';

/** One problem of one document. */
export interface AuditProblem {
  /** The document's `_id`. */
  id: string;
  /** restaurant or dish in the sample's shape; document in a flat index (no join). */
  type: AuditDocType;
  problem: AuditProblemKind;
  /** The OpenSearch shard number the document was found on. */
  shard: number;
  /** The shard numbers it should be on (ascending; empty when no owner can be named: a missing location). */
  expected: number[];
  /** One sentence: what was found and what was expected. */
  why: string;
}

/** A restaurant as the reader found it; the fields are as stored (unchecked). */
export interface FoundRestaurant {
  /** Its `_id`. */
  id: string;
  /** OpenSearch shard number it was read from. */
  shard: number;
  /** Its `_routing`, when the reader fetched it (undefined: not checked). */
  routing?: string | null;
  cell: unknown;
  shardField: unknown;
}

/** A dish as the reader found it. */
export interface FoundDish {
  id: string;
  shard: number;
  routing?: string | null;
  restaurantId: unknown;
  /** The join field's parent id (undefined: not checked; null: the document has no join parent). */
  parent?: unknown;
}

/** A document's point (degrees), its level-10 cell and the cell's write owners. */
export interface Located {
  lat: number;
  lng: number;
  cell: CellId;
  token: string;
  /** The write owners, old owner first during a move. */
  owners: ShardRef[];
}

/**
 * latLngOf reads a geo_point as OpenSearch stores it in `_source`: an object
 * `{lat, lon}`, an array `[lon, lat]`, or a string "lat,lon" (also the form
 * doc values are returned in). Returns null for anything else (geohashes and
 * WKT are not written by geoshard) or for values outside [-90, 90] × [-180, 180].
 */
export function latLngOf(v: unknown): { lat: number; lng: number } | null {
  let lat: number;
  let lng: number;
  if (Array.isArray(v) && v.length === 2) [lng, lat] = v.map((x) => (typeof x === 'number' ? x : NaN));
  else if (v && typeof v === 'object') {
    const o = v as { lat?: unknown; lon?: unknown };
    lat = typeof o.lat === 'number' || typeof o.lat === 'string' ? Number(o.lat) : NaN;
    lng = typeof o.lon === 'number' || typeof o.lon === 'string' ? Number(o.lon) : NaN;
  } else if (typeof v === 'string' && /^\s*[-+\d.eE]+\s*,\s*[-+\d.eE]+\s*$/.test(v)) [lat, lng] = v.split(',').map(Number);
  else return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat < -90 || lat > 90 || lng < -180 || lng > 180) return null;
  return { lat, lng };
}

/**
 * The step of OpenSearch's (Lucene's) geo_point doc values, in degrees: a
 * latitude is stored as floor(lat / LAT_STEP_DEG) in 32 bits and read back as
 * that integer times the step, so the stored point lies in [value, value +
 * step) on each axis (LatLonPoint, GeoEncodingUtils).
 */
export const LAT_STEP_DEG = 180 / 2 ** 32;
export const LNG_STEP_DEG = 360 / 2 ** 32;

/**
 * quantizedCellAt returns the level-10 cell of a point read from doc values
 * (degrees; the stored point lies in [lat, lat + LAT_STEP_DEG) × [lng, lng +
 * LNG_STEP_DEG)) when the four corners of that box, widened by one step each
 * way, are in the same cell (a cell is convex on the sphere and the box is a
 * centimetre across, so the point is then in it); null when the box
 * straddles a cell edge: the exact point must be read from `_source`.
 */
export function quantizedCellAt(lat: number, lng: number): CellId | null {
  const lo = Math.max(-90, lat - LAT_STEP_DEG);
  const hi = Math.min(90, lat + 2 * LAT_STEP_DEG);
  const w = lng - LNG_STEP_DEG;
  const e = lng + 2 * LNG_STEP_DEG;
  const cell = cellAt(lo, w);
  return cellAt(hi, w) === cell && cellAt(lo, e) === cell && cellAt(hi, e) === cell ? cell : null;
}

/**
 * Locator gives the cell and write owners of points for one router,
 * remembering the last point (a restaurant's dishes, read one after another,
 * share its location).
 */
export class Locator {
  private lastLat = NaN;
  private lastLng = NaN;
  private lastExact = false;
  private last: Located | null = null;

  constructor(readonly router: Router) {}

  private ownersOf(cell: CellId): ShardRef[] {
    return this.router.writeIndicesOfOrdinal(cellOrdinal(cell)).map((i) => this.router.shards[i]);
  }

  /** exact locates a point read from `_source` (degrees, valid: see latLngOf). */
  exact(lat: number, lng: number): Located {
    if (lat === this.lastLat && lng === this.lastLng && this.lastExact && this.last) return this.last;
    const cell = cellAt(lat, lng);
    this.remember(lat, lng, true, { lat, lng, cell, token: cellToken(cell), owners: this.ownersOf(cell) });
    return this.last!;
  }

  /**
   * quantized locates a point read from doc values, whose stored point lies
   * in [lat, lat + LAT_STEP_DEG) × [lng, lng + LNG_STEP_DEG): it returns the
   * cell when the four corners of that box, widened by one step each way,
   * are in the same level-10 cell (a cell is convex on the sphere and the box
   * is a centimetre across, so the point is then in it), and null when the
   * box straddles a cell edge: the caller must read the point from `_source`.
   */
  quantized(lat: number, lng: number): Located | null {
    if (lat === this.lastLat && lng === this.lastLng && !this.lastExact) return this.last;
    const cell = quantizedCellAt(lat, lng);
    this.remember(lat, lng, false, cell !== null ? { lat, lng, cell, token: cellToken(cell), owners: this.ownersOf(cell) } : null);
    return this.last;
  }

  private remember(lat: number, lng: number, exact: boolean, v: Located | null): void {
    this.lastLat = lat;
    this.lastLng = lng;
    this.lastExact = exact;
    this.last = v;
  }
}

/** The OpenSearch shard numbers of a cell's write owners, ascending. */
export function ownerShards(at: Located): number[] {
  return [...new Set(at.owners.map((s) => s.shard))].sort((a, b) => a - b);
}

const describeOwners = (at: Located) => at.owners.map((s) => `"${s.name}" (shard ${s.shard})`).join(' or ');
const show = (v: unknown) => (v === undefined ? 'missing' : JSON.stringify(v));

/** Problems of the placement of a document at `at` found on `shard` with `routing`. */
function placement(router: Router, id: string, type: AuditDocType, field: string, at: Located | null, shard: number, routing: string | null | undefined, out: AuditProblem[]): void {
  if (!at) {
    out.push({ id, type, problem: 'wrong-shard', shard, expected: [], why: `it has no valid ${field}: no shard owns it` });
  } else {
    const expected = ownerShards(at);
    if (!expected.includes(shard)) {
      out.push({ id, type, problem: 'wrong-shard', shard, expected, why: `found on shard ${shard}; its ${field} (${at.lat}, ${at.lng}) is in cell ${at.token}, written to ${describeOwners(at)}` });
    }
  }
  if (routing !== undefined) out.push(...checkRouting(router, id, type, shard, routing));
}

/**
 * checkRouting returns the wrong-routing problem of a document found on
 * `shard` whose `_routing` is `routing` (null: none), or nothing when the
 * routing is the name of that shard (the value every owner's copy is
 * written with, and what routed searches and migrations filter on).
 */
export function checkRouting(router: Router, id: string, type: AuditDocType, shard: number, routing: string | null): AuditProblem[] {
  const name = router.shards.find((s) => s.shard === shard)?.name;
  if (routing === name) return [];
  return [{ id, type, problem: 'wrong-routing', shard, expected: [shard], why: `its _routing is ${show(routing ?? undefined)}, not "${name}", the name of shard ${shard} it sits on` }];
}

/** A document of a flat index (no join) as the reader found it. */
export interface FoundDocument {
  /** Its `_id`. */
  id: string;
  /** OpenSearch shard number it was read from. */
  shard: number;
  /** Its `_routing`, when the reader fetched it (undefined: not checked). */
  routing?: string | null;
}

/**
 * checkDocument returns the problems of one document of a flat index (no
 * join) found on a shard, given its location's cell and owners (`at`, null
 * when it has no valid location in `field`): wrong-shard and, when its
 * `_routing` is given, wrong-routing. Empty when it is right.
 */
export function checkDocument(router: Router, d: FoundDocument, at: Located | null, field: string): AuditProblem[] {
  const out: AuditProblem[] = [];
  placement(router, d.id, 'document', field, at, d.shard, d.routing, out);
  return out;
}

/**
 * checkRestaurant returns the problems of one restaurant found on a shard
 * (empty when it is right), given its location's cell and owners (`at`,
 * null when it has no valid location): wrong-shard, wrong-cell,
 * wrong-shard-field and, when its `_routing` is given, wrong-routing.
 */
export function checkRestaurant(router: Router, d: FoundRestaurant, at: Located | null): AuditProblem[] {
  const out: AuditProblem[] = [];
  placement(router, d.id, 'restaurant', 'location', at, d.shard, d.routing, out);
  if (!at) return out;
  const expected = ownerShards(at);
  if (d.cell !== at.token) {
    out.push({ id: d.id, type: 'restaurant', problem: 'wrong-cell', shard: d.shard, expected, why: `its cell is ${show(d.cell)}; its location is in level-10 cell "${at.token}"` });
  }
  // The `shard` field names the routing of the copy on this shard: the owner on this shard, or (on a wrong shard) one of the owners.
  const here = at.owners.find((s) => s.shard === d.shard);
  const want = here ? [here.name] : at.owners.map((s) => s.name);
  if (typeof d.shardField !== 'string' || !want.includes(d.shardField)) {
    const owners = here ? `the copy on shard ${d.shard} is routed "${here.name}"` : `its owner${want.length > 1 ? 's are' : ' is'} ${want.map((n) => `"${n}"`).join(' or ')}`;
    out.push({ id: d.id, type: 'restaurant', problem: 'wrong-shard-field', shard: d.shard, expected, why: `its shard field is ${show(d.shardField)}; ${owners}` });
  }
  return out;
}

/**
 * checkDish returns the problems of one dish found on a shard, given its
 * `restaurant_location`'s cell and owners (`at`, null when it has none) and
 * the shards its restaurant (`restaurant_id`) was found on (empty: nowhere):
 * wrong-shard, wrong-routing (when given) and dish-apart (no restaurant_id,
 * a join parent other than its restaurant_id, or its restaurant not on the
 * dish's shard).
 */
export function checkDish(router: Router, d: FoundDish, at: Located | null, restaurantShards: readonly number[]): AuditProblem[] {
  const out: AuditProblem[] = [];
  placement(router, d.id, 'dish', 'restaurant_location', at, d.shard, d.routing, out);
  const expected = at ? ownerShards(at) : [];
  const apart = (why: string, exp = expected) => out.push({ id: d.id, type: 'dish', problem: 'dish-apart', shard: d.shard, expected: exp, why });
  if (typeof d.restaurantId !== 'string' || d.restaurantId === '') apart(`its restaurant_id is ${show(d.restaurantId)}: it belongs to no restaurant`);
  else if (d.parent !== undefined && d.parent !== d.restaurantId) apart(`its join parent is ${show(d.parent ?? undefined)}, not its restaurant_id "${d.restaurantId}"`);
  else if (!restaurantShards.includes(d.shard)) {
    const where = [...restaurantShards].sort((a, b) => a - b);
    apart(`its restaurant "${d.restaurantId}" is not on shard ${d.shard}: ${where.length > 0 ? `it is on shard ${where.join(', ')}` : 'it is in no shard of the index'}`, where.length > 0 ? where : expected);
  }
  return out;
}

/** The problems of an audit, kept up to a limit, with counts of all of them. */
export interface AuditTally {
  /** Problems per kind (all of them, kept or not). */
  counts: Record<AuditProblemKind, number>;
  /** Documents with at least one problem. */
  documents: number;
  /** The first `limit` problems. */
  problems: AuditProblem[];
  /** Problems found but not kept (beyond the limit). */
  omitted: number;
}

/** newTally returns an empty tally. */
export function newTally(): AuditTally {
  return { counts: { 'wrong-shard': 0, 'dish-apart': 0, 'wrong-cell': 0, 'wrong-shard-field': 0, 'wrong-routing': 0 }, documents: 0, problems: [], omitted: 0 };
}

/**
 * addProblems adds one document's problems to the tally, keeping at most
 * `limit` problems (limit >= 0). `seen` (the ids of documents counted so
 * far) keeps a document found twice (by two checks) counted once.
 */
export function addProblems(t: AuditTally, ps: readonly AuditProblem[], limit: number, seen?: Set<string>): void {
  if (ps.length === 0) return;
  const key = `${ps[0].type} ${ps[0].id} ${ps[0].shard}`;
  if (!seen?.has(key)) t.documents++;
  seen?.add(key);
  for (const p of ps) {
    t.counts[p.problem]++;
    if (t.problems.length < limit) t.problems.push(p);
    else t.omitted++;
  }
}

/**
 * AuditBook is the whole of an audit's bookkeeping: the tally (bounded by
 * `limit` kept problems) and one Locator (the last point). It keeps nothing
 * per document, so its memory is flat in the index's size: the reader hands
 * it each document once, with everything its checks need (a dish comes with
 * the shards its restaurant was found on, which the reader asks the cluster
 * for, shard by shard), and each document's problems are added at once, so
 * no set of seen ids is needed to count a document once.
 */
export class AuditBook {
  readonly tally: AuditTally = newTally();
  private readonly locator: Locator;

  /** `limit`: problems kept in the tally (all are counted), an integer >= 0. */
  constructor(
    readonly router: Router,
    readonly limit: number,
  ) {
    this.locator = new Locator(router);
  }

  /**
   * Locates a point as the reader found it: `exact` when read from `_source`,
   * else from doc values (quantized). Returns undefined when a doc value's box
   * straddles a cell edge (the caller must read `_source` and call again with
   * exact), null when there is no valid point.
   */
  private at(point: unknown, exact: boolean): Located | null | undefined {
    const p = latLngOf(point);
    if (!p) return null;
    return (exact ? this.locator.exact(p.lat, p.lng) : this.locator.quantized(p.lat, p.lng)) ?? undefined;
  }

  /** restaurant checks one restaurant at `point` (its location as read); false when the point must be read again exactly. */
  restaurant(d: FoundRestaurant, point: unknown, exact = false): boolean {
    const at = this.at(point, exact);
    if (at === undefined) return false;
    addProblems(this.tally, checkRestaurant(this.router, d, at), this.limit);
    return true;
  }

  /** dish checks one dish at `point` (its restaurant_location) whose restaurant was found on `restaurantShards`; false as restaurant() returns it. */
  dish(d: FoundDish, point: unknown, restaurantShards: readonly number[], exact = false): boolean {
    const at = this.at(point, exact);
    if (at === undefined) return false;
    addProblems(this.tally, checkDish(this.router, d, at, restaurantShards), this.limit);
    return true;
  }

  /** document checks one document of a flat index at `point` (its `field`); false as restaurant() returns it. */
  document(d: FoundDocument, point: unknown, field: string, exact = false): boolean {
    const at = this.at(point, exact);
    if (at === undefined) return false;
    addProblems(this.tally, checkDocument(this.router, d, at, field), this.limit);
    return true;
  }
}

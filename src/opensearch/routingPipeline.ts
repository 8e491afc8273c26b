/**
 * The routing ingest pipeline: what the cluster runs so that a writer that
 * sends no routing (curl `_bulk`, Logstash, any client) lands on the shard
 * the core names, generated from the one source of truth, the boundary file
 * (and the index's migration state while a migration runs).
 *
 * One `script` processor in Painless (no plugin: it runs on a managed
 * service). For every document it
 *   1. reads the point: `location` (a restaurant) or `restaurant_location`
 *      (a dish) for the sample, or the fields its params name (PipelineFields:
 *      any dotted geo_point path, a join's child location or none), as a
 *      geo_point object {lat, lon}, a "lat,lon" string or a [lon, lat]
 *      array, in degrees;
 *   2. computes its level-10 S2 cell exactly as s2js does (LatLng from
 *      degrees → Point → face, u, v → s, t → i, j → Hilbert position → the
 *      level-10 parent), in the same order of operations, with StrictMath
 *      (fdlibm, as V8's Math.sin/cos are), so a point a hair from a cell
 *      edge falls in the same cell on both sides;
 *   3. finds the cell's range in the routing table (the script's params) and
 *      - with no routing on the request: sets `_routing` to the range's READ
 *        owner (Router.readIndexOfOrdinal: the shard searches read);
 *      - with a routing: keeps it if it is one of the range's write owners
 *        (Router.writeIndicesOfOrdinal: one, or two during a move), else fails
 *        the document naming the routing given, the cell and the owner(s)
 *        expected (a writer with a stale boundary file);
 *   4. for a restaurant sets `cell` (the level-10 token) and `shard` (the
 *      routing used), as src/data/sample.ts restaurantDoc writes them
 *      (only when params.stamp: other indexes have no such fields).
 * A document with neither field fails with a message naming both.
 *
 * Ingest pipelines do not run on deletes or partial updates (`_update` with
 * `doc`): those still need the routing from the writer.
 *
 * Pure TypeScript (no Node types); imports only the routing core.
 */
import { Router, CELL_COUNT, LEVEL, type BoundaryFile } from '../core/index.ts';
import { intermediateFile, type MigrationState } from '../core/migrationState.ts';
import { sha256 } from '../core/sha256.ts';
import { PAINLESS_S2 } from './painless.ts';

/** pipelineId returns the id of an index's routing pipeline: `geoshard-<index>`. */
export function pipelineId(index: string): string {
  return `geoshard-${index}`;
}

/** PIPELINE_ID_PREFIX starts the id of every geoshard routing pipeline. */
export const PIPELINE_ID_PREFIX = 'geoshard-';

/**
 * The routing table the script searches: segment k holds level-10 ordinals
 * [starts[k], starts[k+1]) (the last one up to CELL_COUNT), is read from
 * shard `read[k]` and written to the shards `write[k]` (one name, or two,
 * old owner first, while its range is moved). starts[0] = 0, ascending;
 * equal neighbours are merged.
 */
export interface RoutingTable {
  starts: number[];
  read: string[];
  write: string[][];
}

/**
 * What a pipeline was made for: part of the drift guard. `hash` is the
 * index's settled boundary file (`_meta.hash`), `epoch` the migration state's
 * epoch (0 when settled), `table` the sha256 of the routing table
 * (tableDigest), which is what decides where documents go.
 */
export interface PipelineIdentity {
  hash: string;
  epoch: number;
  table: string;
}

/**
 * The fields the script reads and writes: the geo_point `location` that
 * locates a document (a dotted path), the field holding a child's copy of its
 * parent's location (null: no join), and `stamp`: whether a parent gets
 * `cell` and `shard` set (the restaurant sample's documents carry them).
 */
export interface PipelineFields {
  location: string;
  childLocation: string | null;
  stamp: boolean;
}

/** The bundled sample's fields: restaurants at `location`, dishes at `restaurant_location`, restaurants stamped with cell and shard. */
export const SAMPLE_FIELDS: Readonly<PipelineFields> = Object.freeze({ location: 'location', childLocation: 'restaurant_location', stamp: true });

/** The params the script reads (the whole routing table, the fields and the identity). */
export interface PipelineParams extends RoutingTable, PipelineFields {
  /** The pipeline's id, for messages. */
  pipeline: string;
  identity: PipelineIdentity;
}

/** An ingest pipeline body, as `PUT _ingest/pipeline/<id>` takes it and `GET` returns it. */
export interface IngestPipeline {
  description: string;
  processors: [{ script: { lang: 'painless'; source: string; params: PipelineParams; tag: string } }];
}

/** The tag of the pipeline's script processor (names it in errors and in `GET _ingest/pipeline`). */
export const SCRIPT_TAG = 'geoshard-route';

/**
 * routingTable returns the table of a router: cut at every shard start and
 * every move's start and end, each piece with its read owner and write
 * owners by name, equal neighbours merged.
 */
export function routingTable(router: Router): RoutingTable {
  const cuts = new Set<number>();
  for (let i = 0; i < router.numberOfShards; i++) cuts.add(router.starts[i]);
  for (const m of router.moves) cuts.add(m.startOrdinal), cuts.add(m.endOrdinal);
  const sorted = [...cuts].filter((o) => o < CELL_COUNT).sort((a, b) => a - b);
  const t: RoutingTable = { starts: [], read: [], write: [] };
  for (const o of sorted) {
    const read = router.shards[router.readIndexOfOrdinal(o)].name;
    const write = router.writeIndicesOfOrdinal(o).map((i) => router.shards[i].name);
    const k = t.starts.length - 1;
    if (k >= 0 && t.read[k] === read && t.write[k].join(',') === write.join(',')) continue;
    t.starts.push(o);
    t.read.push(read);
    t.write.push(write);
  }
  return t;
}

/** tableDigest returns the sha256 (hex) of a routing table's JSON: equal tables, equal digests. */
export function tableDigest(t: RoutingTable): string {
  return sha256(JSON.stringify({ starts: t.starts, read: t.read, write: t.write }));
}

/**
 * routedFileOf returns the file documents are routed with: the settled file
 * itself, or, during a migration, its intermediate file (migrationState.ts).
 * Precondition: `state` was parsed against `base` (parseMigrationState).
 */
function routedFileOf(base: BoundaryFile, state: MigrationState | null | undefined): BoundaryFile {
  return state ? intermediateFile(base, state) : base;
}

/**
 * expectedIdentity returns the identity the pipeline of an index must have:
 * the settled file's hash, the state's epoch (0 when settled; a file with a
 * `migration` field of its own gives that field's epoch) and the digest of
 * the table the state implies.
 */
export function expectedIdentity(base: BoundaryFile, state?: MigrationState | null): PipelineIdentity {
  const router = new Router(routedFileOf(base, state));
  return { hash: base.hash, epoch: state?.epoch ?? base.migration?.epoch ?? 0, table: tableDigest(routingTable(router)) };
}

/**
 * The Painless script. Constant text (everything that varies is in params),
 * so every index's pipeline shares one compiled script. The S2 steps are
 * PAINLESS_S2's functions (painless.ts: the one Painless S2 source, shared
 * with the search-time scripts of the engine paths).
 */
export const ROUTING_SCRIPT = `
${PAINLESS_S2}
double num(def v, String what) {
  if (v instanceof Number) return ((Number) v).doubleValue();
  if (v instanceof String) return Double.parseDouble(((String) v).trim());
  throw new IllegalArgumentException(what + ' is not a number of degrees: ' + v);
}
def at(Map doc, String path) {
  def v = doc;
  for (String part : path.splitOnToken('.')) {
    if (!(v instanceof Map)) return null;
    v = ((Map) v).get(part);
  }
  return v;
}
String field = params.location;
def loc = at(ctx, field);
boolean dish = false;
if (loc == null && params.childLocation != null) { field = params.childLocation; loc = at(ctx, field); dish = true; }
if (loc == null) {
  String what = params.childLocation == null ? 'no ' + params.location : 'neither ' + params.location + (params.stamp ? ' (a restaurant)' : ' (a parent)') + ' nor ' + params.childLocation + (params.stamp ? ' (a dish)' : ' (a child)');
  throw new IllegalArgumentException(params.pipeline + ': the document has ' + what + ': no point to route it by');
}
double lat;
double lng;
if (loc instanceof Map) {
  lat = num(loc.lat, field + '.lat');
  lng = num(loc.lon, field + '.lon');
} else if (loc instanceof List) {
  if (loc.size() < 2) throw new IllegalArgumentException(params.pipeline + ': ' + field + ' ' + loc + ' is not a point: expected [lon, lat]');
  lng = num(loc[0], field + '[0] (lon)');
  lat = num(loc[1], field + '[1] (lat)');
} else if (loc instanceof String) {
  String s = (String) loc;
  int comma = s.indexOf(',');
  if (comma < 0) throw new IllegalArgumentException(params.pipeline + ': ' + field + ' "' + s + '" is not a point: expected "lat,lon" in degrees (geohashes are not read)');
  lat = num(s.substring(0, comma), field + ' lat');
  lng = num(s.substring(comma + 1), field + ' lon');
} else {
  throw new IllegalArgumentException(params.pipeline + ': ' + field + ' ' + loc + ' is not a point: expected {"lat": .., "lon": ..}, "lat,lon" or [lon, lat] in degrees');
}
if (!(lat >= -90.0 && lat <= 90.0) || Double.isInfinite(lng) || Double.isNaN(lng)) {
  throw new IllegalArgumentException(params.pipeline + ': ' + field + ' lat ' + lat + ', lon ' + lng + ' is not a point: lat must be in [-90, 90] and lon finite, in degrees');
}
// The level-10 cell (painless.ts PAINLESS_S2), then its range: the last segment whose start is <= ordinal.
int ordinal = s2Ordinal(lat, lng);
String token = s2Token(ordinal);
int lo = s2Segment(params.starts, ordinal);
List owners = params.write.get(lo);
def given = ctx._routing;
if (given == null) {
  ctx._routing = params.read.get(lo);
} else if (!owners.contains(given)) {
  String expected = '';
  for (int k = 0; k < owners.size(); k++) expected += (k == 0 ? '' : ' or ') + owners.get(k);
  throw new IllegalArgumentException(params.pipeline + ': routing "' + given + '" is not an owner of cell ' + token + ' (' + field + ' ' + lat + ', ' + lng + '): expected ' + expected +
    ' (boundary file ' + params.identity.hash + ', epoch ' + params.identity.epoch + '). The writer routes with another boundary file: update it, or send no routing and let the pipeline route');
}
if (!dish && params.stamp) {
  ctx.cell = token;
  ctx.shard = ctx._routing;
}
`.trim();

/**
 * routingPipeline returns the ingest pipeline of an index for its settled
 * boundary file `base` and, during a migration, its state (parsed against
 * `base`; the table then follows the intermediate file: one read owner and
 * one or two write owners per range). A file that carries a `migration`
 * field itself is routed with it (its epoch becomes the identity's).
 * `index` names the index the pipeline is for (default: the file's own).
 */
export function routingPipeline(base: BoundaryFile, state?: MigrationState | null, index = base.index, fields: PipelineFields = SAMPLE_FIELDS): IngestPipeline {
  const router = new Router(routedFileOf(base, state));
  const table = routingTable(router);
  const identity: PipelineIdentity = { hash: base.hash, epoch: state?.epoch ?? base.migration?.epoch ?? 0, table: tableDigest(table) };
  const id = pipelineId(index);
  return {
    description:
      `geoshard routing for index "${index}": sets _routing${fields.stamp ? " (and a parent's cell and shard)" : ''} from the level-${LEVEL} S2 cell of ${fields.location}${fields.childLocation ? ` or ${fields.childLocation}` : ''}; ` +
      `boundary file ${identity.hash} (version ${base.version}), migration epoch ${identity.epoch}, table ${identity.table}. Made by "geoshard pipeline"; do not edit by hand.`,
    processors: [{ script: { lang: 'painless', tag: SCRIPT_TAG, source: ROUTING_SCRIPT, params: { pipeline: id, location: fields.location, childLocation: fields.childLocation, stamp: fields.stamp, ...table, identity } } }],
  };
}

/**
 * identityOf reads the identity back from a pipeline body (as `GET
 * _ingest/pipeline/<id>` returns it), or null when the body is not a geoshard
 * routing pipeline (no script processor tagged SCRIPT_TAG with an identity).
 */
export function identityOf(pipeline: unknown): PipelineIdentity | null {
  const procs = (pipeline as { processors?: unknown } | null)?.processors;
  if (!Array.isArray(procs)) return null;
  for (const p of procs) {
    const s = (p as { script?: { tag?: unknown; params?: { identity?: unknown } } } | null)?.script;
    if (s?.tag !== SCRIPT_TAG) continue;
    const id = s.params?.identity as Partial<PipelineIdentity> | undefined;
    if (id && typeof id.hash === 'string' && typeof id.epoch === 'number' && typeof id.table === 'string') return { hash: id.hash, epoch: id.epoch, table: id.table };
  }
  return null;
}

/** The outcome of comparing an installed pipeline with what the index's `_meta` implies. */
export interface PipelineComparison {
  /** True when the installed pipeline routes as `_meta` says: the same settled hash and the same table (the epoch may differ). */
  matches: boolean;
  /** A sentence for people when it does not match (empty when it does). */
  message: string;
}

/**
 * comparePipeline compares an installed pipeline's identity with the
 * expected one. Only the hash and the routing table decide: a new epoch that
 * leaves every range with the same owners (most publishes of a migration)
 * routes every document as before, and `geoshard migrate` writes `_meta`
 * before it updates the pipeline, so an epoch difference alone is no
 * mismatch. `index` names the index in the message.
 */
export function comparePipeline(index: string, installed: PipelineIdentity, expected: PipelineIdentity): PipelineComparison {
  if (installed.hash !== expected.hash) {
    return {
      matches: false,
      message:
        `pipeline drift: index "${index}"'s ingest pipeline ${pipelineId(index)} was made for boundary file ${installed.hash} (epoch ${installed.epoch}), but the index's _meta says ${expected.hash} (epoch ${expected.epoch}): ` +
        `writes that send no routing would land on shards searches do not read. Run "npx geoshard pipeline --install --index ${index}".`,
    };
  }
  if (installed.table !== expected.table) {
    return {
      matches: false,
      message:
        `pipeline drift: index "${index}"'s ingest pipeline ${pipelineId(index)} routes with the table of epoch ${installed.epoch}, but the index's migration state (epoch ${expected.epoch}) moves ranges to other owners: ` +
        `writes that send no routing would land on the wrong shard. Run "npx geoshard pipeline --install --index ${index}".`,
    };
  }
  return { matches: true, message: '' };
}

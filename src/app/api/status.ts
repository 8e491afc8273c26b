/**
 * The live API's status, GET /api/status (src/server/api.ts; the wire's StatusAnswer): the
 * connection, the boundary file the API routes with, the index and its drift, the cluster's
 * nodes and every shard copy, whether writes are on; read defensively into a LiveStatus, and
 * turned into the one-glance verdict the Live tab shows (describeStatus). The `migration`
 * section is passed on unread: migration.ts reads it (kept off the first screen).
 *
 *   GET /api/status
 *
 * readStatus strips credentials from the node URL (the server already does).
 */
import { redactUrl, type ClusterNode, type ShardCopy, type ShardState } from '../../server/wire';
import { asked, badResponse, NOT_MOUNTED_MESSAGE, type LiveFailure, type Parsed } from './request';
import { isObj, num, str, strs, strOrNull, numOrNull } from './read';

export type { ClusterNode, ShardCopy };


/** What /api/status says. */
export interface LiveStatus {
  connection: { up: boolean; url: string; version: string | null; distribution: string | null; health: string | null; nodes: number | null; message: string | null };
  /** The server's boundary file, or why it has none. */
  boundary: { index: string; hash: string; version: number; numberOfShards: number; routing: string | null } | { error: string };
  /** The index (null when the node is down or the boundary file unusable). */
  index: { name: string; exists: boolean; restaurants: number | null; dishes: number | null; total?: number | null; error: string | null } | null;
  /**
   * The index config the API searches with when it is not the sample's (wire StatusAnswer.config):
   * its documents are not dishes and the panel names them documents; null for the sample.
   */
  config?: { index: string; location: string; name: string | null; facets: string[] } | null;
  drift: { status: 'ok' | 'mismatch' | 'no-meta' | 'missing-index'; indexHash: string | null; fileHash: string | null; indexVersion: number | null; fileVersion: number | null; message: string } | null;
  /** The cluster's nodes, sorted by name, those that left included (up false); null when the cluster is down or the server did not say. */
  nodes: ClusterNode[] | null;
  /** Every copy of every shard of the index (the shard × node grid); null when the index is missing or unreadable. */
  copies: ShardCopy[] | null;
  /** Whether the API takes writes (GEOSHARD_WRITES=1); null when the server did not say (a server before writes). */
  writes?: { enabled: boolean } | null;
  /**
   * The answer's `migration` section as sent (wire StatusAnswer['migration']), unchecked: read it
   * with api/migration.ts readMigration (kept out of the first screen's bundle); absent
   * from a server that did not say.
   */
  migration?: unknown;
}

/** readStatus reads an /api/status answer (HTTP status and parsed JSON body, undefined when not JSON). */
export function readStatus(httpStatus: number, body: unknown): Parsed<LiveStatus> {
  if (!isObj(body) || !isObj(body.connection)) {
    if (isObj(body) && typeof body.status === 'string' && isObj(body.error)) {
      return { ok: false, failure: { kind: 'error', httpStatus, message: str(body.error.message) || `The live API failed (HTTP ${httpStatus}).` } };
    }
    if (httpStatus === 404 || httpStatus === 200) return { ok: false, failure: { kind: 'not-mounted', httpStatus, message: NOT_MOUNTED_MESSAGE } };
    return badResponse(httpStatus, `The live API's status answered HTTP ${httpStatus} without a connection report.`);
  }
  const c = body.connection;
  const cluster = isObj(c.cluster) ? c.cluster : {};
  const b = isObj(body.boundary) ? body.boundary : {};
  const boundary: LiveStatus['boundary'] =
    typeof b.error === 'string' ? { error: b.error } : { index: str(b.index), hash: str(b.hash), version: num(b.version), numberOfShards: num(b.numberOfShards), routing: strOrNull(b.routing) };
  let index: LiveStatus['index'] = null;
  if (isObj(body.index)) {
    const i = body.index;
    const docs = isObj(i.docs) ? i.docs : {};
    index = { name: str(i.name), exists: i.exists === true, restaurants: numOrNull(docs.restaurants), dishes: numOrNull(docs.dishes), total: numOrNull(docs.total), error: strOrNull(i.error) };
  }
  const cfg = isObj(body.config) ? body.config : null;
  const config: LiveStatus['config'] = cfg ? { index: str(cfg.index), location: str(cfg.location), name: strOrNull(cfg.name), facets: strs(cfg.facets) } : null;
  let drift: LiveStatus['drift'] = null;
  if (isObj(body.drift)) {
    const d = body.drift;
    const status = (['ok', 'mismatch', 'no-meta', 'missing-index'] as const).find((s) => s === d.status);
    if (status) drift = { status, indexHash: strOrNull(d.indexHash), fileHash: strOrNull(d.fileHash), indexVersion: numOrNull(d.indexVersion), fileVersion: numOrNull(d.fileVersion), message: str(d.message) };
  }
  const nodes = Array.isArray(body.nodes)
    ? body.nodes.filter(isObj).map((n): ClusterNode => ({ id: str(n.id), name: str(n.name), roles: strs(n.roles), up: n.up !== false }))
    : null;
  const rawCopies = isObj(body.index) && Array.isArray(body.index.copies) ? body.index.copies : null;
  const copies = rawCopies
    ? rawCopies.filter(isObj).map((x): ShardCopy => {
        const node = isObj(x.node) ? { id: str(x.node.id), name: str(x.node.name) } : null;
        const state = (['STARTED', 'INITIALIZING', 'RELOCATING', 'UNASSIGNED'] as const).find((k) => k === x.state) ?? ('UNASSIGNED' as ShardState);
        return { shard: num(x.shard, -1), name: strOrNull(x.name), primary: x.primary === true, state, node, docs: numOrNull(x.docs) };
      })
    : null;
  const writes = isObj(body.writes) && typeof body.writes.enabled === 'boolean' ? { enabled: body.writes.enabled } : null;
  return {
    ok: true,
    value: {
      nodes,
      copies,
      writes,
      config,
      migration: body.migration,
      connection: {
        up: c.status === 'up',
        url: redactUrl(str(c.url)),
        version: strOrNull(cluster.version),
        distribution: strOrNull(cluster.distribution),
        health: strOrNull(cluster.health),
        nodes: numOrNull(cluster.nodes),
        message: strOrNull(c.message),
      },
      boundary,
      index,
      drift,
    },
  };
}

/** liveNoun names what the live index's searches find: "documents" for an index of another config (LiveStatus.config), else the sample's "dishes". */
export function liveNoun(s: LiveStatus | null | undefined): 'documents' | 'dishes' {
  return s?.config ? 'documents' : 'dishes';
}

/** A one-glance verdict on the connection: level, a headline, details, and the command that fixes it. */
export interface StatusVerdict {
  level: 'ok' | 'warn' | 'error';
  /** up, down, drift, missing-index, no-meta, boundary-error, index-error, other-file */
  state: string;
  headline: string;
  detail: string;
  command: string | null;
}

const short = (h: string | null) => (h ? h.slice(0, 12) : '(none)');

/**
 * describeStatus turns a status into the panel's verdict. `explorer` is the
 * boundary file the globe shows (its hash, and routingKeyOf it): when the API
 * routes with another file that routes differently, the routed shards will
 * not be the ones the globe lights up. A file that differs only in what does
 * not route (its index name, version) is not a warning.
 */
export function describeStatus(s: LiveStatus, explorer: { hash: string; routing: string } | null): StatusVerdict {
  const explorerHash = explorer && !('error' in s.boundary) && s.boundary.routing !== null && s.boundary.routing === explorer.routing ? null : (explorer?.hash ?? null);
  const c = s.connection;
  if (!c.up) {
    return {
      level: 'error',
      state: 'down',
      headline: `OpenSearch is down: nothing answers at ${c.url || 'the configured URL'}.`,
      detail: `${c.message ? c.message + '. ' : ''}Start the local node, or point OPENSEARCH_URL at a cluster and restart the explorer.`,
      command: 'npm run cluster:start',
    };
  }
  const where = `OpenSearch ${c.version ?? '?'} at ${c.url} (${c.health ?? 'health unknown'}${c.nodes !== null ? `, ${c.nodes} node${c.nodes === 1 ? '' : 's'}` : ''})`;
  if ('error' in s.boundary) return { level: 'error', state: 'boundary-error', headline: 'The live API has no usable boundary file.', detail: s.boundary.error, command: 'npm run data:generate' };
  const d = s.drift;
  const name = s.boundary.index;
  if (d?.status === 'missing-index') {
    return { level: 'error', state: 'missing-index', headline: `Index "${name}" does not exist on ${c.url}.`, detail: `${where}. Create and load it with the command below, then turn Live off and on.`, command: 'npx geoshard seed' };
  }
  if (d?.status === 'mismatch') {
    return {
      level: 'error',
      state: 'drift',
      headline: `Boundary drift: index "${name}" was written with boundary file ${short(d.indexHash)} (version ${d.indexVersion ?? '?'}), the API routes with ${short(d.fileHash)} (version ${d.fileVersion ?? '?'}).`,
      detail: `Routed searches would look on shards the documents were not written to and come back silently short, so every search is refused (HTTP 409). Index hash ${d.indexHash ?? '(none)'}; file hash ${d.fileHash ?? '(none)'}.`,
      command: 'npx geoshard seed --recreate',
    };
  }
  if (d?.status === 'no-meta') {
    // Not geosharded (a team's plain index, hash-sharded by id): copy it into one routed by the file; the detail names the sample's own fix.
    return { level: 'error', state: 'no-meta', headline: `Index "${name}" has no geoshard _meta hash: it is not geosharded, so nothing says which boundary file routed its documents.`, detail: d.message, command: `npx geoshard reindex --from ${name} --to ${name}-geo --boundaries FILE` };
  }
  if (s.index?.error) return { level: 'warn', state: 'index-error', headline: `${where}: index "${name}" could not be read.`, detail: s.index.error, command: null };
  const docs = s.config
    ? s.index?.total != null
      ? ` · ${s.index.total.toLocaleString('en-US')} documents`
      : ''
    : s.index && s.index.restaurants !== null
      ? ` · ${s.index.restaurants.toLocaleString('en-US')} restaurants + ${(s.index.dishes ?? 0).toLocaleString('en-US')} dishes`
      : '';
  if (explorerHash && explorerHash !== s.boundary.hash) {
    return {
      level: 'warn',
      state: 'other-file',
      headline: `The globe shows boundary file ${short(explorerHash)}, the live API routes with ${short(s.boundary.hash)}.`,
      detail: `${where}. The routed shards below follow the API's file, not the globe's.`,
      command: null,
    };
  }
  return {
    level: 'ok',
    state: 'up',
    headline: `${where}`,
    detail: `Index "${name}"${docs} on ${s.boundary.numberOfShards} shards · index _meta hash = boundary file hash ${short(s.boundary.hash)} (version ${s.boundary.version}): no drift.`,
    command: null,
  };
}

// ---------------------------------------------------------------------------
// Requests

/** fetchStatus asks /api/status; resolves to a status or a failure (rejects only when aborted). */
export function fetchStatus(signal: AbortSignal, fetchImpl: typeof fetch = fetch, url = '/api/status'): Promise<Parsed<LiveStatus>> {
  return asked(url, signal, readStatus, fetchImpl, 10_000);
}

/** The latest /api/status answer, as the store keeps it (Live's runner and the Nodes poll write it). */
export interface LiveStatusState {
  /** idle: Live is off; loading: the first answer is on its way; ready / failed: an answer came. */
  phase: 'idle' | 'loading' | 'ready' | 'failed';
  status: LiveStatus | null;
  failure: LiveFailure | null;
  /** performance.now() of the answer, ms (0 before one). */
  at: number;
}

/**
 * Shards on nodes: the cluster's nodes and the copies of every shard of the
 * index, read from the cluster itself (`_cat/nodes` and `_cat/shards` with
 * format=json and full node ids), and what a search's answer owes to them:
 * which asked shards had no copy to answer and which node held them, which
 * were answered by a copy promoted from replica since the last healthy table.
 *
 * The parsing and the comparison are pure (unit-tested on recorded rows);
 * `readLayout` is the one function that asks the cluster.
 */
import type { OpenSearchClient } from '../cluster/client.ts';
import type { AskedShard, ClusterNode, SearchPlacement, ShardCopy, ShardState } from './wire.ts';

/** A row of `GET /_cat/nodes?format=json&full_id=true&h=id,name,node.roles`. */
export interface CatNodeRow {
  id: string;
  name: string;
  /** Comma-separated role names ("cluster_manager,data,ingest,remote_cluster_client"). */
  'node.roles'?: string | null;
}

/** A row of `GET /_cat/shards/<index>?format=json&h=shard,prirep,state,docs,node,id` (`_cat/shards` has no full_id parameter; its id column is the full node id). */
export interface CatShardRow {
  shard: string;
  prirep: string;
  state: string;
  docs: string | null;
  /** Node name; for RELOCATING "from -> ip id to", for UNASSIGNED null. */
  node: string | null;
  /** Full node id; null when unassigned. */
  id: string | null;
}

/** The index's layout at one moment: nodes up (null when `_cat/nodes` could not be read) and every shard copy. */
export interface Layout {
  nodes: ClusterNode[] | null;
  copies: ShardCopy[];
}

const STATES: readonly ShardState[] = ['STARTED', 'INITIALIZING', 'RELOCATING', 'UNASSIGNED'];

/** parseNodes turns `_cat/nodes` rows into nodes (all up), sorted by name. */
export function parseNodes(rows: readonly CatNodeRow[]): ClusterNode[] {
  return rows
    .map((r) => ({ id: r.id, name: r.name, roles: (r['node.roles'] ?? '').split(',').map((x) => x.trim()).filter(Boolean).sort(), up: true }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * parseCopies turns `_cat/shards` rows into shard copies sorted by shard
 * number, primary first. `nameOf` gives a shard number's routing name. A
 * RELOCATING copy's node is the node it leaves (the first word of `node`).
 * Throws an Error naming the row when a state is not one of ShardState.
 */
export function parseCopies(rows: readonly CatShardRow[], nameOf: (shard: number) => string | null): ShardCopy[] {
  return rows
    .map((r): ShardCopy => {
      if (!(STATES as readonly string[]).includes(r.state)) throw new Error(`_cat/shards row for shard ${r.shard} has state ${JSON.stringify(r.state)}: expected one of ${STATES.join(', ')}`);
      const shard = Number(r.shard);
      const nodeName = r.node ? r.node.split(' ')[0] : null;
      return {
        shard,
        name: nameOf(shard),
        primary: r.prirep === 'p',
        state: r.state as ShardState,
        node: r.id && nodeName ? { id: r.id, name: nodeName } : null,
        docs: r.state === 'STARTED' && r.docs !== null && r.docs !== undefined ? Number(r.docs) : null,
      };
    })
    .sort((a, b) => a.shard - b.shard || Number(b.primary) - Number(a.primary) || (a.node?.name ?? '~').localeCompare(b.node?.name ?? '~'));
}

/** isHealthy says whether every copy is started (no unassigned, initializing or relocating copy). */
export function isHealthy(copies: readonly ShardCopy[]): boolean {
  return copies.length > 0 && copies.every((c) => c.state === 'STARTED');
}

/**
 * withLeftNodes returns `up` (nodes up now) plus every node of `seen` not
 * among them, marked up false with no roles, sorted by name.
 */
export function withLeftNodes(up: readonly ClusterNode[], seen: ReadonlyMap<string, string>): ClusterNode[] {
  const ids = new Set(up.map((n) => n.id));
  const left = [...seen].filter(([id]) => !ids.has(id)).map(([id, name]) => ({ id, name, roles: [], up: false }));
  return [...up, ...left].sort((a, b) => a.name.localeCompare(b.name));
}

function primaryOf(copies: readonly ShardCopy[], shard: number): ShardCopy | undefined {
  return copies.find((c) => c.shard === shard && c.primary);
}

/**
 * placementOf says what a search's answer owes to the layout. `healthy` is
 * the last table in which every copy was started (null if none was seen),
 * `current` the table read with the search (null if it could not be read).
 * A shard that did not answer is named with the node of its primary in the
 * healthy table (else in the current one, else null); a shard that answered
 * from a node that held only a replica of it in the healthy table, and holds
 * its primary now, was served by a promoted replica.
 */
export function placementOf(asked: readonly AskedShard[], healthy: readonly ShardCopy[] | null, current: readonly ShardCopy[] | null): SearchPlacement {
  const missing: SearchPlacement['missing'] = [];
  const promoted: SearchPlacement['promoted'] = [];
  for (const a of asked) {
    const before = healthy ? primaryOf(healthy, a.shard) : undefined;
    const now = current ? primaryOf(current, a.shard) : undefined;
    if (a.status !== 'ok') {
      missing.push({ shard: a.shard, name: a.name, node: before?.node?.name ?? now?.node?.name ?? null });
      continue;
    }
    if (!before?.node || !now?.node || now.state !== 'STARTED' || now.node.id === before.node.id) continue;
    const wasReplica = healthy!.some((c) => c.shard === a.shard && !c.primary && c.node?.id === now.node!.id);
    if (wasReplica) promoted.push({ shard: a.shard, name: a.name, from: before.node.name, to: now.node.name });
  }
  const lostNodes = [...new Set(missing.map((m) => m.node).filter((n): n is string => n !== null))].sort();
  return { missing, lostNodes, promoted };
}

/** placementSentence says in one sentence which nodes held the missing shards (empty when none is known). */
export function placementSentence(p: SearchPlacement): string {
  if (p.lostNodes.length === 0) return '';
  const by = p.lostNodes.map((n) => `${n} (shards ${p.missing.filter((m) => m.node === n).map((m) => m.shard).join(', ')})`);
  return `the missing shards were held by node${p.lostNodes.length > 1 ? 's' : ''} ${by.join(', ')}`;
}

/**
 * readLayout asks the cluster for its nodes and the index's shard copies.
 * Rejects when the shard table cannot be read or parsed; a node list that
 * cannot be read leaves `nodes` null (the copies still name their nodes).
 */
export async function readLayout(client: OpenSearchClient, index: string, nameOf: (shard: number) => string | null, timeoutMs = 3000): Promise<Layout> {
  const [nodes, shards] = await Promise.all([
    client
      .get<CatNodeRow[]>('/_cat/nodes', { query: { format: 'json', full_id: 'true', h: 'id,name,node.roles' }, timeoutMs })
      .then((rows) => parseNodes(rows))
      .catch(() => null),
    client.get<CatShardRow[]>(`/_cat/shards/${encodeURIComponent(index)}`, { query: { format: 'json', h: 'shard,prirep,state,docs,node,id' }, timeoutMs }),
  ]);
  return { nodes, copies: parseCopies(shards, nameOf) };
}

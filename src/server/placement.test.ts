import { describe, it, expect } from 'vitest';
import { parseNodes, parseCopies, isHealthy, withLeftNodes, placementOf, placementSentence, type CatNodeRow, type CatShardRow } from './placement.ts';
import type { AskedShard } from './wire.ts';

// Recorded on a real 3-node OpenSearch 2.19.6 cluster (scripts/cluster.mjs --nodes 3):
//   GET /_cat/nodes?format=json&full_id=true&h=id,name,node.roles
//   GET /_cat/shards/<index>?format=json&h=shard,prirep,state,docs,node,id   (3 shards, 1 replica)
const NODES: CatNodeRow[] = [
  { id: 'roh2bwOhQkiXqxGXY4wNqA', name: 'geoshard-node-2', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
  { id: 'cYW6yVxdQLWKcgmPiN2aAw', name: 'geoshard-node-3', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
  { id: 'fKJ8HLLnQReiPCqy5DeC8g', name: 'geoshard-node-1', 'node.roles': 'cluster_manager,data,ingest,remote_cluster_client' },
];
const N1 = { id: 'fKJ8HLLnQReiPCqy5DeC8g', name: 'geoshard-node-1' };
const N2 = { id: 'roh2bwOhQkiXqxGXY4wNqA', name: 'geoshard-node-2' };
const N3 = { id: 'cYW6yVxdQLWKcgmPiN2aAw', name: 'geoshard-node-3' };
const SHARDS: CatShardRow[] = [
  { shard: '0', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-2', id: 'roh2bwOhQkiXqxGXY4wNqA' },
  { shard: '0', prirep: 'r', state: 'STARTED', docs: '0', node: 'geoshard-node-3', id: 'cYW6yVxdQLWKcgmPiN2aAw' },
  { shard: '1', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-3', id: 'cYW6yVxdQLWKcgmPiN2aAw' },
  { shard: '1', prirep: 'r', state: 'STARTED', docs: '0', node: 'geoshard-node-1', id: 'fKJ8HLLnQReiPCqy5DeC8g' },
  { shard: '2', prirep: 'r', state: 'STARTED', docs: '0', node: 'geoshard-node-2', id: 'roh2bwOhQkiXqxGXY4wNqA' },
  { shard: '2', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-1', id: 'fKJ8HLLnQReiPCqy5DeC8g' },
];
// The same index after geoshard-node-2 stopped: shard 0's replica on node 3 was promoted, shard 2's replica is unassigned.
const AFTER_NODE_2_LEFT: CatShardRow[] = [
  { shard: '0', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-3', id: 'cYW6yVxdQLWKcgmPiN2aAw' },
  { shard: '0', prirep: 'r', state: 'UNASSIGNED', docs: null, node: null, id: null },
  { shard: '1', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-3', id: 'cYW6yVxdQLWKcgmPiN2aAw' },
  { shard: '1', prirep: 'r', state: 'STARTED', docs: '0', node: 'geoshard-node-1', id: 'fKJ8HLLnQReiPCqy5DeC8g' },
  { shard: '2', prirep: 'r', state: 'UNASSIGNED', docs: null, node: null, id: null },
  { shard: '2', prirep: 'p', state: 'STARTED', docs: '0', node: 'geoshard-node-1', id: 'fKJ8HLLnQReiPCqy5DeC8g' },
];
const nameOf = (n: number) => ['a', 'b', 'c'][n] ?? null;
const asked = (shard: number, status: AskedShard['status'] = 'ok'): AskedShard => ({ index: shard, name: nameOf(shard)!, shard, cells: 1, status });

describe('the cluster layout', () => {
  it('lists every node with its id and role names, sorted by name, all up', () => {
    const nodes = parseNodes(NODES);
    expect(nodes.map((n) => n.name)).toEqual(['geoshard-node-1', 'geoshard-node-2', 'geoshard-node-3']);
    expect(nodes[0]).toEqual({ id: N1.id, name: 'geoshard-node-1', roles: ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'], up: true });
  });

  it('lists every copy of every shard by shard number, primary first, with its node and routing name', () => {
    const copies = parseCopies(SHARDS, nameOf);
    expect(copies.map((c) => [c.shard, c.primary, c.node?.name])).toEqual([
      [0, true, 'geoshard-node-2'],
      [0, false, 'geoshard-node-3'],
      [1, true, 'geoshard-node-3'],
      [1, false, 'geoshard-node-1'],
      [2, true, 'geoshard-node-1'],
      [2, false, 'geoshard-node-2'],
    ]);
    expect(copies[0]).toEqual({ shard: 0, name: 'a', primary: true, state: 'STARTED', node: N2, docs: 0 });
    expect(isHealthy(copies)).toBe(true);
  });

  it('gives an unassigned copy no node and no document count, and calls the table unhealthy', () => {
    const copies = parseCopies(AFTER_NODE_2_LEFT, nameOf);
    expect(copies.find((c) => c.shard === 2 && !c.primary)).toEqual({ shard: 2, name: 'c', primary: false, state: 'UNASSIGNED', node: null, docs: null });
    expect(isHealthy(copies)).toBe(false);
  });

  it('names the node a relocating copy leaves', () => {
    const [c] = parseCopies([{ shard: '4', prirep: 'p', state: 'RELOCATING', docs: '12', node: 'geoshard-node-1 -> 127.0.0.1 cYW6yVxdQLWKcgmPiN2aAw geoshard-node-3', id: N1.id }], nameOf);
    expect(c.node).toEqual(N1);
    expect(c.state).toBe('RELOCATING');
  });

  it('rejects a shard state it does not know, naming the shard and the valid states', () => {
    expect(() => parseCopies([{ shard: '1', prirep: 'p', state: 'CLOSED', docs: null, node: null, id: null }], nameOf)).toThrow(/shard 1 has state "CLOSED": expected one of STARTED, INITIALIZING, RELOCATING, UNASSIGNED/);
  });

  it('keeps a node seen before that left the cluster, marked down', () => {
    const seen = new Map(NODES.map((n) => [n.id, n.name]));
    const up = parseNodes(NODES.filter((n) => n.name !== 'geoshard-node-2'));
    expect(withLeftNodes(up, seen).map((n) => [n.name, n.up])).toEqual([
      ['geoshard-node-1', true],
      ['geoshard-node-2', false],
      ['geoshard-node-3', true],
    ]);
  });
});

describe('what a search owes to the layout', () => {
  const healthy = parseCopies(SHARDS, nameOf);
  const after = parseCopies(AFTER_NODE_2_LEFT, nameOf);

  it('names the node that held the primary of a shard that did not answer, from the healthy table', () => {
    // 0 replicas: shard 0's only copy was on node 2, and the current table has it unassigned.
    const unassigned = parseCopies([{ shard: '0', prirep: 'p', state: 'UNASSIGNED', docs: null, node: null, id: null }, ...SHARDS.slice(2)], nameOf);
    const p = placementOf([asked(0, 'unavailable'), asked(1)], healthy, unassigned);
    expect(p.missing).toEqual([{ shard: 0, name: 'a', node: 'geoshard-node-2' }]);
    expect(p.lostNodes).toEqual(['geoshard-node-2']);
    expect(p.promoted).toEqual([]);
    expect(placementSentence(p)).toBe('the missing shards were held by node geoshard-node-2 (shards 0)');
  });

  it('says which shards were answered by a replica promoted since the healthy table', () => {
    const p = placementOf([asked(0), asked(1), asked(2)], healthy, after);
    expect(p.missing).toEqual([]);
    expect(p.promoted).toEqual([{ shard: 0, name: 'a', from: 'geoshard-node-2', to: 'geoshard-node-3' }]);
  });

  it('does not call a primary that relocated to a node without a replica a promotion', () => {
    const moved = parseCopies(SHARDS.map((r) => (r.shard === '1' && r.prirep === 'p' ? { ...r, node: 'geoshard-node-2', id: N2.id } : r)), nameOf);
    expect(placementOf([asked(1)], healthy, moved).promoted).toEqual([]);
  });

  it('names nothing when no table was ever read', () => {
    const p = placementOf([asked(0, 'unknown')], null, null);
    expect(p.missing).toEqual([{ shard: 0, name: 'a', node: null }]);
    expect(p.lostNodes).toEqual([]);
    expect(placementSentence(p)).toBe('');
  });
});

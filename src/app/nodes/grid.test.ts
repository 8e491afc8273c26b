import { describe, it, expect } from 'vitest';
import { shardNodeGrid, shortNodeNames } from './grid';
import type { ClusterNode, ShardCopy } from '../../server/wire';

const node = (name: string, up = true): ClusterNode => ({ id: `id-${name}`, name, roles: up ? ['data'] : [], up });
const copy = (shard: number, primary: boolean, state: ShardCopy['state'], on: string | null): ShardCopy => ({
  shard,
  name: null,
  primary,
  state,
  node: on ? { id: `id-${on}`, name: on } : null,
  docs: state === 'STARTED' ? 10 : null,
});
// Two shards in key order: "alpha" is OpenSearch shard 1, "bravo" shard 0 (key order is not shard order).
const SHARDS = [
  { name: 'alpha', shard: 1 },
  { name: 'bravo', shard: 0 },
];

describe('the shard × node grid', () => {
  it('puts each copy in its shard’s row and its node’s column, primary first, with a last column for unassigned copies', () => {
    const g = shardNodeGrid(SHARDS, [node('n1'), node('n2')], [copy(0, false, 'STARTED', 'n1'), copy(0, true, 'STARTED', 'n2'), copy(1, true, 'STARTED', 'n1'), copy(1, false, 'UNASSIGNED', null)]);
    expect(g.columns).toEqual([
      { node: 'n1', up: true, primaries: 1, copies: 2 },
      { node: 'n2', up: true, primaries: 1, copies: 1 },
      { node: null, up: false, primaries: 0, copies: 1 },
    ]);
    expect(g.rows.map((r) => [r.index, r.name, r.shard, r.health])).toEqual([
      [0, 'alpha', 1, 'degraded'],
      [1, 'bravo', 0, 'ok'],
    ]);
    const cellText = (row: number) => g.rows[row].cells.map((c) => c.map((x) => `${x.primary ? 'P' : 'R'}:${x.state}`).join(' '));
    expect(cellText(0)).toEqual(['P:STARTED', '', 'R:UNASSIGNED']);
    expect(cellText(1)).toEqual(['R:STARTED', 'P:STARTED', '']);
  });

  it('keeps a node that left as a column, and marks a shard whose only copy is unassigned as having no started copy', () => {
    const g = shardNodeGrid(SHARDS, [node('n1'), node('n3', false)], [copy(0, true, 'STARTED', 'n1'), copy(1, true, 'UNASSIGNED', null)]);
    expect(g.columns.map((c) => [c.node, c.up, c.copies])).toEqual([
      ['n1', true, 1],
      ['n3', false, 0],
      [null, false, 1],
    ]);
    expect(g.rows.find((r) => r.name === 'alpha')!.health).toBe('none');
  });

  it('never drops a copy on a node the node list does not name: it gets a column of its own', () => {
    const g = shardNodeGrid(SHARDS, [node('n1')], [copy(0, true, 'STARTED', 'n1'), copy(1, true, 'RELOCATING', 'n9')]);
    expect(g.columns.map((c) => c.node)).toEqual(['n1', 'n9', null]);
    expect(g.rows[0].cells[1]).toEqual([{ primary: true, state: 'RELOCATING', docs: null }]);
    // A relocating copy still answers searches, but not every copy is started.
    expect(g.rows[0].health).toBe('degraded');
  });
});

describe('short node names for the grid’s columns', () => {
  it('drops the prefix every name shares, cut at a separator, and keeps names whole when that would empty one', () => {
    expect(shortNodeNames(['geoshard-node-1', 'geoshard-node-2', 'geoshard-node-3'])).toEqual({ prefix: 'geoshard-node-', short: ['1', '2', '3'] });
    expect(shortNodeNames(['node-10', 'node-11'])).toEqual({ prefix: 'node-', short: ['10', '11'] });
    expect(shortNodeNames(['es-a', 'es-a-2'])).toEqual({ prefix: 'es-', short: ['a', 'a-2'] });
    expect(shortNodeNames(['db-', 'db-2'])).toEqual({ prefix: '', short: ['db-', 'db-2'] });
    expect(shortNodeNames(['alpha', 'beta'])).toEqual({ prefix: '', short: ['alpha', 'beta'] });
    expect(shortNodeNames(['only-1'])).toEqual({ prefix: '', short: ['only-1'] });
  });
});

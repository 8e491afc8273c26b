/**
 * The shard × node grid (the view engineers know from Cerebro): one row per
 * shard of the boundary file in key order, one column per node (name-sorted,
 * those that left included), and a last "unassigned" column for copies with
 * no node. A cell lists the copies of that shard on that node: P (primary)
 * or R (replica) with its state.
 */
import type { ClusterNode, ShardCopy } from '../../server/wire';
import type { ShardState } from '../../server/wire';

/** One copy in a cell. */
export interface GridCopy {
  primary: boolean;
  state: ShardState;
  /** Documents in the copy (null when not started). */
  docs: number | null;
}

export interface GridRow {
  /** Key-order index (the palette color). */
  index: number;
  name: string;
  /** OpenSearch shard number. */
  shard: number;
  /** Copies per column, in the order of `columns` (the last is unassigned). */
  cells: GridCopy[][];
  /** none: no started copy; degraded: a copy not started; ok: every copy started. */
  health: 'none' | 'degraded' | 'ok';
}

export interface GridColumn {
  /** Node name, or null for the unassigned column. */
  node: string | null;
  up: boolean;
  /** Primaries on the node. */
  primaries: number;
  /** Copies on the node. */
  copies: number;
}

export interface Grid {
  columns: GridColumn[];
  rows: GridRow[];
}

/**
 * shardNodeGrid builds the grid from the boundary file's shards (key order)
 * and the status's nodes and copies. A copy on a node missing from `nodes`
 * gets a column of its own (up), so no copy is ever dropped. Within a cell the
 * primary comes first.
 */
export function shardNodeGrid(shards: readonly { name: string; shard: number }[], nodes: readonly ClusterNode[], copies: readonly ShardCopy[]): Grid {
  const columns: GridColumn[] = nodes.map((n) => ({ node: n.name, up: n.up, primaries: 0, copies: 0 }));
  const colOf = new Map(columns.map((c, i) => [c.node, i]));
  for (const c of copies) {
    if (c.node && !colOf.has(c.node.name)) {
      colOf.set(c.node.name, columns.length);
      columns.push({ node: c.node.name, up: true, primaries: 0, copies: 0 });
    }
  }
  const unassigned: GridColumn = { node: null, up: false, primaries: 0, copies: 0 };
  columns.push(unassigned);
  const rows: GridRow[] = shards.map((s, index) => {
    const cells: GridCopy[][] = columns.map(() => []);
    const mine = copies.filter((c) => c.shard === s.shard).sort((a, b) => Number(b.primary) - Number(a.primary));
    for (const c of mine) {
      const col = c.node ? colOf.get(c.node.name)! : columns.length - 1;
      cells[col].push({ primary: c.primary, state: c.state, docs: c.docs });
      columns[col].copies++;
      if (c.primary) columns[col].primaries++;
    }
    const live = mine.filter((c) => c.state === 'STARTED' || c.state === 'RELOCATING');
    const health = live.length === 0 ? 'none' : mine.every((c) => c.state === 'STARTED') ? 'ok' : 'degraded';
    return { index, name: s.name, shard: s.shard, cells, health };
  });
  return { columns, rows };
}

/**
 * shortNodeNames returns each name without the prefix all of them share
 * ("geoshard-node-1", "geoshard-node-2" → "1", "2"), so the grid's columns
 * stay narrow; the names themselves when fewer than two or when the prefix
 * would leave some name empty. The prefix is cut at its last non-alphanumeric
 * character, so "node-10" and "node-11" become "10" and "11", never "0" and "1".
 */
export function shortNodeNames(names: readonly string[]): { prefix: string; short: string[] } {
  if (names.length < 2) return { prefix: '', short: [...names] };
  let prefix = names[0];
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const cut = prefix.search(/[^A-Za-z0-9][A-Za-z0-9]*$/);
  prefix = cut >= 0 ? prefix.slice(0, cut + 1) : '';
  if (!prefix || names.some((n) => n.length === prefix.length)) return { prefix: '', short: [...names] };
  return { prefix, short: names.map((n) => n.slice(prefix.length)) };
}

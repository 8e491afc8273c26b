/**
 * NodesGrid: the shard × node grid (rows: shards in key order with their
 * palette swatch; columns: nodes, those that left struck through, and the
 * unassigned copies). P is a primary, R a replica; a copy not started shows
 * its state.
 *
 * Test hooks: nodes-grid; nodes-col-<node> (data-up, data-primaries);
 * nodes-col-unassigned; nodes-row-<shard name> (data-health none | degraded |
 * ok); nodes-cell-<shard name>-<node> (text like "P" or "P R", data-states).
 */
import { shortNodeNames, type Grid } from './grid';
import { toHex, type RGB } from '../shell/palette';

const STATE_SHORT: Record<string, string> = { STARTED: '', INITIALIZING: ' init', RELOCATING: ' reloc', UNASSIGNED: ' unassigned' };

export function NodesGrid({ grid, colors }: { grid: Grid; colors: readonly RGB[] }) {
  const showUnassigned = grid.columns[grid.columns.length - 1].copies > 0;
  const cols = showUnassigned ? grid.columns : grid.columns.slice(0, -1);
  const names = shortNodeNames(grid.columns.filter((c) => c.node !== null).map((c) => c.node!));
  const label = new Map(grid.columns.filter((c) => c.node !== null).map((c, i) => [c.node!, names.short[i]]));
  return (
    <div className="nodes-grid-wrap">
      {names.prefix && (
        <p className="small dim">
          Columns: nodes {names.prefix}…; P primary, R replica.
        </p>
      )}
      <table className="nodes-grid" data-testid="nodes-grid">
        <thead>
          <tr>
            <th className="shard">shard</th>
            {cols.map((c) =>
              c.node === null ? (
                <th key="unassigned" data-testid="nodes-col-unassigned" data-up="false" title="copies on no node">
                  unassigned
                </th>
              ) : (
                <th key={c.node} data-testid={`nodes-col-${c.node}`} data-up={String(c.up)} data-primaries={c.primaries} title={`${c.node}: ${c.up ? 'up' : 'left the cluster'} · ${c.primaries} primaries, ${c.copies} copies`}>
                  {label.get(c.node) ?? c.node}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>
          {grid.rows.map((r) => (
            <tr key={r.name} data-testid={`nodes-row-${r.name}`} data-health={r.health}>
              <th className="shard" title={`OpenSearch shard ${r.shard}`}>
                <i className="swatch" style={{ background: toHex(colors[r.index] ?? [0.3, 0.3, 0.3]) }} /> {r.name}
              </th>
              {cols.map((c, j) => {
                const cell = r.cells[j];
                const id = c.node ?? 'unassigned';
                return (
                  <td key={id} data-testid={`nodes-cell-${r.name}-${id}`} data-states={cell.map((x) => x.state).join(',')}>
                    {cell.map((x, k) => (
                      <span key={k} className={`copy ${x.primary ? 'primary' : 'replica'}`} data-state={x.state} title={`${x.primary ? 'primary' : 'replica'} · ${x.state}${x.docs !== null ? ` · ${x.docs} docs` : ''}`}>
                        {x.primary ? 'P' : 'R'}
                        {STATE_SHORT[x.state] ? <small>{STATE_SHORT[x.state]}</small> : null}
                      </span>
                    ))}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

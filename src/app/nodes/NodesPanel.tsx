/**
 * NodesPanel: which machine holds which shard. While it is shown, the shell
 * polls /api/status (nodes/nodesPoller.ts startNodesView, a driver in
 * src/app/features.ts) and colors the globe's regions by the node holding their primary (given back to the shard colors when the panel
 * closes, unless another mode was chosen meanwhile); beside it the shard ×
 * node grid, and what the current live answer lost to a node that left (or
 * which shards a replica served).
 *
 * Test hooks: nodes-panel; nodes-count (data-count: nodes in the cluster
 * now, data-left: nodes that left); nodes-status (data-state loading | up |
 * failed | down); those of NodesGrid and PlacementNote.
 */
import { useApp } from '../shell/store';
import { readyData } from '../shell/dataSlice';
import { shardNodeGrid } from './grid';
import { NodesGrid } from './NodesGrid';
import { PlacementNote } from './PlacementNote';
import '../ui/nodes.css';

export function NodesPanel() {
  const st = useApp((s) => s.nodesStatus);
  const data = useApp(readyData);
  const status = st.status;
  let state: string;
  let line: string;
  if (st.phase === 'idle' || st.phase === 'loading') {
    state = 'loading';
    line = 'Asking the live API for the cluster’s nodes…';
  } else if (!status) {
    state = 'failed';
    line = st.failure?.message ?? 'The status could not be read.';
  } else if (!status.connection.up) {
    state = 'down';
    line = `OpenSearch is down: nothing answers at ${status.connection.url}. Start it with npm run cluster:start.`;
  } else {
    state = 'up';
    const c = status.connection;
    line = `OpenSearch ${c.version ?? '?'} at ${c.url} · cluster health ${c.health ?? 'unknown'}`;
  }
  const nodes = status?.nodes ?? null;
  const up = nodes?.filter((n) => n.up).length ?? 0;
  const left = nodes?.filter((n) => !n.up).length ?? 0;
  const grid = data && nodes && status?.copies ? shardNodeGrid(data.router.shards, nodes, status.copies) : null;
  const noCopy = grid?.rows.filter((r) => r.health === 'none') ?? [];
  return (
    <div className="nodes-panel" data-testid="nodes-panel">
      <p className="panel-intro">
        Which machine holds which shard. The globe colours each region by the node holding its shard’s primary (switch to <b>no copy</b> to see the regions no node can search); the grid lists
        every copy. It updates every 2 s while this tab is open: stop a node (<code>npm run cluster:stop -- --node 3</code>) and watch its regions.
      </p>
      <p className="small" data-testid="nodes-status" data-state={state}>
        {line}
      </p>
      {nodes && (
        <p className="nodes-summary" data-testid="nodes-count" data-count={up} data-left={left}>
          <b>
            {up} node{up === 1 ? '' : 's'}
          </b>{' '}
          in the cluster{left > 0 && <span className="bad"> · {left} left since the API started</span>}
          {noCopy.length > 0 && <span className="bad"> · no started copy: {noCopy.map((r) => r.name).join(', ')}</span>}
        </p>
      )}
      <PlacementNote />
      {status?.connection.up && !status.copies && <p className="small dim">The index has no shard table yet (missing or unreadable): seed it with npx geoshard seed.</p>}
      {grid && data && <NodesGrid grid={grid} colors={data.colors} />}
    </div>
  );
}

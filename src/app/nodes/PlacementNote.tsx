/**
 * PlacementNote: what the cluster's layout meant for the current live answer:
 * the shards it is missing and the node that held them (partial, or no
 * shard answered), or the shards a promoted replica served. Nothing when the
 * answer lost nothing and no replica stood in.
 *
 * Test hook: placement-note (data-kind lost | promoted, data-nodes: the lost
 * nodes, comma-joined).
 */
import { useApp } from '../shell/store';

export function PlacementNote() {
  const search = useApp((s) => s.liveSearch);
  const placement = search.result?.placement ?? search.failure?.placement ?? null;
  if (!placement) return null;
  const status = search.result ? search.result.status : 'unavailable';
  if (placement.missing.length > 0) {
    const nodes = placement.lostNodes;
    const names = placement.missing.map((m) => m.name).join(', ');
    return (
      <div className="placement-note lost" data-testid="placement-note" data-kind="lost" data-nodes={nodes.join(',')}>
        <p>
          <b>{status === 'unavailable' ? 'No results' : 'Partial'}:</b> shard{placement.missing.length === 1 ? '' : 's'} {names} did not answer
          {nodes.length > 0 ? (
            <>
              ; {placement.missing.length === 1 ? 'it was' : 'they were'} on node{nodes.length === 1 ? '' : 's'} <b>{nodes.join(', ')}</b>, which left the cluster
            </>
          ) : (
            ' (no node recorded for them)'
          )}
          . The striped regions on the globe are missing from this answer.
        </p>
      </div>
    );
  }
  if (placement.promoted.length > 0) {
    return (
      <div className="placement-note promoted" data-testid="placement-note" data-kind="promoted" data-nodes="">
        <p>
          <b>Served by the replica:</b>{' '}
          {placement.promoted.map((p) => `${p.name} (primary was on ${p.from}, now on ${p.to})`).join('; ')}. The answer is complete.
        </p>
      </div>
    );
  }
  return null;
}

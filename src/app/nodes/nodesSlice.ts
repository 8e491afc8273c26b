/**
 * The Nodes view's state: what the globe's regions are colored by (the one
 * "color regions by" choice, globe/regionPaint.ts), and the latest
 * /api/status the Nodes view polled (nodes and every shard copy) while it is
 * shown. The poller (nodesPoller.ts) writes `nodesStatus`; the panel and the
 * region paint driver read it.
 */
import type { SliceCreator } from '../shell/types';
import type { AppState } from '../shell/store';
import type { ColorBy } from '../globe/regionPaint';
import type { LiveFailure } from '../api/request';
import type { LiveStatus, ClusterNode, ShardCopy } from '../api/status';

/** The latest status the Nodes view asked for. */
export interface NodesStatusState {
  /** idle: not polled yet; loading: first answer on its way; ready / failed: an answer came. */
  phase: 'idle' | 'loading' | 'ready' | 'failed';
  status: LiveStatus | null;
  failure: LiveFailure | null;
  /** performance.now() of the answer, ms (0 before one). */
  at: number;
}

export interface NodesSlice {
  colorBy: ColorBy;
  nodesStatus: NodesStatusState;
  setColorBy: (by: ColorBy) => void;
  /** Written by nodes/nodesPoller.ts only. */
  setNodesStatus: (s: NodesStatusState) => void;
}

declare module '../shell/types' {
  interface AppState extends NodesSlice {}
}

export const IDLE_NODES: NodesStatusState = Object.freeze({ phase: 'idle', status: null, failure: null, at: 0 }) as NodesStatusState;

export const createNodesSlice: SliceCreator<NodesSlice> = (set, get) => ({
  colorBy: 'shard',
  nodesStatus: IDLE_NODES,
  setColorBy: (colorBy) => {
    if (get().colorBy !== colorBy) set({ colorBy });
  },
  setNodesStatus: (nodesStatus) => set({ nodesStatus }),
});

/**
 * clusterLayout returns the newest known nodes and copies: from the Nodes
 * view's poll or the Live panel's status, whichever answered last with them.
 */
export function clusterLayout(s: AppState): { nodes: ClusterNode[] | null; copies: ShardCopy[] | null; at: number } {
  const candidates = [s.nodesStatus, s.liveStatus].filter((x) => x.status && (x.status.nodes || x.status.copies)).sort((a, b) => b.at - a.at);
  const best = candidates[0];
  return best ? { nodes: best.status!.nodes, copies: best.status!.copies, at: best.at } : { nodes: null, copies: null, at: 0 };
}

/**
 * missingShards returns the names of the shards whose documents are missing
 * from the current live answer: the placement's missing shards, every asked
 * shard that did not answer on the routed side, or (no asked shard answered,
 * a 503) the placement the failure carries.
 */
export function missingShards(s: AppState): Set<string> {
  const out = new Set<string>();
  const { result, failure } = s.liveSearch;
  for (const m of result?.placement?.missing ?? failure?.placement?.missing ?? []) if (m.name) out.add(m.name);
  for (const a of result?.routed.shardsAsked ?? []) if (a.status !== 'ok') out.add(a.name);
  return out;
}

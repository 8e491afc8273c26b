/**
 * The Nodes view's poller: while the view is shown, asks /api/status every
 * `everyMs` (default 2 s: a node stopping, a replica promoted or a shard
 * relocating shows within a few seconds) and writes the answer to the store.
 * One request at a time (shell/poller.ts). Stopping aborts the request in flight.
 */
import type { AppStore } from '../shell/types';
import { fetchStatus } from '../api/status';
import { startPoller } from '../shell/poller';

export interface NodesPollerOptions {
  fetch?: typeof fetch;
  /** Time between an answer and the next request, ms (default 2000). */
  everyMs?: number;
}

/** startNodesPoller polls at once and then every `everyMs`; returns a function that stops it. */
export function startNodesPoller(store: AppStore, opts: NodesPollerOptions = {}): () => void {
  const fetchImpl = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const get = () => store.getState();
  const poller = startPoller(
    (signal) => {
      const prev = get().nodesStatus;
      if (prev.phase === 'idle') get().setNodesStatus({ ...prev, phase: 'loading' });
      return fetchStatus(signal, fetchImpl);
    },
    (parsed) => get().setNodesStatus(parsed.ok ? { phase: 'ready', status: parsed.value, failure: null, at: performance.now() } : { phase: 'failed', status: null, failure: parsed.failure, at: performance.now() }),
    { everyMs: opts.everyMs ?? 2000, label: 'nodes status' },
  );
  return poller.stop;
}

/**
 * startNodesView is the Nodes tab's driver (src/app/features.ts starts it while the tab is
 * open): polls, and colors regions by node, given back to shard colors on close if still so.
 */
export function startNodesView(store: AppStore): () => void {
  const stop = startNodesPoller(store);
  const s = store.getState();
  const set = s.colorBy === 'shard';
  if (set) s.setColorBy('node');
  return () => {
    stop();
    if (set && store.getState().colorBy === 'node') store.getState().setColorBy('shard');
  };
}
